# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # DESCRIPTION: check.sh's
DESCRIPTION="bats tests"
requires() { needs bats; }

run() {
	local tap=$4/bats.tap rc ok nok t why
	bats --tap "$BSK_TOP/tests" >"$tap" 2>&1
	rc=$?
	ok=$(grep -c '^ok ' "$tap")
	nok=$(grep -c '^not ok ' "$tap")
	grep '^not ok ' "$tap"
	# "ok N NAME # skip [REASON]": a SKIP line, not a pass
	while IFS=$'\t' read -r t why; do
		result_skip "bats: $t" "${why:-no reason given}"
		ok=$((ok - 1))
	done < <(sed -n 's/^ok [0-9]* \(.*\) # skip *\(.*\)$/\1\t\2/p' "$tap")
	[ "$ok" -gt 0 ] || nok=$((nok + 1))
	[ "$rc" -eq 0 ] || [ "$nok" -gt 0 ] || nok=1
	[ "$ok" -eq 0 ] || result "bats tests/: $ok ok" 0 "$ok"
	[ "$nok" -eq 0 ] || result "bats tests/: $nok not ok (see $tap)" 1 "$nok"
}
