#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# icount.sh SCENARIO KERNEL OUTFILE COUNT [PARAM [PROFILE]] - guest side of
# 'make bench ICOUNT=1' (tools/bench-icount.sh boots it under QEMU
# -icount shift=0,sleep=off: the guest's clock advances 1 ns per guest
# instruction, and jumps over the time every vCPU sleeps, so a time read
# in the guest is an instruction count, plus the sleep where the guest
# waited for a timer).  Appends one line per figure to OUTFILE:
#   <scenario>,<KERNEL>,<variant>,<metric>,<value>,<repeat>
# and says each on the console ("icount: ...").
#
#   S1  (one vCPU; null_blk nullb0 from the kernel command line:
#       irqmode=0, completed inside ->queue_rq(), no timer, no interrupt;
#       rotational PARAM, 0 or 1) for none, mq-deadline and bfq in that
#       order, each a fresh instance switched to through none: a
#       warm-up of COUNT/4 reads that is not counted, then COUNT
#       sequential 4 KiB O_DIRECT reads in one dd, timed with
#       /proc/timer_list's "now at".  The first scheduler is measured
#       again at the end on a fresh instance: the repeat.  Before
#       it, each scheduler again with nomerges=2 (no merge attempts):
#       variants "<sched> nomerges=2".  With
#       PROFILE=1 (a kernel with CONFIG_FUNCTION_PROFILER), also each
#       scheduler's function profile over the COUNT reads, self time:
#       OUTFILE.<sched>.profile.
#   S4  (one vCPU) 4 KiB O_DIRECT random reads (one psync reader)
#       against 4 buffered sequential writers with end_fsync, on a
#       null_blk device made through configfs of 128 tags completing
#       from a timer in 1 ms (nr_requests 256), for none, mq-deadline,
#       bfq, bfq low_latency=0 (then none again: the repeat).  The vCPU
#       sleeps while requests are at the device, so the figure is the
#       busy time: the window less the time the vCPU spent idle
#       (ftrace's power:cpu_idle events, summed between two
#       trace_marker lines).  fio's start-up and the fill and drain of
#       its queue are the same for any amount of I/O, so each figure is
#       the difference of two fio runs, of N and 3N units, over the 2N
#       units between them (N = COUNT/8), after a warm-up run of N:
#       busy instructions per 4 KiB moved (read or written).
#   S6  (one vCPU) the merge hash as it fills: mq-deadline on a
#       null_blk device of one tag completing from a timer in 100 us,
#       fio io_uring 4 KiB O_DIRECT random reads at iodepth =
#       nr_requests, so nearly nr_requests requests wait in the
#       scheduler, hashed, and every new read looks for a back merge in
#       a chain of about nr_requests/64 of them (random reads 8 KiB
#       aligned never merge: the lookup walks the whole chain).  The
#       figure is the busy time (as S4's) of the steady state alone:
#       from the (nr_requests + COUNT/8)th completion (block:
#       block_rq_complete) to COUNT/4 completions later, per I/O, out
#       of one fio run that goes on for nr_requests + 64 reads after
#       that.  fio's start-up and exit, which read from the host and
#       vary by up to 0.5 million instructions from run to run, and the
#       fill and drain of the queue stay out of the window.  At the
#       points PARAM names, a list NOMERGES:NR_REQUESTS:REPEAT,...
#       (nr_requests up to 2048, MAX_SCHED_RQ: 4096 is refused with a
#       scheduler); tools/bench-icount.sh boots once per point.
#   S5  (two vCPUs, one LLC; nullb0 with irqmode=1, completed through
#       blk_mq_complete_request(), one hardware queue for both CPUs): dd
#       pinned to CPU 0 reads COUNT sequential 4 KiB O_DIRECT blocks for
#       none and bfq with rq_affinity 0, 1, 2, then all again: the
#       guest's instructions per I/O on both vCPUs (no timer is armed, so
#       a vCPU only sleeps while the other works and the clock counts
#       the instructions of both), the IPIs (CAL: completions sent home
#       and remote wake-ups) per I/O, and the share of BLOCK softirqs
#       (completions) that ran on CPU 0, the submitting CPU.  Then
#       two submitters: a dd pinned to each vCPU at once, COUNT/2
#       reads each from its own half of the device, for none,
#       mq-deadline and bfq at rq_affinity 1, the same three figures.
set -eu
scenario=$1
kernel=$2
outf=$3
count=$4
param=${5:-}
[ "$param" != - ] || param=
profile=${6:-0}
# Nothing between two clock reads may wait for the host: under
# sleep=off an idle vCPU jumps the clock to the next timer, so a binary
# or library read from the host's filesystem would count its wait, and
# how long the host takes to answer would change what runs after it.
# The work runs from a tmpfs: a static busybox (dd, awk, this script),
# and fio with every library it links, started through their own
# dynamic loader.  (With fio read from the host, two boots of one image
# gave S6 figures up to 1.1% apart while the host was busy.)  fio still
# reads a few files from the host as it starts and exits (up to 19
# virtio interrupts in a run): S6 leaves both out of its window.
if [ "${ICOUNT_INNER:-0}" != 1 ]; then
	# No uevent may be handled inside a window.  virtme-ng's init starts
	# systemd-udevd, and every device and scheduler made here sends
	# uevents; a udev worker reading its rules from a busy host ran on
	# into S6's window (about 115 instructions per I/O more, in 4 of
	# 18 figures of a run beside another).  devtmpfs makes the nodes.
	# (udev's processes that are alive: zombies do not count)
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
		while [ -n "$(udevs)" ] && [ $i -lt 100 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		left=$(udevs)
		[ -z "$left" ] || { echo "icount: $2 $1: udev still runs 10 s after udevadm control --exit: $left" >&2; exit 1; }
	fi
	d=/tmp/icount
	mkdir -p $d
	mountpoint -q $d || mount -t tmpfs none $d
	cp "$(command -v busybox)" "$0" $d/
	f=$(command -v fio || true)
	# (fio and its 70 MB of libraries only where they run)
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
say() {
	printf 'icount: %s %s: %s\n' "$kernel" "$tag" "$*" >&2
}
fail() {
	say "$*"
	exit 1
}
now() {
	# shellcheck disable=SC2016 # awk's $3
	$bb awk '/^now at/ { print $3; exit }' /proc/timer_list
}
# put SCENARIO VARIANT METRIC VALUE REPEAT
put() {
	printf '%s,%s,%s,%s,%s,%s\n' "$1" "$kernel" "$2" "$3" "$4" "$5" >>"$outf"
	say "$2 repeat $5: $4 $3"
}
tr=/sys/kernel/tracing
[ -e $tr/trace_marker ] || $bb mount -t tracefs none $tr 2>/dev/null || true

# fresh DEV SCHED: a new instance of SCHED, through none
fresh() {
	echo none >/sys/block/"$1"/queue/scheduler
	echo "$2" >/sys/block/"$1"/queue/scheduler
	$bb grep -q "\[$2\]" /sys/block/"$1"/queue/scheduler || fail "cannot set $2 on $1"
}

reads() {
	$bb dd if=/dev/"$dev" of=/dev/null bs=4096 count="$1" iflag=direct 2>/dev/null
}

# nullb NAME ATTR=VALUE...: a null_blk device through configfs
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

# busy FROM TO CMD...: run CMD; print the virtual ns the vCPU was busy
# in between (one vCPU: the window less the time from each cpu_idle
# entry to the interrupt that ends it. x86's idle is "sti; hlt": the
# interrupt that wakes the vCPU, a timer completing a request, runs with
# its softirqs before cpu_idle's exit event, so the interval ends at the
# first interrupt entry event, not at the exit). The window is the whole
# of CMD, between two trace_marker lines, when FROM is 0; otherwise it
# runs from the FROMth block_rq_complete event (in $events) to the TOth,
# and the busy time is followed by the number of device interrupts (the
# host's virtio: 9p, console) in the window. The trace clock is x86-tsc,
# which QEMU's icount drives: one tick a virtual ns, an instruction (a
# clock in ns would be printed in microseconds).
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

# marginal VARIANT METRIC UNITS REPEAT CMD...: CMD N runs N units of
# I/O; the busy time of 3N less that of N, over 2N
marginal() {
	v=$1 m=$2 u=$3 rep=$4
	shift 4
	"$@" "$u" >/dev/null 2>&1 || fail "$v: warm-up failed: $*"
	b1=$(busy 0 0 "$@" "$u") || fail "$v: no busy time"
	b3=$(busy 0 0 "$@" $((3 * u))) || fail "$v: no busy time"
	say "$v: busy $b1 ns for $u units, $b3 ns for $((3 * u))"
	put "$tag" "$v" "$m" "$($bb awk -v a="$b1" -v b="$b3" -v n="$u" 'BEGIN { printf "%.1f", (b - a) / (2 * n) }')" "$rep"
}

case $scenario in
S4 | S6)
	tag=$scenario
	ldso=$(echo /tmp/icount/lib/ld-linux*)
	{ [ -x /tmp/icount/fio ] && [ -f "$ldso" ]; } || fail "no fio (or no loader of it) in /tmp/icount"
	fio() {
		"$ldso" --library-path /tmp/icount/lib /tmp/icount/fio "$@"
	}
	[ -e $tr/events/power/cpu_idle/enable ] || fail "no power:cpu_idle trace event in this kernel"
	[ -e $tr/events/irq_vectors/enable ] || fail "no irq_vectors trace events in this kernel"
	$bb grep -qw x86-tsc $tr/trace_clock || fail "no x86-tsc trace clock in this kernel"
	events="power/cpu_idle irq_vectors irq/irq_handler_entry"
	echo 16384 >$tr/buffer_size_kb
	;;
