#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# mutate.sh FILE.tsv [TREE] - check that a suite can fail.  Each line of
# FILE.tsv is "description<TAB>path in the kernel tree<TAB>sed expression";
# '#' lines are comments.  For each line the expression is applied to the
# applied tree, the suites run (KUNIT_FILTER narrows them), and the mutation
# must make at least one case fail.  The file is restored after every run.
# Prints one line per mutation and exits non-zero if any survived or did
# not change the file.
#
# mutate.sh (no FILE) - every list: kunit/mutations/*.tsv, where for the
# series of BASE=lts kunit/mutations/<version>/X.tsv replaces X.tsv, then
# kunit/mutations/x86_64/*.tsv with ARCH=x86_64 ('make mutate').
set -uo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

if [ $# -eq 0 ]; then
	v=$(series_version "$(bsk_series)")
	rc=0
	for f in "$BSK_TOP"/kunit/mutations/*.tsv; do
		[ -z "$v" ] || [ ! -f "$BSK_TOP/kunit/mutations/$v/${f##*/}" ] ||
			f=$BSK_TOP/kunit/mutations/$v/${f##*/}
		"$0" "$f" || rc=1
	done
	for f in "$BSK_TOP"/kunit/mutations/x86_64/*.tsv; do
		ARCH=x86_64 "$0" "$f" || rc=1
	done
	exit "$rc"
fi

list=${1:-}
[ -f "$list" ] || die "usage: mutate.sh FILE.tsv [TREE] (no file '$list')"
tree=${2:-}
if [ -z "$tree" ]; then
	read -r _ tree _ < <("$BSK_TOP/tools/tree.sh") || exit 1
fi
[ -d "$tree" ] || die "no applied tree at $tree; run 'make apply' first"
[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
	die "$tree has uncommitted changes; mutations need a clean tree"

killed=0
bad=0
while IFS=$'\t' read -r desc file expr; do
	case $desc in ''|'#'*) continue ;; esac
	f=$tree/$file
	[ -f "$f" ] || { printf 'NOFILE    %s (%s)\n' "$desc" "$file"; bad=$((bad + 1)); continue; }
	sed -i -e "$expr" "$f"
	if git -C "$tree" diff --quiet -- "$file"; then
		printf 'NOMATCH   %s\n' "$desc"
		bad=$((bad + 1))
		continue
	fi
	out=$("$BSK_TOP/tools/kunit.sh" "$tree" 2>&1)
	git -C "$tree" checkout -q -- "$file"
	last=$(tail -n 1 <<<"$out")
	case $last in
	*" passed, 0 failed") printf 'SURVIVED  %s (%s)\n' "$desc" "$last"; bad=$((bad + 1)) ;;
	*) printf 'killed    %s (%s)\n' "$desc" "$last"; killed=$((killed + 1)) ;;
	esac
done <"$list"
printf '%s: %d killed, %d survived or did not apply\n' "$(basename "$list")" "$killed" "$bad"
[ "$bad" -eq 0 ]
