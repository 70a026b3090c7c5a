#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# lava.sh [TREE] - the series' KUnit suites as LAVA jobs (make lava), for
# each line of kunit/matrix named in LAVA_ROWS (default: x86_64 arm64
# arm64-clusters):
#   1. kunit.py builds and runs the suites on that line's QEMU machine
#      (tools/kunit.sh with its ARCH and KUNIT_TOPOLOGY; BASE= and
#      KUNIT_DEBUG=1 choose the base and the config, as for make kunit);
#   2. the kernel it booted is copied into the run directory, and
#      tools/lib/lava.py writes a LAVA job that boots it the way kunit.py
#      did (device type qemu) and turns each KTAP case into a LAVA result;
#   3. the job is validated: LAVA's schema (what a LAVA server checks on
#      submission) and lava-run --validate against a QEMU device rendered
#      from LAVA's own qemu.jinja2 (what a worker checks);
#   4. lava-run runs it, and every case must have the same result in
#      LAVA as in kunit.py's run of the same kernel.
# With LAVA_DEVICE_TYPE=<a lab's device type>, LAVA_ROWS and
# LAVA_KERNEL_URL=<where the lab fetches the board's kernel, built for the
# board; {name} is the line's name> (LAVA_DTB_URL for u-boot boards,
# LAVA_BOOT_METHOD, LAVA_BOOT_COMMANDS): jobs for that lab instead, steps
# 1-3 with LAVA's schema and the device type's template (its boot method
# and command set); nothing boots here (docs/lava.md).
#
# lava.sh validate JOB [DEVICE]: LAVA's schema check of JOB, and with
# DEVICE lava-run --validate; nothing, or one line saying what is wrong.
#
# Jobs, devices, kernels and LAVA's logs go to $BSK_CACHE/runs/<stamp>-lava;
# a whole run of the default lines on QEMU, on the mainline base and
# config, that passes writes its table to a run directory of its own
# (LAVA_OUT=dir elsewhere), which make promote can commit.
# Last line: "N passed, N failed, N skipped" (each line's kunit.py cases, then per
# line its job's validation and the case-for-case agreement).
set -uo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

lava=
py() { "$lava/bin/lava-python" "$BSK_TOP/tools/lib/lava.py" "$@"; }

# A dispatcher configuration that keeps lava-run's downloads and scratch
# files in DIR (a LAVA worker keeps them in /var/lib/lava/dispatcher).
dispatcher_config() {
	mkdir -p "$1/tmp"
	printf 'dispatcher_download_dir: %s/tmp\n' "$1" >"$1/dispatcher.yaml"
	printf '%s\n' "$1/dispatcher.yaml"
}

# validate JOB [DEVICE]: see above.
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

# The reference run is make kunit's, with the suites whole: nothing of
# what narrows or replaces it there.
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
if [ -z "$tree" ]; then
	read -r _ tree _ < <("$BSK_TOP/tools/env/tree.sh") || exit 1
fi
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
	ARCH=$arch KUNIT_TOPOLOGY=$r "$BSK_TOP/tools/kunit.sh" "$tree" >"$log" 2>&1
	krc=$?
	result_of_run "$log" "$krc" "$r: kunit.py" "$t"
	kr=$(sed -n 's/.*results in \(.*\) (kunit.log.*/\1/p' "$log" | tail -n 1)
	if [ ! -s "${kr:-/nonexistent}/results.json" ]; then
		result "$r: a LAVA job (kunit.py gave no results to compare with, see $log)" 1
		continue
	fi
	# The QEMU job boots the kernel kunit.py booted; a board boots its own
	# (built for it: docs/lava.md), which the lab fetches.
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
	if [ "$dtype" = qemu ]; then
		result "$r: $job valid (LAVA's schema, lava-run --validate)" "$rc"
	else
		result "$r: $job valid (LAVA's schema; boot method and commands of device type $dtype)" "$rc"
	fi
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
# The evidence of a whole local run (the default lines, no lab): results/lava.
if [ "$dtype" = qemu ] && [ "${#summary[@]}" -eq "${#rows[@]}" ] && [ -z "${LAVA_ROWS:-}" ] &&
	[ "$BSK_FAILED" -eq "$failed0" ] && [ "${BASE:-mainline}" = mainline ] && [ -z "${KERNEL:-}" ] &&
	[ -z "${KUNIT_DEBUG:-}" ]; then
	out=${LAVA_OUT:-$(run_dir lava)}
	mkdir -p "$out"
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
