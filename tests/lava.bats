#!/usr/bin/env bats
# make lava: the LAVA jobs' validation (LAVA's own schema and lava-run
# --validate, Debian unstable's LAVA as tools/env/lava.sh unpacks it), the
# monitors' patterns on recorded KTAP, and the case-for-case comparison on
# a recorded lava-run log.  Fixtures (tests/fixtures/lava): the arm64
# machine with one socket of two clusters (kunit/matrix arm64-clusters),
# whose five cases that need two LLCs skip: its kunit.py KTAP log and
# --json, the job make lava wrote for it and lava-run's result lines.

load helper
bats_require_minimum_version 1.5.0

F=$TOP/tests/fixtures/lava

setup_file() {
	export BSK_CACHE=$BATS_FILE_TMPDIR/cache
	LAVA=$("$TOP/tools/env/lava.sh")
	export LAVA
}

setup() {
	# the file's LAVA, fetched once (common_setup would make a new cache)
	export GIT_CONFIG_GLOBAL=$BATS_TEST_TMPDIR/gitconfig
	unset KERNEL KERNEL_BASE BASE ARCH SERIES LAVA_ROWS LAVA_DEVICE_TYPE LAVA_KERNEL_URL LAVA_DTB_URL LAVA_BOOT_METHOD LAVA_BOOT_COMMANDS
	# the recorded job, its kernel here
	sed "s|url: 'file://.*'|url: 'file://$BATS_TEST_TMPDIR/Image.gz'|" "$F/job.yaml" >"$BATS_TEST_TMPDIR/job.yaml"
}

@test "a job without its kernel's URL fails LAVA's schema check with one line" {
	grep -v "url:" "$BATS_TEST_TMPDIR/job.yaml" >"$BATS_TEST_TMPDIR/broken.yaml"
	run "$TOP/tools/lava.sh" validate "$BATS_TEST_TMPDIR/broken.yaml"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"broken.yaml: required key not provided @ data['actions[0]']['deploy']['tmpfs']['images']['kernel']['url']"* ]]
}

@test "the job make lava wrote passes lava-run --validate on LAVA's QEMU device; without its kernel, one line" {
	# LAVA checks that the job's QEMU is installed
	command -v qemu-system-aarch64 >/dev/null || skip "no qemu-system-aarch64 (deps.sh check)"
	"$LAVA/bin/lava-python" "$TOP/tools/lib/lava.py" device "$BATS_TEST_TMPDIR/job.yaml" \
		"$LAVA/device-types" >"$BATS_TEST_TMPDIR/device.yaml"
	: >"$BATS_TEST_TMPDIR/Image.gz"
	run "$TOP/tools/lava.sh" validate "$BATS_TEST_TMPDIR/job.yaml" "$BATS_TEST_TMPDIR/device.yaml"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	rm "$BATS_TEST_TMPDIR/Image.gz"
	run "$TOP/tools/lava.sh" validate "$BATS_TEST_TMPDIR/job.yaml" "$BATS_TEST_TMPDIR/device.yaml"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"job.yaml: "*"$BATS_TEST_TMPDIR/Image.gz"* ]]
}

@test "LAVA's monitors on a recorded console (as a pty passes it) give each case kunit.py's result" {
	# replay: LAVA's loop (the earliest of a suite's end and a case, each
	# consumed), on the console of the fixture's kernel
	sed 's/$/\r\r/' "$F/ktap.log" >"$BATS_TEST_TMPDIR/console"
	"$LAVA/bin/lava-python" "$TOP/tools/lib/lava.py" replay "$BATS_TEST_TMPDIR/console" "$F/results.json" \
		>"$BATS_TEST_TMPDIR/replay.log"
	run "$LAVA/bin/lava-python" "$TOP/tools/lib/lava.py" compare "$BATS_TEST_TMPDIR/replay.log" "$F/results.json"
	[ "$status" -eq 0 ]
	[ "$output" = "60 agree, 0 differ" ]
	# five need two LLCs and skip on one socket
	[ "$(grep -c '"result": "skip"' "$BATS_TEST_TMPDIR/replay.log")" -eq 5 ]
	# with printk timestamps, and without KUnit's stats lines
	awk '{ printf "[%5d.%06d] %s\r\r\n", NR / 100, NR, $0 }' "$F/ktap.log" >"$BATS_TEST_TMPDIR/console"
	"$LAVA/bin/lava-python" "$TOP/tools/lib/lava.py" replay "$BATS_TEST_TMPDIR/console" "$F/results.json" \
		>"$BATS_TEST_TMPDIR/replay.log"
	run "$LAVA/bin/lava-python" "$TOP/tools/lib/lava.py" compare "$BATS_TEST_TMPDIR/replay.log" "$F/results.json"
	[ "$output" = "60 agree, 0 differ" ]
	grep -vE '# [A-Za-z_]+: pass:[0-9]+ fail:|# Totals:' "$F/ktap.log" >"$BATS_TEST_TMPDIR/console"
	"$LAVA/bin/lava-python" "$TOP/tools/lib/lava.py" replay "$BATS_TEST_TMPDIR/console" "$F/results.json" \
		>"$BATS_TEST_TMPDIR/replay.log"
	run "$LAVA/bin/lava-python" "$TOP/tools/lib/lava.py" compare "$BATS_TEST_TMPDIR/replay.log" "$F/results.json"
	[ "$output" = "60 agree, 0 differ" ]
}

