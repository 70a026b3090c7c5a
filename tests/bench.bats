#!/usr/bin/env bats
# bench.sh, stress.sh and vmkernel.sh: bad input gets one error line before anything
# is fetched or built.

load helper

setup() {
	common_setup
}

@test "bench: unknown scenario, one error line" {
	S=S9 run "$TOP/tools/bench.sh"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "${lines[0]}" == "bench.sh: error: unknown scenario 'S9' (have: "* ]]
}

@test "bench: RUNS must be a positive number" {
	S=S1 RUNS=0 run "$TOP/tools/bench.sh"
	[ "$status" -eq 1 ]
	[[ "$output" == "bench.sh: error: RUNS=0 is not a positive number" ]]
}

@test "vmkernel: unknown kind and missing fragment, one error line each" {
	run "$TOP/tools/vmkernel.sh" tip
	[ "$status" -eq 1 ]
	[[ "$output" == "vmkernel.sh: error: usage: vmkernel.sh base|series [FRAGMENT...]" ]]
	run "$TOP/tools/vmkernel.sh" series "$BATS_TEST_TMPDIR/none.config"
	[ "$status" -eq 1 ]
	[[ "$output" == "vmkernel.sh: error: no config fragment $BATS_TEST_TMPDIR/none.config" ]]
}

@test "stress: unknown kernel and bad STRESS_SECONDS, one error line each" {
	run "$TOP/tools/stress.sh" tip
	[ "$status" -eq 1 ]
	[[ "$output" == "stress.sh: error: usage: stress.sh [base|series...] (not 'tip')" ]]
	STRESS_SECONDS=soon run "$TOP/tools/stress.sh" series
	[ "$status" -eq 1 ]
	[[ "$output" == "stress.sh: error: STRESS_SECONDS=soon is not a positive number" ]]
}
