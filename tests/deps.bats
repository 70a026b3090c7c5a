#!/usr/bin/env bats
# deps.sh: a missing dependency gives the exact apt-get line, or without
# apt-get the missing programs and what needs them.

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
	printf '#!/bin/sh\nexit 1\n' >"$B/apt-get" # Debian: apt-get is there
	chmod +x "$B/apt-get"
	BSK_NO_INSTALL=1 PATH=$B run "$B/bash" "$TOP/tools/env/deps.sh" check
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	# (then python3-ply python3-git where this host lacks them: checked by
	# file, which a PATH does not hide)
	[[ "$output" =~ "run: sudo apt-get update && sudo apt-get install -y --no-install-recommends sparse dpkg-dev quilt bats shellcheck b4 qemu-system-arm"( python3-ply)?( python3-git)?$ ]]
}

@test "every package is named once even if two commands need it" {
	printf '#!/bin/sh\nexit 1\n' >"$B/apt-get"
	chmod +x "$B/apt-get"
	BSK_NO_INSTALL=1 PATH=$B run "$B/bash" "$TOP/tools/env/deps.sh" base build
	[ "$status" -ne 0 ]
	[ "$(grep -o ' make' <<<"$output" | wc -l)" -eq 1 ]
}

@test "unknown group: one error line" {
	run "$TOP/tools/env/deps.sh" nosuch
	[ "$status" -ne 0 ]
	[[ "$output" == *"unknown dependency group 'nosuch'"* ]]
}

@test "nothing missing: silent success" {
	# every program of the base group, as a fake: not what this host has
	for c in apt-get dpkg-deb xz git gpgv make; do
		printf '#!/bin/sh\nexit 0\n' >"$B/$c"
		chmod +x "$B/$c"
	done
	PATH=$B run "$B/bash" "$TOP/tools/env/deps.sh" base
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# and one of them gone is named
	rm "$B/gpgv"
	BSK_NO_INSTALL=1 PATH=$B run "$B/bash" "$TOP/tools/env/deps.sh" base
	[ "$status" -ne 0 ]
	[[ "$output" == *"apt-get install -y --no-install-recommends gpgv" ]]
}

@test "no apt-get: the missing programs named with what needs them, in one line" {
	PATH=$B run "$B/bash" "$TOP/tools/env/deps.sh" build check
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "deps.sh: error: missing, and no apt-get here to install them: gcc (building the kernel), "* ]]
	[[ "$output" =~ "b4 (make check), qemu-system-aarch64 (make check)"(", /usr/lib/python3/dist-packages/ply/__init__.py (make check)")?(", /usr/lib/python3/dist-packages/git/__init__.py (make check)")?"; install them with this system's packages"$ ]]
	run grep -c apt-get <<<"${output%%no apt-get*}"
	[ "$output" = 0 ]
}

@test "KERNEL=your tree: the base needs git and make only, nothing from Debian" {
	ln -sf "$(command -v git)" "$B/git"
	ln -sf "$(command -v make)" "$B/make"
	KERNEL=$BATS_TEST_TMPDIR PATH=$B run "$B/bash" "$TOP/tools/env/deps.sh" base
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# without KERNEL the same machine lacks the Debian tools
	PATH=$B run "$B/bash" "$TOP/tools/env/deps.sh" base
	[ "$status" -ne 0 ]
	[[ "$output" == *"apt-get (getting the kernel tree)"* ]]
}

@test "make send asks for what it uses only: git, b4 and perl, not the gate's tools" {
	# KERNEL=: no Debian base, so nothing of apt is asked either
	PATH=$B KERNEL=$BATS_TEST_TMPDIR run "$B/bash" "$TOP/tools/env/deps.sh" base send
	[ "$status" -ne 0 ]
	[[ "$output" == *"git (getting the kernel tree), make (getting the kernel tree), b4 (make send), perl (make send); install"* ]]
	run grep -cE 'sparse|quilt|bats|shellcheck|dpkg-source|gcc' <<<"$output"
	[ "$output" = 0 ]
	# and the Makefile's send target asks for exactly these groups
	run grep -A1 '^send:' "$TOP/Makefile"
	[[ "$output" == *"tools/env/deps.sh base send" ]]
}