esac

case $scenario in
S1)
	rot=${param:-0}
	tag=S1-rot$rot
	dev=nullb0
	[ -b /dev/$dev ] || fail "no /dev/$dev"
	[ "$($bb cat /sys/block/$dev/queue/rotational)" = "$rot" ] ||
		fail "/dev/$dev is not rotational=$rot"
	if [ "$profile" = 1 ]; then
		[ -e $tr/function_profile_enabled ] || fail "no function profiler in this kernel"
		# self time: not the functions called, not the time switched out.
		# On 7.3.4 options/graph-time does not reach the profiler:
		# set_tracer_flag() tests the mask against TRACE_GRAPH_GRAPH_TIME
		# (0x400), which is TRACE_ITER(ANNOTATE); clearing annotate does it.
		echo 0 >$tr/options/graph-time
		echo 0 >$tr/options/sleep-time
		echo 1 >$tr/options/annotate
		echo 0 >$tr/options/annotate
	fi
	# measure SCHED REPEAT [VARIANT]
	measure() {
		fresh $dev "$1"
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
		put "$tag" "${3:-$1}" "instructions per I/O" \
			"$($bb awk -v a="$t0" -v b="$t1" -v n="$count" 'BEGIN { printf "%.1f", (b - a) / n }')" "$2"
	}
	for s in none mq-deadline bfq; do
		measure "$s" 1
	done
	# The same without merge attempts (nomerges=2: the bio's merge
	# attempt, plug and scheduler, and the insert merge return at once;
	# requests are still hashed): what the lookups cost, which reads
	# one at a time never find a merge for.
	if [ "$profile" = 0 ]; then
		echo 2 >/sys/block/$dev/queue/nomerges
		for s in none mq-deadline bfq; do
			measure "$s" 1 "$s nomerges=2"
		done
		echo 0 >/sys/block/$dev/queue/nomerges
	fi
	measure none 2
	;;
