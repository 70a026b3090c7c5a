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

# run_dir NAME: a new directory for one run's results (results/ changes only by make promote)
run_dir() {
	local d
	d=$BSK_CACHE/runs/$(date +%Y%m%d-%H%M%S)-$1
	mkdir -p "$d"
	printf '%s\n' "$d"
}

# check_settings: the enumerated settings (docs/reference.md), before anything is installed
check_settings() {
	local v
	case ${BASE:-mainline} in mainline | lts) ;;
	*) die "unknown BASE '$BASE' (use BASE=mainline or BASE=lts, or KERNEL=/path/to/linux)" ;; esac
	case ${ARCH:-x86_64} in x86_64 | i386 | arm64 | um) ;;
	*) die "ARCH=$ARCH is not supported (use ARCH=um, x86_64, i386 or arm64)" ;; esac
	case ${KUNIT_DEBUG:-0} in 0 | 1 | rt) ;;
	*) die "KUNIT_DEBUG=$KUNIT_DEBUG: use 1 (the sanitizers) or rt (PREEMPT_RT too)" ;; esac
	case ${ICOUNT:-0} in 0 | 1) ;; *) die "ICOUNT=$ICOUNT: 0 or 1" ;; esac
	for v in RUNS PASSES STRESS_SECONDS DRIVERS_SECONDS; do
		[[ ${!v:-1} =~ ^[1-9][0-9]*$ ]] || die "$v=${!v} is not a positive number"
	done
	[[ ${BLKTESTS_TIMEOUT:-1} =~ ^[1-9][0-9]*$ ]] ||
		die "BLKTESTS_TIMEOUT=$BLKTESTS_TIMEOUT is not a positive number of seconds"
	case ${BLKTESTS_SCHEDULER:-none} in none | mq-deadline | kyber | bfq) ;;
	*) die "BLKTESTS_SCHEDULER=$BLKTESTS_SCHEDULER: none, mq-deadline, kyber or bfq" ;; esac
	{ [[ ${BLKTESTS_BOOT_LIMIT:-5} =~ ^[1-9][0-9]{0,5}$ ]] && [ "${BLKTESTS_BOOT_LIMIT:-5}" -ge 5 ]; } ||
		die "BLKTESTS_BOOT_LIMIT=$BLKTESTS_BOOT_LIMIT is not a number of seconds from 5 to 999999"
}

# patch_range N NAME: "FIRST LAST" of PATCHES=N[-M] (all when unset) in series NAME of N patches
patch_range() {
	local f=1 l=$1
	if [ -n "${PATCHES:-}" ]; then
		{ [[ $PATCHES =~ ^([1-9][0-9]*)(-([1-9][0-9]*))?$ ]] && f=${BASH_REMATCH[1]} l=${BASH_REMATCH[3]:-${BASH_REMATCH[1]}} &&
			[ "$f" -le "$l" ] && [ "$l" -le "$1" ]; } ||
			die "PATCHES=$PATCHES: give a patch number or a range N-M within 1-$1 ($2)"
	fi
	echo "$f $l"
}

# The series file for BASE: series (mainline) or series-<LTS> (lts, its own patches in patches/<LTS>/).
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

