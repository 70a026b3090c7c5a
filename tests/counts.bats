#!/usr/bin/env bats
# counts.sh: every figure the repository states against its source: the
# counts against a kunit.py --json run, the measurements against the file
# their unit names (docs/gate.md, "Figures and their sources").

load helper
bats_require_minimum_version 1.5.0

setup() {
	common_setup
	T=$BATS_TEST_TMPDIR/top
	mkdir -p "$T/docs" "$T/patches" "$T/results/bench"
	# a run of two suites: 3 cases, 2 passed (one a parameterized test), 1 skipped
	J=$BATS_TEST_TMPDIR/results.json
	cat >"$J" <<'EOJ'
{"name": "KUnit Test Group 0", "sub_groups": [
 {"name": "suite_a", "sub_groups": [{"name": "param", "test_cases": [
   {"name": "one", "status": "PASS"}, {"name": "two", "status": "SKIP"}]}]},
 {"name": "suite_b", "test_cases": [{"name": "case", "status": "PASS"}]}]}
EOJ
	printf '| suite | patch | cases |\n|---|---|---|\n| `suite_a` | p | 2 |\n| `suite_b` | q | 1 |\n| all | | 3 |\n' |
		sed '1i # Reference\n\n## The suites\n' >"$T/docs/reference.md"
	printf '| scheduler | instructions |\n|---|---|\n| mq-deadline | +8600.7 |\n' >"$T/results/bench/icount.md"
	printf 'Success is `2 passed, 1 skipped, 0 failed` (3 cases).\n' >"$T/README.md"
	printf 'subject\n\nThe read costs 8601 instructions (results/bench/icount.md).\n' >"$T/patches/report-x"
}

@test "counts: the counts and a sourced measurement pass" {
	run "$TOP/tools/gate/counts.sh" "$J" "$T"
	[ "$status" -eq 0 ]
	[[ "$output" == *"ok        docs/reference.md: suite_a 2"* ]]
	[[ "$output" == *"ok        README.md:1: 2 passed (the run's passed)"* ]]
	[[ "$output" == *"ok        README.md:1: 1 skipped (the run's skipped)"* ]]
	[[ "$output" == *"ok        README.md:1: 3 cases (the run's cases)"* ]]
	[[ "$output" == *"ok        patches/report-x:3: 8601 instructions (in results/bench/icount.md)"* ]]
}

@test "counts: passed and skipped are counted apart" {
	printf 'All 3 passed.\n' >>"$T/README.md"
	printf 'Under UML the two completion cases skip.\n' >"$T/docs/environment.md"
	run ! "$TOP/tools/gate/counts.sh" "$J" "$T"
	[[ "$output" == *"WRONG     README.md:2: 3 passed (the run's passed: 2)"* ]]
	[[ "$output" == *"unchecked docs/environment.md:1: two completion cases (source: the uml run, not given)"* ]]
	COUNTS_UML_JSON=$J run ! "$TOP/tools/gate/counts.sh" "$J" "$T"
	[[ "$output" == *"WRONG     docs/environment.md:1: two completion cases (the uml run's skipped: 1)"* ]]
}

@test "counts: a wrong instruction count in a report fails" {
	sed -i 's/8601/8610/' "$T/patches/report-x"
	run ! "$TOP/tools/gate/counts.sh" "$J" "$T"
	[[ "$output" == *"WRONG     patches/report-x:3: 8610 instructions (not in results/bench/icount.md)"* ]]
}

@test "counts: a measurement whose unit names no source fails" {
	printf 'A run takes 42 s.\n\nIt took 7 min (`results/bench/icount.md`).\n' >"$T/docs/timings.md"
	run ! "$TOP/tools/gate/counts.sh" "$J" "$T"
	[[ "$output" == *"WRONG     docs/timings.md:1: 42 s (no source named)"* ]]
	[[ "$output" == *"WRONG     docs/timings.md:3: 7 min (not in results/bench/icount.md)"* ]]
}

@test "counts: a figure whose unit names a source that is no file is unchecked, with it" {
	printf 'The gate of 2026-12-06:\n\n| run | took |\n|---|---|\n| make check | 4812 s, 647 passed |\n' >"$T/docs/timings.md"
	run "$TOP/tools/gate/counts.sh" "$J" "$T"
	[ "$status" -eq 0 ]
	[[ "$output" == *"unchecked docs/timings.md:5: 4812 s (source: 2026-12-06)"* ]]
	[[ "$output" == *"unchecked docs/timings.md:5: 647 passed (source: 2026-12-06)"* ]]
}

