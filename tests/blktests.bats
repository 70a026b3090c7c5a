#!/usr/bin/env bats
# blktests.sh: bad input gets one error line before anything is fetched
# or built; tools/env/blktests-tree.sh copies blktests and applies
# patches/blktests/series, and lint-series.sh takes that as a series of its
# own; tools/lib/blktests.awk reads a recorded run (result files, console);
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

@test "blktests: BLKTESTS_TIMEOUT, BLKTESTS_SCHEDULER, BLKTESTS_BOOT_LIMIT and BLKTESTS_TESTS are checked first" {
	d=$BATS_TEST_TMPDIR/bt
	mkdir -p "$d/tests/block"
	printf '#!/bin/sh\n' >"$d/check"
	chmod +x "$d/check"
	BLKTESTS=$d BLKTESTS_TIMEOUT=0 run "$TOP/tools/blktests.sh"
	[ "$status" -eq 1 ]
	[ "$output" = "blktests.sh: error: BLKTESTS_TIMEOUT=0 is not a positive number of seconds" ]
	BLKTESTS=$d BLKTESTS_SCHEDULER=deadline run "$TOP/tools/blktests.sh"
	[ "$status" -eq 1 ]
	[ "$output" = "blktests.sh: error: BLKTESTS_SCHEDULER=deadline: none, mq-deadline, kyber or bfq" ]
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

# This repository's patches to blktests (patches/blktests/series), and the
# blktests snapshot beside it that make blktests copies them onto.
BSERIES=$TOP/patches/blktests/series
SNAPSHOT=${BLKTESTS:-$TOP/../shared/blktests} # make blktests's tree

# added_files SERIES: the files the patches of SERIES create or change.
added_files() {
	local p
	while read -r p; do
		sed -n 's|^+++ b/||p' "$(dirname "$1")/$p"
	done < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1")
}

@test "blktests-tree: patches/blktests/series applies to a copy of the snapshot, which is left as it was" {
	[ -x "$SNAPSHOT/check" ] || skip "no blktests snapshot at $SNAPSHOT (set BLKTESTS=)"
	[ -s "$BSERIES" ]
	touch "$BATS_TEST_TMPDIR/stamp"
	run "$TOP/tools/env/blktests-tree.sh" "$SNAPSHOT" "$BATS_TEST_TMPDIR/tree"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	mapfile -t files < <(added_files "$BSERIES")
	[ ${#files[@]} -gt 0 ]
	# the copy is the snapshot and the patches' files, nothing else
	run diff -rq "$SNAPSHOT" "$BATS_TEST_TMPDIR/tree"
	for l in "${lines[@]}"; do
		f=$(sed -e "s|^Only in $BATS_TEST_TMPDIR/tree/\(.*\): |\1/|" \
			-e "s|^Files $SNAPSHOT/\([^ ]*\) and .* differ$|\1|" <<<"$l")
		printf '%s\n' "${files[@]}" | grep -qxF "$f" || { echo "not from the patches: $l"; false; }
	done
	for f in "${files[@]}"; do
		[ -f "$BATS_TEST_TMPDIR/tree/$f" ]
		# a new test is a script blktests' check can run
		[[ ! $f =~ ^tests/[a-z]+/[0-9]{3}$ ]] || [ -x "$BATS_TEST_TMPDIR/tree/$f" ]
	done
	[ -z "$(find "$SNAPSHOT" -newer "$BATS_TEST_TMPDIR/stamp" | head -n 1)" ]
	# a tree that has the patches already: they are left out, said once each
	run "$TOP/tools/env/blktests-tree.sh" "$BATS_TEST_TMPDIR/tree" "$BATS_TEST_TMPDIR/again"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq "$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$BSERIES" | wc -l)" ]
	[[ "${lines[0]}" == "blktests-tree.sh: patches/blktests/"*".patch is in $BATS_TEST_TMPDIR/tree already: not applied again" ]]
	diff -r "$BATS_TEST_TMPDIR/tree" "$BATS_TEST_TMPDIR/again"
}

# fake_blktests DIR: a tree with what blktests.sh looks for, and a series
# of one patch to it in DIR-patches: tests/block/rc "a" -> "b".
fake_blktests() {
	mkdir -p "$1/tests/block" "$1-patches"
	printf '#!/bin/sh\n' >"$1/check"
	chmod +x "$1/check"
	printf 'a\n' >"$1/tests/block/rc"
	cat >"$1-patches/change-rc.patch" <<'PATCH'
diff --git a/tests/block/rc b/tests/block/rc
--- a/tests/block/rc
+++ b/tests/block/rc
@@ -1 +1 @@
-a
+b
PATCH
	printf '# a comment\nchange-rc.patch\n' >"$1-patches/series"
}

@test "blktests-tree: the series is applied in a cache that sits in a git work tree" {
	d=$BATS_TEST_TMPDIR/bt
	fake_blktests "$d"
	git init -q "$BATS_TEST_TMPDIR/home"
	run "$TOP/tools/env/blktests-tree.sh" "$d" "$BATS_TEST_TMPDIR/home/cache/tree" "$d-patches/series"
	[ "$status" -eq 0 ]
	[ "$(cat "$BATS_TEST_TMPDIR/home/cache/tree/tests/block/rc")" = b ]
	[ "$(cat "$d/tests/block/rc")" = a ]
	[ ! -e "$BATS_TEST_TMPDIR/home/tests" ]
}

@test "blktests-tree: a patch that does not apply is one error line naming it" {
	d=$BATS_TEST_TMPDIR/bt
	fake_blktests "$d"
	printf 'c\n' >"$d/tests/block/rc"
	run "$TOP/tools/env/blktests-tree.sh" "$d" "$BATS_TEST_TMPDIR/tree" "$d-patches/series"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[ "$output" = "blktests-tree.sh: error: $d-patches/change-rc.patch does not apply to the blktests tree $d: patch failed: tests/block/rc:1" ]
	echo gone.patch >>"$d-patches/series"
	printf 'a\n' >"$d/tests/block/rc"
	run "$TOP/tools/env/blktests-tree.sh" "$d" "$BATS_TEST_TMPDIR/tree" "$d-patches/series"
	[ "$status" -eq 1 ]
	[ "$output" = "blktests-tree.sh: error: $d-patches/series lists gone.patch but $d-patches/gone.patch does not exist" ]
}

@test "blktests: a patch of patches/blktests that does not apply stops the run in one line, before anything is fetched" {
	[ -s "$BSERIES" ]
	d=$BATS_TEST_TMPDIR/bt
	fake_blktests "$d"
	# every file the patches add is there already, and differs
	mapfile -t files < <(added_files "$BSERIES")
	for f in "${files[@]}"; do
		mkdir -p "$(dirname "$d/$f")"
		echo other >"$d/$f"
	done
	first=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$BSERIES" | head -n 1)
	BLKTESTS=$d run "$TOP/tools/blktests.sh"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "blktests-tree.sh: error: patches/blktests/$first does not apply to the blktests tree $d: "* ]]
	[ "$(cat "$d/${files[0]}")" = other ]
	run ! test -e "$BSK_CACHE/fio"
}

