#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - the experiment behind MAINTAINERS-notes' block/043 paragraph
# ("blktests"): blktests' src/metadata (block/043's program), five times
# on a QEMU NVMe namespace with 8 bytes of separate metadata per block
# and no protection information, and five times on one with type 1 PI,
# in one boot of make blktests' base guest kernel.  Needs what
# make blktests left in the cache (its guest kernel, blktests built).
# Run from the repository's top: results/blktests/metadata-nopi/run.sh
# console.txt is its output of 2026-12-05 with carriage returns and
# blank lines removed: vng printed the guest's "Rebooting." first and
# lost the start of the first line ("== nvme0n1 ").
set -euo pipefail
C=${BSK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/blk-sched-kunit}
d=$(mktemp -d)
here=$(cd "$(dirname "$0")" && pwd)
for i in md pi; do truncate -s 1G "$d/$i.img"; done
"$C/vng/vng" --user root --disable-kvm --cpus 4 --memory 2G --rwdir "$d" --rwdir "$C/blktests/tree" \
	-r "$C/build/v7.3.4-vm-blktests/root-base/bzImage" \
	--qemu-opts="-drive file=$d/md.img,if=none,id=d1,format=raw -device pcie-root-port,id=rp0,chassis=1,slot=1 -device nvme,serial=blktests-md,bus=rp0,id=c1 -device nvme-ns,drive=d1,bus=c1,ms=8,mset=0 -drive file=$d/pi.img,if=none,id=d2,format=raw -device pcie-root-port,id=rp1,chassis=2,slot=2 -device nvme,serial=blktests-pi,bus=rp1,id=c2 -device nvme-ns,drive=d2,bus=c2,ms=8,mset=0,pi=1" \
	--append kunit.enable=0 --exec "$here/guest.sh $C/blktests/tree $d; reboot -f"
rm -rf "$d"
