# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # DESCRIPTION: check.sh's
DESCRIPTION="series consistency"

run() {
	tools/gate/lint-series.sh "$3"
	result "$(basename "$3") <-> patches" $?
}
