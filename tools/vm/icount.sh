#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# icount.sh SCENARIO KERNEL OUTFILE COUNT [PARAM [PROFILE]] - guest side of 'make bench
# ICOUNT=1': a line per figure, "<scenario>,<KERNEL>,<variant>,<metric>,<value>,<repeat>",
# to OUTFILE.  docs/benchmarks.md.
set -eu
scenario=$1 kernel=$2 outf=$3 count=$4 param=${5:-} profile=${6:-0}
[ "$param" != - ] || param=
# nothing between two clock reads may wait for the host (under sleep=off the clock jumps
# over it): no udevd, and the work runs from a tmpfs
if [ "${ICOUNT_INNER:-0}" != 1 ]; then
	udevs() {
		for s in /proc/[0-9]*/stat; do
			read -r _ c st _ 2>/dev/null <"$s" || continue
			[ "$st" != Z ] || continue
			case $c in "(systemd-udevd)" | "(udevd)" | "((udev-worker))") printf '%s ' "$c" ;; esac
		done
	}
	if [ -n "$(udevs)" ]; then
		udevadm control --exit || true
		i=0
		while [ -n "$(udevs)" ] && [ $((i += 1)) -le 100 ]; do sleep 0.1; done
		left=$(udevs)
		[ -z "$left" ] || { echo "icount: $2 $1: udev still runs 10 s after udevadm control --exit: $left" >&2; exit 1; }
	fi
	d=/tmp/icount
	mkdir -p $d
	mountpoint -q $d || mount -t tmpfs none $d
	cp "$(command -v busybox)" "$0" $d/
	f=$(command -v fio || true)
	if [ -n "$f" ] && { [ "$1" = S4 ] || [ "$1" = S6 ]; }; then
		mkdir -p $d/lib
		cp "$f" $d/fio
		# shellcheck disable=SC2016 # awk's fields
		for l in $(ldd "$f" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
			cp -L "$l" $d/lib/
		done
	fi
	ICOUNT_INNER=1 exec $d/busybox sh $d/icount.sh "$@"
fi
bb=/tmp/icount/busybox
say() { printf 'icount: %s %s: %s\n' "$kernel" "$tag" "$*" >&2; }
fail() { say "$*"; exit 1; }
# shellcheck disable=SC2016 # awk's $3
now() { $bb awk '/^now at/ { print $3; exit }' /proc/timer_list; }
per() { $bb awk -v a="$1" -v b="$2" -v n="$3" "BEGIN { printf \"%.${4:-1}f\", (b - a) / n }"; }
put() {
	case $2 in *,*) fail "variant '$2': a comma would split the CSV" ;; esac
	printf '%s,%s,%s,%s,%s,%s\n' "$1" "$kernel" "$2" "$3" "$4" "$5" >>"$outf"
	say "$2 repeat $5: $4 $3"
}
# cal: IPIs (CAL) on all CPUs so far (S5, S7)
# shellcheck disable=SC2016 # awk's fields
cal() { $bb awk '$1 == "CAL:" { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i; print s }' /proc/interrupts; }
tr=/sys/kernel/tracing
[ -e $tr/trace_marker ] || $bb mount -t tracefs none $tr 2>/dev/null || true

fresh() {
	echo none >/sys/block/"$1"/queue/scheduler
	echo "$2" >/sys/block/"$1"/queue/scheduler
	$bb grep -q "\[$2\]" /sys/block/"$1"/queue/scheduler || fail "cannot set $2 on $1"
}
reads() { $bb dd if=/dev/"$dev" of=/dev/null bs=4096 count="$1" iflag=direct 2>/dev/null; }

nullb() {
	c=/sys/kernel/config/nullb
	[ -d $c ] || $bb mount -t configfs none /sys/kernel/config
	mkdir $c/"$1"
	for a in "$@"; do
		[ "$a" = "$1" ] || echo "${a#*=}" >$c/"$1"/"${a%%=*}"
	done
	echo 1 >$c/"$1"/power
	[ -b /dev/"$1" ] || fail "no /dev/$1 after configfs power=1"
}

