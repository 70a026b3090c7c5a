#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# mutate.sh [FILE.tsv [TREE]] - apply each mutant of the list (none: every list,
# 'make mutate'), run the suites, restore the file; docs/mutation.md.
set -uo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

if [ $# -eq 0 ]; then
	shopt -s nullglob
	v=$(series_version "$(bsk_series)")
	rc=0
	for f in "$BSK_TOP"/kunit/mutations/*.tsv; do
		[ -z "$v" ] || [ ! -f "$BSK_TOP/kunit/mutations/$v/${f##*/}" ] ||
			f=$BSK_TOP/kunit/mutations/$v/${f##*/}
		"$0" "$f" || rc=1
	done
	# Lists only a run on that architecture can kill (e.g. 32-bit keys).
	for f in "$BSK_TOP"/kunit/mutations/{x86_64,i386,arm64}/*.tsv; do
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

declare -A c=()
# say OUTCOME TEXT: a mutant's line, counted under OUTCOME
say() {
	printf '%-11s %s\n' "$1" "$2"
	c[$1]=$((${c[$1]:-0} + 1))
}
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
	case $desc in '' | '#'*) continue ;; esac
	[ -f "$tree/$file" ] || { say NOFILE "$desc ($file)"; continue; }
	mutated=$file
	sed -i -e "$expr" "$tree/$file"
	if git -C "$tree" diff --quiet -- "$file"; then
		say NOMATCH "$desc"
	elif ! KUNIT_BUILD_ONLY=1 "$BSK_TOP/tools/kunit.sh" "$tree" </dev/null >/dev/null 2>&1; then
		say BROKEN "$desc (does not build)"
	else
		n=$((n + 1))
		KUNIT_OUT=$runs/$n "$BSK_TOP/tools/kunit.sh" "$tree" </dev/null >"$runs/$n.log" 2>&1
		# kunit.py's own record, not the last line: a failed boot ends "0 passed, 1 failed"
		counts=
		[ ! -f "$runs/$n/results.json" ] ||
			counts=$(kunit_json_counts "$runs/$n/results.json" 2>/dev/null) || counts=
		read -r p f _ <<<"${counts:-0 0 0}"
		if [ "$f" -gt 0 ]; then
			say killed "$desc ($p passed, $f failed)"
		elif [ "$p" -eq 0 ]; then
			say NOREPORT "$desc (no case reported; see $runs/$n.log)"
		elif [[ $why =~ ^(equivalent|open|unreached): ]]; then
			say "${BASH_REMATCH[1]}" "$desc ($p passed; ${why#"${BASH_REMATCH[1]}: "})"
		else
			say SURVIVED "$desc ($p passed, 0 failed)"
		fi
	fi
	restore
done <"$list"
printf '%s: %d killed, %d survived, %d broken, %d no report, %d equivalent, %d open, %d unreached%s\n' \
	"$(basename "$list")" "${c[killed]:-0}" "${c[SURVIVED]:-0}" "${c[BROKEN]:-0}" "${c[NOREPORT]:-0}" \
	"${c[equivalent]:-0}" "${c[open]:-0}" "${c[unreached]:-0}" \
	"$( [ $((${c[NOMATCH]:-0} + ${c[NOFILE]:-0})) -eq 0 ] || echo ", ${c[NOMATCH]:-0} not matched, ${c[NOFILE]:-0} no file")"
[ $((${c[SURVIVED]:-0} + ${c[BROKEN]:-0} + ${c[NOREPORT]:-0} + ${c[NOMATCH]:-0} + ${c[NOFILE]:-0})) -eq 0 ]
