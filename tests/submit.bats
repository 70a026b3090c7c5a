#!/usr/bin/env bats
# The per-patch check and submission tools: warnlog.sh, clang.sh, send.sh
# (their input checks; make check runs them on the real tree).

load helper
bats_require_minimum_version 1.5.0

setup() {
	common_setup
}

@test "warnlog.sh keeps a compiler's stderr per object and passes it through" {
	export BSK_WARN_DIR=$BATS_TEST_TMPDIR/w
	run "$TOP/tools/gate/warnlog.sh" cc sh -c 'echo "a.c:1:2: warning: x" >&2; exit 3' -- -o block/a.o
	[ "$status" -eq 3 ]
	[ "$output" = "a.c:1:2: warning: x" ]
	[ "$(cat "$BSK_WARN_DIR/cc/block%a.o")" = "a.c:1:2: warning: x" ]
	# a rebuild without diagnostics empties the object's file
	run "$TOP/tools/gate/warnlog.sh" cc true -o block/a.o
	[ "$status" -eq 0 ]
	[ ! -s "$BSK_WARN_DIR/cc/block%a.o" ]
}

@test "warnlog.sh: sparse is keyed by the source, compiler probes are not kept" {
	export BSK_WARN_DIR=$BATS_TEST_TMPDIR/w
	run "$TOP/tools/gate/warnlog.sh" sparse sh -c 'echo "s: warning: y" >&2' -- -D__x block/b.c
	[ "$(cat "$BSK_WARN_DIR/sparse/block%b.c")" = "s: warning: y" ]
	# kbuild's real CHECK line with O=: the source's absolute path in srctree
	BSK_WARN_TREE=/src/linux run "$TOP/tools/gate/warnlog.sh" sparse sh -c 'echo "s: warning: z" >&2' -- -D__x /src/linux/block/c.c
	[ "$(cat "$BSK_WARN_DIR/sparse/block%c.c")" = "s: warning: z" ]
	run "$TOP/tools/gate/warnlog.sh" cc sh -c 'echo probe >&2' -- -o /tmp/x.o
	[ "$output" = probe ]
	[ ! -e "$BSK_WARN_DIR/cc/%tmp%x.o" ]
}

@test "clang.sh: no Debian clang meets the minimum: the reason, status 1" {
	k=$BATS_TEST_TMPDIR/k
	mkdir -p "$k/scripts"
	printf '#!/bin/sh\necho 99.0.0\n' >"$k/scripts/min-tool-version.sh"
	chmod +x "$k/scripts/min-tool-version.sh"
	run --separate-stderr "$TOP/tools/gate/clang.sh" "$k"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"needs LLVM >= 99.0.0; the newest Debian clang here is"* ]]
}

@test "clang.sh: not a kernel tree: one error line" {
	run "$TOP/tools/gate/clang.sh" "$BATS_TEST_TMPDIR"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "clang.sh: error: usage: "* ]]
}

@test "send.sh without a git identity: one line, nothing written" {
	: >"$BATS_TEST_TMPDIR/empty"
	GIT_CONFIG_GLOBAL=$BATS_TEST_TMPDIR/empty GIT_CONFIG_NOSYSTEM=1 SEND_OUT=$BATS_TEST_TMPDIR/out \
		run "$TOP/tools/send.sh"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "send.sh: error: no sender: "* ]]
	[ ! -e "$BATS_TEST_TMPDIR/out" ]
}

@test "send.sh with FROM that is not 'Name <address>': one line, nothing written" {
	FROM='just-an-address@example.org' SEND_OUT=$BATS_TEST_TMPDIR/out run "$TOP/tools/send.sh"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "send.sh: error: FROM='just-an-address@example.org' is not 'Your Name <you@example.org>'" ]]
	[ ! -e "$BATS_TEST_TMPDIR/out" ]
}

@test "send.sh refuses an .invalid sender, the placeholder of patches/ included" {
	FROM='blk-sched-kunit maintainers <maintainers@blk-sched-kunit.invalid>' SEND_OUT=$BATS_TEST_TMPDIR/out \
		run "$TOP/tools/send.sh"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "send.sh: error: maintainers@blk-sched-kunit.invalid is not an address the list can reach"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/out" ]
}

@test "send.sh with BASE=lts: one line, the LTS series is not sent" {
	BASE=lts FROM='A Sender <sender@example.org>' SEND_OUT=$BATS_TEST_TMPDIR/out run "$TOP/tools/send.sh"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "send.sh: error: series-6.12 is not sent"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/out" ]
}

