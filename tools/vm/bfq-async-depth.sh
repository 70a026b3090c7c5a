#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bfq-async-depth.sh - guest side of the BFQ async_depth init-order check
# (run inside a virtme-ng guest; see MAINTAINERS-notes).  Needs null_blk
# loaded with queue_mode=2 submit_queues=1 hw_queue_depth=1023 irqmode=2
# completion_nsec=2000000 (under TCG use 100000000: fio cannot keep 256
# requests in flight against 2 ms completions), and fio.  Prints the
# queue's depths and the busy= count of the scheduler tags (six samples,
# from 6 s into a run) while fio keeps 256 sequential 4 KiB direct writes
# in flight: once right after switching to bfq, and once after writing
# async_depth back unchanged recomputed BFQ's limits.  BFQ's low_latency
# is turned off, so the sync-write limit is async_depths[0][1].
#
#   bfq-async-depth.sh [DEV [OUTFILE]]   (default nullb0, stdout)
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
# No weight raising: fio's queue would start weight-raised and be held to
# the weight-raised limits (async_depths[1][]) for its first seconds.
echo 0 >"$q"/iosched/low_latency
printf 'bfq: scheduler=%s nr_requests=%s async_depth=%s\n' \
	"$(cat "$q"/scheduler)" "$(cat "$q"/nr_requests)" "$(cat "$q"/async_depth)"
busy "after switching to bfq"
v=$(cat "$q"/async_depth)
echo "$v" >"$q"/async_depth
printf 'rewritten: async_depth=%s\n' "$(cat "$q"/async_depth)"
busy "after async_depth written back"
