#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lava.sh [TREE] - 'make lava': per kunit/matrix line of LAVA_ROWS (default
# x86_64 arm64 arm64-clusters) kunit.sh runs the suites, tools/lib/lava.py
# writes a LAVA job booting the same kernel, the job is validated (LAVA's
# schema, lava-run --validate) and run with lava-run, and every case must
# have kunit.py's result.  LAVA_DEVICE_TYPE=type with LAVA_KERNEL_URL
# ({name}: the line), LAVA_DTB_URL, LAVA_BOOT_METHOD, LAVA_BOOT_COMMANDS:
# jobs for a lab instead, validated, not run (docs/lava.md).
# lava.sh validate JOB [DEVICE]: the checks alone; nothing, or one line.
# A passing default run writes summary.md to a run directory of its own.
# Last line: "N passed, N failed, N skipped".
set -uo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

lava=
py() { "$lava/bin/lava-python" "$BSK_TOP/tools/lib/lava.py" "$@"; }

# a dispatcher configuration keeping lava-run's downloads in DIR
dispatcher_config() {
	mkdir -p "$1/tmp"
	printf 'dispatcher_download_dir: %s/tmp\n' "$1" >"$1/dispatcher.yaml"
	printf '%s\n' "$1/dispatcher.yaml"
}

validate() {
	local job=$1 dev=${2:-} out rc=0 err
	err=$(py schema "$job") || { printf '%s\n' "${err:-$job: the LAVA schema check failed}"; return 1; }
	[ -n "$dev" ] || return 0
	{ mkdir -p "$BSK_CACHE" && out=$(mktemp -d "$BSK_CACHE/lava-validate.XXXXXX"); } ||
		die "cannot make a scratch directory in $BSK_CACHE"
	# shellcheck disable=SC2064 # this call's directory
	trap "rm -rf '$out'" RETURN
	"$lava/bin/lava-run" --validate --job-id validate --output-dir "$out/out" \
		--dispatcher "$(dispatcher_config "$out")" --device "$dev" "$job" >"$out/log" 2>&1 || rc=$?
	if [ "$rc" -ne 0 ]; then
		err=$(sed -n 's/.*"error_msg": "\(.*\)", "error_type".*/\1/p' "$out/log" | tail -n 1)
		printf '%s: %s\n' "$job" "${err:-lava-run --validate failed (exit $rc): $(tail -n 1 "$out/log")}"
	fi
	return "$rc"
}

if [ "${1:-}" = validate ]; then
	{ [ $# -ge 2 ] && [ $# -le 3 ]; } || die "usage: lava.sh validate JOB [DEVICE]"
	[ -f "$2" ] || die "no job definition $2"
	[ -z "${3:-}" ] || [ -f "$3" ] || die "no device configuration $3"
	lava=$("$BSK_TOP/tools/env/lava.sh") || exit 1
	validate "$2" "${3:-}"
	exit
fi

# the reference run is make kunit's, the suites whole
unset KUNIT_FILTER KUNIT_KERNEL KUNIT_BUILD_ONLY KUNIT_COVERAGE
read -r -a rows <<<"${LAVA_ROWS:-x86_64 arm64 arm64-clusters}"
matrix=$BSK_TOP/kunit/matrix
for r in "${rows[@]}"; do
	awk -v n="$r" '$1 == n { f = 1 } END { exit !f }' "$matrix" ||
		die "LAVA_ROWS: no line '$r' in kunit/matrix ($(awk '/^[^#]/ { printf "%s%s", s, $1; s = ", " }' "$matrix"))"
	case $(awk -v n="$r" '$1 == n { print $2 }' "$matrix") in
	x86_64 | arm64) ;;
	*) die "LAVA_ROWS: $r is not an x86_64 or arm64 machine (LAVA's qemu device type boots those here)" ;;
	esac
done
dtype=${LAVA_DEVICE_TYPE:-qemu}
if [ "$dtype" != qemu ]; then
	[ -n "${LAVA_KERNEL_URL:-}" ] ||
		die "LAVA_DEVICE_TYPE=$dtype: set LAVA_KERNEL_URL to where the lab fetches each kernel ({name}: the line's name), e.g. https://files.example.org/lava/{name}/Image"
	[ -n "${LAVA_ROWS:-}" ] ||
		die "LAVA_DEVICE_TYPE=$dtype: set LAVA_ROWS to the kunit/matrix lines of the board's arch (e.g. arm64)"
	if [ "${LAVA_BOOT_METHOD:-u-boot}" = u-boot ] && [ -z "${LAVA_DTB_URL:-}" ]; then
		for r in "${rows[@]}"; do
			[ "$(awk -v n="$r" '$1 == n { print $2 }' "$matrix")" != arm64 ] ||
				die "LAVA_DEVICE_TYPE=$dtype: an arm64 board booted by u-boot needs its device tree: set LAVA_DTB_URL"
		done
	fi
fi
lava=$("$BSK_TOP/tools/env/lava.sh") || exit 1
tree=${1:-}
[ -n "$tree" ] || read -r _ tree _ < <("$BSK_TOP/tools/env/tree.sh") || exit 1
[ -d "$tree" ] || die "no applied tree at $tree; run 'make apply' first"

