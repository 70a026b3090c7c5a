# SPDX-License-Identifier: GPL-2.0
# blktests.awk - read blktests' ./check output of kernels (-v names="base ...",
# files in that order) and print -v what=table (Markdown), new (passed on the
# first, not the second) or counts; -v expect: tests asked for.  No
# "blktests: exit N": cut off.
BEGIN {
	split(names, name, " ")
}
FNR == 1 {
	k++
	cur = ""
}
/^blktests: exit [0-9]+$/ {
	finished[k] = 1
	next
}
match($0, /^[a-z]+\/[0-9]+( => [^ ]+)? .*\[(passed|failed|not run)\]$/) {
	t = $1
	if ($2 == "=>")
		t = t " => " $3
	st = $0
	sub(/.*\[/, "", st)
	sub(/\]$/, "", st)
	if (!(t in seen)) {
		seen[t] = 1
		order[++n] = t
		d = $0
		sub(/^[^(]*\(/, "", d)
		sub(/\) *\[[a-z ]+\]$/, "", d)
		desc[t] = d
	}
	status[k, t] = st
	count[k, st]++
	cur = (st == "passed") ? "" : t
	lines = 0
	next
}
/^    / && cur != "" {
	# its stats ("runtime  12.1s  ...  13.0s") are not the reason
	if ($0 ~ / \.\.\. /)
		next
	l = substr($0, 5)
	# of a diff, the changed lines only
	if (l ~ /^(--- |\+\+\+ |@@|\(Run |\(See | |\.\.\.$)/)
		next
	sub(/^ +/, "", l)
	gsub(/\|/, "\\|", l)
	if (++lines <= 4)
		why[k, cur] = why[k, cur] (why[k, cur] == "" ? "" : "; ") l
	else if (lines == 5)
		why[k, cur] = why[k, cur] "; ..."
	next
}
{
	cur = ""
}
function cell(i, t) {
	return ((i, t) in status) ? status[i, t] : "-"
}
END {
	ne = split(expect, ex, " ")
	for (j = 1; j <= ne; j++) {
		t = ex[j]
		for (i = 1; i <= k; i++) {
			found = 0
			for (u in seen)
				if (u == t || index(u, t " => ") == 1)
					if ((i, u) in status)
						found = 1
			if (found)
				continue
			if (!(t in seen)) {
				seen[t] = 1
				order[++n] = t
			}
			status[i, t] = "absent"
			count[i, "absent"]++
		}
	}
	for (j = 2; j <= n; j++) {
		t = order[j]
		for (i = j - 1; i >= 1 && order[i] > t; i--)
			order[i + 1] = order[i]
		order[i + 1] = t
	}
	if (what == "counts") {
		for (i = 1; i <= k; i++)
			printf "%s passed %d failed %d notrun %d absent %d finished %d\n", name[i],
				count[i, "passed"], count[i, "failed"], count[i, "not run"], count[i, "absent"], finished[i] + 0
		exit
	}
	if (what == "new") {
		for (j = 1; j <= n; j++) {
			t = order[j]
			if (cell(1, t) == "passed" && cell(2, t) != "passed")
				printf "%s: passed -> %s (%s)\n", t, cell(2, t), why[2, t]
		}
		exit
	}
	printf "| test | description |"
	for (i = 1; i <= k; i++)
		printf " %s |", name[i]
	print " reason, as blktests gives it |"
	printf "|---|---|"
	for (i = 1; i <= k; i++)
		printf "---|"
	print "---|"
	for (j = 1; j <= n; j++) {
		t = order[j]
		# each kernel's reason, named, once per distinct reason; one
		# reason that every kernel gives is said once, unnamed
		r = ""
		nr = 0
		all = 1
		for (i = 1; i <= k; i++) {
			if (why[i, t] == "") {
				all = 0
				continue
			}
			dup = 0
			for (h = 1; h < i; h++)
				if (why[h, t] == why[i, t])
					dup = 1
			if (dup)
				continue
			nr++
			r = r (r == "" ? "" : " / ") (k > 1 ? name[i] ": " : "") why[i, t]
		}
		if (k > 1 && nr == 1 && all)
			r = why[1, t]
		printf "| %s | %s |", t, desc[t]
		for (i = 1; i <= k; i++)
			printf " %s |", cell(i, t)
		printf " %s |\n", r
	}
	print ""
	for (i = 1; i <= k; i++)
		printf "%s: %d passed, %d failed, %d not run, %d absent%s\n\n", name[i], count[i, "passed"],
			count[i, "failed"], count[i, "not run"], count[i, "absent"],
			finished[i] ? "" : " (cut off: no \"blktests: exit\" line)"
}