@test "lint-series: patches/blktests is a series of its own; an orphan beside or in it is still reported" {
	K=$BATS_TEST_TMPDIR/linux
	T=$BATS_TEST_TMPDIR/top
	fake_kernel "$K"
	fake_series "$K" "$T"
	mkdir -p "$T/patches/blktests"
	cp "$TOP"/patches/blktests/*.patch "$TOP/patches/blktests/series" "$T/patches/blktests/"
	run "$TOP/tools/gate/lint-series.sh" "$T/series"
	[ "$status" -eq 0 ]
	# an orphan in patches/, one in patches/blktests/
	cp "$T/patches/block-bfq-first-change.patch" "$T/patches/orphan.patch"
	cp "$T/patches/block-bfq-first-change.patch" "$T/patches/blktests/stray.patch"
	run "$TOP/tools/gate/lint-series.sh" "$T/series"
	[ "$status" -eq 1 ]
	[[ "$output" == *"orphan.patch is in $T/patches but not listed in any series file"* ]]
	[[ "$output" == *"blktests/stray.patch is in $T/patches but not listed in any series file"* ]]
	[ "${#lines[@]}" -eq 2 ]
	# its patches are checked as mails, and must exist
	rm "$T/patches/orphan.patch" "$T/patches/blktests/stray.patch"
	p=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$T/patches/blktests/series" | head -n 1)
	sed -i '/^Signed-off-by:/d' "$T/patches/blktests/$p"
	echo gone.patch >>"$T/patches/blktests/series"
	run "$TOP/tools/gate/lint-series.sh" "$T/series"
	[ "$status" -eq 1 ]
	[[ "$output" == *"blktests/$p: no 'Signed-off-by: blk-sched-kunit maintainers <maintainers@blk-sched-kunit.invalid>'"* ]]
	[[ "$output" == *"$T/patches/blktests/series lists gone.patch but $T/patches/blktests/gone.patch does not exist"* ]]
}

# The fixture is a real run, recorded by make blktests (2026-12-07,
# BLKTESTS_TESTS="block/002 block/041 block/048 zbd/009", base and series):
# run/<kernel>-results/ as blktests' check -o wrote them, run/<kernel>.txt its
# console. block/048 fails on the base; block/041 runs on scratch-md alone.

# bt WHAT KERNEL...: blktests.awk's WHAT of those kernels in RUN (default the fixture), as make blktests gives them
bt() {
	local what=$1 k files=()
	shift
	for k; do
		mapfile -t -O "${#files[@]}" files < <(cd "${RUN:-$FIX/run}" && find "$k-results" -type f -regex '.*/[0-9][0-9][0-9]' | sort)
		files+=("$k.txt")
	done
	(cd "${RUN:-$FIX/run}" && gawk -v what="$what" -v names="$*" -v expect="${EXPECT:-}" -f "$AWK" "${files[@]}")
}

