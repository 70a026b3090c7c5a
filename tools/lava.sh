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
# With LAVA_DEVICE_TYPE=<a lab's device type> and LAVA_KERNEL_URL=<where
# the lab fetches the kernel; {name} is the line's name> (LAVA_DTB_URL,
# LAVA_BOOT_METHOD optional): jobs for that lab instead, steps 1-3 with
# LAVA's schema only (a board's device needs its lab); nothing boots here
# (docs/lava.md).
#
# lava.sh validate JOB [DEVICE]: LAVA's schema check of JOB, and with
# DEVICE lava-run --validate; nothing, or one line saying what is wrong.
#
# Jobs, devices, kernels and LAVA's logs go to $BSK_CACHE/runs/<stamp>-lava;
# a run of the default lines on QEMU writes its table to results/lava/
# summary.md (LAVA_OUT=dir elsewhere).
# Last line: "N passed, N failed" (each line's kunit.py cases, then per
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
	out=$(mktemp -d)
	"$lava/bin/lava-run" --validate --job-id validate --output-dir "$out/out" \
		--dispatcher "$(dispatcher_config "$out")" --device "$dev" "$job" >"$out/log" 2>&1 || rc=$?
	if [ "$rc" -ne 0 ]; then
		err=$(sed -n 's/.*"error_msg": "\(.*\)", "error_type".*/\1/p' "$out/log" | tail -n 1)
		printf '%s: %s\n' "$job" "${err:-lava-run --validate failed (exit $rc): $(tail -n 1 "$out/log")}"
	fi
	rm -rf "$out"
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

rows=${LAVA_ROWS:-x86_64 arm64 arm64-clusters}
matrix=$BSK_TOP/kunit/matrix
for r in $rows; do
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
for r in $rows; do
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
	img=$kr/build/$(py kernel "$tree" "$arch")
	mkdir -p "$run/$r"
	{ cp "$img" "$run/$r/" && cp "$kr/results.json" "$run/$r/kunit-results.json"; } || {
		result "$r: a LAVA job (no kernel $img)" 1
		continue
	}
	job=$run/$r.yaml
	if [ "$dtype" = qemu ]; then
		url=file://$run/$r/$(basename "$img")
		py job "$kr/results.json" "$tree" "$r" "$arch" "$smp" "$url" >"$job" &&
			py device "$job" "$lava/device-types" >"$run/$r-device.yaml"
		err=$(validate "$job" "$run/$r-device.yaml")
	else
		url=${LAVA_KERNEL_URL//\{name\}/$r}
		dtb=${LAVA_DTB_URL:-}
		py job "$kr/results.json" "$tree" "$r" "$arch" "$smp" "$url" "$dtype" \
			"${LAVA_BOOT_METHOD:-}" "${dtb//\{name\}/$r}" >"$job" &&
			err=$(validate "$job")
	fi
	rc=$?
	[ -z "${err:-}" ] || printf '      %s\n' "$err"
	result "$r: $job valid (LAVA's schema${LAVA_DEVICE_TYPE:+, device type $dtype}$([ "$dtype" != qemu ] || echo ', lava-run --validate'))" "$rc"
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
if [ "$dtype" = qemu ] && [ "${#summary[@]}" -gt 0 ] && [ -z "${LAVA_ROWS:-}" ]; then
	out=${LAVA_OUT:-$BSK_TOP/results/lava}
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
	info "summary: $out/summary.md"
fi
results_end
