#!/usr/bin/env bats
# kunit.sh: what it passes to kunit.py and how it turns kunit.py's result
# (its --json file) into the "N passed, N failed" line.  kunit.py is faked;
# the --json it writes is a recorded one (tests/fixtures/kunit).

load helper
bats_require_minimum_version 1.5.0

setup() {
	common_setup
	K=$BATS_TEST_TMPDIR/linux
	mkdir -p "$K/block/tests" "$K/tools/testing/kunit"
	echo CONFIG_KUNIT=y >"$K/block/tests/.kunitconfig"
	cat >"$K/tools/testing/kunit/kunit.py" <<'EOS'
import os, shutil, sys
print("ARGS " + " ".join(sys.argv[1:]))
build = [a.split("=", 1)[1] for a in sys.argv if a.startswith("--build_dir=")][0]
open(os.path.join(build, "test.log"), "w").write("KTAP version 1\n" + os.environ.get("FAKE_KUNIT_LOG", ""))
print(os.environ.get("FAKE_KUNIT_OUT", ""))
# FAKE_KUNIT_JSON=NAME: the --json of a recorded run, tests/fixtures/kunit/NAME.json
# (none without it: a build failure)
js = [a.split("=", 1)[1] for a in sys.argv if a.startswith("--json=")]
if os.environ.get("FAKE_KUNIT_JSON") and js:
    shutil.copy(os.environ["TOP"] + "/tests/fixtures/kunit/" + os.environ["FAKE_KUNIT_JSON"] + ".json", js[0])
sys.exit(int(os.environ.get("FAKE_KUNIT_RC", "0")))
EOS
}

