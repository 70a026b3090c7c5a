#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# drivers.sh KERNEL OUTDIR SECONDS - guest side of 'make drivers': on each of the four disks,
# then on dm-multipath over scsi_debug's, ext4 and fio (verify, psync and libaio readers,
# buffered writeback) for SECONDS, then raw-device readers, kblockd's runs counted;
# OUTDIR/KERNEL-<disk>[-<raw job>].json, .status, .stacks, .sites, KERNEL-dm-mpath.stack,
# KERNEL-dmesg.txt.
set -u
kernel=$1 out=$2 secs=$3
say() { printf 'drivers: %s: %s\n' "$kernel" "$*"; }
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
# a hung task within a run, not after 120 s
echo 30 >/proc/sys/kernel/hung_task_timeout_secs
# kblockd's runs of a hw queue: workqueue_execute_start of blk_mq_run_work_fn alone; who
# queued them: a stack per workqueue_queue_work of it
t=/sys/kernel/tracing
mountpoint -q $t || mount -t tracefs none $t
ev=$t/events/workqueue/workqueue_execute_start
qtrig="stacktrace if function == 0x$(awk '$3 == "blk_mq_run_work_fn" { print $1 }' /proc/kallsyms)"
echo "${qtrig#* if }" >$ev/filter
echo 32768 >$t/buffer_size_kb
# offsets in the stacks: a call site names the branch that asked for the run
echo 1 >$t/options/sym-offset

kb_on() { : >$t/trace; echo "$qtrig" >$t/events/workqueue/workqueue_queue_work/trigger; echo 1 >$ev/enable; }
# kb_off STACKS: "RUNS LOST", kblockd's runs since kb_on and the trace events lost; the
# stacks that queued them to STACKS, "COUNT frame < caller < ...", trace's own frames left
# out; to STACKS' .sites, "COUNT function+offset/size", each stack's first frame past the
# workqueue's and the run helpers, which the host turns into a source line
kb_off() {
	echo 0 >$ev/enable
	echo "!$qtrig" >$t/events/workqueue/workqueue_queue_work/trigger
	awk '/<stack trace>/ { if (s != "") print s; s = "-"; next }
		s != "" && /^ => / { f = $2; sub(/\+.*/, "", f); if (f !~ /^trace_/) s = s == "-" ? f : s " < " f; next }
		{ if (s != "") print s; s = "" } END { if (s != "") print s }' $t/trace | sort | uniq -c | sort -rn >"$1"
	awk '/<stack trace>/ { want = 1; next } want && /^ => / {
			f = $2; sub(/\+.*/, "", f)
			if (f !~ /^trace_/ && f !~ /^(__queue_work|queue_work_on|__queue_delayed_work|queue_delayed_work_on|mod_delayed_work_on|kblockd_mod_delayed_work_on|kblockd_schedule_work|blk_mq_delay_run_hw_queues?|blk_mq_run_hw_queues?)$/) { print $2; want = 0 }
			next } { want = 0 }' $t/trace | sort | uniq -c | sort -rn >"${1%.stacks}.sites"
	echo "$(grep -c 'workqueue_execute_start: ' $t/trace) $(awk '$1 == "overrun:" { n += $2 } END { print n + 0 }' $t/per_cpu/cpu*/stats)"
}

# raw RUN FIO-JOBS...: readers on /dev/$d alone for SECONDS/4; .status: fio's exit
# status, kblockd runs, trace events lost
raw() {
	j=$1
	shift
	kb_on
	fio --output-format=json --output="$out/$kernel-$name-$j.json" --filename="/dev/$d" \
		--time_based --runtime=$((secs / 4)) --bs=4k --size=256m --rw=randread --direct=1 "$@"
	rc=$?
	echo "$rc $(kb_off "$out/$kernel-$name-$j.stacks")" >"$out/$kernel-$name-$j.status"
	say "$name, $j: fio exit status $rc"
}

# the disk of each driver, by the device path sysfs gives it
sd='' sata='' vd='' sdbg=''
for b in /sys/block/*; do
	p=$(readlink -f "$b/device" 2>/dev/null) || continue
	case $p in
	*/mmc_host/*) sd=${b##*/} ;;
	*/ata[0-9]*) sata=${b##*/} ;;
	*/virtio[0-9]*) vd=${b##*/} ;;
	*/pseudo_0/*) sdbg=${b##*/} ;;
	esac