# The text between --- and the diffstat of a patch mail.
patch_note() {
	awk 'f && (/^ .*\| +[0-9]+/ || /^ [0-9]+ files? changed/) { exit }
	     f { print } /^---$/ && !f { f = 1 }' "$1" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}

# Same change and same message: the two mails are one patch.
same_patch() {
	[ "$(sed -n '/^Subject:/,/^---$/p' "$1")" = "$(sed -n '/^Subject:/,/^---$/p' "$2")" ] &&
		[ "$(git patch-id --stable <"$1" | cut -d' ' -f1)" = "$(git patch-id --stable <"$2" | cut -d' ' -f1)" ]
}

# ver_ge A B: version A >= version B (sort -V)
ver_ge() {
	[ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n 1)" = "$2" ]
}

# one clear line on stderr, then exit
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

# Patch files listed in a quilt series file, in order.
series_patches() {
	sed -e 's/#.*//' -e 's/^[[:space:]]*//' -e 's/[[:space:]].*//' "$1" |
		grep -v '^$' || true
}

# "thread patch" per patch of a series file: after "# thread NAME: ..." thread NAME ("series" before).
series_threads() {
	awk '/^#[[:space:]]*thread[[:space:]]+[a-z0-9-]+:/ {
		t = $0; sub(/^#[[:space:]]*thread[[:space:]]+/, "", t); sub(/:.*/, "", t); next }
	{ sub(/#.*/, "") } NF { print (t == "" ? "series" : t), $1 }' "$1"
}

# The number of patches of the RFC threads, which come last and apply to the base alone.
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

# stage NAME starts a timed stage, stage_end prints its duration
stage() {
	BSK_STAGE=$1
	BSK_STAGE_T0=$SECONDS
	printf '==> %s\n' "$BSK_STAGE" >&2
}

stage_end() {
	printf '==> %s: %ds\n' "$BSK_STAGE" $((SECONDS - BSK_STAGE_T0)) >&2
}

# splat_lines FILE: a kernel log's reports (bugs, sanitizers, lockdep, stalls: lib/splat-patterns)
splat_lines() {
	[ -f "$1" ] || die "no kernel log $1"
	grep -aE -f "$BSK_TOP/tools/lib/splat-patterns" "$1" || true
}

# fio_json FILE: fio's JSON output without the notices fio may print into it first
fio_json() { sed -n '/^{/,$p' "$1"; }

# The one result writer: PASS, FAIL or SKIP per check, then "N passed, N failed, N skipped",
# also as "P F S" to the file a caller names in BSK_COUNTS (not passed on): nobody reads logs.
BSK_COUNTS_FILE=${BSK_COUNTS:-}
unset BSK_COUNTS
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

# result_skip NAME REASON: a check this machine cannot run
result_skip() {
	BSK_SKIPPED=$((BSK_SKIPPED + 1))
	BSK_SKIPS+=("$1: $2")
	printf 'SKIP  %s: %s\n' "$1" "$2"
}

# counts_line P F S: a tool's last line, and its counts to BSK_COUNTS's file
counts_line() {
	printf '%s passed, %s failed, %s skipped\n' "$1" "$2" "$3"
	[ -z "$BSK_COUNTS_FILE" ] || printf '%s %s %s\n' "$1" "$2" "$3" >"$BSK_COUNTS_FILE"
}

# result_of_run COUNTS LOG RC LABEL START: a run, from the COUNTS it wrote; none or RC != 0 fails
result_of_run() {
	local p=0 f=1 sk=0
	[ ! -s "$1" ] || read -r p f sk <"$1"
	[ "$3" -eq 0 ] || [ "$f" -gt 0 ] || f=1
	BSK_PASSED=$((BSK_PASSED + p))
	BSK_SKIPPED=$((BSK_SKIPPED + sk))
	if [ "$f" -eq 0 ]; then
		printf 'PASS  %s: %s passed, %s skipped (%ds)\n' "$4" "$p" "$sk" $((SECONDS - $5))
	else
		tail -n 20 "$2" 2>/dev/null
		BSK_FAILED=$((BSK_FAILED + f))
		BSK_FAILURES+=("$4 (see $2)")
		printf 'FAIL  %s: %s passed, %s failed, %s skipped\n' "$4" "$p" "$f" "$sk"
	fi
}

# results_end: the skips and failures again, then the counts; status 0 if nothing failed
results_end() {
	local s
	for s in "${BSK_SKIPS[@]}"; do
		printf 'skipped: %s\n' "$s"
	done
	for s in "${BSK_FAILURES[@]}"; do
		printf 'failed: %s\n' "$s"
	done
	counts_line "$BSK_PASSED" "$BSK_FAILED" "$BSK_SKIPPED"
	[ "$BSK_FAILED" -eq 0 ]
}

# Process groups of long jobs run under setsid (a background job ignores SIGINT): TERM each, wait.
BSK_BG=()
bg_stop() {
	local p
	for p in "${BSK_BG[@]}"; do
		kill -TERM -- "-$p" 2>/dev/null
	done
	wait
}

# bg CMD...: CMD in a process group of its own, which a signal stops whole
bg() { setsid "$@" & BSK_BG+=($!); }

bg_wait() { # PID: its status; forgotten
	local rc=0 p keep=()
	wait "$1" || rc=$?
	for p in "${BSK_BG[@]}"; do [ "$p" = "$1" ] || keep+=("$p"); done
	BSK_BG=("${keep[@]}")
	return "$rc"
}

# step CMD...: a long step (a trap runs when wait returns, not a foreground command)
step() { bg "$@" && bg_wait "$!"; }

# Of a kunit.py --json file: "PASSED FAILED SKIPPED", and the failed cases.
BSK_KUNIT_RESULTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/kunit_results.py
kunit_json_counts() { python3 "$BSK_KUNIT_RESULTS" counts "$1"; }
kunit_json_failed() { python3 "$BSK_KUNIT_RESULTS" failed "$1"; }
kunit_json_skipped() { python3 "$BSK_KUNIT_RESULTS" skipped "$1"; }
