#!/usr/bin/env bats
# tools/lib/coverage.py: how 'make coverage' reads lcov's counts into its
# table, on a small tree and an lcov file in the format gcov writes.

load helper
bats_require_minimum_version 1.5.0

setup() {
	common_setup
	T=$BATS_TEST_TMPDIR/tree
	mkdir -p "$T/block"
	# fn_a is lines 6-11
	cat >"$T/block/x.c" <<'EOC'
static int other(void)
{
	return 0;
}

int fn_a(int x)
{
	if (x)
		return 1;
	return 2;
}
EOC
	printf '# FUNCTION<TAB>SOURCE LINE<TAB>REASON\n' >"$BATS_TEST_TMPDIR/exc"
}

# info LINE10-COUNT TAKEN-FALSE: fn_a's lines and its one branch.
info() {
	cat >"$BATS_TEST_TMPDIR/x.info" <<EOI
TN:
SF:block/x.c
DA:3,5
DA:8,4
DA:9,3
DA:10,$1
BRDA:8,0,0,3
BRDA:8,0,1,$2
end_of_record
EOI
}

cov() {
	python3 "$TOP/tools/lib/coverage.py" "$T" "$BATS_TEST_TMPDIR/x.info" "$BATS_TEST_TMPDIR/exc" block/x.c:fn_a
}

@test "coverage: a function run whole, both ways at every branch, passes" {
	info 1 1
	run cov
	[ "$status" -eq 0 ]
	[[ "$output" == *"| fn_a | block/x.c:6-11 | 3/3 | 2/2 | – | – |"* ]]
	[ "${lines[-1]}" = "1 passed, 0 failed" ]
}

@test "coverage: a line not run and a branch taken one way, without a reason, fail" {
	info 0 -
	run -1 cov
	[[ "$output" == *"| fn_a | block/x.c:6-11 | 2/3 | 1/2 | 10 | 8 |"* ]]
	[ "${lines[-1]}" = "0 passed, 1 failed" ]
}

@test "coverage: a gap with its reason in the exceptions passes, marked and explained" {
	info 0 -
	printf 'fn_a\treturn 2;\tonly x = 0 gets here\nfn_a\tif (x)\tno case passes 0\n' >>"$BATS_TEST_TMPDIR/exc"
	run -0 cov
	[[ "$output" == *"| fn_a | block/x.c:6-11 | 2/3 | 1/2 | 10† | 8† |"* ]]
	[[ "$output" == *"- fn_a, line 10: only x = 0 gets here"* ]]
	[ "${lines[-1]}" = "1 passed, 0 failed" ]
}

@test "coverage: an exception for a gap that is gone fails" {
	info 1 1
	printf 'fn_a\treturn 2;\tonly x = 0 gets here\n' >>"$BATS_TEST_TMPDIR/exc"
	run -1 cov
	[[ "$output" == *"- unused exception (no such gap any more): fn_a: return 2;"* ]]
	[ "${lines[-1]}" = "1 passed, 1 failed" ]
}

@test "coverage: a function the tree does not have fails; a malformed exception is one error line" {
	info 1 1
	run python3 "$TOP/tools/lib/coverage.py" "$T" "$BATS_TEST_TMPDIR/x.info" "$BATS_TEST_TMPDIR/exc" block/x.c:fn_gone
	[[ "$output" == *"| fn_gone | block/x.c: not found | | | | |"* ]]
	[ "${lines[-1]}" = "0 passed, 1 failed" ]
	printf 'fn_a\treturn 2;\n' >>"$BATS_TEST_TMPDIR/exc"
	run ! cov
	[ "${#lines[@]}" -eq 1 ]
	[[ "${lines[0]}" == "coverage.sh: error: $BATS_TEST_TMPDIR/exc:2: want FUNCTION<TAB>SOURCE LINE<TAB>REASON" ]]
}

@test "coverage: the committed run's lcov data reads back to its table (the merge hash's rows)" {
	# tests/fixtures/coverage: block/elevator.c of linux-source 7.3.4 to the
	# last function read (the series leaves the file as it is)
	f=block/elevator.c
	run python3 "$TOP/tools/lib/coverage.py" "$TOP/tests/fixtures/coverage" "$TOP/results/coverage/coverage.info" \
		"$TOP/kunit/coverage-exceptions" "$f:__elv_rqhash_del" "$f:elv_rqhash_del" "$f:elv_rqhash_add" \
		"$f:elv_rqhash_reposition" "$f:elv_rqhash_find"
	[ "$(grep '^| [_a-z]*elv_rqhash' <<<"$output")" = "$(grep '^| [_a-z]*elv_rqhash' "$TOP/results/coverage/summary.md")" ]
}
