# SPDX-License-Identifier: GPL-2.0
# Shared helpers for the blk-sched-kunit tools.  Sourced, never executed.
# shellcheck shell=bash

BSK_TOP=${BSK_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
BSK_CACHE=${BSK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/blk-sched-kunit}
BSK_NAME="blk-sched-kunit maintainers"
BSK_EMAIL="maintainers@blk-sched-kunit.invalid"
BSK_BRANCH=${BSK_BRANCH:-blk-sched-kunit}
# The LTS line BASE=lts means: its Debian source package and its series.
BSK_LTS_SERIES=${BSK_LTS_SERIES:-6.12}
export BSK_TOP BSK_CACHE BSK_LTS_SERIES

# run_dir NAME: a new directory for one run's results, in the cache.
# Committed evidence changes only through 'make promote' (promote.sh).
run_dir() {
	local d
	d=$BSK_CACHE/runs/$(date +%Y%m%d-%H%M%S)-$1
	mkdir -p "$d"
	printf '%s\n' "$d"
}

# check_settings: the enumerated settings (docs/reference.md), checked
# before anything is installed or built; one error line for a bad one.
check_settings() {
	local v
	case ${BASE:-mainline} in mainline | lts) ;;
	*) die "unknown BASE '$BASE' (use BASE=mainline or BASE=lts, or KERNEL=/path/to/linux)" ;; esac
	case ${ARCH:-x86_64} in x86_64 | i386 | arm64 | um) ;;
	*) die "ARCH=$ARCH is not supported (use ARCH=um, x86_64, i386 or arm64)" ;; esac
	case ${KUNIT_DEBUG:-0} in 0 | 1 | rt) ;;
	*) die "KUNIT_DEBUG=$KUNIT_DEBUG: use 1 (the sanitizers) or rt (PREEMPT_RT too)" ;; esac
	case ${ICOUNT:-0} in 0 | 1) ;; *) die "ICOUNT=$ICOUNT: 0 or 1" ;; esac
	for v in RUNS PASSES STRESS_SECONDS BLKTESTS_TIMEOUT BLKTESTS_BOOT_LIMIT; do
		[[ ${!v:-1} =~ ^[1-9][0-9]*$ ]] || die "$v=${!v}: a whole number above 0"
	done
}

# The series file for BASE: series (mainline) or series-<LTS> (lts).
# Patches that must differ there live in patches/<LTS>/ and are listed
# from there; the others are listed by their mainline file name.
bsk_series() {
	case ${BASE:-mainline} in
	lts) printf '%s\n' "$BSK_TOP/series-$BSK_LTS_SERIES" ;;
	*) printf '%s\n' "$BSK_TOP/series" ;;
	esac
}

# The version a series file is for ("" for the mainline series).
series_version() {
	local b=${1##*/}
	case $b in
	series-*) printf '%s\n' "${b#series-}" ;;
	*) printf '\n' ;;
	esac
}

