#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# apply.sh [SERIES] - git am SERIES' patches onto a fresh branch from the
# base in a worktree in the cache; prints its path.  Unexported work is left alone.
set -euo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

SERIES=${1:-${SERIES:-$(bsk_series)}}
[ -f "$SERIES" ] || die "no series file $SERIES"
PATCHDIR=$(dirname "$SERIES")/patches
mapfile -t patches < <(series_patches "$SERIES")
for p in "${patches[@]}"; do
	[ -f "$PATCHDIR/$p" ] || die "series lists $p but $PATCHDIR/$p does not exist"
done

read -r repo wt base < <("$BSK_TOP/tools/env/tree.sh") || exit 1
[ -n "${base:-}" ] || exit 1
branch=$BSK_BRANCH
to_base() {
	git -C "$wt" am --abort >/dev/null 2>&1 || true
	git -C "$wt" checkout -q -B "$branch" "$base"
	rm -f "$gitdir/bsk-applying" "$gitdir/bsk-applied" "$gitdir/bsk-fingerprint"
}
fingerprint=$( (git -C "$repo" rev-parse "$base^{commit}"
	for p in "${patches[@]}"; do printf '%s\n' "$p"; cat "$PATCHDIR/$p"; done) | sha1sum | cut -d' ' -f1)

if [ -e "$wt" ]; then
	common=$(cd "$wt" && git rev-parse --path-format=absolute --git-common-dir 2>/dev/null) ||
		die "$wt exists but is not a git worktree; move it away"
	[ "$common" = "$(cd "$repo" && git rev-parse --path-format=absolute --git-common-dir)" ] ||
		die "$wt is a worktree of another repository; move it away"
	[ -z "$(git -C "$wt" status --porcelain --untracked-files=no)" ] ||
		die "$wt has uncommitted changes; commit them and run 'make refresh', or discard them"
	gitdir=$(git -C "$wt" rev-parse --absolute-git-dir)
	[ ! -f "$gitdir/bsk-applying" ] || { info "an earlier apply in $wt was interrupted; starting again from $base"; to_base; }
	head=$(git -C "$wt" rev-parse HEAD)
	applied=$(cat "$gitdir/bsk-applied" 2>/dev/null || true)
	[ "$head" = "$(git -C "$wt" rev-parse "$base^{commit}")" ] || [ "$head" = "$applied" ] ||
		die "$wt has commits that are not in patches/; run 'make refresh' to keep them, or 'git -C $wt reset --hard $base' to drop them"
	# the same patches already applied: leave the files (and their mtimes) alone
	if [ "$head" = "$applied" ] && [ "$(git -C "$wt" symbolic-ref -q --short HEAD)" = "$branch" ] &&
	   [ "$(cat "$gitdir/bsk-fingerprint" 2>/dev/null)" = "$fingerprint" ]; then
		info "series already applied onto $base in $wt"
		printf '%s\n' "$wt"
		exit 0
	fi
	git -C "$wt" checkout -q -B "$branch" "$base"
else
	if git -C "$repo" rev-parse -q --verify "refs/heads/$branch" >/dev/null; then
		[ -z "${KERNEL:-}" ] || die "branch $branch already exists in $repo; delete it or pick another with BSK_BRANCH=name"
		git -C "$repo" branch -q -f "$branch" "$base"
		git -C "$repo" worktree add -q "$wt" "$branch"
	else
		mkdir -p "$(dirname "$wt")"
		git -C "$repo" worktree add -q -b "$branch" "$wt" "$base"
	fi
	gitdir=$(git -C "$wt" rev-parse --absolute-git-dir)
	[ -z "${KERNEL:-}" ] || info "series goes into worktree $wt, branch $branch of $repo"
fi

# bsk-applying marks a git am in progress: no half-applied series is taken for the user's
: >"$gitdir/bsk-applying"
trap 'trap - INT TERM HUP; to_base; info "interrupted; $wt left at $base"; exit 130' INT TERM HUP
for p in "${patches[@]}"; do
	if ! out=$(bsk_git -C "$wt" am -q --no-3way "$PATCHDIR/$p" 2>&1); then
		why=$(printf '%s\n' "$out" | grep -m1 -E '^error: (patch failed|.*: (does not exist|already exists|patch does not apply))' ||
			printf '%s\n' "$out" | grep -m1 . || true)
		to_base
		die "patch $p does not apply to $base: ${why#error: } (worktree left at the base)"
	fi
done
git -C "$wt" rev-parse HEAD >"$gitdir/bsk-applied"
printf '%s\n' "$fingerprint" >"$gitdir/bsk-fingerprint"
rm -f "$gitdir/bsk-applying"
trap - INT TERM HUP
info "applied ${#patches[@]} patches onto $base in $wt"
printf '%s\n' "$wt"
