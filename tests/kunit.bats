#!/usr/bin/env bats
# kunit.sh: what it passes to kunit.py and how it turns kunit.py's result
# into the "N passed, N failed" line.  kunit.py is faked.

load helper

setup() {
	common_setup
	K=$BATS_TEST_TMPDIR/linux
	mkdir -p "$K/block/tests" "$K/tools/testing/kunit"
	echo CONFIG_KUNIT=y >"$K/block/tests/.kunitconfig"
	cat >"$K/tools/testing/kunit/kunit.py" <<'EOS'
import os, sys
print("ARGS " + " ".join(sys.argv[1:]))
build = [a.split("=", 1)[1] for a in sys.argv if a.startswith("--build_dir=")][0]
open(os.path.join(build, "test.log"), "w").write("KTAP version 1\n" + os.environ.get("FAKE_KUNIT_LOG", ""))
print(os.environ.get("FAKE_KUNIT_OUT", ""))
sys.exit(int(os.environ.get("FAKE_KUNIT_RC", "0")))
EOS
}

@test "all passed: last line N passed, 0 failed; KTAP and JSON paths kept" {
	FAKE_KUNIT_OUT="[12:00:00] Testing complete. Ran 22 tests: passed: 22" \
		run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "22 passed, 0 failed" ]
	[[ "$output" == *"--kunitconfig=block/tests"* ]]
	[[ "$output" == *"--json=$BSK_CACHE/runs/"*"/results.json"* ]]
	[[ "$output" == *"--build_dir=$BSK_CACHE/build/linux-um"* ]]
	ls "$BSK_CACHE"/runs/*/ktap.log
}

@test "failures and crashes count as failed" {
	FAKE_KUNIT_RC=1 FAKE_KUNIT_OUT="Testing complete. Ran 9 tests: passed: 6, failed: 2, crashed: 1" \
		run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -ne 0 ]
	[ "${lines[-1]}" = "6 passed, 3 failed" ]
}

@test "a build failure (no result line) is a failure, not a pass" {
	FAKE_KUNIT_RC=1 FAKE_KUNIT_OUT="ERROR:root:make: *** [Makefile:2003] Error 2" \
		run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -ne 0 ]
	[ "${lines[-1]}" = "0 passed, 1 failed" ]
}

@test "no tests run is a failure" {
	FAKE_KUNIT_OUT="Testing complete. Ran 0 tests: passed: 0" run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -ne 0 ]
	[ "${lines[-1]}" = "0 passed, 1 failed" ]
}

@test "ARCH=x86_64 adds the SMP kunitconfig and two sockets of two CPUs" {
	ARCH=x86_64 FAKE_KUNIT_OUT="Testing complete. Ran 1 tests: passed: 1" \
		run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -eq 0 ]
	[[ "$output" == *"--arch=x86_64"* ]]
	[[ "$output" == *"--kunitconfig=$TOP/kunit/x86_64.kunitconfig"* ]]
	[[ "$output" == *"--qemu_args -smp 4,sockets=2,cores=2"* ]]
}

@test "unsupported ARCH: one error line" {
	ARCH=arm64 run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"ARCH=arm64 is not supported"* ]]
}

@test "a tree without the series: one error line" {
	rm "$K/block/tests/.kunitconfig"
	run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"has no block/tests/.kunitconfig"* ]]
}

@test "KUNIT_BUILD_ONLY=1: kunit.py build with the same options, last line 'built'" {
	KUNIT_BUILD_ONLY=1 run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = built ]
	grep -q '^ARGS build --build_dir=.*--kunitconfig=block/tests' "$BSK_CACHE"/runs/*/kunit.log
	run ! grep -q -- '--json' "$BSK_CACHE"/runs/*/kunit.log
}

@test "x86_64: QEMU gets no KVM unless BSK_KVM=1 (qemu-tcg.sh first on PATH)" {
	fake_bin
	printf '#!/bin/sh\necho "QEMU $*"\n' >"$BATS_TEST_TMPDIR/bin/qemu-system-x86_64"
	chmod +x "$BATS_TEST_TMPDIR/bin/qemu-system-x86_64"
	cat >"$K/tools/testing/kunit/kunit.py" <<'EOS'
import subprocess
subprocess.run(["qemu-system-x86_64", "-nodefaults", "-accel", "kvm", "-accel", "hvf", "-accel", "tcg", "-smp", "4"])
print("Testing complete. Ran 1 tests: passed: 1")
EOS
	ARCH=x86_64 run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -eq 0 ]
	[[ "$output" == *"QEMU -nodefaults -accel tcg -smp 4"* ]]
	BSK_KVM=1 ARCH=x86_64 run "$TOP/tools/kunit.sh" "$K"
	[[ "$output" == *"QEMU -nodefaults -accel kvm -accel hvf -accel tcg -smp 4"* ]]
}

@test "KUNIT_DEBUG=1: debug.config, own build dir; a sanitizer report in the kernel log fails the run" {
	ok="Testing complete. Ran 5 tests: passed: 5"
	KUNIT_DEBUG=1 FAKE_KUNIT_OUT=$ok FAKE_KUNIT_LOG="ok 1 blk_suite
" run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -eq 0 ]
	[[ "$output" == *"--kunitconfig=$TOP/configs/debug.config"* ]]
	[[ "$output" == *"--build_dir=$BSK_CACHE/build/linux-um-debug"* ]]
	[[ "$output" == *"no sanitizer report in the kernel log"* ]]
	[ "${lines[-1]}" = "5 passed, 0 failed" ]
	for report in "BUG: KASAN: slab-out-of-bounds in bfq_update_hw_tag+0x1c/0x80" \
		"UBSAN: shift-out-of-bounds in block/blk-mq.c:1234:5" \
		"WARNING: possible circular locking dependency detected" \
		"INFO: task kworker/0:1:12 blocked for more than 120 seconds."; do
		KUNIT_DEBUG=1 FAKE_KUNIT_OUT=$ok FAKE_KUNIT_LOG="ok 1 blk_suite
$report
" run "$TOP/tools/kunit.sh" "$K"
		[ "$status" -ne 0 ]
		[[ "$output" == *"$report"* ]]
		[ "${lines[-1]}" = "5 passed, 1 failed" ]
	done
}

@test "without KUNIT_DEBUG the kernel log is not read for splats" {
	FAKE_KUNIT_OUT="Testing complete. Ran 5 tests: passed: 5" \
		FAKE_KUNIT_LOG="WARNING: CPU: 0 PID: 1 at arch/um/drivers/virt-pci.c:1005 um_pci_init+0xc7/0xd4
" run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "5 passed, 0 failed" ]
	[[ "$output" != *"--kunitconfig=$TOP/configs/debug.config"* ]]
}

@test "KUNIT_KERNEL=dir: kunit.py exec on that kernel, no build; its kernel log read for splats" {
	V=$BATS_TEST_TMPDIR/vm-debug-kunit
	mkdir -p "$V/arch/x86/boot"
	: >"$V/arch/x86/boot/bzImage"
	echo CONFIG_KUNIT=y >"$V/.config"
	ok="Testing complete. Ran 5 tests: passed: 5"
	KUNIT_KERNEL=$V ARCH=x86_64 KUNIT_DEBUG=1 FAKE_KUNIT_OUT=$ok FAKE_KUNIT_LOG="ok 1 blk_suite
" run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -eq 0 ]
	[[ "$output" == *"ARGS exec --build_dir=$V --arch=x86_64 --kunitconfig=block/tests --kernel_args kunit.autorun=1 --json="* ]]
	[[ "$output" == *"--qemu_args -smp 4,sockets=2,cores=2"* ]]
	[[ "$output" != *"--make_options"* && "$output" != *"--jobs"* ]]
	[[ "$output" == *"no sanitizer report in the kernel log"* ]]
	[ "${lines[-1]}" = "5 passed, 0 failed" ]
	KUNIT_KERNEL=$V ARCH=x86_64 KUNIT_DEBUG=1 FAKE_KUNIT_OUT=$ok FAKE_KUNIT_LOG="ok 1 blk_suite
BUG: KASAN: slab-out-of-bounds in bfq_update_hw_tag+0x1c/0x80
" run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -ne 0 ]
	[ "${lines[-1]}" = "5 passed, 1 failed" ]
}

@test "KUNIT_KERNEL: not x86_64, no bzImage, or no KUnit in it: one error line" {
	V=$BATS_TEST_TMPDIR/vm
	mkdir -p "$V/arch/x86/boot"
	KUNIT_KERNEL=$V run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -ne 0 ]
	[ "$output" = "kunit.sh: error: KUNIT_KERNEL needs ARCH=x86_64 (not um)" ]
	KUNIT_KERNEL=$V ARCH=x86_64 run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -ne 0 ]
	[ "$output" = "kunit.sh: error: KUNIT_KERNEL=$V has no x86_64 bzImage built with CONFIG_KUNIT=y" ]
	: >"$V/arch/x86/boot/bzImage"
	echo '# CONFIG_KUNIT is not set' >"$V/.config"
	KUNIT_KERNEL=$V ARCH=x86_64 run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -ne 0 ]
	[ "$output" = "kunit.sh: error: KUNIT_KERNEL=$V has no x86_64 bzImage built with CONFIG_KUNIT=y" ]
}

@test "UML with two CPUs where the tree's UML has SMP, and only there" {
	FAKE_KUNIT_OUT="Testing complete. Ran 1 tests: passed: 1" run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -eq 0 ]
	[[ "$output" != *"ncpus=2"* ]]
	[[ "$output" != *"um-smp.kunitconfig"* ]]
	mkdir -p "$K/arch/um"
	printf 'config SMP\n\tbool "Symmetric multi-processing support"\n' >"$K/arch/um/Kconfig"
	FAKE_KUNIT_OUT="Testing complete. Ran 1 tests: passed: 1" run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -eq 0 ]
	[[ "$output" == *"--kunitconfig=$TOP/kunit/um-smp.kunitconfig"* ]]
	[[ "$output" == *"--kernel_args ncpus=2 --kernel_args seccomp=on"* ]]
}
