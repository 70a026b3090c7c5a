#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-icount.sh - 'make bench ICOUNT=1': guest instructions per I/O, base
# vs series, counted deterministically.  QEMU runs the virtme-ng guest with
# one vCPU under -icount shift=0,sleep=off and single-threaded TCG: the
# guest's clock advances 1 ns per guest instruction and skips idle time, so
# a time the guest reads is an instruction count, the same from one run
# to the next and independent of the host's speed or load.
#
#   ICOUNT_COUNT=60000  4 KiB reads per figure (tools/vm/icount.sh)
#   ICOUNT_OUT=dir      results (default results/bench; committed)
#   ICOUNT_PROFILE=1    also a function profile (self instructions) of each
#                       scheduler on the base kernel with
#                       configs/profile.config: ICOUNT_OUT/icount-profile.md
#
# For each kernel (base, series) and rotational 0 and 1: one boot with
# null_blk (irqmode=0, one hardware queue of depth 64) that measures none,
# mq-deadline and bfq, each a fresh instance after a warm-up, then none
# again as the repeat.  The repeat must agree with the first figure
# within 0.2%, or the run fails and says so: one run per figure is then
# enough.  Limits: one vCPU (no concurrency, no IPI), instructions of
# TCG's x86_64 (no cache misses, no device timing): a CPU-cost measure,
# not a throughput measure.  Plain TCG (make bench) stays for those.
#
# Writes ICOUNT_OUT/icount.csv (scenario,kernel,scheduler,metric,value,
# repeat), ICOUNT_OUT/icount.md (the table) and ICOUNT_OUT/icount.png.
set -euo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

count=${ICOUNT_COUNT:-60000}
{ [[ $count =~ ^[1-9][0-9]*$ ]] && [ "$count" -ge 1000 ]; } ||
	die "ICOUNT_COUNT=$count: give a number of reads, 1000 or more"
[ -n "${S:-}" ] && die "S=$S: ICOUNT=1 has one scenario, S1's I/O path on null_blk; run make bench ICOUNT=1 without S"
out=${ICOUNT_OUT:-$BSK_TOP/results/bench}
mkdir -p "$out"
out=$(cd "$out" && pwd)
profile=${ICOUNT_PROFILE:-0}
case $profile in 0 | 1) ;; *) die "ICOUNT_PROFILE=$profile: 0 or 1" ;; esac

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
nullb="null_blk.queue_mode=2 null_blk.irqmode=0 null_blk.submit_queues=1 null_blk.hw_queue_depth=64 null_blk.gb=1"
icount="-icount shift=0,sleep=off -accel tcg,thread=single"

# boot KERNEL-IMAGE NAME ROT OUTFILE [PROFILE]
boot() {
	local log=$raw/console-$2-rot$3.log
	(cd "$BSK_TOP" && "$vng" --disable-kvm --cpus 1 --memory 1G --rwdir "$raw" \
		--qemu-opts "$icount" -r "$1" --append "$nullb null_blk.rotational=$3" \
		--exec "sh tools/vm/icount.sh $2 $4 $count $3 ${5:-0}; reboot -f") 2>&1 |
		tee "$log" | grep --line-buffered '^icount: ' || true
	grep -q "^icount: $2 rot $3: done" "$log" || die "$2 rot $3 did not finish (see $log)"
}

for rot in 0 1; do
	for k in base series; do
		stage "$k kernel, rotational $rot"
		boot "${img[$k]}" "$k" "$rot" "$raw/icount.csv"
		stage_end
	done
done

# The repeat: none measured twice in each boot, each on a fresh instance.
bad=$(awk -F, '$3 == "none" { v[$1 FS $2, $6] = $5 }
	END { for (k in v) { split(k, p, SUBSEP); if (p[2] != 1) continue
		a = v[p[1], 1]; b = v[p[1], 2]; d = (b - a) / a; if (d < 0) d = -d
		if (d > 0.002) { printf "%s%s: %s then %s (%.2f%%)", sep, p[1], a, b, 100 * d; sep = "; " } } }' "$raw/icount.csv")
{
	echo 'scenario,kernel,scheduler,metric,value,repeat'
	awk -F, -v OFS=, '{ print; $4 = "instructions per MiB"; $5 = sprintf("%.0f", $5 * 256); print }' "$raw/icount.csv"
} >"$out/icount.csv"

{
	echo '# make bench ICOUNT=1: guest instructions per I/O, base vs series'
	echo
	echo "Kernels: $(basename "$(dirname "${img[base]}")" | sed 's/-vm$//') (base) and + series, x86_64, allnoconfig + tinyconfig's fragments + configs/vm.config."
	echo "QEMU $icount, one vCPU; null_blk irqmode=0, one hardware queue of depth 64; $count sequential 4 KiB O_DIRECT reads with dd per figure, after $((count / 4)) not counted, each scheduler a fresh instance."
	echo 'Instructions of the whole guest per read (dd, the syscall, the block layer, the scheduler, null_blk), counted by the virtual clock.'
	echo "Produced by \`make bench ICOUNT=1\` ($(date -u +%Y-%m-%d))."
	echo
	echo '| rotational | scheduler | base | series | series/base | minus none (base) | minus none (series) |'
	echo '|---|---|---|---|---|---|---|'
	awk -F, '$6 == 1 { split($1, p, "-rot"); v[p[2], $3, $2] = $5; if (!((p[2], $3) in seen)) { seen[p[2], $3] = 1; o[++n] = p[2] SUBSEP $3 } }
		END { for (i = 1; i <= n; i++) { split(o[i], q, SUBSEP); r = q[1]; s = q[2]
			printf "| %s | %s | %s | %s | %.4f | %+.1f | %+.1f |\n", r, s, v[r, s, "base"], v[r, s, "series"],
				v[r, s, "series"] / v[r, s, "base"], v[r, s, "base"] - v[r, "none", "base"],
				v[r, s, "series"] - v[r, "none", "series"] } }' "$raw/icount.csv"
	echo
	echo 'Repeat (none, measured again at the end of each boot on a fresh instance):'
	echo
	awk -F, '$3 == "none" && $6 == 1 { a[$1 FS $2] = $5 } $3 == "none" && $6 == 2 { printf "- %s %s: %s, repeat %s (%+.3f%%)\n", $1, $2, a[$1 FS $2], $5, 100 * ($5 - a[$1 FS $2]) / a[$1 FS $2] }' "$raw/icount.csv"
	echo
	echo '![instructions per I/O](icount.png)'
} >"$out/icount.md"

d=$(mktemp -d)
awk -F, '$6 == 1 { split($1, p, "-rot"); k = $3 " rot" p[2]; if (!(k in seen)) { seen[k] = 1; o[++n] = k } v[k, $2] = $5 }
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
rm -rf "$d"

if [ "$profile" = 1 ]; then
	stage "profile kernel (base + configs/profile.config)"
	pimg=$("$BSK_TOP/tools/env/vmkernel.sh" base "$BSK_TOP/configs/profile.config")
	stage_end
	stage "profile, base kernel, rotational 0"
	boot "$pimg" base 0 "$raw/profile.csv" 1
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
