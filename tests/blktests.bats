#!/usr/bin/env bats
# blktests.sh: bad input gets one error line before anything is fetched
# or built; tools/lib/blktests.awk reads blktests' output as recorded;
# tools/env/fio.sh takes a fio new enough before it builds one.

load helper
bats_require_minimum_version 1.5.0

setup() {
	common_setup
	AWK=$TOP/tools/lib/blktests.awk
	FIX=$TOP/tests/fixtures/blktests
}

@test "blktests: unknown kernel, one error line" {
	run "$TOP/tools/blktests.sh" tipp
	[ "$status" -eq 1 ]
	[ "$output" = "blktests.sh: error: usage: blktests.sh [base|series|rfc|tip...] (not 'tipp')" ]
}

@test "blktests: BLKTESTS that is not a blktests tree, one line, the directory untouched" {
	d=$BATS_TEST_TMPDIR/notblktests
	mkdir -p "$d"
	echo keep >"$d/file"
	BLKTESTS=$d run "$TOP/tools/blktests.sh"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[ "$output" = "blktests.sh: error: BLKTESTS=$d is not a blktests tree (no check script and tests/block there)" ]
	[ "$(ls "$d")" = file ]
	[ "$(cat "$d/file")" = keep ]
}

@test "blktests: BLKTESTS_TIMEOUT, BLKTESTS_BOOT_LIMIT and BLKTESTS_TESTS are checked first" {
	d=$BATS_TEST_TMPDIR/bt
	mkdir -p "$d/tests/block"
	printf '#!/bin/sh\n' >"$d/check"
	chmod +x "$d/check"
	BLKTESTS=$d BLKTESTS_TIMEOUT=0 run "$TOP/tools/blktests.sh"
	[ "$status" -eq 1 ]
	[ "$output" = "blktests.sh: error: BLKTESTS_TIMEOUT=0 is not a positive number of seconds" ]
	BLKTESTS=$d BLKTESTS_BOOT_LIMIT=2 run "$TOP/tools/blktests.sh"
	[ "$status" -eq 1 ]
	[ "$output" = "blktests.sh: error: BLKTESTS_BOOT_LIMIT=2 is not a number of seconds from 5 to 999999" ]
	BLKTESTS=$d BLKTESTS_BOOT_LIMIT=99999999999999999999 run "$TOP/tools/blktests.sh"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	BLKTESTS=$d BLKTESTS_TESTS="block/999" run "$TOP/tools/blktests.sh"
	[ "$status" -eq 1 ]
	[ "$output" = "blktests.sh: error: BLKTESTS_TESTS: no test or group 'block/999' in $d/tests" ]
}

# The fixtures are blktests' own output, as tools/vm/blktests.sh recorded
# it: nvme-7.3.4.txt a whole run of the block group on the 7.3.4 base
# (2026-12-04, 2 CPUs), virtio-blk-cut-off.txt a run that hung in
# block/011 and was killed.

@test "blktests.awk: counts a recorded run as blktests printed it" {
	f=$FIX/nvme-7.3.4.txt
	run awk -v names=base -v what=counts -f "$AWK" "$f"
	[ "$status" -eq 0 ]
	p=$(grep -cE '\[passed\]$' "$f")
	x=$(grep -cE '\[failed\]$' "$f")
	s=$(grep -cE '\[not run\]$' "$f")
	[ "$output" = "base passed $p failed $x notrun $s absent 0 finished 1" ]
	[ "$x" -gt 0 ] && [ "$s" -gt 0 ]
}

@test "blktests.awk: the reasons are blktests' lines, the changed lines of a failure's diff" {
	run awk -v names="base series" -v what=table -f "$AWK" "$FIX/nvme-7.3.4.txt" "$FIX/nvme-7.3.4.txt"
	[ "$status" -eq 0 ]
	[[ "$output" == *"| block/041 => nvme0n1 | io_uring read with PI metadata buffer on block device | not run | not run | fio version is older than 3.40.0 |"* ]]
	[[ "$output" == *"| block/024 | do I/O faster than a jiffy and check iostats times | failed | failed | -write 3 s; +write 4 s |"* ]]
	# a stats line ("runtime ... 5.364s") is not a reason
	run grep -c 'runtime' <<<"$output"
	[ "$output" = 0 ]
}

@test "blktests.awk: a test passed on base and failed on series is named; the same run twice names none" {
	run awk -v names="base series" -v what=new -f "$AWK" "$FIX/nvme-7.3.4.txt" "$FIX/nvme-7.3.4.txt"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# block/047 as a failure on the series, the way check prints one
	sed '/^block\/047 .*\[passed\]$/{s/\[passed\]$/[failed]/;a\
    exited with status 1
}' "$FIX/nvme-7.3.4.txt" >"$BATS_TEST_TMPDIR/series.txt"
	run awk -v names="base series" -v what=new -f "$AWK" "$FIX/nvme-7.3.4.txt" "$BATS_TEST_TMPDIR/series.txt"
	[ "$status" -eq 0 ]
	[ "$output" = "block/047: passed -> failed (exited with status 1)" ]
}

