#!/usr/bin/env bats
# objcheck.sh bloat-dirs: bloat-o-meter on objects a build kept, as make
# check runs it on the per-patch =y objects.  bloat-o-meter is faked (it
# compares file sizes); the tree is a fake kernel with one commit on top.

load helper

setup() {
	common_setup
	K=$BATS_TEST_TMPDIR/linux
	fake_kernel "$K"
	mkdir -p "$K/scripts"
	cat >"$K/scripts/bloat-o-meter" <<'EOS'
#!/bin/sh
echo "add/remove: 0/0 grow/shrink: 0/0 up/down: 0/0 (0)"
echo "Total: Before=$(wc -c <"$1"), After=$(wc -c <"$2"), chg +0.00%"
EOS
	chmod +x "$K/scripts/bloat-o-meter"
	git -C "$K" add -A
	git -C "$K" commit -q -m "bloat-o-meter"
	sed -i 's/^line 2$/line two/' "$K/block/bfq-iosched.c"
	git -C "$K" commit -q -a -m "block, bfq: a change"
	A=$BATS_TEST_TMPDIR/a
	B=$BATS_TEST_TMPDIR/b
	mkdir -p "$A/block" "$B/block"
}

@test "bloat-dirs: same size passes, growth fails with the sizes" {
	printf '1234' >"$A/block/bfq-iosched.o"
	printf '1234' >"$B/block/bfq-iosched.o"
	run "$TOP/tools/objcheck.sh" bloat-dirs "$K" HEAD~ HEAD "$A" "$B"
	[ "$status" -eq 0 ]
	[[ "$output" == *'scripts/bloat-o-meter block/bfq-iosched.o'* ]]
	printf '123456' >"$B/block/bfq-iosched.o"
	run "$TOP/tools/objcheck.sh" bloat-dirs "$K" HEAD~ HEAD "$A" "$B"
	[ "$status" -eq 1 ]
	[[ "$output" == *'block/bfq-iosched.o grew from 4 to 6 bytes'* ]]
}

@test "bloat-dirs: an object on one side only is an error, not a pass" {
	printf '1234' >"$A/block/bfq-iosched.o"
	run "$TOP/tools/objcheck.sh" bloat-dirs "$K" HEAD~ HEAD "$A" "$B"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "${lines[0]}" == *'error: block/bfq-iosched.o was built on one side only'* ]]
}

@test "bloat-dirs: a missing objects dir is a usage error" {
	run "$TOP/tools/objcheck.sh" bloat-dirs "$K" HEAD~ HEAD "$A" "$BATS_TEST_TMPDIR/nope"
	[ "$status" -eq 1 ]
	[[ "$output" == *'usage: objcheck.sh bloat-dirs'* ]]
}
