# SPDX-License-Identifier: GPL-2.0
DESCRIPTION="series consistency"

run() {
	tools/gate/lint-series.sh "$3"
	result "$(basename "$3") <-> patches" $?
}
