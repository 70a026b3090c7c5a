#!/usr/bin/env bats
# tools/lib/common.sh: counts_of reads a tool's last line, result_of_run
# turns a run's log and status into one PASS or FAIL line and the counts.
# Table-driven: one row per case, the row echoed so a failure names it.

load helper

setup() {
	common_setup
	# shellcheck source=../tools/lib/common.sh
	. "$TOP/tools/lib/common.sh"
}

@test "counts_of: 'P passed, F failed[, S skipped]' is 'P F S', anything else status 1" {
	# LINE|STATUS:OUTPUT
	while IFS='|' read -r line want; do
		echo "row: $line|$want"
		run counts_of "$line"
		[ "$status:$output" = "$want" ]
	done <<-'EOT'
		25 passed, 0 failed, 0 skipped|0:25 0 0
		53 passed, 1 failed, 4 skipped|0:53 1 4
		2 passed, 1 failed|0:2 1 0
		0 passed, 0 failed, 9 skipped|0:0 0 9
		built|1:
		|1:
		3 passed, 0 failed, 0 skipped, 1 crashed|1:
		x3 passed, 0 failed|1:
		3 passed,0 failed|1:
	EOT
}

@test "result_of_run: a failed count, a non-zero status or no counts line is a failure" {
	# LAST LINE OF THE LOG|STATUS|VERDICT|PASSED FAILED SKIPPED after it
	while IFS='|' read -r line rc verdict want; do
		echo "row: $line|$rc|$verdict|$want"
		BSK_PASSED=0 BSK_FAILED=0 BSK_SKIPPED=0 BSK_FAILURES=()
		printf 'building\n%s\n' "$line" >"$BATS_TEST_TMPDIR/log"
		result_of_run "$BATS_TEST_TMPDIR/log" "$rc" suites "$SECONDS" >"$BATS_TEST_TMPDIR/out"
		[[ "$(tail -n 1 "$BATS_TEST_TMPDIR/out")" == "$verdict  suites: $line"* ]]
		[ "$BSK_PASSED $BSK_FAILED $BSK_SKIPPED" = "$want" ]
	done <<-'EOT'
		25 passed, 0 failed, 0 skipped|0|PASS|25 0 0
		23 passed, 0 failed, 2 skipped|0|PASS|23 0 2
		25 passed, 0 failed, 0 skipped|1|FAIL|25 1 0
		22 passed, 3 failed, 0 skipped|1|FAIL|22 3 0
		22 passed, 3 failed, 0 skipped|0|FAIL|22 3 0
		make: *** [Makefile:2003] Error 2|2|FAIL|0 1 0
		built|0|FAIL|0 1 0
		|0|FAIL|0 1 0
	EOT
}
