#!/usr/bin/env bats
# deps.sh: a missing dependency gives the exact apt-get line.

load helper

setup() {
	common_setup
	# A PATH with only what deps.sh itself needs, so every checked tool is missing.
	B=$BATS_TEST_TMPDIR/minbin
	mkdir -p "$B"
	for c in bash env dirname sed grep id cat printf; do
		p=$(command -v "$c") && ln -sf "$p" "$B/$c"
	done
}

@test "missing packages: the apt-get line, nothing installed" {
	BSK_NO_INSTALL=1 PATH=$B run "$B/bash" "$TOP/tools/deps.sh" check
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"run: sudo apt-get update && sudo apt-get install -y --no-install-recommends sparse dpkg-dev quilt bats shellcheck b4" ]]
}

@test "every package is named once even if two commands need it" {
	BSK_NO_INSTALL=1 PATH=$B run "$B/bash" "$TOP/tools/deps.sh" base build
	[ "$status" -ne 0 ]
	[ "$(grep -o ' make' <<<"$output" | wc -l)" -eq 1 ]
}

@test "unknown group: one error line" {
	run "$TOP/tools/deps.sh" nosuch
	[ "$status" -ne 0 ]
	[[ "$output" == *"unknown dependency group 'nosuch'"* ]]
}

@test "nothing missing: silent success" {
	run "$TOP/tools/deps.sh" base
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}
