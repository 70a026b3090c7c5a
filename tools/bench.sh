#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bench.sh [S...] - 'make bench': scenarios S1-S6 in a virtme-ng VM (QEMU TCG) on the
# base, series and rfc kernels (guest side: tools/vm/bench.sh; ICOUNT=1: bench-icount.sh).
# Settings: docs/reference.md; the scenarios and outputs: docs/benchmarks.md.
set -euo pipefail
# shellcheck source=lib/vm.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/vm.sh"
# shellcheck source=lib/bench.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/bench.sh"

[ "${ICOUNT:-0}" = 0 ] || exec "$BSK_TOP/tools/bench-icount.sh" # check_settings: 0 or 1
all=(S1 S2 S3 S4 S5 S6)
read -r -a want <<<"${S:-${*:-${all[*]}}}"
for s in "${want[@]}"; do
	case " ${all[*]} " in *" $s "*) ;; *) die "unknown scenario '$s' (have: ${all[*]})" ;; esac
done
runs=${RUNS:-3} # check_settings: a positive number
out=$(out_dir BENCH_OUT bench)
mkdir -p "$out/raw"
vm_setup
read -r _ wt _ < <("$BSK_TOP/tools/env/tree.sh")

sdebug="scsi_debug.max_queue=64 scsi_debug.ndelay=5000000 scsi_debug.submit_queues=1"
declare -A cmdline=(
	[S1]="scsi_debug.dev_size_mb=256 $sdebug"
	[S2]="scsi_debug.dev_size_mb=512 $sdebug"
	[S3]="$S3_CMDLINE"
	[S4]="null_blk.queue_mode=2 null_blk.submit_queues=1 null_blk.hw_queue_depth=1023 null_blk.irqmode=2 null_blk.completion_nsec=20000000"
	[S5]="isolcpus=managed_irq,1-3"
	[S6]="null_blk.queue_mode=2 null_blk.submit_queues=1 null_blk.hw_queue_depth=1 null_blk.irqmode=2 null_blk.completion_nsec=20000 null_blk.gb=64"
)
declare -A runtime=([S1]=20 [S2]=20 [S3]=0 [S4]=20 [S5]=15 [S6]=15)

vm_args() {
	va=(--cpus 2 --memory 2G)
	[ "$1" = S5 ] || return 0
	# two NUMA nodes of two CPUs; a virtio-blk disk served by an iothread
	local s5=$BSK_CACHE/bench/s5.img
	mkdir -p "$(dirname "$s5")"
	[ -f "$s5" ] || truncate -s 1G "$s5"
	# shellcheck disable=SC2054 # vng --numa takes commas
	va=(--cpus 4 --memory 2G --numa 1G,cpus=0-1 --numa 1G,cpus=2-3
	    --qemu-opts "-smp 4,sockets=2,cores=2,threads=1 -object iothread,id=io0 -drive file=$s5,format=raw,if=none,id=d0,cache=none,aio=threads -device virtio-blk-pci,drive=d0,num-queues=1,iothread=io0")
}

T0=$SECONDS
vm_kernels

# kernels in ABBA order across runs: a drift of the emulator falls on all alike
for s in "${want[@]}"; do
	env=()
	[ "$s" != S3 ] || env=("BENCH_S3_IMAGE=$(s3_image)")
	vm_args "$s"
	for k in "${kernels[@]}"; do rm -rf "${out:?}/raw/$s/$k" && mkdir -p "$out/raw/$s/$k"; done
	for r in $(seq "$runs"); do
		order=("${kernels[@]}")
		[ $((r % 2)) -eq 1 ] || mapfile -t order < <(printf '%s\n' "${kernels[@]}" | tac)
		for k in "${order[@]}"; do
			stage "$s on the $k kernel, run $r of $runs"
			log=$out/raw/$s/$k/console-$r.log
			rm -f "$out/raw/done"
			vm_run "$log" '^bench: ' "$vng" --disable-kvm "${va[@]}" --rwdir "$out/raw" -r "${img[$k]}" \
				--append "${cmdline[$s]}" --exec "${env[*]} sh tools/vm/bench.sh $s $k $out/raw $runs ${runtime[$s]} $r; reboot -f"
			[ -e "$out/raw/done" ] ||
				die "$s on the $k kernel did not finish run $r (see $log)"
			stage_end
		done
	done
	for k in "${kernels[@]}"; do
		info "$s $k: $(wc -l <"$out/raw/$s/$k/metrics.tsv") figures"
	done
