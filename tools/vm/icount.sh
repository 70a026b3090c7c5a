#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# icount.sh KERNEL OUTFILE COUNT ROT [PROFILE] - guest side of
# 'make bench ICOUNT=1' (tools/bench-icount.sh boots it under QEMU
# -icount shift=0,sleep=off, one vCPU: the guest's clock advances 1 ns per
# guest instruction, so a time read in the guest is an instruction count).
#
# On null_blk (irqmode=0: completed inside ->queue_rq(), no timer, no
# interrupt; rotational ROT from the kernel command line), for none,
# mq-deadline and bfq in that order, each a fresh instance switched to
# through none: a warm-up of COUNT/4 reads that is not counted, then COUNT
# sequential 4 KiB O_DIRECT reads in one dd, timed with /proc/timer_list's
# "now at".  The first scheduler is measured a second time at the end, on a
# fresh instance again: the repeat that tells whether the figures hold.
# Appends to OUTFILE, one line per figure:
#   S1-rot<ROT>,<KERNEL>,<sched>,instructions per I/O,<value>,<repeat>
# With PROFILE=1 (a kernel with CONFIG_FUNCTION_PROFILER), also each
# scheduler's function profile over the COUNT reads, self time
# (graph-time 0): OUTFILE.<sched>.profile.
set -eu
kernel=$1
outf=$2
count=$3
rot=$4
profile=${5:-0}
# Nothing between the two clock reads may wait for the host: under
# sleep=off an idle vCPU jumps the clock to the next timer, so a binary
# or library read from the host's filesystem would count its wait.  The
# work runs from a tmpfs with a static busybox: dd, awk and this script.
if [ "${ICOUNT_INNER:-0}" != 1 ]; then
	d=/tmp/icount
	mkdir -p $d
	mountpoint -q $d || mount -t tmpfs none $d
	cp "$(command -v busybox)" "$0" $d/
	ICOUNT_INNER=1 exec $d/busybox sh $d/icount.sh "$@"
fi
bb=/tmp/icount/busybox
dev=nullb0
say() {
	printf 'icount: %s rot %s: %s\n' "$kernel" "$rot" "$*"
}
now() {
	# shellcheck disable=SC2016 # awk's $3
	$bb awk '/^now at/ { print $3; exit }' /proc/timer_list
}
[ -b /dev/$dev ] || { say "no /dev/$dev"; exit 1; }
[ "$($bb cat /sys/block/$dev/queue/rotational)" = "$rot" ] ||
	{ say "/dev/$dev is not rotational=$rot"; exit 1; }
tr=/sys/kernel/tracing
if [ "$profile" = 1 ]; then
	[ -e $tr/function_profile_enabled ] || $bb mount -t tracefs none $tr 2>/dev/null || true
	[ -e $tr/function_profile_enabled ] || { say "no function profiler in this kernel"; exit 1; }
	# self time: not the functions called, not the time switched out.
	# On 7.3.4 options/graph-time does not reach the profiler:
	# set_tracer_flag() tests the mask against TRACE_GRAPH_GRAPH_TIME
	# (0x400), which is TRACE_ITER(ANNOTATE); clearing annotate does it.
	echo 0 >$tr/options/graph-time
	echo 0 >$tr/options/sleep-time
	echo 1 >$tr/options/annotate
	echo 0 >$tr/options/annotate
fi

# fresh SCHED: a new instance of SCHED, through none
fresh() {
	echo none >/sys/block/$dev/queue/scheduler
	echo "$1" >/sys/block/$dev/queue/scheduler
	$bb grep -q "\[$1\]" /sys/block/$dev/queue/scheduler || { say "cannot set $1"; exit 1; }
}

reads() {
	$bb dd if=/dev/$dev of=/dev/null bs=4096 count="$1" iflag=direct 2>/dev/null
}

# measure SCHED REPEAT
measure() {
	fresh "$1"
	reads $((count / 4))
	if [ "$profile" = 1 ]; then
		echo 0 >$tr/function_profile_enabled
		echo 1 >$tr/function_profile_enabled
	fi
	t0=$(now)
	reads "$count"
	t1=$(now)
	if [ "$profile" = 1 ]; then
		echo 0 >$tr/function_profile_enabled
		$bb cat $tr/trace_stat/function0 >"$outf.$1.profile"
	fi
	v=$($bb awk -v a="$t0" -v b="$t1" -v n="$count" 'BEGIN { printf "%.1f", (b - a) / n }')
	printf 'S1-rot%s,%s,%s,instructions per I/O,%s,%s\n' "$rot" "$kernel" "$1" "$v" "$2" >>"$outf"
	say "$1 repeat $2: $v instructions per I/O"
}

for s in none mq-deadline bfq; do
	measure "$s" 1
done
measure none 2
say "done"
