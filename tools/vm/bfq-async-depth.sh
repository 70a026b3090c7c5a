#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bfq-async-depth.sh [DEV [OUTFILE]] - guest side of the BFQ async_depth
# init-order check (results/bfq-async-depth/README.md): DEV's depths and the
# sched tags' busy= under fio, after switching to bfq and after a rewrite.
set -eu
dev=${1:-nullb0}
[ -z "${2:-}" ] || exec >"$2" 2>&1
q=/sys/block/$dev/queue
tags=/sys/kernel/debug/block/$dev/hctx0/sched_tags
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

busy() {
	fio --name=seqwrite --filename=/dev/"$dev" --rw=write --bs=4k \
		--direct=1 --ioengine=libaio --iodepth=256 --runtime=12 \
		--time_based --thread --output=/dev/null &
	pid=$!
	sleep 6
	for _ in 1 2 3 4 5 6; do
		printf '%s: busy=%s\n' "$1" "$(sed -n 's/^busy=//p' "$tags")"
		sleep 0.5
	done
	wait "$pid" || echo "fio failed: $?"
}

printf 'boot: scheduler=%s nr_requests=%s async_depth=%s\n' \
	"$(cat "$q"/scheduler)" "$(cat "$q"/nr_requests)" "$(cat "$q"/async_depth)"
echo bfq >"$q"/scheduler
# no weight raising: fio's queue would start under the weight-raised limits
echo 0 >"$q"/iosched/low_latency
printf 'bfq: scheduler=%s nr_requests=%s async_depth=%s\n' \
	"$(cat "$q"/scheduler)" "$(cat "$q"/nr_requests)" "$(cat "$q"/async_depth)"
busy "after switching to bfq"
v=$(cat "$q"/async_depth)
echo "$v" >"$q"/async_depth
printf 'rewritten: async_depth=%s\n' "$(cat "$q"/async_depth)"
busy "after async_depth written back"
