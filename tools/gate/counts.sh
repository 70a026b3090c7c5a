#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# counts.sh RESULTS.json [TOP] - the case counts the repository states
# against a kunit.py --json run of the tip (every suite, nothing filtered).
#
#   docs/reference.md, "## The suites": each "| `suite` | ... | N |" row
#   must be that suite's number of cases in the run, and the "| all |"
#   row their sum;
#   README.md and patches/cover-letter-*: every "N cases", "N passed",
#   "Ran N tests" and "passed: N" must be that sum.
#
# One line per count checked ("ok" or "WRONG", with the file); exits 1 if
# any is wrong, or if the run holds no case.
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

json=${1:-}
top=${2:-$BSK_TOP}
[ -f "$json" ] || die "usage: counts.sh RESULTS.json [TOP] (no file '$json')"

# "suite cases" per suite of the run, then "all N".
mapfile -t run < <(python3 -c 'import json, sys
def n(g):
    return len(g.get("test_cases", [])) + sum(n(s) for s in g.get("sub_groups", []))
top = json.load(open(sys.argv[1]))
tot = 0
for s in top.get("sub_groups", []):
    print(s["name"], n(s))
    tot += n(s)
print("all", tot)' "$json")
total=${run[-1]#all }
[ "$total" -gt 0 ] || die "$json holds no case"

bad=0
check() { # FILE WHAT STATED ACTUAL
	if [ "$3" = "$4" ]; then
		printf 'ok     %s: %s %s\n' "$1" "$2" "$3"
	else
		printf 'WRONG  %s: %s %s, the run has %s\n' "$1" "$2" "$3" "$4"
		bad=$((bad + 1))
	fi
}

ref=$top/docs/reference.md
[ -f "$ref" ] || die "no $ref"
table=$(sed -n '/^## The suites$/,/^## /p' "$ref")
[ -n "$table" ] || die "$ref has no '## The suites' table"
for l in "${run[@]}"; do
	s=${l% *}
	if [ "$s" = all ]; then
		stated=$(sed -n 's/^| all |.*| \([0-9][0-9]*\) |$/\1/p' <<<"$table")
	else
		stated=$(sed -n "s/^| \`$s\` |.*| \\([0-9][0-9]*\\) |\$/\\1/p" <<<"$table")
	fi
	check docs/reference.md "$s" "${stated:-(none)}" "${l##* }"
done
# A suite the table names that the run does not have.
bq='`'
while read -r s; do
	printf '%s\n' "${run[@]}" | grep -q "^$s " || check docs/reference.md "$s" "(listed)" "(no such suite)"
done < <(sed -n "s/^| $bq\\([a-z0-9_]*\\)$bq |.*/\\1/p" <<<"$table")

for f in "$top/README.md" "$top"/patches/cover-letter-*; do
	[ -f "$f" ] || continue
	while read -r n; do
		check "${f#"$top"/}" "total" "$n" "$total"
	done < <(grep -oE '\b[0-9]+ cases\b|\b[0-9]+ passed\b|Ran [0-9]+ tests|passed: [0-9]+' "$f" |
		grep -oE '[0-9]+')
done
[ "$bad" -eq 0 ]
