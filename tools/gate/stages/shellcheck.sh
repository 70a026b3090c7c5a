# SPDX-License-Identifier: GPL-2.0
DESCRIPTION="shellcheck"
requires() { needs shellcheck; }

run() {
	local rc
	shellcheck "$BSK_TOP"/tools/*.sh "$BSK_TOP"/tools/*/*.sh "$BSK_TOP"/tools/*/*/*.sh "$BSK_TOP"/tests/*.bash \
		"$BSK_TOP"/.ci/run >"$4/shellcheck.log" 2>&1
	result "shellcheck tools" $?
	# the bats files too (SC2314: a bare "!" asserts nothing in bats)
	shellcheck -S warning "$BSK_TOP"/tests/*.bats "$BSK_TOP"/tests/*/*.bats >"$4/shellcheck-bats.log" 2>&1
	rc=$?
	[ "$rc" -eq 0 ] || cat "$4/shellcheck-bats.log"
	result "shellcheck tests/*.bats tests/*/*.bats" "$rc"
}
