#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# s3-trace.sh - 'make s3-trace': S3 pass after pass on the base kernel + debug/, BFQ's
# decisions traced: how often its slow mode comes (guest side: tools/vm/s3-trace.sh).
# Settings: docs/reference.md; outputs: docs/benchmarks.md#bfqs-slow-mode-make-s3-trace.
set -euo pipefail
# shellcheck source=lib/vm.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/vm.sh"

passes=${PASSES:-6} # check_settings: a positive number
read -r -a specs <<<"${SPECS:-bfq mq-deadline}"
[ "${#specs[@]}" -gt 0 ] || die "SPECS is empty: give schedulers, e.g. SPECS='bfq mq-deadline'"
[ "$(printf '%s\n' "${specs[@]}" | sort | uniq -d)" = "" ] || die "SPECS='${specs[*]}' names a scheduler twice"
for s in "${specs[@]}"; do
	[[ $s =~ ^(bfq|mq-deadline|kyber|none)(:[a-z_]+=[0-9]+)?$ ]] ||
		die "SPECS: '$s' is not SCHED or SCHED:TUNABLE=N (e.g. bfq:slice_idle=0)"
done
case ${ICOUNT:-1} in
1) qopts="-icount shift=0,sleep=off -accel tcg,thread=single" mode="QEMU -icount shift=0,sleep=off, single-threaded TCG" ;;
0) qopts="" mode="QEMU plain TCG" ;; # check_settings refuses anything else
esac
slow_s=10 # seconds serialized that make a pass slow
[ -z "${TRACE_RAW:-}" ] || [ -f "$TRACE_RAW/console.log" ] ||
	die "TRACE_RAW=$TRACE_RAW has no console.log of an s3-trace run"
[ -z "$(ls -A "${TRACE_OUT:-/nonexistent}" 2>/dev/null)" ] ||
	die "TRACE_OUT=$TRACE_OUT is not empty; remove it or choose another"
out=$(out_dir TRACE_OUT s3-trace)

T0=$SECONDS
if [ -n "${TRACE_RAW:-}" ]; then
	raw=$(cd "$TRACE_RAW" && pwd)
	log=$raw/console.log
	kimg="(the traces of $raw)"
else
	vm_setup
	kimg=$(vm_kernel "guest kernel: base + debug/" debug)
	s3img=$(s3_image)
	raw=$BSK_CACHE/runs/$(date -u +%Y%m%d-%H%M%S)-s3-trace
	mkdir -p "$raw"
	stage "S3, ${#specs[@]} scheduler(s) x $passes passes ($mode)"
	log=$raw/console.log
	vm_run "$log" '^s3-trace: ' "$vng" --disable-kvm --cpus 2 --memory 2G --rwdir "$raw" ${qopts:+--qemu-opts "$qopts"} \
		-r "$kimg" --append "$S3_CMDLINE" --exec "BENCH_S3_IMAGE=$s3img sh tools/vm/s3-trace.sh $raw $passes ${specs[*]}; reboot -f"
	[ -e "$raw/done" ] || die "the guest did not finish (see $log)"
	stage_end
fi