@test "send.sh with a SEND_OUT that is not empty: one line, the directory untouched" {
	mkdir -p "$BATS_TEST_TMPDIR/out"
	echo mine >"$BATS_TEST_TMPDIR/out/note"
	# an identity and a b4 of its own: the check must not depend on the host
	printf '[user]\n\tname = A Sender\n\temail = sender@example.org\n' >"$BATS_TEST_TMPDIR/gitconfig"
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	printf '#!/bin/sh\necho 0.16.0\n' >"$BATS_TEST_TMPDIR/bin/b4"
	chmod +x "$BATS_TEST_TMPDIR/bin/b4"
	PATH=$BATS_TEST_TMPDIR/bin:$PATH GIT_CONFIG_GLOBAL=$BATS_TEST_TMPDIR/gitconfig GIT_CONFIG_NOSYSTEM=1 \
		SEND_OUT=$BATS_TEST_TMPDIR/out run "$TOP/tools/send.sh"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"SEND_OUT="*"is not an empty directory"* ]]
	[ "$(cat "$BATS_TEST_TMPDIR/out/note")" = mine ]
}

@test "patchcheck.sh and buildcheck.sh: bad arguments give one error line" {
	run "$TOP/tools/gate/patchcheck.sh"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	run "$TOP/tools/gate/buildcheck.sh" q "$BATS_TEST_TMPDIR" s
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "buildcheck.sh: error: usage: "* ]]
}

@test "b4.sh: an installed b4 0.13 or later is taken as it is" {
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	printf '#!/bin/sh\necho 0.13.1\n' >"$BATS_TEST_TMPDIR/bin/b4"
	chmod +x "$BATS_TEST_TMPDIR/bin/b4"
	PATH=$BATS_TEST_TMPDIR/bin:$PATH BSK_CACHE=$BATS_TEST_TMPDIR/cache run "$TOP/tools/env/b4.sh"
	[ "$status" -eq 0 ]
	[ "$output" = "$BATS_TEST_TMPDIR/bin/b4" ]
	[ ! -e "$BATS_TEST_TMPDIR/cache/b4" ]
}

@test "b4.sh: a b4 older than 0.13 and no apt-get: one line naming both" {
	# this machine's programs less apt-get, and a b4 0.12
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	for p in bash sh sort head dirname basename cat mkdir; do ln -s "$(command -v "$p")" "$BATS_TEST_TMPDIR/bin/$p"; done
	printf '#!/bin/sh\necho 0.12.0\n' >"$BATS_TEST_TMPDIR/bin/b4"
	chmod +x "$BATS_TEST_TMPDIR/bin/b4"
	PATH=$BATS_TEST_TMPDIR/bin BSK_CACHE=$BATS_TEST_TMPDIR/cache run "$BATS_TEST_TMPDIR/bin/bash" "$TOP/tools/env/b4.sh"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "b4.sh: error: b4 0.13 or later is needed"*"(installed: 0.12.0)"*"no apt-get here"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/cache/b4" ]
}

# Recorded gcc 12 and clang 19 output (-Wall on a 5-line file, the same
# warning at line 3 of a.c and at line 6 of b.c).
@test "buildcheck's diagnostics: a warning that only moved is the same line, a new one is not; paths out" {
	. "$TOP/tools/lib/kbuild.sh"
	gcc_a="/t/tree/block/a.c: In function 'f':
/t/tree/block/a.c:3:13: warning: unused variable 'unused' [-Wunused-variable]
    3 |         int unused;"
	gcc_moved="../block/a.c:6:13: warning: unused variable 'unused' [-Wunused-variable]"
	clang_a="/t/tree/block/a.c:3:6: warning: unused variable 'unused' [-Wunused-variable]
        int unused;
1 warning generated."
	gcc_new="/t/out/block/a.c:4:9: warning: 'x' is used uninitialized [-Wuninitialized]"
	a=$(kbuild_diagnostics /t/tree /t/out <<<"$gcc_a")
	[ "$a" = "block/a.c: warning: unused variable 'unused' [-Wunused-variable]" ]
	[ "$(kbuild_diagnostics /t/tree /t/out <<<"$gcc_moved")" = "$a" ]
	[ "$(kbuild_diagnostics /t/tree /t/out <<<"$clang_a")" = "$a" ]
	[ "$(kbuild_diagnostics /t/tree /t/out <<<"$gcc_new")" = "block/a.c: warning: 'x' is used uninitialized [-Wuninitialized]" ]
	# no diagnostic: nothing, status 0
	run kbuild_diagnostics /t/tree /t/out <<<"  CC block/a.o"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}
