#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-icount.sh - 'make bench ICOUNT=1': guest instructions per I/O, base
# vs series, counted deterministically.  QEMU runs the virtme-ng guest
# under -icount shift=0,sleep=off with single-threaded TCG: the guest's
# clock advances 1 ns per guest instruction and jumps over the time every
# vCPU sleeps, so a time the guest reads is an instruction count,
# independent of the host's speed or load (repeatable to 0.2% where the
# guest itself does the same work each run: S1, S6).
#
#   S="S1 S6"           the scenarios (default S1 and S6, the two that
#                       repeat within 0.2%; S4 and S5 run when asked:
#                       S4 is not deterministic and S5 narrow,
#                       docs/benchmarks.md; tools/vm/icount.sh says what
#                       each runs)
#   ICOUNT_COUNT=60000  4 KiB I/Os per figure (S4: the two fio runs of
#                       each figure do COUNT/8 and 3*COUNT/8 units; S6:
#                       COUNT/4 I/Os counted in the steady state)
#   ICOUNT_OUT=dir      results (default results/bench; committed)
#   ICOUNT_PROFILE=1    also a function profile (self instructions) of each
#                       scheduler on S1's path on the base kernel with
#                       configs/profile.config: ICOUNT_OUT/icount-profile.md
#
# For each kernel (base, series): S1 (the read path on null_blk without a
# timer, none, mq-deadline, bfq; rotational 0 and 1, one boot each), S4
# (one boot, one vCPU: reads against buffered writers), S6 (one vCPU, a
# boot per point: the merge hash at nr_requests 64 to 2048 with and
# without lookups, counted from the queue's steady state alone; S4 and
# S6 on devices that complete from a timer, so the figure is the vCPU's
# busy time from ftrace's power:cpu_idle), S5
# (one boot, two vCPUs: rq_affinity 0/1/2).  A figure of each is
# measured again (S1 at the end of its boot, S6's first point in a boot
# of its own); for S1 and S6 the repeat must agree with the first figure
# within 0.2%, or the run fails and says so.  S4's repeat (five
# processes and writeback) and S5's (two vCPUs) are reported: looser.
# Agreeing in one run does not prove agreeing between runs: compare
# two whole runs.  Limits: instructions of TCG's x86_64
# (no cache misses, no device timing): a CPU-cost measure, not a
# throughput or latency measure.  Plain TCG (make bench) stays for those.
#
# Writes ICOUNT_OUT/icount.csv (scenario,kernel,scheduler,metric,value,
# repeat), ICOUNT_OUT/icount.md (the tables), ICOUNT_OUT/icount.png (S1)
# and ICOUNT_OUT/icount-s6.png (S6's curve).
set -euo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

count=${ICOUNT_COUNT:-60000}
{ [[ $count =~ ^[1-9][0-9]*$ ]] && [ "$count" -ge 1000 ]; } ||
	die "ICOUNT_COUNT=$count: give a number of reads, 1000 or more"
scen=${S:-S1 S6}
for x in $scen; do
	case $x in S1 | S4 | S5 | S6) ;; *) die "S=$S: ICOUNT=1 counts S1, S4, S5 and S6 (a list, e.g. S='S1 S6')" ;; esac
done
want() { [[ " $scen " == *" $1 "* ]]; }
out=${ICOUNT_OUT:-$BSK_TOP/results/bench}
mkdir -p "$out"
out=$(cd "$out" && pwd)
profile=${ICOUNT_PROFILE:-0}
case $profile in 0 | 1) ;; *) die "ICOUNT_PROFILE=$profile: 0 or 1" ;; esac
[ "$profile" = 0 ] || want S1 || die "ICOUNT_PROFILE=1 profiles S1's path; S=$S leaves S1 out"

"$BSK_TOP/tools/env/deps.sh" base build vm
# The guest runs the measurement from a tmpfs: busybox must need no library.
ldd "$(command -v busybox)" >/dev/null 2>&1 &&
	die "$(command -v busybox) is linked dynamically; the measurement needs busybox-static (apt-get install busybox-static)"
vng=$("$BSK_TOP/tools/env/vng.sh")
"$BSK_TOP/tools/apply.sh" >/dev/null

T0=$SECONDS
declare -A img
for k in base series; do
	stage "guest kernel: $k"
	img[$k]=$("$BSK_TOP/tools/env/vmkernel.sh" "$k")
	stage_end