@test "blktests.awk: a run cut off is said to be, and the tests after it are absent" {
	exp=$(printf 'block/%03d ' 1 2 3 4 5 6 7 8 9 10 11 12)
	run awk -v names=base -v expect="$exp" -v what=counts -f "$AWK" "$FIX/virtio-blk-cut-off.txt"
	[ "$status" -eq 0 ]
	[ "$output" = "base passed 10 failed 0 notrun 0 absent 2 finished 0" ]
	run awk -v names=base -v expect="$exp" -v what=table -f "$AWK" "$FIX/virtio-blk-cut-off.txt"
	# one kernel: one column
	[[ "$output" == *"| block/011 |  | absent |  |"* ]]
	[[ "$output" == *'base: 10 passed, 0 failed, 0 not run, 2 absent (cut off: no "blktests: exit" line)'* ]]
}

@test "blktests.awk: a test passed on base and absent or skipped on series is named too" {
	grep -v '^block/047 ' "$FIX/nvme-7.3.4.txt" >"$BATS_TEST_TMPDIR/series.txt"
	exp=$(printf 'block/%03d ' 45 46 47)
	run awk -v names="base series" -v expect="$exp" -v what=new -f "$AWK" "$FIX/nvme-7.3.4.txt" "$BATS_TEST_TMPDIR/series.txt"
	[ "$status" -eq 0 ]
	[ "$output" = "block/047: passed -> absent ()" ]
	sed 's/^\(block\/046 .*\)\[passed\]$/\1[not run]/' "$FIX/nvme-7.3.4.txt" >"$BATS_TEST_TMPDIR/series.txt"
	run awk -v names="base series" -v expect="$exp" -v what=new -f "$AWK" "$FIX/nvme-7.3.4.txt" "$BATS_TEST_TMPDIR/series.txt"
	[ "$output" = "block/046: passed -> not run ()" ]
}

# fake_fio DIR VERSION: a fio on DIR that prints "fio-VERSION"
fake_fio() {
	mkdir -p "$1"
	printf '#!/bin/sh\necho fio-%s\n' "$2" >"$1/fio"
	chmod +x "$1/fio"
}

@test "fio.sh: an installed fio 3.40 or later is used as it is, alone in the directory printed" {
	for v in 3.41 3.40 4.0; do
		fake_fio "$BATS_TEST_TMPDIR/bin" "$v"
		PATH=$BATS_TEST_TMPDIR/bin:$PATH run "$TOP/tools/env/fio.sh"
		[ "$status" -eq 0 ]
		[ "$output" = "$BSK_CACHE/fio/bin" ]
		[ "$(ls "$BSK_CACHE/fio/bin")" = fio ]
		[ "$(readlink -f "$BSK_CACHE/fio/bin/fio")" = "$(readlink -f "$BATS_TEST_TMPDIR/bin/fio")" ]
		run ! test -e "$BSK_CACHE/fio/src"
	done
}

@test "fio.sh: 3.4, 3.9 and 3.33 are older than 3.40" {
	# a PATH of fio and the tools fio.sh needs, without apt-get: it stops
	for v in 3.4 3.9 3.33; do
		fake_fio "$BATS_TEST_TMPDIR/bin" "$v"
		for t in bash dirname sort head cat mkdir; do ln -sf "$(command -v $t)" "$BATS_TEST_TMPDIR/bin/$t"; done
		PATH=$BATS_TEST_TMPDIR/bin run "$BATS_TEST_TMPDIR/bin/bash" "$TOP/tools/env/fio.sh"
		[ "$status" -eq 1 ]
		[[ "$output" == *"(installed: fio-$v)"* ]]
	done
}

@test "fio.sh: a fio built before in the cache is taken, not built again" {
	fake_fio "$BATS_TEST_TMPDIR/bin" 3.33
	fake_fio "$BSK_CACHE/fio/src" 3.41-12-gabcdef0
	PATH=$BATS_TEST_TMPDIR/bin:$PATH run "$TOP/tools/env/fio.sh"
	[ "$status" -eq 0 ]
	[ "$output" = "$BSK_CACHE/fio/src" ]
}

@test "fio.sh: an older fio and no apt-get to fetch the source, one line" {
	fake_fio "$BATS_TEST_TMPDIR/bin" 3.33
	# a PATH of this directory's tools only, without apt-get
	for t in bash dirname sort head cat mkdir; do ln -s "$(command -v $t)" "$BATS_TEST_TMPDIR/bin/$t"; done
	PATH=$BATS_TEST_TMPDIR/bin run "$BATS_TEST_TMPDIR/bin/bash" "$TOP/tools/env/fio.sh"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[ "$output" = "fio.sh: error: fio 3.40 or later is needed for block/041 (installed: fio-3.33), and there is no apt-get here to fetch its source: install fio 3.40 or later" ]
	run ! test -e "$BSK_CACHE/fio"
}