@test "all passed: last line N passed, 0 failed; KTAP and JSON paths kept" {
	FAKE_KUNIT_JSON=all_passed run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "25 passed, 0 failed, 0 skipped" ]
	[[ "$output" == *"--kunitconfig=block/tests"* ]]
	[[ "$output" == *"--json=$BSK_CACHE/runs/"*"/results.json"* ]]
	# by default x86_64 under QEMU, two sockets of two CPUs
	[[ "$output" == *"--build_dir=$BSK_CACHE/build/linux-x86_64 "* ]]
	[[ "$output" == *"-smp 4,sockets=2,cores=2"* ]]
	ls "$BSK_CACHE"/runs/*/ktap.log
}

@test "the counts are kunit.py's JSON, not its text; skips are neither" {
	FAKE_KUNIT_OUT="Testing complete. Ran 99 tests: passed: 99" FAKE_KUNIT_JSON=failure \
		run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -ne 0 ]
	[ "${lines[-1]}" = "53 passed, 1 failed, 4 skipped" ]
	# nothing passed: a failure, whatever skipped
	FAKE_KUNIT_JSON=param_all_skipped run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -ne 0 ]
	[ "${lines[-1]}" = "0 passed, 1 failed, 9 skipped" ]
}

@test "failures and crashes count as failed" {
	FAKE_KUNIT_RC=1 FAKE_KUNIT_JSON=crash run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -ne 0 ]
	[ "${lines[-1]}" = "22 passed, 3 failed, 0 skipped" ]
}

@test "kunit.py's non-zero status is a failure, even with a JSON of passes only" {
	FAKE_KUNIT_RC=1 FAKE_KUNIT_JSON=all_passed run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -ne 0 ]
	[ "${lines[-1]}" = "25 passed, 1 failed, 0 skipped" ]
}

@test "a build failure (no result line) is a failure, not a pass" {
	FAKE_KUNIT_RC=1 FAKE_KUNIT_OUT="ERROR:root:make: *** [Makefile:2003] Error 2" \
		run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -ne 0 ]
	[ "${lines[-1]}" = "0 passed, 1 failed, 0 skipped" ]
}

@test "no tests run is a failure" {
	FAKE_KUNIT_JSON=no_results run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -ne 0 ]
	[ "${lines[-1]}" = "0 passed, 1 failed, 0 skipped" ]
}

@test "KUNIT_OUT=dir: the run goes there; a results.json left in it is no result" {
	O=$BATS_TEST_TMPDIR/out
	KUNIT_OUT=$O FAKE_KUNIT_JSON=all_passed run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -eq 0 ]
	[[ "$output" == *"--json=$O/results.json"* ]]
	[ -f "$O/kunit.log" ] && [ -f "$O/ktap.log" ] && [ -f "$O/results.json" ]
	KUNIT_OUT=$O FAKE_KUNIT_RC=1 run "$TOP/tools/kunit.sh" "$K"
	[ "${lines[-1]}" = "0 passed, 1 failed, 0 skipped" ]
}

@test "ARCH=x86_64 adds the SMP kunitconfig and two sockets of two CPUs" {
	ARCH=x86_64 FAKE_KUNIT_JSON=all_passed \
		run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -eq 0 ]
	[[ "$output" == *"--arch=x86_64"* ]]
	[[ "$output" == *"--kunitconfig=$TOP/kunit/x86_64.kunitconfig"* ]]
	[[ "$output" == *"--qemu_args -smp 4,sockets=2,cores=2"* ]]
}

@test "KUNIT_TOPOLOGY picks another machine of kunit/matrix for the arch" {
	# the cross compiler and QEMU checked for, as fakes: kunit.py is one
	P=$BATS_TEST_TMPDIR/arm64bin
	mkdir -p "$P"
	for c in aarch64-linux-gnu-gcc qemu-system-aarch64; do
		printf '#!/bin/sh\nexit 0\n' >"$P/$c"
		chmod +x "$P/$c"
	done
	ARCH=arm64 KUNIT_TOPOLOGY=arm64-clusters FAKE_KUNIT_JSON=all_passed PATH=$PATH:$P \
		run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -eq 0 ]
	[[ "$output" == *"--qemu_args -smp 4,sockets=1,clusters=2,cores=2"* ]]
	ls -d "$BSK_CACHE"/runs/*-linux-arm64-clusters
}

@test "KUNIT_TOPOLOGY not in kunit/matrix, or of another arch: one error line" {
	ARCH=x86_64 KUNIT_TOPOLOGY=x86_64-numa run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"KUNIT_TOPOLOGY=x86_64-numa: no such line in kunit/matrix (x86_64, i386, arm64, arm64-clusters)"* ]]
	ARCH=x86_64 KUNIT_TOPOLOGY=arm64-clusters run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"KUNIT_TOPOLOGY=arm64-clusters is an arm64 machine, not ARCH=x86_64"* ]]
}

@test "unsupported ARCH: one error line" {
	ARCH=sparc run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"ARCH=sparc is not supported (use ARCH=um, x86_64, i386 or arm64)"* ]]
}

@test "ARCH=arm64 without the cross compiler: one line naming the package" {
	P=$BATS_TEST_TMPDIR/nocross
	mkdir -p "$P"
	for p in /usr/bin/* /bin/*; do
		case ${p##*/} in aarch64-linux-gnu-*) continue ;; esac
		[ -e "$P/${p##*/}" ] || ln -s "$p" "$P/${p##*/}"
	done
	ARCH=arm64 PATH=$P run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"aarch64-linux-gnu-gcc not found (ARCH=arm64 builds with it); run: apt-get install gcc-aarch64-linux-gnu" ]]
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
import os, shutil, subprocess, sys
subprocess.run(["qemu-system-x86_64", "-nodefaults", "-accel", "kvm", "-accel", "hvf", "-accel", "tcg", "-smp", "4"])
shutil.copy(os.environ["TOP"] + "/tests/fixtures/kunit/all_passed.json", [a[7:] for a in sys.argv if a.startswith("--json=")][0])
EOS
	ARCH=x86_64 run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -eq 0 ]
	[[ "$output" == *"QEMU -nodefaults -accel tcg -smp 4"* ]]
	BSK_KVM=1 ARCH=x86_64 run "$TOP/tools/kunit.sh" "$K"
	[[ "$output" == *"QEMU -nodefaults -accel kvm -accel hvf -accel tcg -smp 4"* ]]
}

# debug_mode MODE FRAGMENTS REPORT...: KUNIT_DEBUG=MODE adds FRAGMENTS and
# its own build dir; a clean log passes, and each REPORT in it fails the run.
debug_mode() {
	local mode=$1 frags=$2 report ok=all_passed
	shift 2
	KUNIT_DEBUG=$mode FAKE_KUNIT_JSON=$ok FAKE_KUNIT_LOG="ok 1 blk_suite
" run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -eq 0 ]
	[[ "$output" == *"$frags"* ]]
	[[ "$output" == *"--build_dir=$BSK_CACHE/build/linux-x86_64-${mode/1/debug}"* ]]
	[[ "$output" == *"no sanitizer report in the kernel log"* ]]
	[ "${lines[-1]}" = "25 passed, 0 failed, 0 skipped" ]
	for report in "$@"; do
		KUNIT_DEBUG=$mode FAKE_KUNIT_JSON=$ok FAKE_KUNIT_LOG="ok 1 blk_suite
$report
" run "$TOP/tools/kunit.sh" "$K"
		[ "$status" -ne 0 ]
		[[ "$output" == *"$report"* ]]
		[ "${lines[-1]}" = "25 passed, 1 failed, 0 skipped" ]
	done
}

