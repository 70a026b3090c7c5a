#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# stress.sh [base|series|rfc|tip...] - 'make stress': the block layer
# under switching, hotplug and injected faults, in a virtme-ng VM on a
# debug kernel (tools/env/vmkernel.sh with configs/debug.config: KASAN,
# KFENCE, UBSAN, lockdep, ...), for the base and for the series (default
# both; rfc: the base with the RFC threads alone; tip: the whole series).
# Guest side: tools/vm/stress.sh.
#
#   STRESS_SECONDS=300   how long each kernel is stressed
#   STRESS_OUT=dir       results (default: a new run directory in the cache;
#                        make promote commits one)
#   STRESS_FRAGMENTS="f ..."  more config fragments for the series kernel
#                        ('make check' adds block/tests/.kunitconfig: the
#                        kernel its KUnit x86_64 run booted; the suites do
#                        not run again here, kunit.enable=0)
#
# stress.sh summary: STRESS_OUT/summary.json again from the <kernel>.json
# files in STRESS_OUT, nothing built or run.
#
# Writes STRESS_OUT/summary.json (one object per kernel with the counts
# scheduler_switches, affinity_flips, depth_changes, cpu_offlines,
# faults_injected, fio_verify_errors, splats, ...) and, per kernel, its
# kernel log (<kernel>-dmesg.txt) and fio's output.  The series passes
# when it has 0 splats, 0 verify errors, every kind of operation at least
# once and every invalid BFQ tunable write refused; a splat of the base
# is reported, not counted against the series.  Last line:
# "N passed, N failed, N skipped".
set -euo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

# write_summary OUT: OUT/summary.json, one object per kernel of OUT's
# <kernel>.json files (each kernel's latest run, whichever ran); none:
# no summary.json, and false.
write_summary() {
	local k js=()
	for k in base series rfc tip; do
		[ ! -s "$1/$k.json" ] || js+=("$1/$k.json")
	done
	rm -f "$1/summary.json"
	if [ ${#js[@]} -eq 0 ]; then
		info "no <kernel>.json in $1: no summary.json"
		return 1
	fi
	jq -s 'map({(.kernel): del(.kernel)}) | add' "${js[@]}" >"$1/summary.json.new"
	mv "$1/summary.json.new" "$1/summary.json"
}

kernels=("$@")
if [ "${kernels[*]}" = summary ]; then
	command -v jq >/dev/null || die "stress.sh summary needs jq"
	write_summary "${STRESS_OUT:?stress.sh summary: STRESS_OUT= names the run}" || exit 1
	exit 0
fi
[ ${#kernels[@]} -gt 0 ] || kernels=(base series)
for k in "${kernels[@]}"; do
	case $k in base|series|rfc|tip) ;; *) die "usage: stress.sh [base|series|rfc|tip...] (not '$k')" ;; esac
done
secs=${STRESS_SECONDS:-300}
[[ $secs =~ ^[1-9][0-9]*$ ]] || die "STRESS_SECONDS=$secs is not a positive number"
out=${STRESS_OUT:-$(run_dir stress)}
mkdir -p "$out"
out=$(cd "$out" && pwd)

"$BSK_TOP/tools/env/deps.sh" base build vm
vng=$("$BSK_TOP/tools/env/vng.sh")
"$BSK_TOP/tools/apply.sh" >/dev/null

for k in "${kernels[@]}"; do
	stage "debug guest kernel: $k"
	frags=("$BSK_TOP/configs/debug.config")
	# shellcheck disable=SC2206 # a list of paths, split on blanks
	[ "$k" = base ] || frags+=(${STRESS_FRAGMENTS:-})
	img=$("$BSK_TOP/tools/env/vmkernel.sh" "$k" "${frags[@]}")
	stage_end
	stage "stress on the $k kernel (${secs}s)"
	rm -f "$out/$k.json" "$out/$k-dmesg.txt" "$out/$k-fio.txt"
	(cd "$BSK_TOP" && timeout $((secs + 900)) "$vng" --disable-kvm --cpus 2 --memory 2G \
		--rwdir "$out" -r "$img" \
		--append "kunit.enable=0 null_blk.nr_devices=0 scsi_debug.dev_size_mb=128 scsi_debug.max_queue=64 scsi_debug.ndelay=200000" \
		--exec "sh tools/vm/stress.sh $k $out $secs; reboot -f") 2>&1 |
		tee "$out/$k-console.log" | grep --line-buffered '^stress: ' || true
	stage_end
	if [ ! -f "$out/$k.json" ]; then
		result "$k: the stress run finished (see $out/$k-console.log)" 1
		continue
	fi
	j=$out/$k.json
	# The excerpts: each splat line with the trace that follows it.
	grep -aE -A 40 -f "$BSK_TOP/tools/lib/splat-patterns" "$out/$k-dmesg.txt" >"$out/$k-splats.txt" ||
		rm -f "$out/$k-splats.txt"
	v() { jq -r ".$1" "$j"; }
	if [ "$k" = base ]; then
		# The base's findings are upstream's, not the series': reported.
		[ "$(v splats)" -eq 0 ] ||
			info "the base kernel has $(v splats) splat lines: an upstream finding (see $out/base-splats.txt)"
		continue
	fi
	result "$k: no kernel splat (BUG, WARNING, KASAN, UBSAN, KFENCE, lockdep, hung task, RCU stall): $(v splats)" \
		"$([ "$(v splats)" -eq 0 ]; echo $?)"
	result "$k: no fio verify error: $(v fio_verify_errors)" "$([ "$(v fio_verify_errors)" -eq 0 ]; echo $?)"
	for c in scheduler_switches affinity_flips depth_changes cpu_offlines faults_injected bfq_tunable_writes; do
		result "$k: $c at least once: $(v "$c")" "$([ "$(v "$c")" -gt 0 ]; echo $?)"
	done
	result "$k: invalid BFQ tunable writes refused with EINVAL, value unchanged: $(v bfq_invalid_refused_unchanged) of $(v bfq_invalid_writes)" \
		"$([ "$(v bfq_invalid_writes)" -gt 0 ] && [ "$(v bfq_invalid_refused_unchanged)" -eq "$(v bfq_invalid_writes)" ]; echo $?)"
done

if write_summary "$out"; then
	info "results in $out (summary.json, <kernel>-dmesg.txt, <kernel>-fio.txt)"
	info "to commit them: make promote RUN=$out TO=results/stress[/<name>]"
fi
results_end
