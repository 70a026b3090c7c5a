#!/usr/bin/env bats
# objcheck.sh on a fake kernel whose make compiles with gcc;
# bloat-o-meter is faked (it compares file sizes).

load helper
bats_require_minimum_version 1.5.0

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
}

# nfc_kernel: a fake kernel whose make builds a real object with gcc, and
# whose kconfig targets write a .config with BFQ built in.
nfc_kernel() {
	cat >>"$K/Makefile" <<'EOM'
O ?= .
tinyconfig defconfig olddefconfig:
	@mkdir -p $(O) && echo CONFIG_IOSCHED_BFQ=y >$(O)/.config
%.o: %.c
	@mkdir -p $(O)/$(dir $@) && $(CC) -O2 -c $< -o $(O)/$@
EOM
	mkdir -p "$K/scripts/kconfig"
	printf '#!/bin/sh\nexit 0\n' >"$K/scripts/kconfig/merge_config.sh"
	chmod +x "$K/scripts/kconfig/merge_config.sh"
	printf 'int blk_mq_f(int x)\n{\n\treturn x + 1;\n}\n' >"$K/block/blk-mq.c"
	git -C "$K" add -A
	git -C "$K" commit -q -m "an object to compile"
}

@test "nfc: a change that leaves the code alone passes on every config" {
	nfc_kernel
	sed -i '1i /* a comment */' "$K/block/blk-mq.c"
	git -C "$K" commit -q -a -m "blk-mq: a comment"
	run "$TOP/tools/gate/objcheck.sh" "$K" HEAD~ HEAD
	[ "$status" -eq 0 ]
	[ "$(grep -c '^same code: block/blk-mq.o, ' <<<"$output")" -eq 3 ]
	[[ "$output" == *'tiny config'*'bench config'*'distro config'* ]]
	# the tree is back on its branch
	[ "$(git -C "$K" symbolic-ref --short HEAD)" = master ]
}

@test "nfc: a change of the code fails and shows it" {
	nfc_kernel
	sed -i 's/x + 1/x + 2/' "$K/block/blk-mq.c"
	git -C "$K" commit -q -a -m "blk-mq: another constant"
	NFC_CONFIGS=tiny run "$TOP/tools/gate/objcheck.sh" "$K" HEAD~ HEAD
	[ "$status" -eq 1 ]
	[[ "$output" == *'DIFFERENT code: block/blk-mq.o, tiny config'* ]]
	[[ "$output" == *'0x2(%rdi)'* ]]
}

@test "nfc: a call to another function fails, though the instructions are the same" {
	nfc_kernel
	printf 'void foo(void);\nvoid bar(void);\nvoid blk_mq_g(void)\n{\n\tfoo();\n}\n' >>"$K/block/blk-mq.c"
	git -C "$K" commit -q -a -m "blk-mq: a call"
	sed -i 's/^\tfoo();$/\tbar();/' "$K/block/blk-mq.c"
	git -C "$K" commit -q -a -m "blk-mq: another callee"
	NFC_CONFIGS=tiny run "$TOP/tools/gate/objcheck.sh" "$K" HEAD~ HEAD
	[ "$status" -eq 1 ]
	[[ "$output" == *'DIFFERENT code: block/blk-mq.o, tiny config'* ]]
	[[ "$output" == *'bar'* ]]
}

@test "nfc: an unknown config is one error line" {
	nfc_kernel
	NFC_CONFIGS=huge run "$TOP/tools/gate/objcheck.sh" "$K" HEAD~ HEAD
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"error: NFC_CONFIGS: no config 'huge'"* ]]
}

@test "objcheck: fewer than three arguments is a usage error" {
	run ! "$TOP/tools/gate/objcheck.sh" "$K" HEAD~
	[[ "$output" == *'usage: objcheck.sh TREE A B'* ]]
}
