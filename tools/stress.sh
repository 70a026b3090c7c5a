#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# stress.sh [base|series|rfc|tip...|summary] - 'make stress': switching, hotplug and faults
# on debug kernels in a virtme-ng VM (guest side: tools/vm/stress.sh).  Settings:
# docs/reference.md; what it checks and writes: docs/stress.md.
set -euo pipefail
# shellcheck source=lib/vm.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/vm.sh"

# write_summary OUT: OUT/summary.json from OUT/<kernel>.json; false if none
write_summary() {
	local k js=()
	for k in base series rfc tip; do
		[ ! -s "$1/$k.json" ] || js+=("$1/$k.json")
	done
	rm -f "$1/summary.json"
	[ ${#js[@]} -gt 0 ] || { info "no <kernel>.json in $1: no summary.json"; return 1; }
	jq -s 'map({(.kernel): del(.kernel)}) | add' "${js[@]}" >"$1/summary.json.new"
	mv "$1/summary.json.new" "$1/summary.json"
}

kernels=("$@")
if [ "${kernels[*]}" = summary ]; then
	command -v jq >/dev/null || die "stress.sh summary needs jq"
	write_summary "${STRESS_OUT:?stress.sh summary: STRESS_OUT= names the run}"
	exit
fi
[ ${#kernels[@]} -gt 0 ] || kernels=(base series)
for k in "${kernels[@]}"; do
	case $k in base|series|rfc|tip) ;; *) die "usage: stress.sh [base|series|rfc|tip...] (not '$k')" ;; esac
done
secs=${STRESS_SECONDS:-300} # check_settings: a positive number
out=$(out_dir STRESS_OUT stress)
vm_setup

for k in "${kernels[@]}"; do
	frags=("$BSK_TOP/configs/debug.config")
	# shellcheck disable=SC2206 # a list of paths, split on blanks
	[ "$k" = base ] || frags+=(${STRESS_FRAGMENTS:-})
	kimg=$(vm_kernel "debug guest kernel: $k" "$k" "${frags[@]}")
	stage "stress on the $k kernel (${secs}s)"
	rm -f "$out/$k.json" "$out/$k-dmesg.txt" "$out/$k-fio.txt"
	vm_run "$out/$k-console.log" '^stress: ' timeout $((secs + 900)) "$vng" --disable-kvm --cpus 2 --memory 2G \
		--rwdir "$out" -r "$kimg" --exec "sh tools/vm/stress.sh $k $out $secs; reboot -f" \
		--append "kunit.enable=0 null_blk.nr_devices=0 scsi_debug.dev_size_mb=128 scsi_debug.max_queue=64 scsi_debug.ndelay=200000"
	stage_end
	[ -f "$out/$k.json" ] || { result "$k: the stress run finished (see $out/$k-console.log)" 1; continue; }
	j=$out/$k.json
	grep -aE -A 40 -f "$BSK_TOP/tools/lib/splat-patterns" "$out/$k-dmesg.txt" >"$out/$k-splats.txt" ||
		rm -f "$out/$k-splats.txt"
	v() { jq -r ".$1" "$j"; }
	if [ "$k" = base ]; then
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

! write_summary "$out" || results_at "$out" "summary.json, <kernel>-dmesg.txt, <kernel>-fio.txt" "results/stress[/<name>]"
results_end
