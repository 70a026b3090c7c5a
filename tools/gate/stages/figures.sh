# SPDX-License-Identifier: GPL-2.0
DESCRIPTION="figures and their sources"

last_run() { # DIR: the results.json of the last patch's KUnit run in DIR
	find "$1" -maxdepth 2 -path '*/kunit-*/results.json' 2>/dev/null | sort -V | tail -n 1
}

# Every figure against this gate's runs: x86_64 SMP, UML, PREEMPT_RT and LTS (../lts) if they ran.
run() {
	local L=$4 rc
	COUNTS_UML_JSON=$(last_run "$L/patches") COUNTS_RT_JSON=$(find "$L/kunit-rt" -name results.json 2>/dev/null) \
		COUNTS_LTS_JSON=$(last_run "$L/../lts/patches") \
		tools/gate/counts.sh "$L/kunit-x86_64/results.json" >"$L/counts.log" 2>&1
	rc=$?
	grep -Ev '^ok ' "$L/counts.log"
	result "every figure stated in README, docs/, the mails and results/ is its source's ($BASE)" "$rc"
}
