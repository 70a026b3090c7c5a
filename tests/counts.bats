#!/usr/bin/env bats
# counts.sh: the case counts the repository states (docs/reference.md's
# suites table, README and the cover letters) against a kunit.py --json
# run; a count that differs from the run fails.

load helper
bats_require_minimum_version 1.5.0

setup() {
	common_setup
	T=$BATS_TEST_TMPDIR/top
	mkdir -p "$T/docs" "$T/patches"
	# a run of two suites: 2 cases (one a parameterized test of 2) and 1
	J=$BATS_TEST_TMPDIR/results.json
	cat >"$J" <<'EOJ'
{"name": "KUnit Test Group 0", "sub_groups": [
 {"name": "suite_a", "sub_groups": [{"name": "param", "test_cases": [
   {"name": "one", "status": "PASS"}, {"name": "two", "status": "SKIP"}]}]},
 {"name": "suite_b", "test_cases": [{"name": "case", "status": "PASS"}]}]}
EOJ
	cat >"$T/docs/reference.md" <<'EOR'
# Reference

## The suites

| suite | patch | cases |
|---|---|---|
| `suite_a` | p | 2 |
| `suite_b` | q | 1 |
| all | | 3 |
EOR
	printf 'Success is `3 passed, 0 failed` (3 cases).\n' >"$T/README.md"
	printf 'Results: 3 cases pass.\n' >"$T/patches/cover-letter-for-next"
}

@test "counts: the stated counts are the run's" {
	run "$TOP/tools/gate/counts.sh" "$J" "$T"
	[ "$status" -eq 0 ]
	[[ "$output" == *"ok     docs/reference.md: suite_a 2"* ]]
	[[ "$output" == *"ok     docs/reference.md: all 3"* ]]
	[[ "$output" == *"ok     patches/cover-letter-for-next: total 3"* ]]
}

@test "counts: a suite's count that differs from the run fails" {
	sed -i 's/^| `suite_b` | q | 1 |$/| `suite_b` | q | 2 |/' "$T/docs/reference.md"
	run ! "$TOP/tools/gate/counts.sh" "$J" "$T"
	[[ "$output" == *"WRONG  docs/reference.md: suite_b 2, the run has 1"* ]]
}

@test "counts: a total in the README or a cover letter that differs fails" {
	printf 'Ran 4 tests.\n' >>"$T/README.md"
	sed -i 's/3 cases/4 cases/' "$T/patches/cover-letter-for-next"
	run ! "$TOP/tools/gate/counts.sh" "$J" "$T"
	[[ "$output" == *"WRONG  README.md: total 4, the run has 3"* ]]
	[[ "$output" == *"WRONG  patches/cover-letter-for-next: total 4, the run has 3"* ]]
}

@test "counts: a suite the table names but the run lacks fails" {
	printf '| `suite_c` | r | 0 |\n' >>"$T/docs/reference.md"
	run ! "$TOP/tools/gate/counts.sh" "$J" "$T"
	[[ "$output" == *"WRONG  docs/reference.md: suite_c (listed), the run has (no such suite)"* ]]
}

@test "counts: no results file is one error line" {
	run ! "$TOP/tools/gate/counts.sh" "$BATS_TEST_TMPDIR/none.json" "$T"
	[ "${#lines[@]}" -eq 1 ]
	[[ "${lines[0]}" == "counts.sh: error: usage: counts.sh RESULTS.json [TOP] (no file "* ]]
}