# busy FROM TO CMD...: virtual ns busy in CMD (FROM 0), else from the FROMth
# block_rq_complete to the TOth and the interrupts between; idle ends at an irq entry
busy() {
	from=$1 to=$2
	shift 2
	echo 0 >$tr/tracing_on
	echo >$tr/trace
	echo x86-tsc >$tr/trace_clock
	for e in $events; do echo 1 >$tr/events/"$e"/enable; done
	echo 1 >$tr/tracing_on
	echo icount-start >$tr/trace_marker
	"$@" >/dev/null 2>/tmp/icount/err || { $bb cat /tmp/icount/err >&2; fail "$* failed"; }
	echo icount-end >$tr/trace_marker
	echo 0 >$tr/tracing_on
	for e in $events; do echo 0 >$tr/events/"$e"/enable; done
	$bb grep -q '^overrun: 0$' $tr/per_cpu/cpu0/stats || fail "the trace buffer overran"
	# shellcheck disable=SC2016 # awk's fields
	$bb awk -v a="$from" -v b="$to" 'match($0, / [0-9]+: /) { t = substr($0, RSTART + 1, RLENGTH - 3) + 0 }
		/: icount-start$/ { on = 1; last = t; next }
		!on { next }
		{ if (!idle) busy += t - last; last = t }
		/: icount-end$/ { on = 0; whole = busy; next }
		/ cpu_idle: state=4294967295 / { idle = 0; next }
		/ cpu_idle: state=/ { idle = 1; next }
		idle && /_entry: / { idle = 0 }
		a && / block_rq_complete: / { n++; if (n == a) b0 = busy; if (n == b) b1 = busy }
		a && n >= a && n < b && / irq_handler_entry: / { dev++ }
		END { if (on || !last) exit 1; if (!a) { printf "%.0f\n", whole; exit }
			if (n < b) exit 1; printf "%.0f %d\n", b1 - b0, dev }' $tr/trace
}

# marginal VARIANT METRIC UNITS REPEAT CMD...: busy time of CMD 3N less that of CMD N, over 2N
marginal() {
	v=$1 m=$2 u=$3 rep=$4
	shift 4
	"$@" "$u" >/dev/null 2>&1 || fail "$v: warm-up failed: $*"
	b1=$(busy 0 0 "$@" "$u") || fail "$v: no busy time"
	b3=$(busy 0 0 "$@" $((3 * u))) || fail "$v: no busy time"
	say "$v: busy $b1 ns for $u units, $b3 ns for $((3 * u))"
	put "$tag" "$v" "$m" "$(per "$b1" "$b3" $((2 * u)))" "$rep"
}

case $scenario in
S4 | S6)
	tag=$scenario
	ldso=$(echo /tmp/icount/lib/ld-linux*)
	{ [ -x /tmp/icount/fio ] && [ -f "$ldso" ]; } || fail "no fio (or no loader of it) in /tmp/icount"
	fio() { "$ldso" --library-path /tmp/icount/lib /tmp/icount/fio "$@"; }
	[ -e $tr/events/power/cpu_idle/enable ] || fail "no power:cpu_idle trace event in this kernel"
	[ -e $tr/events/irq_vectors/enable ] || fail "no irq_vectors trace events in this kernel"
	$bb grep -qw x86-tsc $tr/trace_clock || fail "no x86-tsc trace clock in this kernel"
	events="power/cpu_idle irq_vectors irq/irq_handler_entry"
	echo 16384 >$tr/buffer_size_kb
	;;
esac

