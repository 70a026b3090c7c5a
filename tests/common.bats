#!/usr/bin/env bats
# tools/lib/common.sh: a tool writes its counts where BSK_COUNTS names,
# result_of_run turns that file and the run's status into one PASS or FAIL line.
# Table-driven: one row per case, the row echoed so a failure names it.

load helper
bats_require_minimum_version 1.5.0

setup() {
	common_setup
	# shellcheck source=../tools/lib/common.sh
	. "$TOP/tools/lib/common.sh"
}

@test "BSK_COUNTS: a tool's last line and the file its caller named agree; the tools it runs do not inherit it" {
	cat >"$BATS_TEST_TMPDIR/tool" <<-EOT
		#!/usr/bin/env bash
		. "$TOP/tools/lib/common.sh"
		result one 0
		result two 1
		result_skip three "no disk"
		printf 'child:%s\n' "\${BSK_COUNTS:-unset}"
		results_end
	EOT
	chmod +x "$BATS_TEST_TMPDIR/tool"
	run ! env BSK_COUNTS="$BATS_TEST_TMPDIR/c" "$BATS_TEST_TMPDIR/tool"
	[ "${lines[-1]}" = "1 passed, 1 failed, 1 skipped" ]
	[ "$(cat "$BATS_TEST_TMPDIR/c")" = "1 1 1" ]
	[[ "$output" == *"child:unset"* ]]
}

@test "result_of_run: a failed count, a non-zero status or no counts file is a failure" {
	# COUNTS FILE ("-": none)|STATUS|VERDICT|PASSED FAILED SKIPPED after it
	while IFS='|' read -r counts rc verdict want; do
		echo "row: $counts|$rc|$verdict|$want"
		BSK_PASSED=0 BSK_FAILED=0 BSK_SKIPPED=0 BSK_FAILURES=()
		rm -f "$BATS_TEST_TMPDIR/counts"
		[ "$counts" = - ] || echo "$counts" >"$BATS_TEST_TMPDIR/counts"
		echo 'make: *** [Makefile:2003] Error 2' >"$BATS_TEST_TMPDIR/log"
		result_of_run "$BATS_TEST_TMPDIR/counts" "$BATS_TEST_TMPDIR/log" "$rc" suites "$SECONDS" >"$BATS_TEST_TMPDIR/out"
		[[ "$(tail -n 1 "$BATS_TEST_TMPDIR/out")" == "$verdict  suites: "* ]]
		[ "$BSK_PASSED $BSK_FAILED $BSK_SKIPPED" = "$want" ]
		[ "$verdict" = PASS ] || grep -q Error "$BATS_TEST_TMPDIR/out"
	done <<-'EOT'
		25 0 0|0|PASS|25 0 0
		23 0 2|0|PASS|23 0 2
		25 0 0|1|FAIL|25 1 0
		22 3 0|1|FAIL|22 3 0
		22 3 0|0|FAIL|22 3 0
		-|2|FAIL|0 1 0
		-|0|FAIL|0 1 0
	EOT
}