@test "counts: a patch's figure may name its source below ---, and mutants and patches are the tree's" {
	mkdir -p "$T/kunit/mutations"
	printf 'x.patch\ny.patch\n' >"$T/series"
	printf '# a list\nm1\tblock/x.c\ts/a/b/\n' >"$T/kunit/mutations/a.tsv"
	printf 'From: a\nSubject: [PATCH] x\n\nIt saves 8601 instructions; 2 patches, 1 mutants.\n---\nresults/bench/icount.md\n' >"$T/patches/x.patch"
	run "$TOP/tools/gate/counts.sh" "$J" "$T"
	[ "$status" -eq 0 ]
	[[ "$output" == *"ok        patches/x.patch:4: 8601 instructions (in results/bench/icount.md)"* ]]
	[[ "$output" == *"ok        patches/x.patch:4: 2 patches (the series)"* ]]
	sed -i 's/1 mutants/3 mutants/' "$T/patches/x.patch"
	run ! "$TOP/tools/gate/counts.sh" "$J" "$T"
	[[ "$output" == *"WRONG     patches/x.patch:4: 3 mutants (the mutation lists: 1)"* ]]
}

@test "counts: a suite's count that differs from the run fails, and so does a suite it lacks" {
	sed -i 's/^| `suite_b` | q | 1 |$/| `suite_b` | q | 2 |/' "$T/docs/reference.md"
	printf '| `suite_c` | r | 0 |\n' >>"$T/docs/reference.md"
	run ! "$TOP/tools/gate/counts.sh" "$J" "$T"
	[[ "$output" == *"WRONG     docs/reference.md: suite_b 2 (the run's: 1)"* ]]
	[[ "$output" == *"WRONG     docs/reference.md: suite_c (the run has no such suite)"* ]]
}

@test "counts: a recorded run's counts and suites (tests/fixtures/kunit/failure.json)" {
	printf 'Reverted: 53 passed, 1 failed, 4 skipped.\n' >"$T/README.md"
	run ! "$TOP/tools/gate/counts.sh" "$TOP/tests/fixtures/kunit/failure.json" "$T"
	[[ "$output" == *"ok        README.md:1: 53 passed (the run's passed)"* ]]
	[[ "$output" == *"ok        README.md:1: 1 failed (the run's failed)"* ]]
	[[ "$output" == *"ok        README.md:1: 4 skipped (the run's skipped)"* ]]
	[[ "$output" == *"WRONG     docs/reference.md: bfq_inject_limit (none) (the run's: 16)"* ]]
}

@test "counts: no results file is one error line" {
	run ! "$TOP/tools/gate/counts.sh" "$BATS_TEST_TMPDIR/none.json" "$T"
	[ "${#lines[@]}" -eq 1 ]
	[[ "${lines[0]}" == "counts.sh: error: usage: counts.sh RESULTS.json [TOP] (no file "* ]]
}