run=$BSK_CACHE/runs/$(date +%Y%m%d-%H%M%S)-lava
mkdir -p "$run"
disp=$(dispatcher_config "$run")
info "jobs, kernels and logs in $run"
summary=()
failed0=$BSK_FAILED
for r in "${rows[@]}"; do
	err=
	read -r arch smp < <(awk -v n="$r" '$1 == n { print $2, $3 }' "$matrix")
	t=$SECONDS
	log=$run/$r-kunit.log
	kr=$run/$r-kunit
	KUNIT_OUT=$kr ARCH=$arch KUNIT_TOPOLOGY=$r "$BSK_TOP/tools/kunit.sh" "$tree" >"$log" 2>&1
	krc=$?
	result_of_run "$log" "$krc" "$r: kunit.py" "$t"
	if [ ! -s "$kr/results.json" ]; then
		result "$r: a LAVA job (kunit.py gave no results to compare with, see $log)" 1
		continue
	fi
	# the QEMU job boots kunit.py's kernel; a board fetches its own
	img=$kr/build/$(py kernel "$tree" "$arch")
	mkdir -p "$run/$r"
	cp "$kr/results.json" "$run/$r/kunit-results.json"
	if [ "$dtype" = qemu ] && ! cp "$img" "$run/$r/"; then
		result "$r: a LAVA job (no kernel $img)" 1
		continue
	fi
	job=$run/$r.yaml
	if [ "$dtype" = qemu ]; then
		url=file://$run/$r/$(basename "$img")
		set -- "$kr/results.json" "$tree" "$r" "$arch" "$smp" "$url"
	else
		url=${LAVA_KERNEL_URL//\{name\}/$r}
		dtb=${LAVA_DTB_URL:-}
		set -- "$kr/results.json" "$tree" "$r" "$arch" "$smp" "$url" "$dtype" \
			"${LAVA_BOOT_METHOD:-}" "${dtb//\{name\}/$r}" "${LAVA_BOOT_COMMANDS:-}"
	fi
	if ! py job "$@" >"$job" 2>"$run/$r-job.err"; then
		result "$r: a LAVA job (tools/lib/lava.py job failed: $(tail -n 1 "$run/$r-job.err"))" 1
		continue
	fi
	if [ "$dtype" = qemu ]; then
		py device "$job" "$lava/device-types" >"$run/$r-device.yaml" &&
			err=$(validate "$job" "$run/$r-device.yaml")
	else
		err=$(validate "$job") && err=$(py board "$job" "$lava/device-types")
	fi
	rc=$?
	[ -z "${err:-}" ] || printf '      %s\n' "$err"
	what="LAVA's schema, lava-run --validate"
	[ "$dtype" = qemu ] || what="LAVA's schema; boot method and commands of device type $dtype"
	result "$r: $job valid ($what)" "$rc"
	{ [ "$rc" -eq 0 ] && [ "$dtype" = qemu ]; } || continue
	t=$SECONDS
	"$lava/bin/lava-run" --job-id "$r" --output-dir "$run/$r-out" --dispatcher "$disp" \
		--device "$run/$r-device.yaml" "$job" >"$run/$r-lava.log" 2>&1
	lrc=$?
	py compare "$run/$r-lava.log" "$kr/results.json" >"$run/$r-compare.txt"
	crc=$?
	[ "$crc" -eq 0 ] || sed 's/^/      /' "$run/$r-compare.txt" | head -n 20
	[ "$lrc" -eq 0 ] || info "lava-run exited with $lrc (log: $run/$r-lava.log)"
	result "$r: lava-run gives every case kunit.py's result: $(tail -n 1 "$run/$r-compare.txt") ($((SECONDS - t))s)" \
		$((lrc || crc))
	read -r kp kf ks < <(kunit_json_counts "$kr/results.json")
	summary+=("| \`$r\` | \`-smp $smp\` | $kp | $kf | $ks | $(tail -n 1 "$run/$r-compare.txt") | $((SECONDS - t)) s |")
done
# a whole local run (the default lines, no lab) is results/lava's evidence
if [ "$dtype" = qemu ] && [ "${#summary[@]}" -eq "${#rows[@]}" ] && [ -z "${LAVA_ROWS:-}" ] &&
	[ "$BSK_FAILED" -eq "$failed0" ] && [ "${BASE:-mainline}" = mainline ] && [ -z "${KERNEL:-}" ] &&
	[ -z "${KUNIT_DEBUG:-}" ]; then
	out=$(run_dir lava)
	{
		echo "# make lava: the suites as LAVA jobs on QEMU, against kunit.py"
		echo
		printf '%s, %s, %s%s; %s.
' "$(date +%Y-%m-%d)" "$(basename "$tree")" \
			"$(git -C "$tree" log -1 --format=%h)" "${KUNIT_DEBUG:+ (KUNIT_DEBUG=1)}" \
			"$(sed -n 's/^# \(.*\), unpacked by.*/\1/p' "$lava/bin/lava-run")"
		echo "Command: \`make lava\` (tools/lava.sh; lines of kunit/matrix; TCG)."
		echo
		echo "| line | QEMU | kunit.py passed | failed | skipped | LAVA against kunit.py, case for case | lava-run |"
		echo "|---|---|---|---|---|---|---|"
		printf '%s\n' "${summary[@]}"
	} >"$out/summary.md"
	info "summary: $out/summary.md; to commit it: make promote RUN=$out TO=results/lava"
fi
results_end
