#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tree.sh - print "REPO WORKTREE BASEREF": the base's git repository (BASE's Debian tree,
# or KERNEL=, left alone), the cache worktree the series is applied in, and the commit
# or tag it goes on (KERNEL_BASE, default HEAD).  docs/bases.md.
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

if [ -n "${KERNEL:-}" ]; then
	k=$KERNEL
	[ -e "$k" ] || die "KERNEL=$k: no such directory"
	[ -d "$k" ] || die "KERNEL=$k is not a directory"
	k=$(cd "$k" && pwd -P)
	for f in Makefile block/blk-mq.c tools/testing/kunit/kunit.py; do
		[ -f "$k/$f" ] ||
			die "KERNEL=$KERNEL is not a Linux kernel source tree (no $f)"
	done
	top=$(git -C "$k" rev-parse --show-toplevel 2>/dev/null || true)
	[ "$top" = "$k" ] ||
		die "KERNEL=$KERNEL is not the top of a git repository (use BASE=mainline|lts for a tarball tree, or git init it)"
	[ -z "$(git -C "$k" status --porcelain --untracked-files=no)" ] ||
		die "KERNEL=$KERNEL has uncommitted changes; commit or stash them first (nothing was changed)"
	ref=${KERNEL_BASE:-HEAD}
	base=$(git -C "$k" rev-parse -q --verify "$ref^{commit}") ||
		die "KERNEL_BASE=$ref is not a commit in $KERNEL"
	name=kernel-$(printf '%s' "$k" | sha1sum | cut -c1-8)
	printf '%s %s %s\n' "$k" "$BSK_CACHE/work/$name" "$base"
	exit 0
fi

repo=$("$BSK_TOP/tools/env/base.sh" "${BASE:-mainline}")
tag=$(git -C "$repo" describe --tags --exact-match base 2>/dev/null) ||
	die "$repo has no version tag on its base commit; move it away and run again"
printf '%s %s %s\n' "$repo" "$BSK_CACHE/work/$tag" "$tag"
