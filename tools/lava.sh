#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lava.sh [TREE] | lava.sh validate JOB [DEVICE] - 'make lava': the suites as LAVA jobs,
# validated and run with lava-run against kunit.py, or jobs for a lab (docs/lava.md).
set -uo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

py() { "$lava/bin/lava-python" "$BSK_TOP/tools/lib/lava.py" "$@"; }

# validate JOB [DEVICE]: LAVA's schema, then lava-run --validate; nothing, or one line
validate() {
	local out rc=0 err
	err=$(py schema "$1" 2>&1) || { printf '%s\n' "${err:-$1: the LAVA schema check failed}"; return 1; }
	[ -n "${2:-}" ] || return 0
	out=$(mktemp -d) || die "cannot make a scratch directory for lava-run --validate"
	printf 'dispatcher_download_dir: %s/tmp\n' "$out" >"$out/dispatcher.yaml" # not /var/lib/lava
	"$lava/bin/lava-run" --validate --job-id validate --output-dir "$out/out" --dispatcher "$out/dispatcher.yaml" \
		--device "$2" "$1" >"$out/log" 2>&1 || rc=$?
	err=$(sed -n 's/.*"error_msg": "\(.*\)", "error_type".*/\1/p' "$out/log" | tail -n 1)
	[ "$rc" -eq 0 ] || printf '%s: %s\n' "$1" "${err:-lava-run --validate failed (exit $rc): $(tail -n 1 "$out/log")}"
	rm -rf "$out"
	return "$rc"
}

