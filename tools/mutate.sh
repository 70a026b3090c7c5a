#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# mutate.sh FILE.tsv [TREE] - check that a suite can fail.  Each line of
# FILE.tsv is "description<TAB>path in the kernel tree<TAB>sed expression",
# with an optional fourth field for a mutation the suites are not meant to
# kill: "equivalent: why" (it changes no behaviour), "open: question" (a
# behaviour the suites leave open and the cover letter asks about) or
# "unreached: why" (a behaviour no test machine has, such as a CPU of
# another capacity); '#' lines are comments.  For each line the expression
# is applied to the applied tree, the kernel is built, and the suites run
# (KUNIT_FILTER narrows them).  One line per mutation:
#
#   killed      a case failed (kunit.py's results.json has a FAIL or ERROR)
#   SURVIVED    every case passed: a behaviour without a test
#   BROKEN      the mutant does not build: it shows nothing (not a kill)
#   NOREPORT    it built, but no case reported (a boot that failed or hung,
#               a run that stopped): it shows nothing (not a kill)
#   equivalent, open, unreached
#               every case passed, and the list says why that is expected
#   NOMATCH     the expression changed nothing; NOFILE: no such file
#
# The file is restored after every mutant, and on any exit (Ctrl-C too).
# Ends with "LIST: N killed, N survived, N broken, N no report, N
# equivalent, N open, N unreached" and exits non-zero if any survived, was
# broken, reported nothing or did not apply.
#
# mutate.sh (no FILE) - every list: kunit/mutations/*.tsv, where for the
# series of BASE=lts kunit/mutations/<version>/X.tsv replaces X.tsv, then
# kunit/mutations/<arch>/*.tsv with ARCH=<arch> (x86_64, i386, arm64)
# ('make mutate').
set -uo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

if [ $# -eq 0 ]; then
	v=$(series_version "$(bsk_series)")
	rc=0
	for f in "$BSK_TOP"/kunit/mutations/*.tsv; do
		[ -e "$f" ] || continue
		[ -z "$v" ] || [ ! -f "$BSK_TOP/kunit/mutations/$v/${f##*/}" ] ||
			f=$BSK_TOP/kunit/mutations/$v/${f##*/}
		"$0" "$f" || rc=1
	done
	# Lists only a run on that architecture can kill (e.g. 32-bit keys).
	for f in "$BSK_TOP"/kunit/mutations/{x86_64,i386,arm64}/*.tsv; do
		[ -e "$f" ] || continue
		ARCH=$(basename "$(dirname "$f")") "$0" "$f" || rc=1
	done
	exit "$rc"
fi

list=${1:-}
[ -f "$list" ] || die "usage: mutate.sh FILE.tsv [TREE] (no file '$list')"
tree=${2:-}
if [ -z "$tree" ]; then
	read -r _ tree _ < <("$BSK_TOP/tools/env/tree.sh") || exit 1
fi
[ -d "$tree" ] || die "no applied tree at $tree; run 'make apply' first"
[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
	die "$tree has uncommitted changes; mutations need a clean tree"

killed=0
survived=0
broken=0
noreport=0
equiv=0
open=0
unreached=0
bad=0
mutated=
# shellcheck disable=SC2317 # called from the traps
restore() {
	[ -z "$mutated" ] || git -C "$tree" checkout -q -- "$mutated"
	mutated=
}
trap restore EXIT
trap 'restore; exit 130' INT TERM
while IFS=$'\t' read -r desc file expr why; do
	case $desc in ''|'#'*) continue ;; esac
	f=$tree/$file
	[ -f "$f" ] || { printf 'NOFILE      %s (%s)\n' "$desc" "$file"; bad=$((bad + 1)); continue; }
	mutated=$file
	sed -i -e "$expr" "$f"
	if git -C "$tree" diff --quiet -- "$file"; then
		printf 'NOMATCH     %s\n' "$desc"
		bad=$((bad + 1))
		restore
		continue
	fi
	if ! KUNIT_BUILD_ONLY=1 "$BSK_TOP/tools/kunit.sh" "$tree" </dev/null >/dev/null 2>&1; then
		restore
		printf 'BROKEN      %s (does not build)\n' "$desc"
		broken=$((broken + 1))
		continue
	fi
	out=$("$BSK_TOP/tools/kunit.sh" "$tree" </dev/null 2>&1)
	restore
	# What kunit.py itself recorded for this run, not the last line: a
	# boot that fails also ends in "0 passed, 1 failed".
	run=$(sed -n 's/^kunit.sh: results in \([^ ]*\) .*/\1/p' <<<"$out" | tail -n 1)
	counts=
	[ -z "$run" ] || [ ! -f "$run/results.json" ] ||
		counts=$(kunit_json_counts "$run/results.json" 2>/dev/null) || counts=
	read -r p f _ <<<"${counts:-0 0 0}"
	if [ "$f" -gt 0 ]; then
		printf 'killed      %s (%s passed, %s failed)\n' "$desc" "$p" "$f"
		killed=$((killed + 1))
	elif [ "$p" -eq 0 ]; then
		printf 'NOREPORT    %s (no case reported; %s)\n' "$desc" "$(tail -n 1 <<<"$out")"
		noreport=$((noreport + 1))
	else
		case $why in
		equivalent:*) printf 'equivalent  %s (%s passed; %s)\n' "$desc" "$p" "${why#equivalent: }"; equiv=$((equiv + 1)) ;;
		open:*) printf 'open        %s (%s passed; %s)\n' "$desc" "$p" "${why#open: }"; open=$((open + 1)) ;;
		unreached:*) printf 'unreached   %s (%s passed; %s)\n' "$desc" "$p" "${why#unreached: }"; unreached=$((unreached + 1)) ;;
		*) printf 'SURVIVED    %s (%s passed, 0 failed)\n' "$desc" "$p"; survived=$((survived + 1)) ;;
		esac
	fi
done <"$list"
printf '%s: %d killed, %d survived, %d broken, %d no report, %d equivalent, %d open, %d unreached\n' \
	"$(basename "$list")" "$killed" "$survived" "$broken" "$noreport" "$equiv" "$open" "$unreached"
[ $((survived + broken + noreport + bad)) -eq 0 ]
