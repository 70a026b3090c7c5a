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
	[[ "$output" == *"ok     patches/cover-letter-for-next:1: cases 3"* ]]
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
	[[ "$output" == *"WRONG  README.md:2: cases 4, the run has 3"* ]]
	[[ "$output" == *"WRONG  patches/cover-letter-for-next:1: cases 4, the run has 3"* ]]
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

# The rest of the tree that counts.sh reads: MAINTAINERS-notes with its
# revision log (v2 current), two series files and a mutation list.
more_tree() {
	mkdir -p "$T/kunit/mutations/6.12"
	printf '# comment\nbfq.patch\ntest.patch\n' >"$T/series"
	printf 'bfq.patch\n' >"$T/series-6.12"
	printf '# a list\nm1\tblock/x.c\ts/a/b/\nm2\tblock/x.c\ts/c/d/\n' >"$T/kunit/mutations/a.tsv"
	printf 'm1\tblock/x.c\ts/a/b/\n' >"$T/kunit/mutations/6.12/a.tsv"
	cat >"$T/MAINTAINERS-notes" <<'EON'
Notes
=====

Revision log
------------

v2 (the current one)

- 3 cases, 2 patches.

v1 (the first)

- 9 cases in all.

Measurements
------------

Mutation checks, 2026-12-01:

| list | mutants |
|---|---|
| a.tsv | 5 |
EON
}

@test "counts: docs/ and MAINTAINERS-notes: figures of the tree pass, records of earlier runs pass as dated" {
	more_tree
	printf 'The lists hold 2 mutants; 3 passed at the tip.\n\n| run | result |\n|---|---|\n| make check (2026-12-01) | 647 passed |\n' >"$T/docs/timings.md"
	run "$TOP/tools/gate/counts.sh" "$J" "$T"
	[ "$status" -eq 0 ]
	[[ "$output" == *"ok     docs/timings.md:1: mutants 2"* ]]
	[[ "$output" == *"ok     docs/timings.md:1: cases 3"* ]]
	[[ "$output" == *"dated  docs/timings.md:5: cases 647 (dated 2026-12-01; now 3)"* ]]
	[[ "$output" == *"ok     MAINTAINERS-notes:9: cases 3"* ]]
	[[ "$output" == *"ok     MAINTAINERS-notes:9: patches 2"* ]]
	[[ "$output" == *"dated  MAINTAINERS-notes:13: cases 9 (of v1; now 3)"* ]]
	[[ "$output" == *"dated  MAINTAINERS-notes:22: mutants:a.tsv 5 (dated 2026-12-01; now 2)"* ]]
}

@test "counts: an undated figure in docs/ or MAINTAINERS-notes that differs fails" {
	more_tree
	printf 'The lists hold 3 mutants.\n' >"$T/docs/mutation.md"
	sed -i 's/^- 3 cases, 2 patches\.$/- 3 cases, 4 patches./' "$T/MAINTAINERS-notes"
	sed -i 's/^Mutation checks, 2026-12-01:$/Mutation checks:/' "$T/MAINTAINERS-notes"
	run ! "$TOP/tools/gate/counts.sh" "$J" "$T"
	[[ "$output" == *"WRONG  docs/mutation.md:1: mutants 3, the tree has 2"* ]]
	[[ "$output" == *"WRONG  MAINTAINERS-notes:9: patches 4, the tree has 2"* ]]
	[[ "$output" == *"WRONG  MAINTAINERS-notes:22: mutants:a.tsv 5, the tree has 2"* ]]
}

@test "counts: a date does not excuse a wrong count in the README" {
	more_tree
	printf 'On 2026-12-01: 4 passed.\n' >>"$T/README.md"
	run ! "$TOP/tools/gate/counts.sh" "$J" "$T"
	[[ "$output" == *"WRONG  README.md:2: cases 4, the run has 3"* ]]
}

@test "counts: a figure of the LTS series is checked against its series, lists and run" {
	more_tree
	printf 'On 6.12: 1 patches, 1 mutants, 2 cases.\n' >"$T/docs/bases.md"
	run "$TOP/tools/gate/counts.sh" "$J" "$T"
	[ "$status" -eq 0 ]
	[[ "$output" == *"ok     docs/bases.md:1: patches (LTS) 1"* ]]
	[[ "$output" == *"ok     docs/bases.md:1: mutants (LTS) 1"* ]]
	[[ "$output" == *"unchecked  docs/bases.md:1: cases (LTS) 2 (no LTS run given)"* ]]
	printf '{"name": "t", "sub_groups": [{"name": "s", "test_cases": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}]}\n' \
		>"$BATS_TEST_TMPDIR/lts.json"
	COUNTS_LTS_JSON=$BATS_TEST_TMPDIR/lts.json run ! "$TOP/tools/gate/counts.sh" "$J" "$T"
	[[ "$output" == *"WRONG  docs/bases.md:1: cases (LTS) 2, the run has 3"* ]]
}

@test "counts: a markdown code block is an example, not a claim" {
	more_tree
	printf 'A run ends:\n\n    $ make\n    7 passed, 0 failed\n\nThat is all.\n' >"$T/docs/gate.md"
	run "$TOP/tools/gate/counts.sh" "$J" "$T"
	[ "$status" -eq 0 ]
	[[ "$output" != *"docs/gate.md"* ]]
}
