#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# guest side of run.sh: each namespace's limits and metadata format,
# then blktests' src/metadata five times on each, its exit status after.
bt=$1
# the namespaces are scanned asynchronously: wait for both
for _ in $(seq 50); do
	[ "$(find /sys/block -maxdepth 1 -name 'nvme*n1' | wc -l)" -ge 2 ] && break
	sleep 0.2
done
for d in /sys/block/nvme*n1; do
	read -r serial <"$d/device/serial"
	n=${d##*/}
	echo "== $n serial=$serial"
	for f in logical_block_size max_hw_sectors_kb max_sectors_kb max_segments max_integrity_segments; do
		echo "$f=$(cat "$d/queue/$f")"
	done
	echo "integrity format=$(cat "$d/integrity/format") tag_size=$(cat "$d/integrity/tag_size")"
	"$bt/src/ioctl-lbmd-query" "/dev/$n"
	ln -sf "$n" "/dev/$serial"
done
for c in /dev/nvme[0-9]; do nvme id-ctrl "$c" | grep -iE '^(sn|sgls|mdts) '; done
cd "$bt" || exit 1
for s in blktests-md blktests-pi; do
	for i in 1 2 3 4 5; do
		echo "-- src/metadata /dev/$s, run $i"
		timeout 120 src/metadata "/dev/$s" 2>&1
		echo "exit $?"
	done
done
