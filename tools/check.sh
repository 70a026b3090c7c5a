#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh - the full gate: dependencies, the tools' own tests, series
# consistency, apply (git am, and quilt on a plain tree), the per-patch
# checks of patchcheck.sh for every patch in order (checkpatch --strict,
# KUnit, x86_64 W=1 builds with BFQ =y and =m and with clang, sparse,
# kernel-doc, trailers, recipients; a patch x check table), KUnit under
# x86_64 SMP at the tip, bloat-o-meter for every patch that says "No
# functional change" (growth must be quoted in its message), and the test
# of 'make send' (sendcheck.sh).  Each stage prints its duration; the last line is
# "N passed, N failed", where N counts checks and KUnit cases.
set -uo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

T0=$SECONDS
cd "$BSK_TOP" || exit 1
# The gate runs every suite: a filter set for 'make kunit' must not narrow it.
unset KUNIT_FILTER
SERIES=${SERIES:-$BSK_TOP/series}
LOGDIR=$BSK_CACHE/runs/$(date +%Y%m%d-%H%M%S)-check
mkdir -p "$LOGDIR"
passed=0
failed=0
failures=()

# record NAME RC [N]: one result (N cases, default 1).
record() {
	local n=${3:-1}
	if [ "$2" -eq 0 ]; then
		passed=$((passed + n))
		printf 'PASS  %s\n' "$1"
	else
		failed=$((failed + n))
		failures+=("$1")
		printf 'FAIL  %s\n' "$1"
	fi
}

finish() {
	printf '\ncheck: logs in %s; total %ds\n' "$LOGDIR" $((SECONDS - T0))
	for f in "${failures[@]}"; do
		printf 'failed: %s\n' "$f"
	done
	printf '%s passed, %s failed\n' "$passed" "$failed"
	[ "$failed" -eq 0 ]
	exit
}

stage "dependencies"
tools/deps.sh base build x86 check
record "dependencies" $?
[ "${failed}" -eq 0 ] || finish
stage_end

