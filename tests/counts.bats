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