{
	echo 'spec,pass,median reader s,longest reader s,seconds serialized,slow,median over twice mq-deadline,idle arms,throughput-idling arms,preempted,merges+splits,hw_tag'
	for p in $(seq "$passes"); do
		for s in "${specs[@]}"; do
			t=$(echo "$s" | tr ':=' '--')-$p
			[ -f "$raw/$t.json" ] || die "no $raw/$t.json: the pass did not run (see $log)"
			awk -f "$BSK_TOP/tools/lib/bfq-timeline.awk" "$raw/$t.trace" >"$out/$t.timeline.tsv"
			{
				echo '# the hw_tag decisions and the idle timer arms (count, state)'
				grep -o 'hw_tag -\{0,1\}[0-9]: max_rq_in_driver.*' "$raw/$t.trace" || true
				grep -o 'arm idle .*' "$raw/$t.trace" | sort | uniq -c | sort -rn || true
				echo '# expirations by reason (0 too idle, 1 budget timeout, 2 budget exhausted, 3 no more requests, 4 preempted)'
				grep -o 'expire ([0-9]' "$raw/$t.trace" | sort | uniq -c || true
			} >"$out/$t.decisions.txt"
			# shellcheck disable=SC2016 # jq's own $
			rt=$(fio_json "$raw/$t.json" | jq -r '[.jobs[].job_runtime / 1000] | sort | (length / 2 | floor) as $h | (if length % 2 == 1 then .[$h] else (.[$h - 1] + .[$h]) / 2 end), max' |
				awk '{ printf "%.2f\n", $1 }' | paste -sd,)
			# shellcheck disable=SC2016 # awk's fields
			tl=$(awk -F'\t' 'NR > 1 && $2 > 0 && $3 <= 1.2 { s++ } NR > 1 { e4 += $8; mg += $10; ai += $12 } END { printf "%d,%d,%d,%d", s, ai, e4, mg }' "$out/$t.timeline.tsv")
			IFS=, read -r ser arms pre mg <<<"$tl"
			thr=$(grep -c 'arm idle [0-9]* us: seeky 0 io_bound 1 short_ttime 1' "$raw/$t.trace" || true)
			hw=$(grep -o 'hw_tag -\{0,1\}[0-9]:' "$raw/$t.trace" | tr -d : | awk '{ print $2 }' | paste -sd' ' || true)
			slow=no
			[ "$ser" -lt "$slow_s" ] || slow=yes
			echo "$s,$p,$rt,$ser,$slow,-,$arms,$thr,$pre,$mg,${hw:--}"
		done
	done
} >"$out/passes.tmp"
ref=$(awk -F, '$1 == "mq-deadline" { print $3 }' "$out/passes.tmp" | sort -g |
	awk '{ v[NR] = $1 } END { if (NR) print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
# shellcheck disable=SC2016 # awk's fields
awk -F, -v OFS=, -v ref="$ref" 'NR > 1 && ref != "" { $7 = $3 > 2 * ref ? "yes" : "no" } { print }' \
	"$out/passes.tmp" >"$out/passes.csv"
rm -f "$out/passes.tmp"

{
	echo '# S3 pass after pass, with what BFQ decided traced'
	echo
	echo "Produced by \`make s3-trace PASSES=$passes SPECS='${specs[*]}' ICOUNT=${ICOUNT:-1}\` ($(date -u +%Y-%m-%d)${TRACE_RAW:+, summarized again from the traces})."
	echo "Kernel: the base with debug/ (not the series; the patches log, they do not change BFQ): $kimg."
	echo "Machine: $mode, two vCPUs, 2 GiB; the device: scsi_debug, 5 ms per command, rotational; the load: tools/vm/s3.fio, 8 psync readers of 1000 files of 4-16 KiB each, cold cache."
	echo "Traces and fio's JSON: $raw (not committed)."
	echo
	echo '| scheduler | pass | median reader (s) | longest reader (s) | seconds serialized | slow | median over twice mq-deadline | idle arms | of them throughput idling | preempted | merges+splits | hw_tag decided |'
	echo '|---|---|---|---|---|---|---|---|---|---|---|---|'
	awk -F, 'NR > 1 { printf "| %s |\n", $0 }' "$out/passes.csv" | sed 's/,/ | /g'
	echo
	# shellcheck disable=SC2016 # awk's fields
	awk -F, 'NR > 1 { n[$1]++; if ($6 == "yes") y[$1]++; if ($7 == "yes") m[$1]++ }
		END { for (s in n) printf "- %s: %d of %d passes slow (serialized %s s or more); %d with the median reader over twice mq-deadline'"'"'s\n", s, y[s], n[s], slow, m[s] }' \
		slow="$slow_s" "$out/passes.csv" | sort
	echo
	echo "Serialized: seconds in which the device had 1.2 requests or fewer on average while requests were dispatched; slow: $slow_s or more such seconds (a fast pass's tail serializes for a few seconds once some readers have finished). Throughput idling: idle arms for a queue \"seeky 0 io_bound 1 short_ttime 1\" (the debug log). Per pass: <scheduler>-<pass>.timeline.tsv (one line per second) and .decisions.txt."
} >"$out/summary.md"
results_at "$out" "$((SECONDS - T0)) s" results/s3-trace/run
cat "$out/summary.md"
