#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bench-icount.sh - 'make bench ICOUNT=1': guest instructions per I/O on base, series
# (and rfc) under QEMU -icount (guest side: tools/vm/icount.sh); S1 and S6 repeats
# must agree within 0.2%.  Settings and outputs: docs/benchmarks.md#counted-make-bench-icount1.
set -euo pipefail
# shellcheck source=lib/vm.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/vm.sh"
# shellcheck source=lib/icount.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/icount.sh"

count=${ICOUNT_COUNT:-60000}
{ [[ $count =~ ^[1-9][0-9]*$ ]] && [ "$count" -ge 1000 ]; } ||
	die "ICOUNT_COUNT=$count: give a number of reads, 1000 or more"
scen=${S:-S1 S6}
for x in $scen; do
	case $x in S1 | S4 | S5 | S6 | S7) ;; *) die "S=$S: ICOUNT=1 counts S1, S4, S5, S6 and S7 (a list, e.g. S='S1 S6')" ;; esac
done
out=$(out_dir ICOUNT_OUT icount)
profile=${ICOUNT_PROFILE:-0}
case $profile in 0 | 1) ;; *) die "ICOUNT_PROFILE=$profile: 0 or 1" ;; esac
[ "$profile" = 0 ] || want S1 || die "ICOUNT_PROFILE=1 profiles S1's path; S=$S leaves S1 out"

vm_setup
# the guest runs the measurement from a tmpfs: a busybox that needs no library
! ldd "$(command -v busybox)" >/dev/null 2>&1 || die "ICOUNT=1 needs busybox-static (apt-get install busybox-static)"
T0=$SECONDS
vm_kernels

raw=$out/icount-raw
rm -rf "$raw"; mkdir -p "$raw"
for k in "${kernels[@]}"; do cp "${img[$k]}.id" "$raw/kernel-$k.id"; done
nullb="null_blk.queue_mode=2 null_blk.submit_queues=1 null_blk.hw_queue_depth=64 null_blk.gb=1"
icount="-icount shift=0,sleep=off -accel tcg,thread=single"

