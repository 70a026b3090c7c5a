#!/usr/bin/env bats
# mutate.sh on a fake kernel tree with a fake kunit.sh: killed, SURVIVED,
# BROKEN (does not build: not a kill), NOREPORT (no case reported: not a
# kill either), equivalent, open and unreached are told apart, and the
# mutated file is restored after every mutant.

load helper

setup() {
	common_setup
	K=$BATS_TEST_TMPDIR/linux
	fake_kernel "$K"
	# A BSK_TOP whose tools/kunit.sh is fake: it fails to build when the file
	# says BROKEN; otherwise it puts a recorded run's results.json
	# (tests/fixtures/kunit) in KUNIT_OUT: failure when the file says KILL,
	# no_results (a boot that hung) for HANG, all_passed otherwise.
	F=$BATS_TEST_TMPDIR/top
	mkdir -p "$F/tools"
	cat >"$F/tools/kunit.sh" <<'EOS'
#!/bin/sh
f=$1/block/bfq-iosched.c
if grep -q BROKEN "$f"; then echo "kunit.py build failed" >&2; exit 1; fi
if [ "${KUNIT_BUILD_ONLY:-0}" != 0 ]; then echo built; exit 0; fi
mkdir -p "$KUNIT_OUT"
r=all_passed
grep -q KILL "$f" && r=failure
grep -q HANG "$f" && r=no_results
cp "$TOP/tests/fixtures/kunit/$r.json" "$KUNIT_OUT/results.json"
[ $r = all_passed ] || { echo "0 passed, 1 failed"; exit 1; }
EOS
	chmod +x "$F/tools/kunit.sh"
	L=$BATS_TEST_TMPDIR/list.tsv
}

@test "mutate: killed, survived, broken and equivalent are counted apart" {
	printf '# a comment\n' >"$L"
	printf 'a kill\tblock/bfq-iosched.c\ts/^line 1$/KILL/\n' >>"$L"
	printf 'a survivor\tblock/bfq-iosched.c\ts/^line 2$/line two/\n' >>"$L"
	printf 'a broken one\tblock/bfq-iosched.c\ts/^line 3$/BROKEN KILL/\n' >>"$L"
	printf 'an equivalent\tblock/bfq-iosched.c\ts/^line 4$/line four/\tequivalent: same\n' >>"$L"
	BSK_TOP=$F run "$TOP/tools/mutate.sh" "$L" "$K"
	[ "$status" -eq 1 ]
	[[ "${lines[0]}" == "killed      a kill (53 passed, 1 failed)" ]]
	[[ "${lines[1]}" == "SURVIVED    a survivor (25 passed, 0 failed)" ]]
	[[ "${lines[2]}" == "BROKEN      a broken one (does not build)" ]]
	[[ "${lines[3]}" == "equivalent  an equivalent (25 passed; same)" ]]
	[ "${lines[4]}" = "list.tsv: 1 killed, 1 survived, 1 broken, 0 no report, 1 equivalent, 0 open, 0 unreached" ]
	# every mutant was undone
	run git -C "$K" status --porcelain
	[ -z "$output" ]
}

@test "mutate: only kills and equivalents: success" {
	printf 'a kill\tblock/bfq-iosched.c\ts/^line 1$/KILL/\n' >"$L"
	printf 'an equivalent\tblock/bfq-iosched.c\ts/^line 4$/x/\tequivalent: same\n' >>"$L"
	BSK_TOP=$F run "$TOP/tools/mutate.sh" "$L" "$K"
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "list.tsv: 1 killed, 0 survived, 0 broken, 0 no report, 1 equivalent, 0 open, 0 unreached" ]
}

@test "mutate: a mutant that builds but reports no case is not a kill" {
	printf 'a hang\tblock/bfq-iosched.c\ts/^line 1$/HANG KILL/\n' >"$L"
	BSK_TOP=$F run "$TOP/tools/mutate.sh" "$L" "$K"
	[ "$status" -eq 1 ]
	[[ "${lines[0]}" == "NOREPORT    a hang (no case reported; see "*".log)" ]]
	[ "${lines[1]}" = "list.tsv: 0 killed, 0 survived, 0 broken, 1 no report, 0 equivalent, 0 open, 0 unreached" ]
}

@test "mutate: open and unreached survivors are counted apart, and pass" {
	printf 'a question\tblock/bfq-iosched.c\ts/^line 1$/x/\topen: asked\n' >"$L"
	printf 'no machine\tblock/bfq-iosched.c\ts/^line 2$/y/\tunreached: big.LITTLE\n' >>"$L"
	BSK_TOP=$F run "$TOP/tools/mutate.sh" "$L" "$K"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "open        a question (25 passed; asked)" ]]
	[[ "${lines[1]}" == "unreached   no machine (25 passed; big.LITTLE)" ]]
	[ "${lines[2]}" = "list.tsv: 0 killed, 0 survived, 0 broken, 0 no report, 0 equivalent, 1 open, 1 unreached" ]
}

@test "mutate: an expression that changes nothing is a failure, not a kill" {
	printf 'no match\tblock/bfq-iosched.c\ts/^nothing here$/KILL/\n' >"$L"
	BSK_TOP=$F run "$TOP/tools/mutate.sh" "$L" "$K"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "NOMATCH     no match" ]
	[ "${lines[-1]}" = "list.tsv: 0 killed, 0 survived, 0 broken, 0 no report, 0 equivalent, 0 open, 0 unreached, 1 not matched, 0 no file" ]
}

@test "mutate: the file is restored when the run is interrupted" {
	cat >"$F/tools/kunit.sh" <<'EOS'
#!/bin/sh
# the test run (not the build) is where Ctrl-C or a CI timeout lands
[ "${KUNIT_BUILD_ONLY:-0}" != 0 ] || pkill -TERM -f "tools/mutate.sh $MUTATE_LIST"
sleep 1
echo "2 passed, 0 failed"
EOS
	printf 'a kill\tblock/bfq-iosched.c\ts/^line 1$/KILL/\n' >"$L"
	MUTATE_LIST=$L BSK_TOP=$F run "$TOP/tools/mutate.sh" "$L" "$K"
	[ "$status" -eq 130 ]
	run git -C "$K" status --porcelain
	[ -z "$output" ]
}
