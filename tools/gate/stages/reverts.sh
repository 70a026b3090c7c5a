# SPDX-License-Identifier: GPL-2.0
DESCRIPTION="every fix, reverted on top of the series, fails a case"

# blktests_regression SERIES N: the test SERIES names for its N-th patch ("# blktests: T"), if
# results/blktests/fixes has blktests' result files of it failed on the base and passed with the series
blktests_regression() {
	local t k r=$BSK_TOP/results/blktests/fixes st=
	t=$(sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' "$1" | sed -n "$2s/.*# *blktests: *\([^ ]*\).*/\1/p")
	[ -n "$t" ] || return 1
	for k in base series; do st+=$(awk -F'\t' '$1 == "status" { print $2 }' "$r/$k-results"/*/"$t" 2>/dev/null | head -n 1):; done
	[ "$st" = fail:pass: ] && echo "$t"
}

cleanup() { git -C "$1" reset -q --hard HEAD; } # interrupted: the fix back

run() { # each fix reverted in the applied tree, the suites under UML, the tree put back
	local wt=$1 L=$4 c subj rc log names n missing notes i=0
	for c in $(git -C "$wt" rev-list --reverse "$2..HEAD"); do
		i=$((i + 1))
		git -C "$wt" log -1 --format=%B "$c" | grep -q '^Fixes: ' || continue
		subj=$(git -C "$wt" log -1 --format=%s "$c")
		log=$L/revert-$c.log
		if ! git -C "$wt" revert --no-commit "$c" >"$log" 2>&1; then
			cleanup "$wt"
			result "$subj reverts on top of the series ($BASE)" 1
			continue
		fi
		n=$L/revert-$c
		ARCH=um KUNIT_OUT=$n step tools/kunit.sh "$wt" >>"$log" 2>&1
		rc=$?
		cleanup "$wt"
		names=
		[ ! -f "$n/results.json" ] || names=$(kunit_json_failed "$n/results.json")
		if [ -z "$names" ]; then
			# only a revert the suites ran clean on may rest on blktests
			if [ "$rc" -eq 0 ] && names=$(blktests_regression "$3" "$i"); then
				result "without \"$subj\" blktests $names fails (results/blktests/fixes, blktests' result files: failed on the base, passed with the series; $BASE)" 0
				continue
			fi
			tail -n 3 "$log"
			result "without \"$subj\" a case fails ($BASE)" 1
			continue
		fi
		printf '%s\n' "$names" | sed 's/^/      fails: /'
		# the notes wrap their lines: compare with whitespace collapsed
		notes=$(tr -s ' \t\n' '   ' <"$BSK_TOP/MAINTAINERS-notes")
		missing=$(printf '%s\n' "$names" | while IFS= read -r n; do
			grep -qF -- "$n" <<<"$notes" || printf '%s; ' "$n"
		done)
		result "without \"$subj\" $(printf '%s\n' "$names" | wc -l) case(s) fail ($BASE)" 0
		[ -z "$missing" ] || result "MAINTAINERS-notes names every case that fails without \"$subj\" (missing: $missing)" 1
	done
}