S4)
	dev=nullb1
	nullb $dev size=1024 queue_mode=2 submit_queues=1 hw_queue_depth=128 irqmode=2 completion_nsec=1000000
	# Writeback with fewer moving parts: the flusher starts at 4 MiB
	# dirty, the writers are never throttled (balance_dirty_pages()
	# paces them from bandwidth estimates that every run changes), no
	# periodic wake-up.  Five processes and the flusher still interleave
	# differently from run to run: none's repeat in one boot was 0.6% off
	# with the defaults, 0.7-3.8% with these, so tools/bench-icount.sh
	# reports it rather than holding it to 0.2%.
	echo $((4 << 20)) >/proc/sys/vm/dirty_background_bytes
	echo $((512 << 20)) >/proc/sys/vm/dirty_bytes
	echo 0 >/proc/sys/vm/dirty_writeback_centisecs
	# s4 UNITS: UNITS 4 KiB units in all, a fifth of them read, the
	# rest written by four writers (the page cache of the device is
	# dropped first: every run writes into clean, absent pages)
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
	# every completion of the run, to find the window by
	events="$events block/block_rq_complete"
	# s6 NR UNITS: UNITS random reads at iodepth NR, 8 KiB aligned so
	# that no two are adjacent: no read ever merges
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
		# the window: COUNT/4 completions after nr_requests + COUNT/8,
		# the queue full all along; the run goes on for nr_requests +
		# 64 reads after it, so that fio submits a read for each
		# completion in the window
		a=$((nr + count / 8))
		b=$((a + count / 4))
		v="mq-deadline nr_requests=$nr nomerges=$nm"
		w=$(busy "$a" "$b" s6 "$nr" $((b + nr + 64))) || fail "$v: no busy time"
		irqs=${w#* }
		w=${w% *}
		say "$v: busy $w ns from completion $a to $b, $irqs device interrupts in between"
		put "$tag" "$v" "instructions per I/O" "$($bb awk -v w="$w" -v n=$((b - a)) 'BEGIN { printf "%.1f", w / n }')" "$rep"
	done
	;;
S5)
	tag=S5
	dev=nullb0
	[ -b /dev/$dev ] || fail "no /dev/$dev"
	[ "$($bb nproc)" -ge 2 ] || fail "S5 needs two vCPUs"
	# cal: IPIs (function call interrupts) on all CPUs so far
	# shellcheck disable=SC2016 # awk's fields
	cal() { $bb awk '$1 == "CAL:" { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i; print s }' /proc/interrupts; }
	# block: BLOCK softirqs on CPU 0 and on all CPUs so far
	# shellcheck disable=SC2016
	block() { $bb awk '$1 == "BLOCK:" { for (i = 2; i <= NF; i++) s += $i; print $2, s }' /proc/softirqs; }
	# one N: N reads by a dd on CPU 0
	one() {
		$bb taskset 1 $bb dd if=/dev/$dev of=/dev/null bs=4096 count="$1" iflag=direct 2>/dev/null
	}
	# two N: N reads, half by a dd on each vCPU at once, the second from
	# the device's second half (1 GiB: 262144 blocks)
	two() {
		$bb taskset 1 $bb dd if=/dev/$dev of=/dev/null bs=4096 count=$(($1 / 2)) iflag=direct 2>/dev/null &
		$bb taskset 2 $bb dd if=/dev/$dev of=/dev/null bs=4096 count=$(($1 / 2)) skip=131072 iflag=direct 2>/dev/null &
		wait
	}
	# window VARIANT READER: READER's COUNT/4 reads not counted, then
	# the COUNT counted: VARIANT's three figures
	window() {
		$2 $((count / 4))
		c0=$(cal)
		s0=$(block)
		t0=$(now)
		$2 "$count"
		t1=$(now)
		s1=$(block)
		c1=$(cal)
		put "$tag" "$1" "instructions per I/O" \
			"$($bb awk -v a="$t0" -v b="$t1" -v n="$count" 'BEGIN { printf "%.1f", (b - a) / n }')" "$rep"
		put "$tag" "$1" "IPIs per I/O" \
			"$($bb awk -v a="$c0" -v b="$c1" -v n="$count" 'BEGIN { printf "%.3f", (b - a) / n }')" "$rep"
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
		# Two submitters: a dd pinned to each vCPU, each reading half
		# the figure's blocks from its own half of the device, at the
		# default rq_affinity; both vCPUs submit into the one queue and
		# its scheduler at once.
		for s in none mq-deadline bfq; do
			fresh $dev "$s"
			echo 1 >/sys/block/$dev/queue/rq_affinity
			window "$s two submitters" two
		done
	done
	;;
*)
	tag=-
	fail "unknown scenario $scenario (S1 S4 S5 S6)"
	;;
esac
say "done"