done

bench_csv "$out/raw" >"$out/summary.csv"

# a plot per scenario: a panel per metric, every kernel per scheduler, median with min-max bars
for s in "${want[@]}"; do
	mapfile -t pk < <(for k in "${kernels[@]}"; do ! grep -q "^$s,$k," "$out/summary.csv" || echo "$k"; done)
	[ "${#pk[@]}" -gt 0 ] || continue
	d=$(mktemp -d)
	awk -F',' -v s="$s" -v d="$d" -v ks="${pk[*]}" 'BEGIN { nk = split(ks, kn, " ") }
		NR > 1 && $1 == s { gsub(/"/, "", $4)
		if (!($4 in g)) { g[$4] = ++ng; print $4 >(d "/" ng ".title") }
		f = d "/" g[$4] ".dat"
		if (!((f, $3) in row)) { row[f, $3] = ++nr[f]; lbl[f, nr[f]] = $3; file[f] = 1 }
		m[f, $3, $2] = $5; lo[f, $3, $2] = $6; hi[f, $3, $2] = $7 }
		END { for (f in file) for (i = 1; i <= nr[f]; i++) { k = lbl[f, i]
			printf "\"%s\"", k >f
			for (j = 1; j <= nk; j++) { c = kn[j]
				printf " %s %s %s", m[f, k, c], lo[f, k, c], hi[f, k, c] >f }
			printf "\n" >f } }' "$out/summary.csv"
	n=$(find "$d" -name '*.dat' | wc -l)
	cols=$(awk -v n="$n" 'BEGIN { c = int(sqrt(n)); print c * c < n ? c + 1 : c }') rows=$(((n + cols - 1) / cols))
	[ "$n" -eq 0 ] || plot "$out/$s.png" "$((cols * 420)),$((rows * 340 + 40))" \
		"set multiplot layout $rows,$cols title '$s: ${pk[*]}, median of $runs runs with min-max (QEMU TCG: compare within a panel only)'" \
		'set style data histogram' 'set style histogram errorbars gap 2 lw 1' 'set xtics rotate by -20 nomirror' \
		'set key top right font ",8"' 'set yrange [0:*]' 'set bmargin 5' \
		"$(for i in $(seq "$n"); do
			printf 'set title "%s"\nplot "%s" using 2:3:4:xtic(1) title "base"' "$(cat "$d/$i.title")" "$d/$i.dat"
			for j in $(seq 2 "${#pk[@]}"); do printf ', "" using %d:%d:%d title "%s"' $((3 * j - 1)) $((3 * j)) $((3 * j + 1)) "${pk[j - 1]}"; done
			echo
		done)" 'unset multiplot'
	rm -rf "$d"
done

vm=$(dirname "${img[base]}")
{
	echo "# make bench: ${kernels[*]} in a virtme-ng VM (QEMU TCG)"
	echo
	echo "Kernels: $(basename "$wt") (base) and $(basename "$wt") + series$([ -z "${img[rfc]:-}" ] || echo ", and rfc: $(basename "$wt") with the series' RFC threads alone"), x86_64, allnoconfig + tinyconfig's fragments + configs/vm.config (merge_config.sh -n)."
	echo 'TCG figures, not hardware figures: compare within this table only.'
	echo "Each figure: median of $runs runs (min–max). Produced by \`make bench\` ($(date -u +%Y-%m-%d))."
	echo
	bench_table "${kernels[@]}" <"$out/summary.csv"
	for k in "${kernels[@]:1}"; do
		# shellcheck disable=SC2016 # Markdown backquotes
		printf '\n`scripts/bloat-o-meter vmlinux-base vmlinux-%s` (x86_64, tests off):\n\n```\n' "$k"
		"$wt/scripts/bloat-o-meter" "$vm/vmlinux-base" "$vm/vmlinux-$k" || true
		echo '```'
	done
	for s in "${all[@]}"; do
		[ ! -f "$out/$s.png" ] || printf '\n![%s](%s.png)\n' "$s" "$s"
	done
} >"$out/summary.md"

results_at "$out" "summary.csv, summary.md, <S>.png, raw/; $((SECONDS - T0))s" results/bench
column -s, -t <"$out/summary.csv"
