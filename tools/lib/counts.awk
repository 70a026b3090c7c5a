# SPDX-License-Identifier: GPL-2.0
#
# counts.awk -v cur=N FILE... - the counts a text states, one line each:
#
#   FILE<TAB>LINE<TAB>KIND<TAB>N<TAB>BASE<TAB>DATED
#
# KIND: cases ("N cases", "N passed", "Ran N tests", "passed: N"),
# mutants ("N mutants") or patches ("N patches").  BASE: lts when the
# figure's sentence names 6.12 or LTS, else mainline.  DATED: why the figure is
# a record of an earlier run rather than a claim about the tree ("-" when it
# is not): its unit carries a date (2026-12-03), a commit, or a revision
# older than vCUR, or the paragraph that introduces its table or list
# (ending with ":") does, or its section's heading names such a revision.
# A table row "| NAME.tsv | N |" is KIND mutants:NAME.tsv, N that list's.
#
# A unit is a table row, a list item, or a paragraph (blank lines,
# headings and list items end one).  Headings: markdown "#" lines, a line
# underlined with --- or ===, and a revision entry "vN (..." at the start
# of a line (MAINTAINERS-notes' revision log).  Markdown code blocks (fenced,
# or every line indented by four) are examples, not claims: skipped.

function dated(s) {
	if (match(s, /(^|[^0-9])20[0-9][0-9]-[01][0-9]-[0-3][0-9]/))
		return "dated " substr(s, RSTART + (RSTART > 1), 10)
	if (match(s, /(commit|at) [0-9a-f]{7,40}/))
		return substr(s, RSTART, RLENGTH)
	return older(s)
}

# a revision older than vCUR that S names, or ""
function older(s,    m, v) {
	while (match(s, /(^|[^A-Za-z0-9_.-])v[0-9]+([^0-9.]|$)/)) {
		m = substr(s, RSTART, RLENGTH)
		v = m
		gsub(/[^0-9]/, "", v)
		if (v + 0 < cur + 0 && v + 0 > 0)
			return "of v" v
		s = substr(s, RSTART + RLENGTH)
	}
	return ""
}

# the sentence of U around offset AT (". " ends one)
function sentence(u, at,    from, to, i) {
	from = 1
	for (i = at; i > 1; i--)
		if (substr(u, i - 2, 2) ~ /^\.[ \n]$/) {
			from = i
			break
		}
	to = length(u)
	for (i = at; i < length(u); i++)
		if (substr(u, i, 2) ~ /^\.[ \n]$/) {
			to = i
			break
		}
	return substr(u, from, to - from + 1)
}

# figures(unit text with "\n" between lines, its first line number)
function figures(u, first, kind0,    s, off, pre, fig, n, kind, base, why) {
	if (u == "")
		return
	why = dated(u)
	if (why == "" && kind0 != "prose")
		why = caption
	if (why == "")
		why = scope
	if (why == "")
		why = "-"
	# a list's row: "| name.tsv | N |" states the mutants of that list
	if (match(u, /^\| *`?[a-z0-9_\/.-]+\.tsv`? *\| *[0-9]+ *\|/)) {
		fig = substr(u, RSTART, RLENGTH)
		n = fig
		sub(/^\| *`?/, "", n)
		sub(/`? *\|.*/, "", n)
		kind = "mutants:" n
		n = fig
		sub(/^[^|]*\|[^|]*\| */, "", n)
		sub(/ .*|\|.*/, "", n)
		printf "%s\t%d\t%s\t%s\t%s\t%s\n", fname, first, kind, n, "mainline", why
	}
	s = u
	off = 0
	while (match(s, /[0-9]+ (cases|passed|mutants|patches)([^A-Za-z]|$)|Ran [0-9]+ tests|passed: [0-9]+/)) {
		fig = substr(s, RSTART, RLENGTH)
		off += RSTART
		pre = substr(u, 1, off)
		s = substr(s, RSTART + RLENGTH)
		off += RLENGTH - 1
		n = fig
		gsub(/[^0-9]/, "", n)
		kind = fig ~ /mutants/ ? "mutants" : fig ~ /patches/ ? "patches" : "cases"
		base = sentence(u, length(pre)) ~ /6\.12|(^|[^A-Za-z])(LTS|lts)([^A-Za-z]|$)/ ? "lts" : "mainline"
		printf "%s\t%d\t%s\t%s\t%s\t%s\n", fname, first + gsub(/\n/, "", pre), kind, n, base, why
	}
}

function flush(    k) {
	if (unit == "")
		return
	k = unit ~ /^\|/ ? "table" : unit ~ /^ *([-*]|[0-9]+\.) / ? "list" : "prose"
	figures(unit, ufirst, k)
	# a paragraph that ends with ":" is the caption of the table or list
	# after it: they inherit its date
	if (k == "prose")
		caption = unit ~ /:[ \t]*$/ ? dated(unit) : ""
	unit = ""
}

function heading(text) {
	flush()
	caption = ""
	scope = older(text)
}

FNR == 1 {
	flush()
	fname = FILENAME
	scope = ""
	caption = ""
	md = FILENAME ~ /\.md$/
	fence = 0
	prev = ""
	prevnr = 0
	code = 0
}

{
	line = $0
}

md && /^ *```/ {
	fence = !fence
	flush()
	next
}
fence { next }

# an underline makes the line before it a heading
/^(---+|===+)$/ && prev != "" {
	# the line before was added to the unit: it is the heading instead
	sub(/\n?[^\n]*$/, "", unit)
	heading(prev)
	prev = ""
	next
}

/^[ \t]*$/ {
	flush()
	code = 0
	prev = ""
	next
}

md && unit == "" && /^(    |\t)/ {
	code = 1
}
code { next }

md && /^#+ / {
	heading(line)
	prev = ""
	next
}

/^v[0-9]+ \(/ {
	heading(line)
	prev = ""
	next
}

# a table row or a list item is a unit of its own
/^\|/ || /^ *([-*]|[0-9]+\.) / {
	flush()
}

{
	if (unit == "")
		ufirst = FNR
	unit = unit == "" ? line : unit "\n" line
	prev = line
	if (/^\|/)
		flush()
}

END {
	flush()
}