@test "KUNIT_DEBUG=1: debug.config, own build dir; a sanitizer report in the kernel log fails the run" {
	debug_mode 1 "--kunitconfig=$TOP/configs/debug.config" \
		"BUG: KASAN: slab-out-of-bounds in bfq_update_hw_tag+0x1c/0x80" \
		"UBSAN: shift-out-of-bounds in block/blk-mq.c:1234:5" \
		"WARNING: possible circular locking dependency detected" \
		"INFO: task kworker/0:1:12 blocked for more than 120 seconds."
}

@test "KUNIT_DEBUG=rt: debug.config and rt.config, own build dir; an atomic-sleep or wait-context report fails the run" {
	debug_mode rt "--kunitconfig=$TOP/configs/debug.config --kunitconfig=$TOP/configs/rt.config" \
		"BUG: sleeping function called from invalid context at kernel/locking/spinlock_rt.c:48" \
		"[ BUG: Invalid wait context ]"
}

@test "KUNIT_DEBUG of another value: one error line" {
	run ! env KUNIT_DEBUG=yes "$TOP/tools/kunit.sh" "$K"
	[ "$output" = "kunit.sh: error: KUNIT_DEBUG=yes: use 1 (the sanitizers) or rt (PREEMPT_RT too)" ]
}

@test "without KUNIT_DEBUG the kernel log is not read for splats" {
	FAKE_KUNIT_JSON=all_passed \
		FAKE_KUNIT_LOG="WARNING: CPU: 0 PID: 1 at arch/um/drivers/virt-pci.c:1005 um_pci_init+0xc7/0xd4
" run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "25 passed, 0 failed, 0 skipped" ]
	[[ "$output" != *"--kunitconfig=$TOP/configs/debug.config"* ]]
}

@test "KUNIT_KERNEL=dir: kunit.py exec on that kernel, no build; its kernel log read for splats" {
	V=$BATS_TEST_TMPDIR/vm-debug-kunit
	mkdir -p "$V/arch/x86/boot"
	: >"$V/arch/x86/boot/bzImage"
	echo CONFIG_KUNIT=y >"$V/.config"
	ok=all_passed
	KUNIT_KERNEL=$V ARCH=x86_64 KUNIT_DEBUG=1 FAKE_KUNIT_JSON=$ok FAKE_KUNIT_LOG="ok 1 blk_suite
" run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -eq 0 ]
	[[ "$output" == *"ARGS exec --build_dir=$V --arch=x86_64 --kunitconfig=block/tests --kernel_args kunit.autorun=1 --json="* ]]
	[[ "$output" == *"--qemu_args -smp 4,sockets=2,cores=2"* ]]
	[[ "$output" != *"--make_options"* && "$output" != *"--jobs"* ]]
	[[ "$output" == *"no sanitizer report in the kernel log"* ]]
	[ "${lines[-1]}" = "25 passed, 0 failed, 0 skipped" ]
	KUNIT_KERNEL=$V ARCH=x86_64 KUNIT_DEBUG=1 FAKE_KUNIT_JSON=$ok FAKE_KUNIT_LOG="ok 1 blk_suite
BUG: KASAN: slab-out-of-bounds in bfq_update_hw_tag+0x1c/0x80
" run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -ne 0 ]
	[ "${lines[-1]}" = "25 passed, 1 failed, 0 skipped" ]
}

@test "KUNIT_KERNEL: not x86_64, no bzImage, or no KUnit in it: one error line" {
	V=$BATS_TEST_TMPDIR/vm
	mkdir -p "$V/arch/x86/boot"
	KUNIT_KERNEL=$V ARCH=um run "$TOP/tools/kunit.sh" "$K"
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
	export ARCH=um
	FAKE_KUNIT_JSON=all_passed run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -eq 0 ]
	[[ "$output" != *"ncpus=2"* ]]
	[[ "$output" != *"um-smp.kunitconfig"* ]]
	mkdir -p "$K/arch/um"
	printf 'config SMP\n\tbool "Symmetric multi-processing support"\n' >"$K/arch/um/Kconfig"
	FAKE_KUNIT_JSON=all_passed run "$TOP/tools/kunit.sh" "$K"
	[ "$status" -eq 0 ]
	[[ "$output" == *"--kunitconfig=$TOP/kunit/um-smp.kunitconfig"* ]]
	[[ "$output" == *"--kernel_args ncpus=2 --kernel_args seccomp=on"* ]]
}

@test "make arches: an unknown architecture is one error line, nothing built" {
	ARCHES="i386 sparc" run "$TOP/tools/arches.sh" "$K"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "arches.sh: error: ARCHES: no KUnit run for 'sparc' (i386, arm64, x86_64, um)" ]]
	run ! test -d "$BSK_CACHE/build"
}