@test "LAVA's monitors: an all-skipped parameterized case, '#' in a name, a one-case suite, a crash" {
	cat >"$BATS_TEST_TMPDIR/results.json" <<'EOF2'
{"name": "KUnit Test Group", "test_cases": [], "sub_groups": [
 {"name": "s", "test_cases": [{"name": "queue #2", "status": "PASS"}],
  "sub_groups": [{"name": "p", "sub_groups": [], "test_cases": [
    {"name": "a", "status": "SKIP"}, {"name": "b", "status": "SKIP"}]}]},
 {"name": "t", "test_cases": [{"name": "only", "status": "FAIL"}], "sub_groups": []},
 {"name": "u", "test_cases": [{"name": "x", "status": "PASS"}, {"name": "y", "status": "PASS"}], "sub_groups": []}]}
EOF2
	printf '%s\r\r\n' 'KTAP version 1' '1..3' '    KTAP version 1' '    # Subtest: s' '    1..2' \
		'        KTAP version 1' '        # Subtest: p' '        ok 1 a # SKIP no' '        ok 2 b # SKIP no' \
		'    ok 1 p # SKIP no' '    ok 2 queue #2' 'ok 1 s' \
		'    KTAP version 1' '    # Subtest: t' '    1..1' '    not ok 1 only' 'not ok 2 t' \
		'    KTAP version 1' '    # Subtest: u' '    1..2' '    ok 1 x' 'Kernel panic - not syncing: oops' \
		>"$BATS_TEST_TMPDIR/console"
	"$LAVA/bin/lava-python" "$TOP/tools/lib/lava.py" replay "$BATS_TEST_TMPDIR/console" \
		"$BATS_TEST_TMPDIR/results.json" >"$BATS_TEST_TMPDIR/replay.log"
	run "$LAVA/bin/lava-python" "$TOP/tools/lib/lava.py" compare "$BATS_TEST_TMPDIR/replay.log" \
		"$BATS_TEST_TMPDIR/results.json"
	[ "$status" -eq 1 ]
	# every case once: the summary of p is not one; after the panic, y is
	# missing, which the monitor's expected list makes a failure
	[ "${lines[-1]}" = "5 agree, 1 differ" ]
	[ "${lines[0]}" = "u.y: kunit.py pass, LAVA fail" ]
}

@test "LAVA's monitors on recorded runs: a failure with skips, a parameterized case whose every parameter skipped" {
	K=$TOP/tests/fixtures/kunit
	for f in "failure 58" "param_all_skipped 9"; do
		sed 's/$/\r\r/' "$K/${f% *}.log" >"$BATS_TEST_TMPDIR/console"
		"$LAVA/bin/lava-python" "$TOP/tools/lib/lava.py" replay "$BATS_TEST_TMPDIR/console" "$K/${f% *}.json" \
			>"$BATS_TEST_TMPDIR/replay.log"
		run "$LAVA/bin/lava-python" "$TOP/tools/lib/lava.py" compare "$BATS_TEST_TMPDIR/replay.log" "$K/${f% *}.json"
		[ "$output" = "${f#* } agree, 0 differ" ]
	done
}

@test "compare: each case's LAVA result against kunit.py's; a case that differs is named" {
	run "$LAVA/bin/lava-python" "$TOP/tools/lib/lava.py" compare "$F/lava-results.log" "$F/results.json"
	[ "$status" -eq 0 ]
	[ "$output" = "60 agree, 0 differ" ]
	sed 's/"result": "skip"/"result": "pass"/' "$F/lava-results.log" >"$BATS_TEST_TMPDIR/l.log"
	run "$LAVA/bin/lava-python" "$TOP/tools/lib/lava.py" compare "$BATS_TEST_TMPDIR/l.log" "$F/results.json"
	[ "$status" -eq 1 ]
	[ "${lines[-1]}" = "55 agree, 5 differ" ]
	[[ "$output" == *"blk_mq_complete.rq_affinity_1_other_llc: kunit.py skip, LAVA pass"* ]]
	grep -v '"rq_affinity_0_local"' "$F/lava-results.log" >"$BATS_TEST_TMPDIR/l.log"
	run "$LAVA/bin/lava-python" "$TOP/tools/lib/lava.py" compare "$BATS_TEST_TMPDIR/l.log" "$F/results.json"
	[ "$status" -eq 1 ]
	[[ "$output" == *"blk_mq_complete.rq_affinity_0_local: kunit.py pass, LAVA no result"* ]]
}

