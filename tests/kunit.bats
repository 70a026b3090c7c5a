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
open(os.path.join(build, "test.log"), "w").write("KTAP version 1\n")
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
	! grep -q -- '--json' "$BSK_CACHE"/runs/*/kunit.log
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
