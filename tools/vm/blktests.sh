#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# blktests.sh BLKTESTS_DIR OUTDIR KERNEL TIMEOUT FIO_DIR TESTS... - guest
# side of 'make blktests' (inside a virtme-ng guest booted by
# tools/blktests.sh on a kernel with configs/blktests.config, its modules
# linked into /lib/modules, and scratch disks of its own: QEMU NVMe
# controllers with serials "blktests", "blktests-md" and, for zbd,
# "blktests-zns").  SCRATCH (from the host: the names the disks get,
# "/dev/scratch /dev/scratch-md ...") says which to wait for.  FIO_DIR
# (the fio of tools/env/fio.sh) goes first in PATH.
#
# Writes BLKTESTS_DIR/config (those disks as TEST_DEVS, and
# TIMEOUT, seconds of fio per timed test), runs
# "./check TESTS..." there as root, and writes blktests' own output to
# OUTDIR/KERNEL.txt (and the console) as it comes, then the kernel log
# to OUTDIR/KERNEL-dmesg.txt.  KERNEL.txt ends with "blktests: exit N"
# when check finished: without it, the run was cut off.
set -u
dir=$1
out=$2
kernel=$3
timeout=$4
export PATH=$5:$PATH
shift 5
mkdir -p "$out"
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

# The scratch disks: the NVMe namespaces whose controllers have the
# serials the host gave them, "blktests" (512-byte blocks, no metadata)
# and "blktests-md" (8 bytes of separate metadata per block, type 1
# protection information, for block/041 and block/043); the guest's
# root is the host's over 9p.
# Each gets a name of its own in /dev, "scratch" and "scratch-md", as
# TEST_DEVS: the kernel names the controllers in the order their
# asynchronous probes finish, so nvme0n1 is either from boot to boot,
# and blktests names its results after the device it is given.
# Each /dev/scratchSUFFIX of SCRATCH is the controller "blktestsSUFFIX":
# for zbd, "blktests-zns" as "scratch-zns", a zoned namespace.
# (The namespaces are scanned asynchronously: wait for all, 30 s at most.)
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
		# (NVMe pads the serial with blanks to its 20 bytes)
		read -r serial <"$d/device/serial" 2>/dev/null || continue
		[ "$serial" = "${want%%:*}" ] || continue
		ln -sf "${d##*/}" "/dev/${want#*:}"
		devs+=("/dev/${want#*:}")
	done
done
{
	echo "# written by tools/vm/blktests.sh (make blktests)"
	[ ${#devs[@]} -eq 0 ] || echo "TEST_DEVS=(${devs[*]})"
	# every test (QUICK_RUN=1 would leave out, silently, the ones not
	# marked quick or timed); the timed ones run fio this long
	echo "TIMEOUT=$timeout"
} >"$dir/config"
cd "$dir" || exit 1
{
	[ ${#devs[@]} -eq ${#wants[@]} ] || echo "blktests: scratch disks found: ${devs[*]:-none} of ${#wants[@]}; the tests on a missing one will not run"
	echo "blktests: $(uname -r) $kernel, TEST_DEVS=${devs[*]:-none}, TIMEOUT=$timeout, fio $(fio --version): ./check $*"
} | tee "$out/$kernel.txt"
./check "$@" 2>&1 | tee -a "$out/$kernel.txt"
rc=${PIPESTATUS[0]}
echo "blktests: exit $rc" | tee -a "$out/$kernel.txt"
dmesg >"$out/$kernel-dmesg.txt"