# copy: the fixture in $BATS_TEST_TMPDIR/run, to change
copy() { cp -r "$FIX/run" "$BATS_TEST_TMPDIR/run"; RUN=$BATS_TEST_TMPDIR/run; }

@test "blktests.awk: counts a recorded run from blktests' result files, as they say" {
	run bt counts base series
	[ "$status" -eq 0 ]
	for k in base series; do
		p=$(grep -rhx $'status\tpass' "$FIX/run/$k-results" | wc -l)
		x=$(grep -rhx $'status\tfail' "$FIX/run/$k-results" | wc -l)
		s=$(grep -rhx $'status\tnot run' "$FIX/run/$k-results" | wc -l)
		[[ "$output" == *"$k passed $p failed $x notrun $s absent 0 finished 1"* ]]
	done
	[ "${lines[0]}" = "base passed 2 failed 1 notrun 3 absent 0 finished 1" ]
}

@test "blktests.awk: the status is the result file's, not the console's; a test with no result file is the console's not run" {
	copy
	# the console says block/048 passed on the base: its result file says fail
	sed -i 's/^\(block\/048 .*\)\[failed\]$/\1[passed]/' "$RUN/base.txt"
	grep -q '^block/048 .*\[passed\]$' "$RUN/base.txt"
	rm "$RUN/base-results/nodev/zbd/009"
	run bt table base
	[[ "$output" == *"| block/048 | check scheduler tags stay within async_depth after a switch | failed |"* ]]
	[[ "$output" == *"| zbd/009 | test gap zone support with BTRFS | not run | driver btrfs is not available; command mkfs.btrfs is not available |"* ]]
}

@test "blktests.awk: the reasons are blktests' lines, the changed lines of a failure's diff" {
	run bt table base series
	[ "$status" -eq 0 ]
	[[ "$output" == *"| block/041 => scratch | io_uring read with PI metadata buffer on block device | not run | not run | /dev/scratch does not have metadata |"* ]]
	[[ "$output" == *"| block/041 => scratch-md | io_uring read with PI metadata buffer on block device | passed | passed |  |"* ]]
	[[ "$output" == *"| block/048 | check scheduler tags stay within async_depth after a switch | failed | passed | base: -none -> bfq: scheduler tags in use within async_depth; "*"+none -> bfq: 256 scheduler tags in use, async_depth 192; "* ]]
	# a stats line ("runtime ... 5.364s") is not a reason
	run grep -c 'runtime' <<<"$output"
	[ "$output" = 0 ]
}

@test "blktests.awk: a test passed on base and failed on series is named; the same run twice names none" {
	run bt new series series
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	copy
	sed -i 's/^status\tpass$/status\tfail/' "$RUN/series-results/nodev/block/002"
	run bt new base series
	[ "$status" -eq 0 ]
	[ "$output" = "block/002: passed -> failed ()" ]
}

@test "blktests.awk: a run cut off is said to be, and the tests after it are absent" {
	copy
	sed -i '/^blktests: exit /d; /^block\/048 /,$d' "$RUN/series.txt"
	rm "$RUN/series-results/nodev/block/048" "$RUN/series-results/nodev/zbd/009"
	EXPECT="block/002 block/041 block/048 zbd/009" run bt counts series
	[ "$status" -eq 0 ]
	[ "$output" = "series passed 2 failed 0 notrun 2 absent 2 finished 0" ]
	EXPECT="block/002 block/041 block/048 zbd/009" run bt table series
	[[ "$output" == *"| block/048 |  | absent |  |"* ]]
	[[ "$output" == *'series: 2 passed, 0 failed, 2 not run, 2 absent (cut off: no "blktests: exit" line)'* ]]
}

@test "blktests.awk: a test passed on base and absent or skipped on series is named too" {
	copy
	rm "$RUN/series-results/nodev/block/002"
	sed -i '/^block\/002 /d' "$RUN/series.txt"
	EXPECT="block/002 block/048" run bt new base series
	[ "$status" -eq 0 ]
	[ "$output" = "block/002: passed -> absent ()" ]
	copy_status() { sed -i "s/^status\t.*/status\t$2/" "$RUN/$1"; }
	rm -rf "$RUN" && copy
	copy_status series-results/nodev/block/002 "not run"
	run bt new base series
	[ "$output" = "block/002: passed -> not run ()" ]
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
