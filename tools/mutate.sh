#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# mutate.sh [FILE.tsv [TREE]] - check that a suite can fail: per line
# "description<TAB>path<TAB>sed expression[<TAB>equivalent|open|unreached: why]"
# the expression is applied to the tree, the suites run (KUNIT_FILTER), the
# file restored.  A line per mutant: killed, SURVIVED, BROKEN (no build),
# NOREPORT (no case reported), equivalent/open/unreached (passed, as the
# list expects), NOMATCH or NOFILE; then "LIST: N killed, ..."; non-zero if
# any survived, broke, reported nothing or did not apply.  No FILE: every
# kunit/mutations/*.tsv (BASE=lts: <version>/X.tsv replaces X.tsv), then
# kunit/mutations/<arch>/*.tsv ('make mutate').
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
[ -n "$tree" ] || read -r _ tree _ < <("$BSK_TOP/tools/env/tree.sh") || exit 1
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
runs=$(run_dir "mutate-$(basename "$list" .tsv)") n=0 # a run directory per mutant: runs/N
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
	n=$((n + 1))
	out=$(KUNIT_OUT=$runs/$n "$BSK_TOP/tools/kunit.sh" "$tree" </dev/null 2>&1)
	restore
	# kunit.py's own record, not the last line: a failed boot ends "0 passed, 1 failed"
	counts=
	[ ! -f "$runs/$n/results.json" ] ||
		counts=$(kunit_json_counts "$runs/$n/results.json" 2>/dev/null) || counts=
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