if [ "${1:-}" = validate ]; then
	{ [ $# -ge 2 ] && [ $# -le 3 ]; } || die "usage: lava.sh validate JOB [DEVICE]"
	[ -f "$2" ] || die "no job definition $2"
	[ -z "${3:-}" ] || [ -f "$3" ] || die "no device configuration $3"
	lava=$("$BSK_TOP/tools/env/lava.sh") || exit 1
	validate "$2" "${3:-}"; exit
fi

# the reference run is make kunit's, the suites whole
unset KUNIT_FILTER KUNIT_KERNEL KUNIT_BUILD_ONLY KUNIT_COVERAGE
read -r -a rows <<<"${LAVA_ROWS:-x86_64 arm64 arm64-clusters}"
declare -A archs smps
while read -r n a s; do archs[$n]=$a smps[$n]=$s; done < <(awk '/^[^#]/ { print $1, $2, $3 }' "$BSK_TOP/kunit/matrix")
dtype=${LAVA_DEVICE_TYPE:-qemu}
for r in "${rows[@]}"; do
	[ -n "${archs[$r]:-}" ] ||
		die "LAVA_ROWS: no line '$r' in kunit/matrix ($(awk '/^[^#]/ { printf "%s%s", s, $1; s = ", " }' "$BSK_TOP/kunit/matrix"))"
	[[ ${archs[$r]} =~ ^(x86_64|arm64)$ ]] ||
		die "LAVA_ROWS: $r is not an x86_64 or arm64 machine (LAVA's qemu device type boots those here)"
	[ "$dtype" = qemu ] && continue
	[ -n "${LAVA_KERNEL_URL:-}" ] ||
		die "LAVA_DEVICE_TYPE=$dtype: set LAVA_KERNEL_URL to where the lab fetches each kernel ({name}: the line's name), e.g. https://files.example.org/lava/{name}/Image"
	[ -n "${LAVA_ROWS:-}" ] ||
		die "LAVA_DEVICE_TYPE=$dtype: set LAVA_ROWS to the kunit/matrix lines of the board's arch (e.g. arm64)"
	[ "${archs[$r]}" != arm64 ] || [ "${LAVA_BOOT_METHOD:-u-boot}" != u-boot ] || [ -n "${LAVA_DTB_URL:-}" ] ||
		die "LAVA_DEVICE_TYPE=$dtype: an arm64 board booted by u-boot needs its device tree: set LAVA_DTB_URL"
done
lava=$("$BSK_TOP/tools/env/lava.sh") || exit 1
tree=${1:-}
[ -n "$tree" ] || read -r _ tree _ < <("$BSK_TOP/tools/env/tree.sh") || exit 1
[ -d "$tree" ] || die "no applied tree at $tree; run 'make apply' first"

run=$(run_dir lava)
printf 'dispatcher_download_dir: %s/tmp\n' "$run" >"$run/dispatcher.yaml" # lava-run's, not /var/lib/lava
info "jobs, kernels and logs in $run"
summary=()
for r in "${rows[@]}"; do
	arch=${archs[$r]} smp=${smps[$r]} job=$run/$r.yaml log=$run/$r-kunit.log kr=$run/$r-kunit err='' t=$SECONDS
	KUNIT_OUT=$kr BSK_COUNTS=$kr.counts ARCH=$arch KUNIT_TOPOLOGY=$r "$BSK_TOP/tools/kunit.sh" "$tree" >"$log" 2>&1
	krc=$?
	result_of_run "$kr.counts" "$log" "$krc" "$r: kunit.py" "$t"
	[ -s "$kr/results.json" ] ||
		{ result "$r: a LAVA job (kunit.py gave no results to compare with, see $log)" 1; continue; }
	mkdir -p "$run/$r" && cp "$kr/results.json" "$run/$r/kunit-results.json"
	if [ "$dtype" = qemu ]; then # the job boots kunit.py's kernel; a board fetches its own
		img=$kr/build/$(py kernel "$tree" "$arch")
		cp "$img" "$run/$r/" || { result "$r: a LAVA job (no kernel $img)" 1; continue; }
		set -- "file://$run/$r/$(basename "$img")"
	else
		dtb=${LAVA_DTB_URL:-}
		set -- "${LAVA_KERNEL_URL//\{name\}/$r}" "$dtype" "${LAVA_BOOT_METHOD:-}" "${dtb//\{name\}/$r}" "${LAVA_BOOT_COMMANDS:-}"
	fi
	py job "$kr/results.json" "$tree" "$r" "$arch" "$smp" "$@" >"$job" 2>"$run/$r-job.err" ||
		{ result "$r: a LAVA job (tools/lib/lava.py job failed: $(tail -n 1 "$run/$r-job.err"))" 1; continue; }
	if [ "$dtype" = qemu ]; then
		what="LAVA's schema, lava-run --validate"
		py device "$job" "$lava/device-types" >"$run/$r-device.yaml" && err=$(validate "$job" "$run/$r-device.yaml")
	else
		what="LAVA's schema; boot method and commands of device type $dtype"
		err=$(validate "$job") && err=$(py board "$job" "$lava/device-types" 2>&1)
	fi
	rc=$?
	[ -z "$err" ] || printf '      %s\n' "$err"
	result "$r: $job valid ($what)" "$rc"
	{ [ "$rc" -eq 0 ] && [ "$dtype" = qemu ]; } || continue
	t=$SECONDS
	"$lava/bin/lava-run" --job-id "$r" --output-dir "$run/$r-out" --dispatcher "$run/dispatcher.yaml" \
		--device "$run/$r-device.yaml" "$job" >"$run/$r-lava.log" 2>&1; lrc=$?
	py compare "$run/$r-lava.log" "$kr/results.json" >"$run/$r-compare.txt"; crc=$?
	[ "$crc" -eq 0 ] || sed 's/^/      /' "$run/$r-compare.txt" | head -n 20
	[ "$lrc" -eq 0 ] || info "lava-run exited with $lrc (log: $run/$r-lava.log)"
	cmp=$(tail -n 1 "$run/$r-compare.txt")
	result "$r: lava-run gives every case kunit.py's result: $cmp ($((SECONDS - t))s)" $((lrc || crc))
	summary+=("| \`$r\` | \`-smp $smp\` | $(kunit_json_counts "$kr/results.json" | sed 's/ / | /g') | $cmp | $((SECONDS - t)) s |")
done
# a whole local run (the default lines, no lab) is results/lava's evidence
if [ "$dtype" = qemu ] && [ -z "${LAVA_ROWS:-}" ] && [ "$BSK_FAILED" -eq 0 ] && [ "${BASE:-mainline}" = mainline ] &&
	[ -z "${KERNEL:-}" ] && [ -z "${KUNIT_DEBUG:-}" ]; then
	out=$(run_dir lava)
	cat >"$out/summary.md" <<-EOF
		# make lava: the suites as LAVA jobs on QEMU, against kunit.py

		$(date +%Y-%m-%d), $(basename "$tree"), $(git -C "$tree" log -1 --format=%h); $(sed -n 's/^# \(.*\), unpacked by.*/\1/p' "$lava/bin/lava-run").
		Command: \`make lava\` (tools/lava.sh; lines of kunit/matrix; TCG).

		| line | QEMU | kunit.py passed | failed | skipped | LAVA against kunit.py, case for case | lava-run |
		|---|---|---|---|---|---|---|
		$(printf '%s\n' "${summary[@]}")
	EOF
	info "summary: $out/summary.md; to commit it: make promote RUN=$out TO=results/lava"
fi
results_end
