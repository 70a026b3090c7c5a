# SPDX-License-Identifier: GPL-2.0
# Fixtures for the bats tests: a small fake kernel git tree, a series of
# patches against it, and fake commands on PATH.  No network, no real kernel.
# shellcheck shell=bash

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export TOP

common_setup() {
	export BSK_CACHE=$BATS_TEST_TMPDIR/cache
	export GIT_CONFIG_GLOBAL=$BATS_TEST_TMPDIR/gitconfig
	git config --global user.name "Test User"
	git config --global user.email "test@example.invalid"
	git config --global init.defaultBranch master
	git config --global advice.detachedHead false
	# nothing of a calling gate's settings (BSK_TOP: a copied tools/ finds its own)
	unset KERNEL KERNEL_BASE BASE ARCH SERIES STAGES PATCHES BSK_TOP
}

# fake_kernel DIR: a git tree with the files tree.sh looks for.
fake_kernel() {
	local d=$1
	mkdir -p "$d/block" "$d/tools/testing/kunit"
	printf 'VERSION = 7\nPATCHLEVEL = 3\nSUBLEVEL = 4\n' >"$d/Makefile"
	printf 'int blk_mq;\n' >"$d/block/blk-mq.c"
	printf 'line %s\n' 1 2 3 4 5 6 7 8 9 10 >"$d/block/bfq-iosched.c"
	printf '#!/bin/sh\necho fake kunit.py\n' >"$d/tools/testing/kunit/kunit.py"
	git -C "$d" init -q
	git -C "$d" add -A
	git -C "$d" commit -q -m "Linux 7.3.4"
	git -C "$d" tag v7.3.4
}

# fake_series KERNEL TOPDIR: two commits on a scratch branch of KERNEL,
# exported as a series under TOPDIR (series, patches/, cover letter), then
# dropped again so KERNEL is back at its base.
fake_series() {
	local k=$1 t=$2 n
	mkdir -p "$t/patches"
	git -C "$k" checkout -q -b scratch
	sed -i 's/^line 2$/line two/' "$k/block/bfq-iosched.c"
	git -C "$k" -c user.name="blk-sched-kunit maintainers" \
		-c user.email=maintainers@blk-sched-kunit.invalid \
		commit -q -a -s -m "block, bfq: first change" -m "Why and what."
	sed -i 's/^line 9$/line nine/' "$k/block/bfq-iosched.c"
	git -C "$k" -c user.name="blk-sched-kunit maintainers" \
		-c user.email=maintainers@blk-sched-kunit.invalid \
		commit -q -a -s -m "block, bfq: second change" -m "Why and what."
	git -C "$k" -c core.abbrev=12 format-patch -q --zero-commit --no-signature -N -o "$t/patches" v7.3.4..scratch
	printf '# test series\n' >"$t/series"
	# two threads: the first patch, then the second
	th=("# thread fixes: the fix" "# thread for-next: the rest")
	i=0
	for f in "$t"/patches/*.patch; do
		n=$(basename "$f")
		mv "$f" "$t/patches/${n#[0-9][0-9][0-9][0-9]-}"
		printf '%s\n%s\n' "${th[i]}" "${n#[0-9][0-9][0-9][0-9]-}" >>"$t/series"
		i=$((i + 1))
	done
	printf 'block: test fix\n\nCover letter.\n' >"$t/patches/cover-letter-fixes"
	printf 'block: test series\n\nCover letter.\n' >"$t/patches/cover-letter-for-next"
	git -C "$k" checkout -q master
	git -C "$k" branch -q -D scratch
}

# A directory of fake commands that goes first on PATH.
fake_bin() {
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	PATH=$BATS_TEST_TMPDIR/bin:$PATH
}
