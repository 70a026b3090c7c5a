#!/usr/bin/env bats
# tools/lib/kunit_results.py, the one reader of kunit.py's --json, on
# recorded runs (tests/fixtures/kunit/README says how each was recorded).

load helper
bats_require_minimum_version 1.5.0

R=$TOP/tools/lib/kunit_results.py
K=$TOP/tests/fixtures/kunit

@test "counts: PASS passed, SKIP skipped, anything else failed, every leaf once" {
	for f in "all_passed 25 0 0" "failure 53 1 4" "crash 22 3 0" "param_all_skipped 0 0 9" "no_results 0 0 0"; do
		run python3 "$R" counts "$K/${f%% *}.json"
		[ "$status" -eq 0 ]
		[ "$output" = "${f#* }" ]
		# kunit.py's own tally of the run agrees (a crash is its own count there)
		[ "$output" = "$(python3 -c 'import json, sys; m = json.load(open(sys.argv[1]))["misc"]
print(m["passed"], m["failed"] + m["crashed"], m["skipped"])' "$K/${f%% *}.json")" ]
	done
}

@test "failed: suite.case: parameter of each failed or crashed case, nothing else" {
	run python3 "$R" failed "$K/failure.json"
	[ "$status" -eq 0 ]
	[ "$output" = "bfq_inject_limit.bfq_test_inject_limit: no baseline, alone, plug cached before the start (clock fix)" ]
	run python3 "$R" failed "$K/crash.json"
	[ "${#lines[@]}" -eq 3 ]
	[ "${lines[2]}" = "elevator_rqhash.(no result: crashed)" ]
	for f in all_passed param_all_skipped no_results; do
		run python3 "$R" failed "$K/$f.json"
		[ "$status" -eq 0 ]
		[ -z "$output" ]
	done
}

@test "skipped: each skipped case or parameter, nothing else" {
	run python3 "$R" skipped "$K/param_all_skipped.json"
	[ "${#lines[@]}" -eq 9 ]
	[ "${lines[0]}" = "blk_mq_complete.blk_mq_test_route: rq_affinity 0, other LLC" ]
	run python3 "$R" skipped "$K/failure.json"
	[ "${#lines[@]}" -eq 4 ]
	for f in all_passed crash no_results; do
		run python3 "$R" skipped "$K/$f.json"
		[ "$status" -eq 0 ]
		[ -z "$output" ]
	done
}

@test "common.sh's kunit_json_counts and kunit_json_failed are the reader's, from any directory" {
	. "$TOP/tools/lib/common.sh"
	cd "$BATS_TEST_TMPDIR"
	[ "$(kunit_json_counts "$K/failure.json")" = "53 1 4" ]
	[ "$(kunit_json_failed "$K/failure.json")" = "$(python3 "$R" failed "$K/failure.json")" ]
}

@test "no file, or no command: an error, no counts" {
	run ! python3 "$R" counts "$BATS_TEST_TMPDIR/none.json"
	[[ "$output" != [0-9]* ]]
	run ! python3 "$R" count "$K/failure.json"
	[ "$output" = "usage: kunit_results.py counts|failed|skipped FILE" ]
}
