# SPDX-License-Identifier: GPL-2.0
# The gate's bats stages: one `bats --tap` run counted (tools/gate/stages/bats.sh, send.sh).
# shellcheck shell=bash

# bats_stage LABEL TAP CMD...: CMD (a bats --tap run) into TAP; a result per ok and not ok, a SKIP per "# skip"
bats_stage() {
	local label=$1 tap=$2 rc ok nok t why
	shift 2
	"$@" >"$tap" 2>&1
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
	[ "$ok" -eq 0 ] || result "$label: $ok ok" 0 "$ok"
	[ "$nok" -eq 0 ] || result "$label: $nok not ok (see $tap)" 1 "$nok"
}
