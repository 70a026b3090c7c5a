#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# blktests.sh BLKTESTS_DIR OUTDIR KERNEL TIMEOUT TESTS... - guest side of
# 'make blktests' (inside a virtme-ng guest booted by tools/blktests.sh
# on a kernel with configs/blktests.config, its modules linked into
# /lib/modules, and one scratch disk of its own: a QEMU NVMe controller
# with serial "blktests").
#
# Writes BLKTESTS_DIR/config (that disk as TEST_DEVS, and
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
shift 4
mkdir -p "$out"
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

# The scratch disk: the NVMe namespace whose controller has the serial
# the host gave it; the guest's root is the host's over 9p.
dev=
for d in /sys/block/nvme*n1; do
	[ -e "$d" ] || continue
	# (NVMe pads the serial with blanks to its 20 bytes)
	read -r serial <"$d/device/serial" 2>/dev/null || continue
	[ "$serial" = blktests ] || continue
	dev=/dev/${d##*/}
done
{
	echo "# written by tools/vm/blktests.sh (make blktests)"
	[ -z "$dev" ] || echo "TEST_DEVS=($dev)"
	# every test (QUICK_RUN=1 would leave out, silently, the ones not
	# marked quick or timed); the timed ones run fio this long
	echo "TIMEOUT=$timeout"
} >"$dir/config"
cd "$dir" || exit 1
{
	[ -n "$dev" ] || echo "blktests: no scratch disk; the tests on a device will not run"
	echo "blktests: $(uname -r) $kernel, TEST_DEVS=${dev:-none}, TIMEOUT=$timeout: ./check $*"
} | tee "$out/$kernel.txt"
./check "$@" 2>&1 | tee -a "$out/$kernel.txt"
rc=${PIPESTATUS[0]}
echo "blktests: exit $rc" | tee -a "$out/$kernel.txt"
dmesg >"$out/$kernel-dmesg.txt"
