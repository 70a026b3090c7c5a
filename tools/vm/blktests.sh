#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# blktests.sh BLKTESTS_DIR OUTDIR KERNEL TIMEOUT FIO_DIR TESTS... - guest side
# of 'make blktests': ./check -o OUTDIR/KERNEL-results TESTS on the SCRATCH disks, its output to
# OUTDIR/KERNEL.txt (ending "blktests: exit N"), dmesg to KERNEL-dmesg.txt.
set -u
dir=$1 out=$2 kernel=$3 timeout=$4
export PATH=$5:$PATH
shift 5
mkdir -p "$out"
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

# /dev/scratchSUFFIX: the namespace of serial "blktestsSUFFIX" (the probe order varies);
# the scan is asynchronous, 30 s at most
wants=()
for n in ${SCRATCH:-/dev/scratch /dev/scratch-md}; do
	n=${n#/dev/}
	wants+=("blktests${n#scratch}:$n")
done
for _ in $(seq 150); do
	[ "$(cat /sys/block/nvme*n1/device/serial 2>/dev/null | wc -l)" -ge ${#wants[@]} ] && break
	sleep 0.2
done
devs=()
for want in "${wants[@]}"; do
	for d in /sys/block/nvme*n1; do
		[ -e "$d" ] || continue
		# (NVMe pads the serial with blanks)
		read -r serial <"$d/device/serial" 2>/dev/null || continue
		[ "$serial" = "${want%%:*}" ] || continue
		ln -sf "${d##*/}" "/dev/${want#*:}"
		# BLKTESTS_SCHEDULER: the RFC's path needs one (NVMe with a queue per CPU has none)
		[ -z "${SCHED:-}" ] || echo "$SCHED" >"$d/queue/scheduler" ||
			echo "blktests: cannot set $SCHED on ${d##*/}"
		devs+=("/dev/${want#*:}")
	done
done
{
	echo "# written by tools/vm/blktests.sh (make blktests)"
	[ ${#devs[@]} -eq 0 ] || echo "TEST_DEVS=(${devs[*]})"
	# every test: QUICK_RUN=1 would leave some out silently
	echo "TIMEOUT=$timeout"
} >"$dir/config"
cd "$dir" || exit 1
{
	[ ${#devs[@]} -eq ${#wants[@]} ] || echo "blktests: scratch disks found: ${devs[*]:-none} of ${#wants[@]}; the tests on a missing one will not run"
	echo "blktests: $(uname -r) $kernel, TEST_DEVS=${devs[*]:-none}, schedulers$(for d in "${devs[@]}"; do printf ' %s' "$(grep -o '\[.*\]' "/sys/block/$(readlink "$d")/queue/scheduler")"; done), TIMEOUT=$timeout, fio $(fio --version): ./check $*"
} | tee "$out/$kernel.txt"
./check -o "$out/$kernel-results" "$@" 2>&1 | tee -a "$out/$kernel.txt"
rc=${PIPESTATUS[0]}
echo "blktests: exit $rc" | tee -a "$out/$kernel.txt"
dmesg >"$out/$kernel-dmesg.txt"
