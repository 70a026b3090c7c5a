#!/usr/bin/env bats
# make lava: the LAVA jobs' validation (LAVA's own schema and lava-run
# --validate, Debian unstable's LAVA as tools/env/lava.sh unpacks it), the
# monitors run by lava-run on recorded KTAP (a fake QEMU prints it), and the
# case-for-case comparison on a recorded lava-run log.  Fixtures
# (tests/fixtures/lava): the arm64 machine with one socket of two clusters
# (kunit/matrix arm64-clusters), whose five cases that need two LLCs skip:
# its kunit.py KTAP log and --json, the job make lava wrote for it and
# lava-run's result lines.

load helper
bats_require_minimum_version 1.5.0

F=$TOP/tests/fixtures/lava

setup_file() {
	export BSK_CACHE=$BATS_FILE_TMPDIR/cache
	LAVA=$("$TOP/tools/env/lava.sh")
	# a tree whose qemu_configs give the QEMU parameters lava.py reads (as kunit.py's)
	export TREE=$BATS_FILE_TMPDIR/tree LAVA
	mkdir -p "$TREE/tools/testing/kunit/qemu_configs"
	printf 'from collections import namedtuple\nQemuArchParams = namedtuple("P", "kernel_path kernel_command_line extra_qemu_params")\n' \
		>"$TREE/tools/testing/kunit/qemu_config.py"
	cat >"$TREE/tools/testing/kunit/qemu_configs/arm64.py" <<'EOF2'
from ..qemu_config import QemuArchParams
QEMU_ARCH = QemuArchParams(kernel_path="arch/arm64/boot/Image.gz", kernel_command_line="console=ttyAMA0",
                           extra_qemu_params=["-machine", "virt", "-cpu", "max"])
EOF2
	cp "$TREE/tools/testing/kunit/qemu_configs/arm64.py" "$TREE/tools/testing/kunit/qemu_configs/x86_64.py"
}

py() { "$LAVA/bin/lava-python" "$TOP/tools/lib/lava.py" "$@"; }

# job RESULTS_JSON: the job make lava writes for that kunit.py run of the
# arm64-clusters line, its kernel $BATS_TEST_TMPDIR/Image.gz
job() {
	py job "$1" "$TREE" arm64-clusters arm64 4,sockets=1,clusters=2,cores=2 "file://$BATS_TEST_TMPDIR/Image.gz"
}

# fake_qemu CONSOLE: $BATS_TEST_TMPDIR/bin/qemu-system-*, which print CONSOLE
# (LAVA runs them in a pty, which adds a \r to each line, as with QEMU)
fake_qemu() {
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	cat >"$BATS_TEST_TMPDIR/bin/qemu-system-aarch64" <<EOF2
#!/bin/sh
[ "\$1" != --version ] || exec echo QEMU emulator version 9.9.9
exec cat '$1'
EOF2
	chmod +x "$BATS_TEST_TMPDIR/bin/qemu-system-aarch64"
	# the names LAVA runs, and checks the version of without a Debian QEMU
	for q in x86_64 arm64; do ln -sf qemu-system-aarch64 "$BATS_TEST_TMPDIR/bin/qemu-system-$q"; done
}

# lava_run RESULTS_JSON CONSOLE: lava-run runs the job of RESULTS_JSON on
# LAVA's QEMU device, its QEMU printing CONSOLE; lava-run's log to
# lava.log, then compare's output and status as bats' run gives them
lava_run() {
	local d=$BATS_TEST_TMPDIR
	fake_qemu "$2"
	job "$1" >"$d/run.yaml"
	: >"$d/Image.gz"
	py device "$d/run.yaml" "$LAVA/device-types" >"$d/run-device.yaml"
	printf 'dispatcher_download_dir: %s/dl\n' "$d" >"$d/dispatcher.yaml"
	PATH=$d/bin:$PATH "$LAVA/bin/lava-run" --job-id t --output-dir "$d/out" --dispatcher "$d/dispatcher.yaml" \
		--device "$d/run-device.yaml" "$d/run.yaml" >"$d/lava.log" 2>&1 || true
	run py compare "$d/lava.log" "$1"
}

