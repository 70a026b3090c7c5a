# SPDX-License-Identifier: GPL-2.0
DESCRIPTION="every fix, reverted on top of the series, fails a case"

# blktests_regression SUBJECT: the test SUBJECT's mail names, failed on base, passed on series (results/blktests/fixes)
blktests_regression() {
	local mail t ts sum=$BSK_TOP/results/blktests/fixes/summary.md
	[ -f "$sum" ] || return 1
	for mail in "$BSK_TOP"/patches/*.patch ''; do # the Subject: header, unfolded
		[ "$(sed -n '/^Subject: /{N;s/\n / /;s/\n.*//;s/^Subject: \[PATCH[^]]*\] //;p;q}' "$mail" 2>/dev/null)" != "$1" ] || break
	done
	[ -n "$mail" ] || return 1
	mapfile -t ts < <(grep -oE '\b(block|dm|zbd|nvme|scsi|loop)/[0-9]{3}\b' "$mail" | sort -u)
	for t in "${ts[@]}"; do
		! awk -F' *[|] *' -v t="$t" '$2 == t && $4 == "failed" && $5 == "passed" { f = 1 } END { exit !f }' "$sum" ||
			{ echo "$t"; return 0; }
	done
	return 1
}

cleanup() { git -C "$1" reset -q --hard HEAD; } # interrupted: the fix back

run() { # each fix reverted in the applied tree, the suites under UML, the tree put back
	local wt=$1 L=$4 c subj rc log names n missing notes
	for c in $(git -C "$wt" rev-list --reverse "$2..HEAD"); do
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
			if [ "$rc" -eq 0 ] && names=$(blktests_regression "$subj"); then
				result "without \"$subj\" blktests $names fails (results/blktests/fixes: failed on the base, passed with the series; $BASE)" 0
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