done
# mpath DISK: dm-N, request-based dm-multipath with DISK its one path
mpath() {
	[ -n "$1" ] && timeout 60 dmsetup create --noudevsync bsk-mpath \
		--table "0 $(blockdev --getsz "/dev/$1") multipath 0 0 1 1 round-robin 0 1 1 /dev/$1 1" &&
		timeout 60 dmsetup info -c --noheadings -o blkdevname bsk-mpath
}

rm -f "$out/$kernel-disks.tsv"
for nd in "sd-card:$sd" "ahci:$sata" "virtio-blk:$vd" "scsi_debug:$sdbg" dm-mpath:; do
	name=${nd%%:*} d=${nd#*:}
	if [ "$name" = dm-mpath ]; then
		say "$name: over ${sdbg:-no disk}"
		d=$(mpath "$sdbg") || d=
	fi
	[ -n "$d" ] || { say "$name: no disk"; continue; }
	q=/sys/block/$d/queue
	sched=$(sed 's/.*\[\(.*\)\].*/\1/' "$q/scheduler")
	nq=$(find "/sys/block/$d/mq" -mindepth 1 -maxdepth 1 | wc -l)
	flags=$(sed 's/|/+/g' "/sys/kernel/debug/block/$d/hctx0/flags" | tr -d '\n')
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$d" "$sched" "$nq" "$(cat "$q/rotational")" "${flags:--}" >>"$out/$kernel-disks.tsv"
	say "$name: /dev/$d, $sched, $nq hw queues, flags: $flags"
	st=$out/$kernel-$name.status
	mkfs.ext4 -q -F "/dev/$d" || { say "$name: mkfs.ext4 failed"; echo "mkfs 0 0" >"$st"; continue; }
	m=/tmp/drivers-$d
	mkdir -p "$m"
	mount "/dev/$d" "$m" || { say "$name: mount failed"; echo "mount 0 0" >"$st"; continue; }
	# the stack through ext4, dm and SCSI in its jobs: the deepest at which SCSI is entered
	if [ "$name" = dm-mpath ]; then
		printf '%s\n' 'scsi_*' 'sdebug_*' >$t/stack_trace_filter
		echo 0 >$t/stack_max_size
		echo 1 >/proc/sys/kernel/stack_tracer_enabled
	fi
	c0=$(awk '$1 == "ctxt" { print $2 }' /proc/stat)
	kb_on
	fio --output-format=json --output="$out/$kernel-$name.json" --directory="$m" \
		--time_based --runtime="$secs" --bs=4k --size=48m --group_reporting=0 \
		--name=verify --rw=randwrite --direct=1 --ioengine=psync --verify=crc32c --verify_backlog=64 --verify_state_save=0 \
		--name=psync --rw=randread --direct=1 --ioengine=psync \
		--name=libaio --rw=randread --direct=1 --ioengine=libaio --iodepth=2 \
		--name=writeback --rw=write --bs=64k --ioengine=psync --size=96m
	echo "$? $c0 $(awk '$1 == "ctxt" { print $2 }' /proc/stat) $(kb_off "$out/$kernel-$name.stacks")" >"$st"
	umount "$m"
	say "$name: fio exit status $(cut -d' ' -f1 "$st")"
	# unplugged, the RFC's case; then REQ_NOWAIT (io_uring's first try), kblockd's still;
	# then an RT and a BE reader at once: mq-deadline holds BE back while RT is in flight
	raw raw-psync --name=raw-psync --ioengine=psync
	raw raw-uring --name=raw-uring --ioengine=io_uring --iodepth=1
	raw raw-prio --name=rt --ioengine=psync --prioclass=1 --name=be --ioengine=psync --prioclass=2
	# four readers at a SCSI queue depth of one: the dispatch budget runs out in a pass,
	# and the driver's completion restarts the queue
	if [ "$name" = scsi_debug ]; then
		qd=$(cat "/sys/block/$d/device/queue_depth")
		echo 1 >"/sys/block/$d/device/queue_depth" &&
			raw raw-qd1 --name=raw-qd1 --ioengine=psync --numjobs=4 --group_reporting
		echo "$qd" >"/sys/block/$d/device/queue_depth"
	fi
	[ "$name" = dm-mpath ] || continue
	echo 0 >/proc/sys/kernel/stack_tracer_enabled
	{ cat $t/stack_max_size; cat $t/stack_trace; } >"$out/$kernel-$name.stack"
done
say "done"
dmesg >"$out/$kernel-dmesg.txt" # the host reads it as "this boot ran to its end"