done

raw=$out/icount-raw
rm -rf "$raw"
mkdir -p "$raw"
nullb="null_blk.queue_mode=2 null_blk.submit_queues=1 null_blk.hw_queue_depth=64 null_blk.gb=1"
icount="-icount shift=0,sleep=off -accel tcg,thread=single"

# boot KERNEL-IMAGE NAME SCENARIO CPUS APPEND OUTFILE [PARAM [PROFILE]]
# (PARAM: S1's rotational, S6's points; tools/vm/icount.sh)
boot() {
	local p=${7//:/-} log
	log=$raw/console-$2-$3${7:+-$p}${8:+-profile$8}.log
	(cd "$BSK_TOP" && "$vng" --disable-kvm --cpus "$4" --memory 1G --rwdir "$raw" \
		--qemu-opts "$icount" -r "$1" --append "$nullb $5" \
		--exec "sh tools/vm/icount.sh $3 $2 $6 $count ${7:--} ${8:-0}; reboot -f") 2>&1 |
		tee "$log" | grep --line-buffered '^icount: ' || true
	grep -q "^icount: $2 .*: done" "$log" || die "$2 $3 did not finish (see $log)"
}

for k in base series; do
	if want S1; then
		for rot in 0 1; do
			stage "S1, $k kernel, rotational $rot"
			boot "${img[$k]}" "$k" S1 1 "null_blk.irqmode=0 null_blk.rotational=$rot" "$raw/icount.csv" "$rot"
			stage_end
		done
	fi
	if want S4; then
		stage "S4, $k kernel"
		boot "${img[$k]}" "$k" S4 1 "null_blk.irqmode=0" "$raw/icount.csv"
		stage_end
	fi
	if want S6; then
		# A boot per point, so that no figure depends on the points
		# measured before it; the first point is booted twice: the
		# repeat.
		for f in 0:64:1 0:256:1 0:1024:1 0:2048:1 2:64:1 2:256:1 2:1024:1 2:2048:1 0:64:2; do
			again=
			[ "${f##*:}" = 1 ] || again=", again in a new boot: the repeat"
			stage "S6, $k kernel, nomerges ${f%%:*} nr_requests $(echo "$f" | cut -d: -f2)$again"
			boot "${img[$k]}" "$k" S6 1 "null_blk.irqmode=0" "$raw/icount.csv" "$f"
			stage_end
		done
	fi
	if want S5; then
		stage "S5, $k kernel, two vCPUs"
		boot "${img[$k]}" "$k" S5 2 "null_blk.irqmode=1" "$raw/icount.csv"
		stage_end
	fi
done

# Every figure measured twice (repeat 1 and 2): KEY, first,
# second, difference in %.  S1 and S6 must agree within 0.2%; S4 (five
# processes and writeback) and S5 (two vCPUs) are reported, not held
# to it.
# shellcheck disable=SC2016 # awk's fields
spread='$6 == 1 { a[$1 FS $2 FS $3 FS $4] = $5 } $6 == 2 { k = $1 FS $2 FS $3 FS $4; if ((k in a) && a[k] != 0) printf "%s\t%s\t%s\t%.3f\n", k, a[k], $5, 100 * ($5 - a[k]) / a[k] }'
bad=$(awk -F, "$spread" "$raw/icount.csv" | awk -F'\t' '$1 !~ /^S[45],/ && $1 ~ /,instructions per/ { d = $4 < 0 ? -$4 : $4; if (d > 0.2) { printf "%s%s: %s then %s (%+.2f%%)", sep, $1, $2, $3, $4; sep = "; " } }')
{
	echo 'scenario,kernel,scheduler,metric,value,repeat'
	awk -F, -v OFS=, '{ print } $4 ~ /^instructions per (I\/O|4 KiB moved)$/ { $4 = "instructions per MiB"; $5 = sprintf("%.0f", $5 * 256); print }' "$raw/icount.csv"
} >"$out/icount.csv"

# table SCENARIO METRIC: variant, base, series, series/base (repeat 1)
table() {
	echo '| variant | base | series | series/base |'
	echo '|---|---|---|---|'
	awk -F, -v sc="$1" -v m="$2" '$1 == sc && $4 == m && $6 == 1 { k = $3; if (!(k in seen)) { seen[k] = 1; o[++n] = k } v[k, $2] = $5 }
		END { for (i = 1; i <= n; i++) { k = o[i]; b = v[k, "base"]; s = v[k, "series"]
			printf "| %s | %s | %s | %s |\n", k, b, s, (b && s) ? sprintf("%.4f", s / b) : "-" } }' "$raw/icount.csv"
}
{
	echo '# make bench ICOUNT=1: guest instructions per I/O, base vs series'
	echo
	echo "Kernels: $(basename "$(dirname "${img[base]}")" | sed 's/-vm$//') (base) and + series, x86_64, allnoconfig + tinyconfig's fragments + configs/vm.config."
	echo "QEMU $icount; null_blk. Produced by \`make bench ICOUNT=1\` ($(date -u +%Y-%m-%d)); what each scenario runs: tools/vm/icount.sh and docs/benchmarks.md."
	if want S1; then
		echo
		echo "## S1: the read path (one vCPU)"
		echo
		echo "null_blk irqmode=0 (completed inside ->queue_rq()), one hardware queue of depth 64; $count sequential 4 KiB O_DIRECT reads with dd per figure, after $((count / 4)) not counted, each scheduler a fresh instance. Instructions of the whole guest per read (dd, the syscall, the block layer, the scheduler, null_blk), counted by the virtual clock."
		echo
		echo '| rotational | scheduler | base | series | series/base | minus none (base) | minus none (series) |'
		echo '|---|---|---|---|---|---|---|'
		awk -F, '$1 ~ /^S1-rot/ && $6 == 1 { split($1, p, "-rot"); v[p[2], $3, $2] = $5; if (!((p[2], $3) in seen)) { seen[p[2], $3] = 1; o[++n] = p[2] SUBSEP $3 } }
			END { for (i = 1; i <= n; i++) { split(o[i], q, SUBSEP); r = q[1]; s = q[2]
				printf "| %s | %s | %s | %s | %.4f | %+.1f | %+.1f |\n", r, s, v[r, s, "base"], v[r, s, "series"],
					v[r, s, "series"] / v[r, s, "base"], v[r, s, "base"] - v[r, "none", "base"],
					v[r, s, "series"] - v[r, "none", "series"] } }' "$raw/icount.csv"
		echo
		echo '![S1: instructions per I/O](icount.png)'
	fi
	if want S4; then
		echo
		echo "## S4: reads against buffered writers (one vCPU)"
		echo
		echo "null_blk of 128 tags completing from a timer after 1 ms (nr_requests 256); one psync reader of 4 KiB O_DIRECT random reads and 4 buffered sequential writers (64 KiB, end_fsync), a fifth of the 4 KiB units read. Busy instructions (the window less the vCPU's idle time, from ftrace's power:cpu_idle) per 4 KiB moved, the difference of a run of $((count / 8)) units and one of $((3 * count / 8)), over the $((count / 4)) between them (fio's start-up cancels)."
		echo
		table S4 'instructions per 4 KiB moved'
		echo
		awk -F, "$spread" "$raw/icount.csv" | awk -F'\t' '$1 ~ /^S4,/ && $1 ~ /,instructions per/ { d = $4 < 0 ? -$4 : $4; if (d > m) m = d }
			END { printf "S4 is not held to 0.2%%: five processes and the flusher interleave differently from run to run; here none measured again at the end differs by up to %.2f%%. Differences between schedulers below that mean nothing.\n", m }'
	fi
	if want S6; then
		echo
		echo "## S6: the merge hash as it fills (one vCPU)"
		echo
		echo "mq-deadline on a null_blk of one tag completing from a timer after 100 us; fio io_uring 4 KiB O_DIRECT random reads, 8 KiB aligned (no two adjacent, so none merges), at iodepth = nr_requests, each point in a boot of its own (the first twice: the repeat): nearly nr_requests requests wait hashed in the scheduler and every new read walks its chain of about nr_requests/64 whole, twice (back merge, insert merge), besides the rb-tree lookup for a front merge. nomerges=2 skips the lookups. Busy time ends each idle interval at the first interrupt entry (the completion runs before cpu_idle's exit); the trace events themselves (cpu_idle, irq entry and exit, block_rq_complete) add a constant per I/O. Busy instructions per I/O over $((count / 4)) completions of the steady state: counted from the (nr_requests + $((count / 8)))th completion of one fio run that goes on for nr_requests + 64 reads after the window, so that fio's start-up and exit (which read from the host) and the fill and drain of the queue stay out. nr_requests stops at 2048 (MAX_SCHED_RQ: 4096 is refused with a scheduler)."
		echo
		echo '| nr_requests | lookups (nomerges 0): base | series | no lookups (nomerges 2): base | series | lookups cost: base | series |'
		echo '|---|---|---|---|---|---|---|'
		awk -F, '$1 == "S6" && $6 == 1 { split($3, w, /[ =]/); nr = w[3]; nm = w[5]; v[nr, nm, $2] = $5; if (!(nr in seen)) { seen[nr] = 1; o[++n] = nr } }
			END { for (i = 1; i <= n; i++) { r = o[i]
				printf "| %s | %s | %s | %s | %s | %+.1f | %+.1f |\n", r, v[r, 0, "base"], v[r, 0, "series"], v[r, 2, "base"], v[r, 2, "series"],
					v[r, 0, "base"] - v[r, 2, "base"], v[r, 0, "series"] - v[r, 2, "series"] } }' "$raw/icount.csv"
		echo
		echo '![S6: instructions per I/O against nr_requests](icount-s6.png)'
	fi
	if want S5; then
		echo
		echo "## S5: completion routing, rq_affinity 0/1/2 (two vCPUs, one LLC)"
		echo
		echo "null_blk irqmode=1 (completed through blk_mq_complete_request()), its default poll queue making two hardware queues; dd pinned to CPU 0, $count sequential 4 KiB O_DIRECT reads per figure, every figure measured twice in one boot (run 1, run 2). Instructions of both vCPUs per read (nothing waits for a timer: the clock counts what either vCPU runs), IPIs (CAL) per read, and the share of BLOCK softirqs on CPU 0, the submitting CPU (- when none ran). With none the request completes inline on CPU 0; with bfq the dispatch runs from kblockd on either CPU and only rq_affinity=2 sends those completions home; 0 and 1 are the same in one LLC."
		echo
		echo '| variant | base (run 1, run 2) | series (run 1, run 2) | series/base | IPIs per I/O (base, series) | BLOCK on CPU 0 % (base, series) |'
		echo '|---|---|---|---|---|---|'
		awk -F, '$1 == "S5" { k = $3; if (!(k in seen)) { seen[k] = 1; o[++n] = k } v[k, $2, $4, $6] = $5 }
			END { m = "instructions per I/O"; for (i = 1; i <= n; i++) { k = o[i]
				printf "| %s | %s, %s | %s, %s | %.4f | %s, %s | %s, %s |\n", k, v[k, "base", m, 1], v[k, "base", m, 2],
					v[k, "series", m, 1], v[k, "series", m, 2], v[k, "series", m, 1] / v[k, "base", m, 1],
					v[k, "base", "IPIs per I/O", 1], v[k, "series", "IPIs per I/O", 1],
					v[k, "base", "BLOCK softirqs on CPU 0 (%)", 1], v[k, "series", "BLOCK softirqs on CPU 0 (%)", 1] } }' "$raw/icount.csv"
		echo
		awk -F, "$spread" "$raw/icount.csv" | awk -F'\t' '$1 ~ /^S5,/ && $1 ~ /,instructions per/ { d = $4 < 0 ? -$4 : $4; if (d > m) m = d }
			END { printf "Two vCPUs: run 2 differs from run 1 by up to %.2f%%.\n", m }'
	fi
	echo
	echo '## Repeats'
	echo
	echo 'Figures measured twice (S1: none again at the end of its boot, on a fresh instance; S4: none again in its boot; S6: nomerges 0, nr_requests 64 again in a boot of its own; S5: every figure, in its boot). S1 and S6 must agree within 0.2% or the run fails; S4 and S5 are reported.'
	echo
	awk -F, "$spread" "$raw/icount.csv" | awk -F'\t' '$1 ~ /,instructions per/ { split($1, k, ","); printf "- %s %s %s: %s, repeat %s (%+.3f%%)\n", k[1], k[2], k[3], $2, $3, $4 }'
} >"$out/icount.md"

d=$(mktemp -d)
if want S1; then
	awk -F, '$1 ~ /^S1-rot/ && $6 == 1 { split($1, p, "-rot"); k = $3 " rot" p[2]; if (!(k in seen)) { seen[k] = 1; o[++n] = k } v[k, $2] = $5 }
		END { for (i = 1; i <= n; i++) printf "\"%s\" %s %s\n", o[i], v[o[i], "base"], v[o[i], "series"] }' "$raw/icount.csv" >"$d/p.dat"
	gnuplot <<EOF
set terminal pngcairo size 800,420 noenhanced font ',9'
set output '$out/icount.png'
set title 'Guest instructions per 4 KiB read (QEMU icount, one vCPU, null_blk): base vs series'
set style data histogram
set style histogram clustered gap 2
set style fill solid 0.6 border -1
set yrange [0:*]
set key top left
plot '$d/p.dat' using 2:xtic(1) title 'base', '' using 3 title 'series'
EOF
fi
if want S6; then
	for k in base series; do
		for nm in 0 2; do
			awk -F, -v k="$k" -v nm="$nm" '$1 == "S6" && $2 == k && $6 == 1 { split($3, w, /[ =]/); if (w[5] == nm) print w[3], $5 }' \
				"$raw/icount.csv" | sort -n >"$d/s6-$k-$nm.dat"
		done
	done
	gnuplot <<EOF
set terminal pngcairo size 800,420 noenhanced font ',9'
set output '$out/icount-s6.png'
set title 'S6: busy instructions per 4 KiB random read, mq-deadline, one-tag null_blk (QEMU icount)'
set xlabel 'nr_requests (requests waiting hashed in 64 chains)'
set ylabel 'instructions per I/O'
set logscale x 2
set key bottom right
plot '$d/s6-base-0.dat' with linespoints title 'base, lookups (nomerges 0)', \
	'$d/s6-series-0.dat' with linespoints title 'series, lookups (nomerges 0)', \
	'$d/s6-base-2.dat' with linespoints title 'base, no lookups (nomerges 2)', \
	'$d/s6-series-2.dat' with linespoints title 'series, no lookups (nomerges 2)'
EOF
fi
rm -rf "$d"

if [ "$profile" = 1 ]; then
	stage "profile kernel (base + configs/profile.config)"
	pimg=$("$BSK_TOP/tools/env/vmkernel.sh" base "$BSK_TOP/configs/profile.config")
	stage_end
	stage "profile, base kernel, rotational 0"
	boot "$pimg" base S1 1 "null_blk.irqmode=0 null_blk.rotational=0" "$raw/profile.csv" 0 1
	stage_end
	# Self instructions per read of each function (tools/vm/icount.sh
	# turns graph-time and sleep-time off; the profiler's "us" are
	# thousands of virtual ns, i.e. of instructions), bfq minus none: the
	# ten functions that account for most of it.
	{
		echo '# Where bfq spends its extra instructions: function profile under icount'
		echo
		echo "Base kernel with configs/profile.config (function graph tracer and profiler; the tracing itself inflates every figure, so compare within this table), rotational 0, $count reads per scheduler, self instructions per read (trace_stat/function0, options graph-time and sleep-time 0). Produced by \`make bench ICOUNT=1 ICOUNT_PROFILE=1\` ($(date -u +%Y-%m-%d))."
		echo
		echo '| function | none | bfq | bfq minus none |'
		echo '|---|---|---|---|'
		for sch in none bfq; do
			awk -v s="$sch" -v n="$count" '$3 ~ /^[0-9.]+$/ && $4 == "us" { printf "%s\t%s\t%.2f\n", s, $1, $3 * 1000 / n }' \
				"$raw/profile.csv.$sch.profile"
		done | awk -F'\t' '{ v[$2, $1] = $3; f[$2] = 1 }
			END { for (x in f) printf "%s\t%.2f\t%.2f\t%.2f\n", x, v[x, "none"], v[x, "bfq"], v[x, "bfq"] - v[x, "none"] }' |
			sort -t$'\t' -k4,4gr | head -n 10 | awk -F'\t' '{ printf "| %s | %s | %s | %+.1f |\n", $1, $2, $3, $4 }'
		echo
		awk -F, '$3 == "none" && $6 == 1 { a = $5 } $3 == "bfq" { b = $5 }
			END { printf "Whole guest per read on this kernel: none %s, bfq %s, bfq minus none %+.1f.\n", a, b, b - a }' "$raw/profile.csv"
	} >"$out/icount-profile.md"
fi

info "results in $out (icount.csv, icount.md, icount.png, icount-raw/); $((SECONDS - T0))s"
cat "$out/icount.md"
[ -z "$bad" ] || die "the repeat disagrees by more than 0.2%: $bad"
