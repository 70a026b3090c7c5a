#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# counts.sh RESULTS.json [TOP] - the counts the repository states against
# their sources: a kunit.py --json run of the tip (every suite, nothing
# filtered), the mutation lists and the series files.
#
#   docs/reference.md, "## The suites": each "| `suite` | ... | N |" row
#   must be that suite's number of cases in the run, and the "| all |"
#   row their sum.
#   README.md, docs/*.md, patches/cover-letter-* and MAINTAINERS-notes
#   (tools/lib/counts.awk finds the figures): every "N cases", "N
#   passed", "Ran N tests", "passed: N" must be the run's sum of cases,
#   every "N mutants" the mainline lists' mutants (kunit/mutations/*.tsv),
#   every "| NAME.tsv | N |" row that list's, every "N patches" the
#   patches of `series`.  A figure in a sentence that names 6.12 or LTS is
#   the LTS series': its patches (series-<LTS>), its lists, and its cases
#   from COUNTS_LTS_JSON, a kunit.py --json run of that tip (without one,
#   its case counts are listed as unchecked).
#   In docs/ and MAINTAINERS-notes a figure that differs may be a record
#   of an earlier run: it passes, listed as "dated", when its paragraph or
#   row carries a date, a commit or an older revision (counts.awk).
#   README and the cover letters speak of the tree as it is: no dates.
#
# One line per count checked ("ok", "dated", "unchecked" or "WRONG", with
# the file and line); exits 1 if any is wrong, or if the run holds no case.
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

# The mutants of the lists mutate.sh runs for a base: kunit/mutations/*.tsv,
# where kunit/mutations/<LTS>/X.tsv replaces X.tsv for the LTS series.
mutants() { # mainline|lts [LIST]
	local f n=0 l
	for f in "$top"/kunit/mutations/*.tsv; do
		[ -f "$f" ] || continue
		if [ "$1" = lts ] && [ -f "$top/kunit/mutations/$BSK_LTS_SERIES/${f##*/}" ]; then
			f=$top/kunit/mutations/$BSK_LTS_SERIES/${f##*/}
		fi
		[ -z "${2:-}" ] || [ "${f##*/}" = "${2##*/}" ] || continue
		l=$(grep -v '^#' "$f" | grep -c . || true)
		n=$((n + l))
	done
	if [ -n "${2:-}" ] && [ "$n" -eq 0 ] && [ ! -f "$top/kunit/mutations/${2}" ]; then
		echo "(no such list)"
	else
		echo "$n"
	fi
}
patches() { # SERIES
	[ -f "$1" ] || { echo "(no ${1##*/})"; return; }
	grep -v '^#' "$1" | grep -c . || true
}
lts_total=
if [ -n "${COUNTS_LTS_JSON:-}" ]; then
	[ -f "$COUNTS_LTS_JSON" ] || die "COUNTS_LTS_JSON=$COUNTS_LTS_JSON: no such file"
	lts_total=$(python3 -c 'import json, sys
def n(g):
    return len(g.get("test_cases", [])) + sum(n(s) for s in g.get("sub_groups", []))
print(n(json.load(open(sys.argv[1]))))' "$COUNTS_LTS_JSON")
fi

# The current revision: the first "vN (" entry of MAINTAINERS-notes'
# revision log; figures of older revisions are records.
cur=
[ ! -f "$top/MAINTAINERS-notes" ] ||
	cur=$(sed -n 's/^v\([0-9][0-9]*\) (.*/\1/p' "$top/MAINTAINERS-notes" | head -n 1)
files=("$top/README.md" "$top"/docs/*.md "$top"/patches/cover-letter-* "$top/MAINTAINERS-notes")
for i in "${!files[@]}"; do [ -f "${files[$i]}" ] || unset 'files[i]'; done
while IFS=$'\t' read -r f line kind n base why; do
	f=${f#"$top"/}
	case $kind in
	cases)
		if [ "$base" = lts ]; then
			want=${lts_total:-}
		else
			want=$total
		fi
		;;
	mutants) want=$(mutants "$base") ;;
	mutants:*) want=$(mutants "$base" "${kind#mutants:}") ;;
	patches)
		if [ "$base" = lts ]; then
			want=$(patches "$top/series-$BSK_LTS_SERIES")
		else
			want=$(patches "$top/series")
		fi
		;;
	esac
	what="$kind${base/#mainline/}"
	what=${what/lts/ (LTS)}
	if [ -z "$want" ]; then
		printf 'unchecked  %s:%s: %s %s (no LTS run given)\n' "$f" "$line" "$what" "$n"
	elif [ "$n" = "$want" ]; then
		printf 'ok     %s:%s: %s %s\n' "$f" "$line" "$what" "$n"
	elif [ "$why" != - ] && [[ $f == docs/* || $f == MAINTAINERS-notes ]]; then
		printf 'dated  %s:%s: %s %s (%s; now %s)\n' "$f" "$line" "$what" "$n" "$why" "$want"
	else
		src=tree
		[ "$kind" != cases ] || src=run
		printf 'WRONG  %s:%s: %s %s, the %s has %s\n' "$f" "$line" "$what" "$n" "$src" "$want"
		bad=$((bad + 1))
	fi
done < <(awk -v cur="${cur:-1}" -f "$BSK_TOP/tools/lib/counts.awk" "${files[@]}")
[ "$bad" -eq 0 ]