# The text a maintainer put between --- and the diffstat of a patch mail
# (for a patch that differs from its mainline version: what and why).
patch_note() {
	awk 'f && (/^ .*\| +[0-9]+/ || /^ [0-9]+ files? changed/) { exit }
	     f { print } /^---$/ && !f { f = 1 }' "$1" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}

# Same change and same message: the two mails are one patch.
same_patch() {
	[ "$(sed -n '/^Subject:/,/^---$/p' "$1")" = "$(sed -n '/^Subject:/,/^---$/p' "$2")" ] &&
		[ "$(git patch-id --stable <"$1" | cut -d' ' -f1)" = "$(git patch-id --stable <"$2" | cut -d' ' -f1)" ]
}

# One clear line on stderr, then exit.
# ver_ge A B: version A >= version B (dotted numbers, sort -V).
ver_ge() {
	[ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n 1)" = "$2" ]
}

die() {
	printf '%s: error: %s\n' "${0##*/}" "$*" >&2
	exit 1
}

info() {
	printf '%s: %s\n' "${0##*/}" "$*" >&2
}

# Run git as the role identity (base commits, git am).
bsk_git() {
	git -c user.name="$BSK_NAME" -c user.email="$BSK_EMAIL" \
	    -c commit.gpgsign=false -c tag.gpgsign=false "$@"
}

# Patch files listed in a quilt series file, in order (comments and
# quilt options after the name are ignored).
series_patches() {
	sed -e 's/#.*//' -e 's/^[[:space:]]*//' -e 's/[[:space:]].*//' "$1" |
		grep -v '^$' || true
}

# "thread patch" per patch of a series file, in order: the patches after a
# "# thread NAME: ..." comment go to the list as thread NAME, with
# patches/cover-letter-NAME ("series" before any such line).
series_threads() {
	awk '/^#[[:space:]]*thread[[:space:]]+[a-z0-9-]+:/ {
		t = $0; sub(/^#[[:space:]]*thread[[:space:]]+/, "", t); sub(/:.*/, "", t); next }
	{ sub(/#.*/, "") } NF { print (t == "" ? "series" : t), $1 }' "$1"
}

# The number of patches of a series file's RFC threads ("# thread rfc:" or
# "# thread rfc-NAME:"), which come last (tools/gate/lint-series.sh): they
# apply to the base alone and go to the list as RFC.  Kernels
# (tools/env/vmkernel.sh): "series" stops before them, "rfc" is the base
# with them alone, "tip" the whole series.
series_rfc_count() {
	series_threads "$1" | awk '$1 ~ /^rfc(-|$)/ { n++ } END { print n + 0 }'
}

# Is thread NAME an RFC thread (rfc, rfc-NAME)?
is_rfc_thread() {
	case $1 in rfc | rfc-*) return 0 ;; esac
	return 1
}

# Need at least $1 MiB free under directory $2 (or its nearest existing parent).
need_space() {
	local mib=$1 dir=$2 avail
	while [ ! -d "$dir" ]; do dir=$(dirname "$dir"); done
	avail=$(df -Pm "$dir" | awk 'NR == 2 { print $4 }')
	[ "${avail:-0}" -ge "$mib" ] ||
		die "not enough space in $dir: ${avail} MiB free, ${mib} MiB needed (set BSK_CACHE to another disk)"
}

# Stage timer: "stage NAME" starts one, "stage_end" prints its duration.
stage() {
	BSK_STAGE=$1
	BSK_STAGE_T0=$SECONDS
	printf '==> %s\n' "$BSK_STAGE" >&2
}

stage_end() {
	printf '==> %s: %ds\n' "$BSK_STAGE" $((SECONDS - BSK_STAGE_T0)) >&2
}

# splat_lines FILE: the lines of a kernel log that report a bug, a
# warning, a sanitizer finding, a lockdep splat or a stall
# (tools/lib/splat-patterns, one extended regex per line; the VM's guest side
# reads the same file).  A missing FILE is an error.
splat_lines() {
	[ -f "$1" ] || die "no kernel log $1"
	grep -aE -f "$BSK_TOP/tools/lib/splat-patterns" "$1" || true
}

# The one result writer.  Every check of every tool is one line, "PASS
# name", "FAIL name" or "SKIP name: reason", counted here; a tool that
# runs checks ends with results_end, whose last line "N passed, N failed,
# N skipped" is what the tool above it (or CI) reads back with result_of_run.
BSK_PASSED=0
BSK_FAILED=0
BSK_SKIPPED=0
BSK_FAILURES=()
BSK_SKIPS=()

# result NAME RC [N]: one check (N cases, default 1), passed if RC is 0.
result() {
	local n=${3:-1}
	if [ "$2" -eq 0 ]; then
		BSK_PASSED=$((BSK_PASSED + n))
		printf 'PASS  %s\n' "$1"
	else
		BSK_FAILED=$((BSK_FAILED + n))
		BSK_FAILURES+=("$1")
		printf 'FAIL  %s\n' "$1"
	fi
}

# result_skip NAME REASON: a check this machine cannot run; neither
# passed nor failed, and listed again by results_end.
result_skip() {
	BSK_SKIPPED=$((BSK_SKIPPED + 1))
	BSK_SKIPS+=("$1: $2")
	printf 'SKIP  %s: %s\n' "$1" "$2"
}

# counts_of LINE: "P F S" if LINE is "P passed, F failed[, S skipped]",
# else nothing (and status 1).
counts_of() {
	[[ $1 =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed(,\ ([0-9]+)\ skipped)?$ ]] || return 1
	printf '%s %s %s\n' "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}" "${BASH_REMATCH[4]:-0}"
}

# result_of_run LOG RC LABEL START: count a tool's run by the last line of
# its LOG; a non-zero RC, or no such line, is at least one failure.
result_of_run() {
	local line p=0 f=1 sk=0 c
	line=$(tail -n 1 "$1" 2>/dev/null)
	if c=$(counts_of "$line"); then
		read -r p f sk <<<"$c"
	fi
	[ "$2" -eq 0 ] || [ "$f" -gt 0 ] || f=1
	BSK_PASSED=$((BSK_PASSED + p))
	BSK_SKIPPED=$((BSK_SKIPPED + sk))
	if [ "$f" -eq 0 ]; then
		printf 'PASS  %s: %s (%ds)\n' "$3" "$line" $((SECONDS - $4))
	else
		grep -E 'FAILED|CRASHED|error|Error' "$1" | head -n 20
		BSK_FAILED=$((BSK_FAILED + f))
		BSK_FAILURES+=("$3 (see $1)")
		printf 'FAIL  %s: %s\n' "$3" "$line"
	fi
}

# results_end: the skips and failures again, then "N passed, N failed,
# N skipped"; status 0 if nothing failed.
results_end() {
	local s
	for s in "${BSK_SKIPS[@]}"; do
		printf 'skipped: %s\n' "$s"
	done
	for s in "${BSK_FAILURES[@]}"; do
		printf 'failed: %s\n' "$s"
	done
	printf '%s passed, %s failed, %s skipped\n' "$BSK_PASSED" "$BSK_FAILED" "$BSK_SKIPPED"
	[ "$BSK_FAILED" -eq 0 ]
}

# Process groups of the long jobs a script started with setsid, so that a
# signal stops them with everything they started (a background job of a
# script ignores SIGINT).  bg_stop: TERM to each group, then wait for all.
BSK_BG=()
bg_stop() {
	local p
	for p in "${BSK_BG[@]}"; do
		kill -TERM -- "-$p" 2>/dev/null
	done
	wait
}

# kunit_json_failed FILE: the cases that failed in a kunit.py --json
# file, one a line: "suite.case", or "suite.case: parameter" for a case of
# a parameterized test.
#
# kunit_json_counts FILE: "PASSED FAILED SKIPPED" of the cases in a
# kunit.py --json file (KernelCI format: groups of sub_groups and
# test_cases; FAIL and ERROR, a crash, count as failed).
kunit_json_failed() {
	python3 -c 'import json, sys
def failed(g, path):
    for t in g.get("test_cases", []):
        if t["status"] in ("FAIL", "ERROR"):
            print(".".join(path + [t["name"]]) if len(path) < 2 else
                  ".".join(path) + ": " + t["name"])
    for s in g.get("sub_groups", []):
        failed(s, path + [s["name"]])
for s in json.load(open(sys.argv[1])).get("sub_groups", []):
    failed(s, [s["name"]])' "$1"
}

kunit_json_counts() {
	python3 -c 'import json, sys
def cases(g):
    for t in g.get("test_cases", []):
        yield t["status"]
    for s in g.get("sub_groups", []):
        yield from cases(s)
st = list(cases(json.load(open(sys.argv[1]))))
print(st.count("PASS"), st.count("FAIL") + st.count("ERROR"), st.count("SKIP"))' "$1"
}