case $scenario in
S1)
	rot=${param:-0} dev=nullb0
	tag=S1-rot$rot
	[ -b /dev/$dev ] || fail "no /dev/$dev"
	[ "$($bb cat /sys/block/$dev/queue/rotational)" = "$rot" ] ||
		fail "/dev/$dev is not rotational=$rot"
	if [ "$profile" = 1 ]; then
		[ -e $tr/function_profile_enabled ] || fail "no function profiler in this kernel"
		# self time (7.3.4: graph-time reaches the profiler only through annotate's bit)
		echo 0 >$tr/options/graph-time
		echo 0 >$tr/options/sleep-time
		echo 1 >$tr/options/annotate
		echo 0 >$tr/options/annotate
	fi
	measure() {
		fresh $dev "$1"
		reads $((count / 4))
		[ "$profile" != 1 ] || { echo 0 >$tr/function_profile_enabled; echo 1 >$tr/function_profile_enabled; }
		t0=$(now)
		reads "$count"
		t1=$(now)
		[ "$profile" != 1 ] || { echo 0 >$tr/function_profile_enabled; $bb cat $tr/trace_stat/function0 >"$outf.$1.profile"; }
		put "$tag" "${3:-$1}" "instructions per I/O" "$(per "$t0" "$t1" "$count")" "$2"
	}
	# kyber last, after the schedulers of earlier runs
	for s in none mq-deadline bfq kyber; do measure "$s" 1; done
	# nomerges=2: what the merge lookups cost
	if [ "$profile" = 0 ]; then
		echo 2 >/sys/block/$dev/queue/nomerges
		for s in none mq-deadline bfq kyber; do measure "$s" 1 "$s nomerges=2"; done
		echo 0 >/sys/block/$dev/queue/nomerges
	fi
	measure none 2
	;;
S4)
	dev=nullb1
	nullb $dev size=1024 queue_mode=2 submit_queues=1 hw_queue_depth=128 irqmode=2 completion_nsec=1000000
	# writeback with fewer moving parts (S4 still varies: its repeat is not checked)
	echo $((4 << 20)) >/proc/sys/vm/dirty_background_bytes
	echo $((512 << 20)) >/proc/sys/vm/dirty_bytes
	echo 0 >/proc/sys/vm/dirty_writeback_centisecs
	# s4 UNITS: a fifth read, the rest written by four writers
	s4() {
		$bb blockdev --flushbufs /dev/$dev
		r=$(($1 / 5))
		w=$((($1 - r) / 4))
		fio --output=/dev/null \
			--name=writers --filename=/dev/$dev --rw=write --bs=64k --ioengine=psync \
			--numjobs=4 --offset_increment=192m --io_size=$((w * 4))k --end_fsync=1 \
			--name=reader --filename=/dev/$dev --rw=randread --bs=4k --direct=1 \
			--ioengine=psync --io_size=$((r * 4))k --offset=768m --size=256m --randrepeat=1
	}
	# VARIANT:REPEAT, a variant bfq/K=V sets BFQ's tunable K to V
	for vr in none:1 mq-deadline:1 bfq:1 bfq/low_latency=0:1 none:2; do
		v=${vr%:*}
		fresh $dev "${v%%/*}"
		case $v in */*=*) k=${v#*/}; echo "${k#*=}" >/sys/block/$dev/queue/iosched/"${k%%=*}" ;; esac
		marginal "$v" "instructions per 4 KiB moved" "$((count / 8))" "${vr##*:}" s4
	done
	;;