# boot STAGE KERNEL-IMAGE NAME SCENARIO CPUS APPEND OUTFILE [PARAM [PROFILE]]
boot() {
	stage "$1"
	shift
	local p=${7:-} log
	p=${p//:/-}
	log=$raw/console-$2-$3${7:+-$p}${8:+-profile$8}.log
	rm -f "$raw/done"
	vm_run "$log" '^icount: ' "$vng" --disable-kvm --cpus "$4" --memory 1G --rwdir "$raw" --qemu-opts "$icount" \
		-r "$1" --append "$nullb $5" --exec "sh tools/vm/icount.sh $3 $2 $6 $count ${7:--} ${8:-0}; reboot -f"
	[ -e "$raw/done" ] || die "$2 $3 did not finish (see $log)"
	stage_end
}

for k in "${kernels[@]}"; do
	if want S1; then
		for rot in 0 1; do
			boot "S1, $k kernel, rotational $rot" "${img[$k]}" "$k" S1 1 "null_blk.irqmode=0 null_blk.rotational=$rot" "$raw/icount.csv" "$rot"
		done
	fi
	! want S4 || boot "S4, $k kernel" "${img[$k]}" "$k" S4 1 "null_blk.irqmode=0" "$raw/icount.csv"
	if want S6; then
		for f in 0:64:1 0:256:1 0:1024:1 0:2048:1 2:64:1 2:256:1 2:1024:1 2:2048:1 0:64:2; do
			again=$([ "${f##*:}" = 1 ] || echo ", again in a new boot: the repeat")
			boot "S6, $k kernel, nomerges ${f%%:*} nr_requests $(echo "$f" | cut -d: -f2)$again" "${img[$k]}" "$k" S6 1 "null_blk.irqmode=0" "$raw/icount.csv" "$f"
		done
	fi
	! want S5 || boot "S5, $k kernel, two vCPUs" "${img[$k]}" "$k" S5 2 "null_blk.irqmode=1" "$raw/icount.csv"
	! want S7 || [ "$k" = series ] || boot "S7, $k kernel, four vCPUs" "${img[$k]}" "$k" S7 4 "null_blk.irqmode=0" "$raw/icount.csv"
done
# S7's lock statistics: base and (or) rfc again with configs/lockstat.config
if want S7; then
	for k in base "${kernels[@]:2}"; do
		limg=$(vm_kernel "lock_stat kernel: $k (configs/lockstat.config)" "$k" "$BSK_TOP/configs/lockstat.config")
		cp "$limg.id" "$raw/kernel-$k-lock_stat.id"
		boot "S7, $k kernel with lock_stat, four vCPUs" "$limg" "$k" S7 4 "null_blk.irqmode=0" "$raw/icount.csv" lock_stat
	done
fi

bad=$(icount_bad)
icount_csv >"$out/icount.csv"
icount_md "$(basename "$(dirname "${img[base]}")" | sed 's/-vm$//')" "$(date -u +%Y-%m-%d)" >"$out/icount.md"

d=$(mktemp -d)
if want S1; then
	awk -F, '$1 ~ /^S1-rot/ && $6 == 1 && $3 !~ /nomerges/ { split($1, p, "-rot"); k = $3 " rot" p[2]; if (!(k in seen)) { seen[k] = 1; o[++n] = k } v[k, $2] = $5 }
		END { for (i = 1; i <= n; i++) printf "\"%s\" %s %s %s\n", o[i], v[o[i], "base"], v[o[i], "series"], ((o[i], "rfc") in v) ? v[o[i], "rfc"] : "-" }' "$raw/icount.csv" >"$d/p.dat"
	plot "$out/icount.png" 800,420 "set title 'Guest instructions per 4 KiB read (QEMU icount, one vCPU, null_blk): base vs series'" \
		'set style data histogram' 'set style histogram clustered gap 2' 'set yrange [0:*]' 'set key top left' \
		"plot '$d/p.dat' using 2:xtic(1) title 'base', '' using 3 title 'series'$([ "${#kernels[@]}" -eq 2 ] || echo ", '' using 4 title 'rfc'")"
fi
if want S6; then
	awk -F, -v d="$d" '$1 == "S6" && $6 == 1 { split($3, w, /[ =]/); print w[3], $5 | ("sort -n >" d "/s6-" $2 "-" w[5] ".dat") }' "$raw/icount.csv"
	plot "$out/icount-s6.png" 800,420 "set title 'S6: busy instructions per 4 KiB random read, mq-deadline, one-tag null_blk (QEMU icount)'" \
		"set xlabel 'nr_requests (requests waiting hashed in 64 chains)'" "set ylabel 'instructions per I/O'" 'set logscale x 2' 'set key bottom right' \
		"plot $(for nm in 0 2; do for k in "${kernels[@]}"; do
			printf "'%s' with linespoints title '%s, %s', " "$d/s6-$k-$nm.dat" "$k" "$([ "$nm" = 0 ] && echo 'lookups (nomerges 0)' || echo 'no lookups (nomerges 2)')"
		done; done | sed 's/, $//')"
fi
rm -rf "$d"

if [ "$profile" = 1 ]; then
	pimg=$(vm_kernel "profile kernel (base + configs/profile.config)" base "$BSK_TOP/configs/profile.config")
	boot "profile, base kernel, rotational 0" "$pimg" base S1 1 "null_blk.irqmode=0 null_blk.rotational=0" "$raw/profile.csv" 0 1
	# the profiler's "us" are thousands of virtual ns, i.e. of instructions
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

results_at "$out" "icount.csv, icount.md, icount.png, icount-raw/; $((SECONDS - T0))s" "results/bench/<name>"
cat "$out/icount.md"
[ -z "$bad" ] || die "the repeat disagrees by more than 0.2%: $bad"
