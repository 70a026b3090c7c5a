# SPDX-License-Identifier: GPL-2.0
# blktests.awk (gawk) - blktests runs of kernels (-v names="base ..."): per kernel NAME the result
# files check -o wrote (NAME-results/DIR/GROUP/NNN), then NAME.txt, its console, whose only part read
# is what blktests writes nowhere else: the reasons, and "not run" with no result file.
# -v what=table, new (passed on the first, not the second) or counts; -v expect: the tests asked for.
BEGIN {
	split(names, name, " ")
	for (i in name)
		idx[name[i]] = i
}
function set(i, t, st) {
	if (st == "" || (i, t) in status)
		return
	status[i, t] = st
	count[i, st]++
	sub(/ => .*/, "", t)
	ran[i, t] = 1
}
FNR == 1 {
	cur = ""
	r = index(FILENAME, "-results/")
	k = idx[r ? substr(FILENAME, 1, r - 1) : substr(FILENAME, 1, length(FILENAME) - 4)]
}
r {
	split($0, kv, "\t")
	if (kv[1] == "status")
		st = kv[2] == "pass" ? "passed" : kv[2] == "fail" ? "failed" : kv[2]
	if (kv[1] == "description")
		d = kv[2]
	next
}
ENDFILE {
	if (r && split(FILENAME, p, "/") >= 4) { # NAME-results/DIR/GROUP/NNN; DIR: nodev[_COND] or the device
		t = p[3] "/" p[4] (p[2] ~ /^nodev/ ? "" : " => " p[2])
		if (!(t in desc))
			desc[t] = d
		set(k, t, st)
		st = d = ""
	}
}
/^blktests: exit [0-9]+$/ {
	finished[k] = 1
	next
}
match($0, /^[a-z]+\/[0-9]+( => [^ ]+)? .*\[(passed|failed|not run)\]$/, m) {
	t = $2 == "=>" ? $1 " => " $3 : $1
	if (!(t in desc)) {
		desc[t] = $0
		sub(/^[^(]*\(/, "", desc[t])
		sub(/\) *\[[a-z ]+\]$/, "", desc[t])
	}
	if (m[2] == "not run")
		set(k, t, m[2])
	cur = m[2] == "passed" ? "" : t
	lines = 0
	next
}
/^    / && cur != "" {
	l = substr($0, 5)
	# not its stats ("runtime  12.1s  ...  13.0s"); of a diff, the changed lines only
	if ($0 ~ / \.\.\. / || l ~ /^(--- |\+\+\+ |@@|\(Run |\(See | |\.\.\.$)/)
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
	for (j = 1; j <= ne; j++)
		for (i = 1; i <= k; i++)
			if (!((i, ex[j]) in ran)) {
				if (!(ex[j] in desc))
					desc[ex[j]] = ""
				status[i, ex[j]] = "absent"
				count[i, "absent"]++
			}
	n = asorti(desc, order)
	if (what == "counts") {
		for (i = 1; i <= k; i++)
			printf "%s passed %d failed %d notrun %d absent %d finished %d\n", name[i],
				count[i, "passed"], count[i, "failed"], count[i, "not run"], count[i, "absent"], finished[i] + 0
		exit
	}
	if (what == "new") {
		for (j = 1; j <= n; j++)
			if (cell(1, order[j]) == "passed" && cell(2, order[j]) != "passed")
				printf "%s: passed -> %s (%s)\n", order[j], cell(2, order[j]), why[2, order[j]]
		exit
	}
	head = "| test | description |"
	rule = "|---|---|"
	for (i = 1; i <= k; i++) {
		head = head " " name[i] " |"
		rule = rule "---|"
	}
	print head " reason, as blktests gives it |\n" rule "---|"
	for (j = 1; j <= n; j++) {
		t = order[j]
		# each distinct reason once, named by its kernel; one that every kernel gives, unnamed
		r = ""
		all = 1
		delete said
		for (i = 1; i <= k; i++)
			if (why[i, t] == "")
				all = 0
			else if (!(why[i, t] in said)) {
				said[why[i, t]]
				r = r (r == "" ? "" : " / ") (k > 1 ? name[i] ": " : "") why[i, t]
			}
		if (k > 1 && length(said) == 1 && all)
			r = why[1, t]
		d = desc[t]
		gsub(/\|/, "\\|", d)
		printf "| %s | %s |", t, d
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