S6)
	dev=nullb2
	nullb $dev size=1024 queue_mode=2 submit_queues=1 hw_queue_depth=1 irqmode=2 completion_nsec=100000
	events="$events block/block_rq_complete"
	# s6 NR UNITS: random reads at iodepth NR, 8 KiB aligned: no two adjacent, none merges
	s6() {
		fio --output=/dev/null --name=s6 --filename=/dev/$dev --ioengine=io_uring \
			--rw=randread --bs=4k --blockalign=8k --direct=1 --iodepth="$1" --io_size=$(($2 * 4))k \
			--norandommap --randrepeat=1
	}
	[ -n "$param" ] || fail "no S6 points (NOMERGES:NR_REQUESTS:REPEAT,...)"
	for f in $(echo "$param" | $bb tr , ' '); do
		echo "$f" | $bb grep -qE '^[0-2]:[1-9][0-9]*:[1-9]$' ||
			fail "S6 point $f: NOMERGES:NR_REQUESTS:REPEAT, e.g. 0:64:1"
		nm=${f%%:*} nr=${f#*:} rep=${f##*:}
		nr=${nr%:*}
		fresh $dev mq-deadline
		echo "$nr" >/sys/block/$dev/queue/nr_requests
		echo "$nm" >/sys/block/$dev/queue/nomerges
		[ "$($bb cat /sys/block/$dev/queue/nr_requests)" = "$nr" ] || fail "nr_requests is not $nr"
		# COUNT/4 completions from nr_requests + COUNT/8 on, the queue full throughout
		a=$((nr + count / 8))
		b=$((a + count / 4))
		v="mq-deadline nr_requests=$nr nomerges=$nm"
		w=$(busy "$a" "$b" s6 "$nr" $((b + nr + 64))) || fail "$v: no busy time"
		irqs=${w#* } w=${w% *}
		say "$v: busy $w ns from completion $a to $b, $irqs device interrupts in between"
		put "$tag" "$v" "instructions per I/O" "$(per 0 "$w" $((b - a)))" "$rep"
	done
	;;
S5)
	tag=S5 dev=nullb0
	[ -b /dev/$dev ] || fail "no /dev/$dev"
	[ "$($bb nproc)" -ge 2 ] || fail "S5 needs two vCPUs"
	# block: BLOCK softirqs on CPU 0 and on all CPUs so far
	# shellcheck disable=SC2016
	block() { $bb awk '$1 == "BLOCK:" { for (i = 2; i <= NF; i++) s += $i; print $2, s }' /proc/softirqs; }
	one() { $bb taskset 1 $bb dd if=/dev/$dev of=/dev/null bs=4096 count="$1" iflag=direct 2>/dev/null; }
	# two N: N reads, by a dd on each vCPU at once, the second on the device's second half
	two() {
		$bb taskset 1 $bb dd if=/dev/$dev of=/dev/null bs=4096 count=$(($1 / 2)) iflag=direct 2>/dev/null &
		$bb taskset 2 $bb dd if=/dev/$dev of=/dev/null bs=4096 count=$(($1 / 2)) skip=131072 iflag=direct 2>/dev/null &
		wait
	}
	# window VARIANT READER: READER's COUNT/4 reads not counted, then the COUNT counted
	window() {
		$2 $((count / 4))
		c0=$(cal) s0=$(block) t0=$(now)
		$2 "$count"
		t1=$(now) s1=$(block) c1=$(cal)
		put "$tag" "$1" "instructions per I/O" "$(per "$t0" "$t1" "$count")" "$rep"
		put "$tag" "$1" "IPIs per I/O" "$(per "$c0" "$c1" "$count" 3)" "$rep"
		# shellcheck disable=SC2016 # awk's fields
		put "$tag" "$1" "BLOCK softirqs on CPU 0 (%)" \
			"$(echo "$s0 $s1" | $bb awk '{ d = $4 - $2; if (d) printf "%.1f", 100 * ($3 - $1) / d; else printf "-" }')" "$rep"
	}
	for rep in 1 2; do
		for s in none bfq; do
			fresh $dev "$s"
			for aff in 0 1 2; do
				echo "$aff" >/sys/block/$dev/queue/rq_affinity
				window "$s rq_affinity=$aff" one
			done
		done
		for s in none mq-deadline bfq; do
			fresh $dev "$s"
			echo 1 >/sys/block/$dev/queue/rq_affinity
			window "$s two submitters" two
		done
	done
	;;
S7)
	dev=nullb0 tag=S7
	[ -b /dev/$dev ] || fail "no /dev/$dev"
	n=$($bb nproc)
	ls=/proc/lock_stat
	[ ! -e $ls ] || tag=S7-lock_stat
	# a hardware queue per vCPU sharing one tag bitmap, as a host-tagset HBA has
	nullb nullb1 size=1024 queue_mode=2 submit_queues="$n" shared_tag_bitmap=1 hw_queue_depth=64 irqmode=0
	# jobs N READS: READS reads by N dd at once, the jth pinned to vCPU j, on its jth quarter
	jobs() {
		j=0
		while [ $j -lt "$1" ]; do
			$bb taskset $((1 << j)) $bb dd if=/dev/$dev of=/dev/null bs=4096 count=$(($2 / $1)) \
				skip=$((j * 65536)) iflag=direct 2>/dev/null &
			j=$((j + 1))
		done
		wait
	}
	# locks VARIANT: per 1000 reads, contentions and acquisitions of the scheduler's and hctx's locks
	locks() {
		# shellcheck disable=SC2016 # awk's fields
		$bb awk -v n="$count" '$1 ~ /^&(dd|bfqd|hctx|kcq|khd)->lock:$/ {
			c[$1] += $3; a[$1] += $9 } END { for (k in a) printf "%s %.1f %.1f\n", substr(k, 2, length(k) - 2), 1000 * c[k] / n, 1000 * a[k] / n }' $ls |
			while read -r l c a; do
				put "$tag" "$1" "$l contentions per 1000 I/O" "$c" 1
				put "$tag" "$1" "$l acquisitions per 1000 I/O" "$a" 1
			done
	}
	# kblockd's runs of a hw queue, counted in the lock_stat boot (tracing costs instructions)
	ev=$tr/events/workqueue/workqueue_execute_start
	if [ -e $ls ]; then
		[ -e $ev ] || fail "no workqueue_execute_start trace event in this kernel"
		echo 16384 >$tr/buffer_size_kb
		# shellcheck disable=SC2016 # awk's fields
		echo "function == 0x$($bb awk '$3 == "blk_mq_run_work_fn" { print $1 }' /proc/kallsyms)" >$ev/filter
	fi
	# one SCHEDULER NUMJOBS [SUFFIX]: a figure of NUMJOBS readers of $dev
	one() {
		fresh $dev "$1"
		jobs "$2" $((count / 4))
		v="$1 numjobs=$2${3:-}"
		if [ -e $ls ]; then
			echo 0 >$ls
			echo >$tr/trace
			echo 1 >$ev/enable
			jobs "$2" "$count"
			echo 0 >$ev/enable
			locks "$v"
			# shellcheck disable=SC2016 # awk's fields
			$bb awk '$1 == "overrun:" { n += $2 } END { exit n != 0 }' $tr/per_cpu/cpu*/stats ||
				fail "$v: the trace buffer overran"
			put "$tag" "$v" "kblockd runs of a hw queue per 1000 I/O" "$(per 0 "$((1000 * $($bb grep -c blk_mq_run_work_fn $tr/trace)))" "$count")" 1
		else
			c0=$(cal) t0=$(now)
			jobs "$2" "$count"
			t1=$(now) c1=$(cal)
			put "$tag" "$v" "instructions per I/O" "$(per "$t0" "$t1" "$count")" 1
			put "$tag" "$v" "IPIs per I/O" "$(per "$c0" "$c1" "$count" 3)" 1
		fi
	}
	for s in none mq-deadline bfq kyber; do
		for nj in $(printf '%s\n' 1 2 "$n" | $bb sort -nu); do one "$s" "$nj"; done
	done
	dev=nullb1
	for s in none mq-deadline bfq kyber; do one "$s" "$n" " hw queue per vCPU"; done
	;;
*)
	tag=-
	fail "unknown scenario $scenario (S1 S4 S5 S6 S7)"
	;;
esac
say "done"
: >"${outf%/*}/done" # for the host: this boot ran to its end
