#!/usr/bin/env bats
# tree.sh and apply.sh with KERNEL=: bad input gets one clear line and the
# user's tree is never changed.

load helper

setup() {
	common_setup
	K=$BATS_TEST_TMPDIR/linux
	fake_kernel "$K"
}

snapshot() {
	git -C "$K" status --porcelain
	git -C "$K" for-each-ref
	git -C "$K" worktree list --porcelain
	git -C "$K" rev-parse HEAD
}

@test "KERNEL pointing at a missing path: one error line" {
	KERNEL=$BATS_TEST_TMPDIR/nope run "$TOP/tools/env/tree.sh"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"KERNEL="*"no such directory"* ]]
}

@test "KERNEL pointing at a non-kernel directory: one error line" {
	mkdir "$BATS_TEST_TMPDIR/notkernel"
	KERNEL=$BATS_TEST_TMPDIR/notkernel run "$TOP/tools/env/tree.sh"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"is not a Linux kernel source tree"* ]]
}

@test "KERNEL pointing at a tarball tree (no git): one error line" {
	rm -rf "$K/.git"
	KERNEL=$K run "$TOP/tools/env/tree.sh"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"not the top of a git repository"* ]]
}

@test "KERNEL with uncommitted changes: one error line, nothing changed" {
	top=$BATS_TEST_TMPDIR/top
	fake_series "$K" "$top"
	echo dirty >>"$K/block/blk-mq.c"
	before=$(snapshot)
	KERNEL=$K run "$TOP/tools/apply.sh" "$top/series"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"has uncommitted changes"* ]]
	[ "$(snapshot)" = "$before" ]
	[ ! -e "$BSK_CACHE/work" ]
}

@test "KERNEL_BASE that is not a commit: one error line" {
	KERNEL=$K KERNEL_BASE=no-such-ref run "$TOP/tools/env/tree.sh"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"KERNEL_BASE=no-such-ref is not a commit"* ]]
}

@test "clean KERNEL: repo, worktree in the cache, base commit" {
	KERNEL=$K run "$TOP/tools/env/tree.sh"
	[ "$status" -eq 0 ]
	read -r repo wt base <<<"$output"
	[ "$repo" = "$(cd "$K" && pwd -P)" ]
	[[ "$wt" == "$BSK_CACHE/work/kernel-"* ]]
	[ "$base" = "$(git -C "$K" rev-parse HEAD)" ]
}

@test "unknown BASE: one error line" {
	BASE=stable run "$TOP/tools/env/tree.sh"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"unknown BASE 'stable'"* ]]
}
