# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # DESCRIPTION: check.sh's
DESCRIPTION="make send test"
requires() { needs b4; }

run() {
	step tools/gate/sendcheck.sh >"$4/sendcheck.log" 2>&1
	result_of_run "$4/sendcheck.log" $? "make send dry run" "$BSK_STAGE_T0"
	grep -E '^(PASS|FAIL) ' "$4/sendcheck.log"
}