@test "jobs for a lab: LAVA's schema and the device type's boot method and command set" {
	# a tree whose qemu_configs give the QEMU parameters lava.py reads (as kunit.py's)
	mkdir -p "$BATS_TEST_TMPDIR/tree/tools/testing/kunit/qemu_configs"
	printf 'from collections import namedtuple\nQemuArchParams = namedtuple("P", "kernel_path kernel_command_line extra_qemu_params")\n' \
		>"$BATS_TEST_TMPDIR/tree/tools/testing/kunit/qemu_config.py"
	cat >"$BATS_TEST_TMPDIR/tree/tools/testing/kunit/qemu_configs/arm64.py" <<'EOF2'
from ..qemu_config import QemuArchParams
QEMU_ARCH = QemuArchParams(kernel_path="arch/arm64/boot/Image.gz", kernel_command_line="console=ttyAMA0",
                           extra_qemu_params=["-machine", "virt", "-cpu", "max"])
EOF2
	cp "$BATS_TEST_TMPDIR/tree/tools/testing/kunit/qemu_configs/arm64.py" "$BATS_TEST_TMPDIR/tree/tools/testing/kunit/qemu_configs/x86_64.py"
	lab() { # DEVICE_TYPE ARCH METHOD COMMANDS DTB_URL
		"$LAVA/bin/lava-python" "$TOP/tools/lib/lava.py" job "$F/results.json" "$BATS_TEST_TMPDIR/tree" \
			board "$2" none https://files.example.org/Image.gz "$1" "$3" "$5" "$4" >"$BATS_TEST_TMPDIR/$1.yaml"
		"$TOP/tools/lava.sh" validate "$BATS_TEST_TMPDIR/$1.yaml" &&
			"$LAVA/bin/lava-python" "$TOP/tools/lib/lava.py" board "$BATS_TEST_TMPDIR/$1.yaml" "$LAVA/device-types"
	}
	run lab rk3399-rock-pi-4b arm64 "" "" https://files.example.org/rk3399-rock-pi-4b.dtb
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	grep -q "compression: gz" "$BATS_TEST_TMPDIR/rk3399-rock-pi-4b.yaml"
	run lab x86 x86_64 "" "" ""
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# Juno's u-boot has no plain 'ramdisk' command set: named, with its own
	run lab juno-uboot arm64 "" "" https://files.example.org/juno-r2.dtb
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"device type juno-uboot has no 'ramdisk' command set for u-boot (LAVA_BOOT_COMMANDS: "*"ramdisk-tftp"* ]]
	run lab x86 x86_64 u-boot "" ""
	[ "$status" -eq 1 ]
	[[ "$output" == *"device type x86 boots with "*"ipxe"*", not u-boot (LAVA_BOOT_METHOD)"* ]]
}

@test "make lava: a line not in kunit/matrix, or a lab's device type without its inputs: one line, nothing runs" {
	LAVA_ROWS="x86_64 riscv64" run "$TOP/tools/lava.sh"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"LAVA_ROWS: no line 'riscv64' in kunit/matrix (x86_64, i386, arm64, arm64-clusters)"* ]]
	LAVA_ROWS=i386 run "$TOP/tools/lava.sh"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	LAVA_DEVICE_TYPE=juno-uboot run "$TOP/tools/lava.sh"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"LAVA_DEVICE_TYPE=juno-uboot: set LAVA_KERNEL_URL"* ]]
	LAVA_DEVICE_TYPE=juno-uboot LAVA_KERNEL_URL=https://files.example.org/Image run "$TOP/tools/lava.sh"
	[ "$status" -ne 0 ]
	[[ "$output" == *"set LAVA_ROWS"* ]]
	LAVA_ROWS=arm64 LAVA_DEVICE_TYPE=juno-uboot LAVA_KERNEL_URL=https://files.example.org/Image run "$TOP/tools/lava.sh"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"needs its device tree: set LAVA_DTB_URL"* ]]
	run ! ls "$BSK_CACHE/runs"
}