setup() {
	# the file's LAVA, fetched once (common_setup would make a new cache)
	export GIT_CONFIG_GLOBAL=$BATS_TEST_TMPDIR/gitconfig
	unset KERNEL KERNEL_BASE BASE ARCH SERIES KUNIT_DEBUG LAVA_ROWS LAVA_DEVICE_TYPE LAVA_KERNEL_URL LAVA_DTB_URL LAVA_BOOT_METHOD LAVA_BOOT_COMMANDS
	# the job lava.py writes for the recorded run, its kernel here
	job "$F/results.json" >"$BATS_TEST_TMPDIR/job.yaml"
}

@test "a job without its kernel's URL fails LAVA's schema check with one line" {
	grep -v "url:" "$BATS_TEST_TMPDIR/job.yaml" >"$BATS_TEST_TMPDIR/broken.yaml"
	run "$TOP/tools/lava.sh" validate "$BATS_TEST_TMPDIR/broken.yaml"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"broken.yaml: required key not provided @ data['actions[0]']['deploy']['tmpfs']['images']['kernel']['url']"* ]]
}

@test "lava.py writes the job make lava ran; it passes lava-run --validate on LAVA's QEMU device; without its kernel, one line" {
	# as YAML, the recorded job with its kernel here
	sed "s|url: 'file://.*'|url: 'file://$BATS_TEST_TMPDIR/Image.gz'|" "$F/job.yaml" >"$BATS_TEST_TMPDIR/recorded.yaml"
	"$LAVA/bin/lava-python" -c 'import sys, yaml; sys.exit(yaml.safe_load(open(sys.argv[1])) != yaml.safe_load(open(sys.argv[2])))' \
		"$BATS_TEST_TMPDIR/job.yaml" "$BATS_TEST_TMPDIR/recorded.yaml"
	# LAVA checks that the job's QEMU is installed
	command -v qemu-system-aarch64 >/dev/null || skip "no qemu-system-aarch64 (deps.sh check)"
	py device "$BATS_TEST_TMPDIR/job.yaml" "$LAVA/device-types" >"$BATS_TEST_TMPDIR/device.yaml"
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

@test "lava-run's monitors on a recorded console give each case kunit.py's result" {
	# the fixture's kernel's console, its \r\n as QEMU's serial port sends it
	sed 's/$/\r/' "$F/ktap.log" >"$BATS_TEST_TMPDIR/console"
	lava_run "$F/results.json" "$BATS_TEST_TMPDIR/console"
	[ "$status" -eq 0 ]
	[ "$output" = "60 agree, 0 differ" ]
	# five need two LLCs and skip on one socket
	[ "$(grep -c '"result": "skip"' "$BATS_TEST_TMPDIR/lava.log")" -eq 5 ]
	# with printk timestamps, and without KUnit's stats lines
	awk '{ printf "[%5d.%06d] %s\r\n", NR / 100, NR, $0 }' "$F/ktap.log" >"$BATS_TEST_TMPDIR/console"
	lava_run "$F/results.json" "$BATS_TEST_TMPDIR/console"
	[ "$output" = "60 agree, 0 differ" ]
	grep -vE '# [A-Za-z_]+: pass:[0-9]+ fail:|# Totals:' "$F/ktap.log" >"$BATS_TEST_TMPDIR/console"
	lava_run "$F/results.json" "$BATS_TEST_TMPDIR/console"
	[ "$output" = "60 agree, 0 differ" ]
}

@test "lava-run's monitors: an all-skipped parameterized case, '#' in a name, a one-case suite, a crash" {
	cat >"$BATS_TEST_TMPDIR/results.json" <<'EOF2'
{"name": "KUnit Test Group", "test_cases": [], "sub_groups": [
 {"name": "s", "test_cases": [{"name": "queue #2", "status": "PASS"}],
  "sub_groups": [{"name": "p", "sub_groups": [], "test_cases": [
    {"name": "a", "status": "SKIP"}, {"name": "b", "status": "SKIP"}]}]},
 {"name": "t", "test_cases": [{"name": "only", "status": "FAIL"}], "sub_groups": []},
 {"name": "u", "test_cases": [{"name": "x", "status": "PASS"}, {"name": "y", "status": "PASS"}], "sub_groups": []}]}
EOF2
	printf '%s\r\n' 'KTAP version 1' '1..3' '    KTAP version 1' '    # Subtest: s' '    1..2' \
		'        KTAP version 1' '        # Subtest: p' '        ok 1 a # SKIP no' '        ok 2 b # SKIP no' \
		'    ok 1 p # SKIP no' '    ok 2 queue #2' 'ok 1 s' \
		'    KTAP version 1' '    # Subtest: t' '    1..1' '    not ok 1 only' 'not ok 2 t' \
		'    KTAP version 1' '    # Subtest: u' '    1..2' '    ok 1 x' 'Kernel panic - not syncing: oops' \
		>"$BATS_TEST_TMPDIR/console"
	lava_run "$BATS_TEST_TMPDIR/results.json" "$BATS_TEST_TMPDIR/console"
	[ "$status" -eq 1 ]
	# every case once: the summary of p is not one; after the panic, y is
	# missing, which the monitor's expected list makes a failure
	[ "${lines[-1]}" = "5 agree, 1 differ" ]
	[ "${lines[0]}" = "u.y: kunit.py pass, LAVA fail" ]
}

@test "lava-run's monitors on recorded runs: a failure with skips, a parameterized case whose every parameter skipped" {
	K=$TOP/tests/fixtures/kunit
	for f in "failure 58" "param_all_skipped 9"; do
		sed 's/$/\r/' "$K/${f% *}.log" >"$BATS_TEST_TMPDIR/console"
		lava_run "$K/${f% *}.json" "$BATS_TEST_TMPDIR/console"
		[ "$output" = "${f#* } agree, 0 differ" ]
	done
}

@test "compare: each case's LAVA result against kunit.py's; a case that differs is named" {
	run py compare "$F/lava-results.log" "$F/results.json"
	[ "$status" -eq 0 ]
	[ "$output" = "60 agree, 0 differ" ]
	sed 's/"result": "skip"/"result": "pass"/' "$F/lava-results.log" >"$BATS_TEST_TMPDIR/l.log"
	run py compare "$BATS_TEST_TMPDIR/l.log" "$F/results.json"
	[ "$status" -eq 1 ]
	[ "${lines[-1]}" = "55 agree, 5 differ" ]
	[[ "$output" == *"blk_mq_complete.rq_affinity_1_other_llc: kunit.py skip, LAVA pass"* ]]
	grep -v '"rq_affinity_0_local"' "$F/lava-results.log" >"$BATS_TEST_TMPDIR/l.log"
	run py compare "$BATS_TEST_TMPDIR/l.log" "$F/results.json"
	[ "$status" -eq 1 ]
	[[ "$output" == *"blk_mq_complete.rq_affinity_0_local: kunit.py pass, LAVA no result"* ]]
}

@test "jobs for a lab: LAVA's schema and the device type's boot method and command set" {
	lab() { # DEVICE_TYPE ARCH METHOD COMMANDS DTB_URL
		py job "$F/results.json" "$TREE" board "$2" none https://files.example.org/Image.gz "$1" "$3" "$5" "$4" \
			>"$BATS_TEST_TMPDIR/$1.yaml"
		"$TOP/tools/lava.sh" validate "$BATS_TEST_TMPDIR/$1.yaml" && py board "$BATS_TEST_TMPDIR/$1.yaml" "$LAVA/device-types"
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

@test "make lava on a recorded run (kunit.sh and QEMU faked): jobs validated, run and compared; the summary" {
	# a copy of tools/ whose kunit.sh gives the recorded run's results and a kernel
	T=$BATS_TEST_TMPDIR/top
	mkdir -p "$T/kunit" "$BATS_TEST_TMPDIR/cache"
	cp -r "$TOP/tools" "$T/"
	cp "$TOP/kunit/matrix" "$T/kunit/"
	cat >"$T/tools/kunit.sh" <<EOF2
#!/bin/sh
mkdir -p "\$KUNIT_OUT/build/arch/arm64/boot"
: >"\$KUNIT_OUT/build/arch/arm64/boot/Image.gz"
cp '$F/results.json' "\$KUNIT_OUT/results.json"
echo "55 0 5" >"\$BSK_COUNTS"
EOF2
	cp -r "$TREE" "$BATS_TEST_TMPDIR/tree"
	git -C "$BATS_TEST_TMPDIR/tree" init -q
	git -C "$BATS_TEST_TMPDIR/tree" add -A
	git -C "$BATS_TEST_TMPDIR/tree" -c user.name=t -c user.email=t@t commit -qm t
	# this test's runs, the file's LAVA
	export BSK_CACHE=$BATS_TEST_TMPDIR/cache
	ln -s "$LAVA" "$BSK_CACHE/lava"
	sed 's/$/\r/' "$F/ktap.log" >"$BATS_TEST_TMPDIR/console"
	fake_qemu "$BATS_TEST_TMPDIR/console"
	PATH=$BATS_TEST_TMPDIR/bin:$PATH BSK_TOP=$T run "$T/tools/lava.sh" "$BATS_TEST_TMPDIR/tree"
	[ "$status" -eq 0 ]
	[[ "$output" == *"PASS  arm64: kunit.py: 55 passed, 5 skipped"* ]]
	[[ "${lines[-1]}" == *" passed, 0 failed, "* ]]
	for r in x86_64 arm64 arm64-clusters; do
		[[ "$output" == *"PASS  $r: lava-run gives every case kunit.py's result: 60 agree, 0 differ"* ]]
	done
	runs=("$BSK_CACHE"/runs/*-lava)
	[ "${#runs[@]}" -eq 2 ]
	[ -f "${runs[0]}/arm64/Image.gz" ]
	[ "$(py compare "${runs[0]}/arm64-clusters-lava.log" "${runs[0]}/arm64-clusters/kunit-results.json")" = "60 agree, 0 differ" ]
	grep -qF "| \`arm64-clusters\` | \`-smp 4,sockets=1,clusters=2,cores=2\` | 55 | 0 | 5 | 60 agree, 0 differ |" "${runs[1]}/summary.md"
	# a kernel that stops half-way: LAVA's results differ, make lava fails
	head -n 160 "$F/ktap.log" | sed 's/$/\r/' >"$BATS_TEST_TMPDIR/console"
	LAVA_ROWS=arm64-clusters PATH=$BATS_TEST_TMPDIR/bin:$PATH BSK_TOP=$T run "$T/tools/lava.sh" "$BATS_TEST_TMPDIR/tree"
	[ "$status" -ne 0 ]
	[[ "$output" == *"FAIL  arm64-clusters: lava-run gives every case kunit.py's result: "*" differ"* ]]
}

# hwbench_job DEVICE_TYPE BOOT_METHOD DISK: lava/hwbench-job.yaml filled in as docs/lava.md's table says
hwbench_job() {
	sed -e "s|@DEVICE_TYPE@|$1|" -e 's|@KERNEL@|rfc|' -e 's|@KERNEL_URL@|https://lab.invalid/rfc/kernel|' \
		-e 's|@KERNEL_TYPE@|image|' -e 's|@ROOTFS_URL@|https://lab.invalid/rootfs.tar.xz|' -e "s|@BOOT_METHOD@|$2|" \
		-e 's|@REPO_URL@|https://git.invalid/blk-sched-kunit.git|' -e 's|@REPO_BRANCH@|main|' -e "s|@DISK@|$3|" \
		-e 's|@DESTROY@|1|' "$TOP/lava/hwbench-job.yaml"
}

@test "make hwbench's job template, filled in for an x86 PC and an RK3399 board, passes LAVA's schema and their device types' boot methods" {
	hwbench_job x86 ipxe /dev/sdb >"$BATS_TEST_TMPDIR/x86.yaml"
	hwbench_job rk3399-rock-pi-4b u-boot /dev/mmcblk0 >"$BATS_TEST_TMPDIR/rk3399.yaml"
	for j in x86 rk3399; do
		run ! grep -q '@[A-Z_]*@' "$BATS_TEST_TMPDIR/$j.yaml"
		run "$TOP/tools/lava.sh" validate "$BATS_TEST_TMPDIR/$j.yaml"
		[ "$status" -eq 0 ]
		run py board "$BATS_TEST_TMPDIR/$j.yaml" "$LAVA/device-types"
		[ "$status" -eq 0 ]
	done
	# bzImage is not a type LAVA takes (iPXE does not read it)
	sed 's|type: "image"|type: "bzimage"|' "$BATS_TEST_TMPDIR/x86.yaml" >"$BATS_TEST_TMPDIR/bad.yaml"
	run ! "$TOP/tools/lava.sh" validate "$BATS_TEST_TMPDIR/bad.yaml"
	# x86 boots with iPXE only
	hwbench_job x86 grub /dev/sdb >"$BATS_TEST_TMPDIR/grub.yaml"
	run ! py board "$BATS_TEST_TMPDIR/grub.yaml" "$LAVA/device-types"
}
