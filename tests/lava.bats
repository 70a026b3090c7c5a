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
	unset KERNEL KERNEL_BASE BASE ARCH SERIES LAVA_ROWS LAVA_DEVICE_TYPE LAVA_KERNEL_URL
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

@test "the job's monitors find each case kunit.py found, with its result, in the console as a pty passes it" {
	run "$LAVA/bin/lava-python" - "$F" "$TOP/tools/lib" <<'EOF'
import re, sys
sys.path.insert(0, sys.argv[2])
import lava
F = sys.argv[1]
# a serial console through a pty: "\r\n" from the kernel, "\r\r\n" out
con = open(F + "/ktap.log").read().replace("\n", "\r\r\n")
mons = lava.monitors(F + "/results.json")
fix = lava.FIXUP
suites = lava.suites(F + "/results.json")
assert [m["name"] for m in mons] == [s for s, _, _ in suites], "one monitor per suite, in order"
n = skips = 0
pos = 0
for m, (suite, _, leaves) in zip(mons, suites):
    start = con.index(m["start"], pos)
    end = re.compile(m["end"], re.DOTALL).search(con, start)
    seg = con[start + len(m["start"]):end.start() + 1]
    got = sorted((lava.lava_case_id(x.group("test_case_id")), fix[x.group("result")])
                 for x in re.finditer(m["pattern"], seg, re.DOTALL))
    want = sorted((lava.lava_case_id(c), lava.KUNIT_TO_LAVA[st]) for c, st in leaves)
    assert got == want, (suite, set(got) ^ set(want))
    n += len(got)
    skips += sum(1 for _, r in got if r == "skip")
    pos = end.end()
print(n, skips)
EOF
	[ "$status" -eq 0 ]
	# all 60 cases; five need two LLCs and skip on one socket
	[ "$output" = "60 5" ]
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

@test "make lava: a line not in kunit/matrix, or a lab's device type without a kernel URL: one line, nothing runs" {
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
	run ! ls "$BSK_CACHE/runs"
}