# row FILE TEXT WANT...: FILE of the fake tree holds TEXT (printf %b); each
# WANT is "KIND LINE: FIGURE (WHY)", a line counts.sh must print for FILE, or
# "none FIGURE": it prints no line of FILE for FIGURE.
row() {
	local f=$1 text=$2 w
	shift 2
	echo "row $f: $text"
	mkdir -p "$(dirname "$T/$f")"
	printf '%b\n' "$text" >"$T/$f"
	run "$TOP/tools/gate/counts.sh" "$J" "$T"
	for w; do
		echo "  want: $w"
		if [[ $w == none\ * ]]; then
			! grep -F " $f:" <<<"$output" | grep -qF ": ${w#none } ("
		else
			grep -qxF "$(printf '%-9s %s:%s' "${w%% *}" "$f" "${w#* }")" <<<"$output"
		fi || { grep -F " $f:" <<<"$output"; return 1; }
	done
}

# Runs whose counts differ from each other and from $J's (2 passed, 1 skipped, 3 cases).
other_runs() {
	local k=$TOP/tests/fixtures/kunit
	export COUNTS_LTS_JSON=$k/failure.json COUNTS_RT_JSON=$k/crash.json \
		COUNTS_UML_JSON=$k/param_all_skipped.json COUNTS_UML1_JSON=$k/all_passed.json
}

@test "counts: each run is chosen by the words of its sentence, its unit or its headings" {
	other_runs # LTS 53/1/4 (58 cases), RT 22/3/0, UML 0/0/9, one CPU 25/0/0
	row docs/runs.md 'On 6.12, 53 passed.' "ok 1: 53 passed (the lts run's passed)"
	row docs/runs.md 'The LTS run: 58 cases.' "ok 1: 58 cases (the lts run's cases)"
	row docs/runs.md 'Under PREEMPT_RT, 22 passed.' "ok 1: 22 passed (the rt run's passed)"
	row docs/runs.md 'On RT, 3 failed.' "ok 1: 3 failed (the rt run's failed)"
	row docs/runs.md 'With KUNIT_DEBUG=rt, 3 failed.' "ok 1: 3 failed (the rt run's failed)"
	row docs/runs.md 'Under UML, 9 skipped.' "ok 1: 9 skipped (the uml run's skipped)"
	row docs/runs.md 'On um, 9 skipped.' "ok 1: 9 skipped (the uml run's skipped)"
	row docs/runs.md 'With one CPU, 25 passed.' "ok 1: 25 passed (the one-CPU UML run's passed)"
	row docs/runs.md 'UML on one CPU: 25 passed.' "ok 1: 25 passed (the one-CPU UML run's passed)"
	row docs/runs.md 'Here 2 passed.' "ok 1: 2 passed (the run's passed)"
	row docs/runs.md 'On 6.12, 2 passed.' "WRONG 1: 2 passed (the lts run's passed: 53)"
	row docs/runs.md 'Under PREEMPT_RT on 6.12, 53 passed.' "ok 1: 53 passed (the lts run's passed)"
	row docs/runs.md 'On 6.12 all ran. Of them 53 passed.' "ok 1: 53 passed (the lts run's passed)"
	row docs/runs.md '## On 6.12\n\nOf them 53 passed.' "ok 3: 53 passed (the lts run's passed)"
	row docs/runs.md '## On 6.12\n\nUnder UML 9 skipped.' "ok 3: 9 skipped (the uml run's skipped)"
}

@test "counts: RESULTS.json is also the run its directory names" {
	local k=$TOP/tests/fixtures/kunit d
	for d in 20261206-0-v6.12.118-um:lts:6.12 20261206-0-v7.3.4-x86_64-rt:rt:PREEMPT_RT 20261206-0-v7.3.4-um:uml:UML; do
		mkdir -p "$BATS_TEST_TMPDIR/${d%%:*}"
		J=$BATS_TEST_TMPDIR/${d%%:*}/results.json
		cp "$k/failure.json" "$J"
		d=${d#*:}
		row docs/runs.md "On ${d#*:}, 53 passed." "ok 1: 53 passed (the ${d%:*} run's passed)"
	done
	# a RESULTS.json without a directory is no one-CPU run
	cp "$k/failure.json" "$BATS_TEST_TMPDIR/results.json"
	cd "$BATS_TEST_TMPDIR"
	J=results.json
	row docs/runs.md 'With one CPU, 53 passed.' "unchecked 1: 53 passed (source: the one-CPU UML run, not given)"
}

@test "counts: counts in digits or words, skips and failures by their verb, parts of a suite not counted" {
	other_runs
	row docs/c.md '2 passed, 1 skipped, 0 failed: 3 cases.' "ok 1: 2 passed (the run's passed)" \
		"ok 1: 1 skipped (the run's skipped)" "ok 1: 0 failed (the run's failed)" "ok 1: 3 cases (the run's cases)"
	row docs/c.md 'Two passed and one skipped, of three cases.' "ok 1: Two passed (the run's passed)" \
		"ok 1: one skipped (the run's skipped)" "ok 1: three cases (the run's cases)"
	row docs/c.md 'Three passed.' "WRONG 1: Three passed (the run's passed: 2)"
	row docs/c.md 'Ran 3 tests; passed: 2.' "ok 1: Ran 3 tests (the run's cases)" "ok 1: passed: 2 (the run's passed)"
	row docs/c.md 'Under UML the nine routing cases skip.' "ok 1: nine routing cases (the uml run's skipped)"
	row docs/c.md 'Under RT the three unnamed cases fail.' "ok 1: three unnamed cases (the rt run's failed)"
	row docs/c.md 'It has 3 cases, none skipped.' "ok 1: 3 cases (the run's cases)"
	row docs/c.md 'It adds 5 cases to suite_a, 7 cases in suite_b and nine cases of param.' \
		"none 5 cases" "none 7 cases" "none nine cases"
}

@test "counts: mutants are the mutation lists', patches the series', on 6.12 its own" {
	mkdir -p "$T/kunit/mutations/6.12"
	printf 'a.patch\nb.patch\nc.patch\n' >"$T/series"
	printf '6.12/a.patch\n6.12/b.patch\nc.patch # a note\nd.patch\ne.patch\n' >"$T/series-6.12"
	printf '# a list\nm1\tx\n' >"$T/kunit/mutations/a.tsv"
	printf 'm2\tx\nm3\tx\n' >"$T/kunit/mutations/b.tsv"
	printf 'm1\tx\nm4\tx\nm5\tx\n' >"$T/kunit/mutations/6.12/a.tsv"
	row docs/p.md 'The series: 3 patches, 3 mutants.' "ok 1: 3 patches (the series)" "ok 1: 3 mutants (the mutation lists)"
	row docs/p.md 'The series: 4 patches, 2 mutants.' "WRONG 1: 4 patches (the series: 3)" "WRONG 1: 2 mutants (the mutation lists: 3)"
	row docs/p.md 'On 6.12: 5 patches, 5 mutants.' "ok 1: 5 patches (the series)" "ok 1: 5 mutants (the mutation lists)"
	row docs/p.md 'On 6.12, 2 patches differ.' "ok 1: 2 patches (the series)"
	row docs/p.md 'On 6.12: 3 patches, 3 mutants.' "WRONG 1: 3 patches (the series: 5)" "WRONG 1: 3 mutants (the mutation lists: 5)"
}

@test "counts: a measurement is checked against the source its unit names" {
	printf 'no figure here\n' >"$T/results/bench/run.log"
	row docs/m.md 'It costs 8601 instructions (results/bench/icount.md).' "ok 1: 8601 instructions (in results/bench/icount.md)"
	row docs/m.md 'It costs 8601 instructions (`results/bench/`).' "ok 1: 8601 instructions (in results/bench)"
	row docs/m.md 'The log is results/bench/run.log; icount.md has 8601 instructions.' \
		"ok 1: 8601 instructions (in results/bench/run.log, results/bench/icount.md)"
	row docs/m.md 'The log is results/bench/run.log; it has 8601 instructions.' \
		"WRONG 1: 8601 instructions (not in results/bench/run.log)"
	row docs/m.md 'It costs [8601 instructions](../results/bench/icount.md).' "ok 1: 8601 instructions (in results/bench/icount.md)"
	row docs/m.md 'From results/bench/icount.md:\n\n| case | cost |\n|---|---|\n| read | 8601 instructions |' \
		"ok 5: 8601 instructions (in results/bench/icount.md)"
	row docs/m.md '## Costs (results/bench/icount.md)\n\nA read costs 8601 instructions.' \
		"ok 3: 8601 instructions (in results/bench/icount.md)"
	row results/bench/README.md 'A read costs 8601 instructions.' "ok 1: 8601 instructions (in results/bench)"
	row patches/x.patch 'From: a\nSubject: [PATCH] x\n\nIt saves 8601 instructions.\n---\nresults/bench/icount.md' \
		"ok 4: 8601 instructions (in results/bench/icount.md)"
	row patches/x.patch 'From: a\nSubject: [PATCH] x\n\nIt saves 8601 instructions.\n---\n' \
		"WRONG 4: 8601 instructions (no source named)"
	printf '# thread t: the thread\nx.patch\n' >"$T/series"
	printf 'Subject: [PATCH 0/1] t\n\nFigures: results/bench/icount.md\n' >"$T/patches/cover-letter-t"
	row patches/x.patch 'From: a\nSubject: [PATCH] x\n\nIt saves 8601 instructions.\n---\n' \
		"ok 4: 8601 instructions (in results/bench/icount.md)"
}

@test "counts: a measurement matches a number of its source that rounds to it" {
	printf 'ratio 0.998374, cost +8600.7, half 2.5 and 0.99845, rate 12,345, time 12.34567\n' >"$T/results/bench/r.txt"
	local w
	for w in 'ok:8601 instructions' 'ok:8600.7 instructions' 'ok:8,601 instructions' 'ok:12345 IOPS' \
		'ok:12,345 IOPS' 'ok:12 s' 'ok:12.3 s' 'ok:12.35 s' 'ok:12.346 s' 'ok:12.3457 s' 'ok:0.998' \
		'ok:0.9984' 'ok:3 s' 'ok:0.9985' 'WRONG:8600.74 instructions' 'WRONG:12.34 s' 'WRONG:2 s'; do
		row docs/r.md "It is ${w#*:} (results/bench/r.txt)." \
			"${w%%:*} 1: ${w#*:} ($([ "${w%%:*}" = ok ] && echo in || echo not in) results/bench/r.txt)"
	done
}

@test "counts: what is a measurement, and one with a date or an older run as its source" {
	row docs/m.md 'A run takes 42 s, 12 ms, 3 %, 70 IOPS, 9 MB.' "WRONG 1: 42 s (no source named)" \
		"WRONG 1: 12 ms (no source named)" "WRONG 1: 3 % (no source named)" \
		"WRONG 1: 70 IOPS (no source named)" "WRONG 1: 9 MB (no source named)"
	row docs/m.md '3 of 4 runs hit; the ratio is 0.9984.' "WRONG 1: 3 of 4 (no source named)" "WRONG 1: 0.9984 (no source named)"
	row docs/m.md 'It sent 2048 requests, 42 of them reads.' "WRONG 1: 2048 (no source named)" "none 42"
	row docs/m.md 'Written in 1991, redone in 2026.' "none 1991" "none 2026"
	row docs/m.md 'On 2026-12-03 a run took 42 s.' "unchecked 1: 42 s (source: 2026-12-03)"
	row docs/m.md "v2's run took 42 s." "unchecked 1: 42 s (source: v2's)"
	row docs/m.md 'The table of v3 says 42 s.' "unchecked 1: 42 s (source: table of v3)"
}

@test "counts: code fences, indented code and diffs quoted in mails are not claims" {
	row docs/f.md 'Run:\n\n```\nsleep 42 s\n```\n\nIt took 43 s.' "none 42 s" "WRONG 7: 43 s (no source named)"
	row docs/f.md 'Run:\n\n    sleep 42 s\n\nIt took 43 s.' "none 42 s" "WRONG 5: 43 s (no source named)"
	row patches/report-d 'subject\n\nThe fix:\n\ndiff --git a/block/x.c b/block/x.c\nindex 1111111..2222222 100644\n--- a/block/x.c\n+++ b/block/x.c\n@@ -1,1 +1,1 @@\n-\tint t = 1000;\n+\tint t = 25000;\n\nIt took 43 s.' \
		"none 25000" "none 1000" "none 1111111" "WRONG 13: 43 s (no source named)"
}

@test "counts: bad arguments, runs and trees are one error line" {
	local k=$TOP/tests/fixtures/kunit c
	printf '[1, 2]\n' >"$BATS_TEST_TMPDIR/list.json"
	while IFS='|' read -r c want; do
		echo "$c => $want"
		# shellcheck disable=SC2086 # a command line
		run ! env $c
		printf '%s\n' "$output"
		[ "${#lines[@]}" -eq 1 ] && [[ ${lines[0]} == "counts.sh: error: $want"* ]]
	done <<EOC
python3 $TOP/tools/lib/counts.py|usage: counts.py RESULTS.json TOP LTS_SERIES
python3 $TOP/tools/lib/counts.py $k/failure.json $T|usage: counts.py RESULTS.json TOP LTS_SERIES
python3 $TOP/tools/lib/counts.py $k/failure.json $T/none 6.12|usage: counts.py RESULTS.json TOP LTS_SERIES
python3 $TOP/tools/lib/counts.py $k/failure.log $T 6.12|$k/failure.log: not a kunit.py --json file
python3 $TOP/tools/lib/counts.py $BATS_TEST_TMPDIR/list.json $T 6.12|$BATS_TEST_TMPDIR/list.json: not a kunit.py --json file
$TOP/tools/gate/counts.sh $k/failure.json $T/none|usage: counts.sh RESULTS.json [TOP] (no directory '$T/none')
COUNTS_LTS_JSON=$T/none.json $TOP/tools/gate/counts.sh $k/failure.json $T|$T/none.json: not a kunit.py --json file
$TOP/tools/gate/counts.sh $k/no_results.json $T|$k/no_results.json holds no case
EOC
}