stage "tools: shellcheck and bats"
shellcheck "$BSK_TOP"/tools/*.sh "$BSK_TOP"/tools/vm/*.sh "$BSK_TOP"/tests/*.bash "$BSK_TOP"/.ci/run >"$LOGDIR/shellcheck.log" 2>&1
record "shellcheck tools" $?
bats --tap "$BSK_TOP/tests" >"$LOGDIR/bats.tap" 2>&1
rc=$?
ok=$(grep -c '^ok ' "$LOGDIR/bats.tap")
nok=$(grep -c '^not ok ' "$LOGDIR/bats.tap")
grep '^not ok ' "$LOGDIR/bats.tap"
[ "$ok" -gt 0 ] || nok=$((nok + 1))
[ "$rc" -eq 0 ] || [ "$nok" -gt 0 ] || nok=1
passed=$((passed + ok))
failed=$((failed + nok))
[ "$nok" -eq 0 ] || failures+=("bats: $nok failed (see $LOGDIR/bats.tap)")
printf '%s  bats tests/: %d ok, %d not ok\n' "$([ "$nok" -eq 0 ] && echo PASS || echo FAIL)" "$ok" "$nok"
stage_end

stage "series consistency"
tools/lint-series.sh "$SERIES"
record "series <-> patches" $?
stage_end

stage "base and apply"
wt=$(tools/apply.sh "$SERIES")
record "git am of the series onto the ${BASE:-mainline} base" $?
stage_end
[ -n "$wt" ] || finish
read -r _ _ base < <(tools/tree.sh)
mapfile -t commits < <(git -C "$wt" rev-list --reverse "$base..HEAD")
# The clang the per-patch builds need depends on the base (its minimum
# LLVM): installed now as root, else one line; none new enough is "n/a".
tools/clang.sh "$wt" >/dev/null 2>"$LOGDIR/clang.err"
rc=$?
if [ "$rc" -eq 1 ]; then
	cat "$LOGDIR/clang.err"
	record "a Debian clang for the base" 1
	finish
fi

stage "quilt push -a on a plain tree"
qt=$(mktemp -d)
mapfile -t files < <(git -C "$wt" diff --name-only "$base" HEAD)
for f in "${files[@]}"; do
	if git -C "$wt" cat-file -e "$base:$f" 2>/dev/null; then
		mkdir -p "$qt/$(dirname "$f")"
		git -C "$wt" show "$base:$f" >"$qt/$f"
	fi
done
(cd "$qt" && QUILT_PATCHES="$(dirname "$SERIES")/patches" QUILT_SERIES="$SERIES" \
	quilt push -a -q --fuzz=0 >"$LOGDIR/quilt.log" 2>&1)
rc=$?
if [ "$rc" -eq 0 ]; then
	for f in "${files[@]}"; do
		cmp -s "$qt/$f" "$wt/$f" || { echo "quilt result differs from git am: $f"; rc=1; }
	done
else
	cat "$LOGDIR/quilt.log"
fi
rm -rf "$qt"
record "quilt push -a --fuzz=0 gives the same files as git am" "$rc"
stage_end

# kunit_result LOG RC LABEL START: count a kunit.sh run in the totals.
kunit_result() {
	local line p f
	line=$(tail -n 1 "$1")
	p=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p' <<<"$line")
	f=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p' <<<"$line")
	[ "$2" -eq 0 ] || [ "${f:-0}" -gt 0 ] || f=1
	passed=$((passed + ${p:-0}))
	if [ "${f:-1}" -eq 0 ]; then
		printf 'PASS  %s: %s (%ds)\n' "$3" "$line" $((SECONDS - $4))
	else
		grep -E 'FAILED|CRASHED|error|Error' "$1" | head -n 20
		failed=$((failed + ${f:-1}))
		failures+=("$3 (see $1)")
		printf 'FAIL  %s: %s\n' "$3" "$line"
	fi
}

stage "per-patch checks (${#commits[@]} patches: checkpatch, KUnit, W=1 gcc =y/=m and clang, sparse, kernel-doc, trailers, recipients)"
t=$SECONDS
tools/patchcheck.sh "$wt" "$base" "$SERIES" "$LOGDIR/patches" 2> >(tee "$LOGDIR/patchcheck.err" >&2) |
	tee "$LOGDIR/patchcheck.log"
kunit_result "$LOGDIR/patchcheck.log" "${PIPESTATUS[0]}" "per-patch checks (table: $LOGDIR/patches/checks.md)" "$t"
stage_end

# UML has no SMP: the completion-routing cases that need a second CPU, a
# real IPI and a topology with two LLCs run here.
if [ "${ARCH:-um}" = um ]; then
	stage "KUnit at the tip (x86_64, SMP: QEMU TCG, 2 sockets x 2 CPUs)"
	t=$SECONDS
	ARCH=x86_64 tools/kunit.sh "$wt" >"$LOGDIR/kunit-x86_64.log" 2>&1
	kunit_result "$LOGDIR/kunit-x86_64.log" $? "KUnit x86_64 SMP at the tip" "$t"
	if grep -q 'SKIPPED' "$LOGDIR/kunit-x86_64.log"; then
		grep 'SKIPPED' "$LOGDIR/kunit-x86_64.log"
		record "no case skipped under x86_64 SMP" 1
	fi
	stage_end
fi

stage "bloat-o-meter on patches that claim no functional change"
for c in "${commits[@]}"; do
	git -C "$wt" log -1 --format=%B "$c" | grep -qi 'no functional change' || continue
	subj=$(git -C "$wt" log -1 --format=%s "$c")
	tools/objcheck.sh bloat "$wt" "$c^" "$c" >"$LOGDIR/bloat-$c.log" 2>&1
	rc=$?
	cat "$LOGDIR/bloat-$c.log"
	# Growth passes only when the commit message quotes bloat-o-meter's
	# summary line exactly as measured here (and so explains it).
	grow=$(grep -m1 '^add/remove: ' "$LOGDIR/bloat-$c.log")
	if [ "$rc" -ne 0 ] && grep -q ' grew from ' "$LOGDIR/bloat-$c.log" && [ -n "$grow" ] &&
		git -C "$wt" log -1 --format=%B "$c" | grep -qF -- "$grow"; then
		info "growth quoted in the commit message: $grow"
		rc=0
	fi
	record "no growth, or growth quoted in the message: $subj" "$rc"
done
stage_end

stage "make send, dry run: mails, git am, cover letter, range-diff"
tools/sendcheck.sh >"$LOGDIR/sendcheck.log" 2>&1
kunit_result "$LOGDIR/sendcheck.log" $? "make send dry run" "$BSK_STAGE_T0"
grep -E '^(PASS|FAIL) ' "$LOGDIR/sendcheck.log"
stage_end

finish
