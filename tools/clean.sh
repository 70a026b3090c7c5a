#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# clean.sh - 'make clean': take out of KERNEL= the tools' worktrees, the $BSK_BRANCH and
# b4/*-wip branches (b4 branches and sent/ tags kept); nothing while work is unexported.
# docs/bases.md.
set -euo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

[ -n "${KERNEL:-}" ] ||
	die "make clean is for KERNEL=/path (the Debian bases are the cache's own: $BSK_CACHE)"
read -r repo wt base < <("$BSK_TOP/tools/env/tree.sh") || exit 1
[ -n "${base:-}" ] || exit 1
mapfile -t ours < <(git -C "$repo" worktree list --porcelain | sed -n 's/^worktree //p' |
	grep -E "^$BSK_CACHE/(work|send)/" || true)
for w in "${ours[@]}"; do
	[ -d "$w" ] || continue
	[ -z "$(git -C "$w" status --porcelain --untracked-files=no)" ] ||
		die "$w has uncommitted changes; commit and 'make refresh', or discard them (nothing removed)"
done
if [ -d "$wt" ]; then
	head=$(git -C "$wt" rev-parse HEAD)
	[ "$head" = "$base" ] || [ "$head" = "$(cat "$(git -C "$wt" rev-parse --absolute-git-dir)/bsk-applied" 2>/dev/null)" ] ||
		die "$wt has commits that are not in patches/; 'make refresh' first (nothing removed)"
fi
for w in "${ours[@]}"; do
	git -C "$repo" worktree remove --force "$w"
	info "removed worktree $w"
done
mapfile -t branches < <(git -C "$repo" for-each-ref --format='%(refname:short)' \
	"refs/heads/$BSK_BRANCH" "refs/heads/b4/${BSK_SEND_NAME:-$BSK_BRANCH}-*-wip")
for b in "${branches[@]}"; do
	git -C "$repo" branch -q -D "$b"
	info "removed branch $b"
done
kept=$(git -C "$repo" for-each-ref --format='%(refname:short)' \
	"refs/heads/b4/${BSK_SEND_NAME:-$BSK_BRANCH}-*" refs/tags/sent/ | paste -sd' ')
[ -z "$kept" ] || info "kept (change-ids and what was sent, for b4's next revision): $kept"
