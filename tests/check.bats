#!/usr/bin/env bats
# check.sh (the gate): its choice of stages, and on a machine without
# apt-get the stages it cannot run, skipped with their reasons (a stage's
# requires); the per-patch range of patchcheck.sh; clang.sh and sparse.sh
# without apt-get.

load helper
bats_require_minimum_version 1.5.0

# A test that left patchcheck.sh or its fake builds running stops them.
teardown() {
	pkill -TERM -f "$BATS_TEST_TMPDIR/top/tools/gate/buildcheck.sh" 2>/dev/null || true
	[ ! -f "$BATS_TEST_TMPDIR/patchcheck.pid" ] || kill -TERM "$(cat "$BATS_TEST_TMPDIR/patchcheck.pid")" 2>/dev/null || true
}

setup() {
	common_setup
	# This machine's programs, less apt and dpkg and what the skipped
	# stages need: a machine without apt where the base and build
	# dependencies are installed and the gate's extras are not.
	NB=$BATS_TEST_TMPDIR/noapt
	mkdir -p "$NB"
	for d in /usr/local/bin /usr/bin /bin /usr/sbin /sbin; do
		for p in "$d"/*; do
			n=${p##*/}
			case $n in
			apt | apt-* | dpkg | dpkg-* | shellcheck | bats | quilt | b4 | qemu-system-* | vng | fio | jq | udevadm | cpio | clang* | sparse) continue ;;
			esac
			[ -e "$NB/$n" ] || ln -s "$p" "$NB/$n"
		done
	done
}

@test "no apt-get: each stage whose programs are missing is skipped with its reason, the rest runs" {
	KERNEL=$BATS_TEST_TMPDIR STAGES="tools quilt smp send stress" PATH=$NB \
		run bash "$TOP/tools/check.sh"
	[ "$status" -eq 0 ]
	[[ "$output" == *"PASS  dependencies (base, build; no apt-get"* ]]
	[[ "$output" == *"SKIP  shellcheck: needs shellcheck (not installed, and no apt-get here)"* ]]
	[[ "$output" == *"SKIP  bats tests: needs bats "* ]]
	[[ "$output" == *"SKIP  quilt push: needs quilt "* ]]
	[[ "$output" == *"SKIP  KUnit under x86_64 SMP: needs qemu-system-x86_64 cpio "* ]]
	[[ "$output" == *"SKIP  make send test: needs b4 "* ]]
	[[ "$output" == *"SKIP  short stress: needs qemu-system-x86_64 udevadm fio jq vng "* ]]
	[[ "$output" == *"skipped: make send test: needs b4 (not installed, and no apt-get here)"* ]]
	[ "${lines[-1]}" = "1 passed, 0 failed, 6 skipped" ]
	# nothing needed a tree, so nothing was applied
	run ! grep -q 'base and apply' <<<"$output"
	# a stage not asked for is not reported
	KERNEL=$BATS_TEST_TMPDIR STAGES="quilt" PATH=$NB run bash "$TOP/tools/check.sh"
	[ "$status" -eq 0 ]
	[[ "$output" == *"SKIP  quilt push: needs quilt "* ]]
	run ! grep -E '^SKIP  (make send|short stress|shellcheck|bats)' <<<"$output"
}

@test "the full gate with a stage skipped has not passed, and says so above its last line" {
	KERNEL=$BATS_TEST_TMPDIR PATH=$NB run ! bash "$TOP/tools/check.sh"
	[[ "$output" == *"SKIP  shellcheck: needs shellcheck"* ]]
	[[ "${lines[-1]}" =~ ^[0-9]+\ passed,\ [0-9]+\ failed,\ [1-9][0-9]*\ skipped$ ]]
	grep -qE "^check: [1-9][0-9]* checks skipped: the full gate has not passed \\(STAGES= asks for a subset\\)$" <<<"$output"
}

@test "a stage whose requires fails is one SKIP line with its reason, and does not run" {
	F=$BATS_TEST_TMPDIR/top
	mkdir -p "$F"
	cp -r "$TOP/tools" "$F/"
	cat >"$F/tools/gate/stages/quilt.sh" <<-EOS
		# shellcheck shell=bash
		DESCRIPTION="quilt push"
		requires() { echo "needs a unicorn"; return 1; }
		run() { touch "$BATS_TEST_TMPDIR/ran"; }
	EOS
	KERNEL=$BATS_TEST_TMPDIR STAGES=quilt PATH=$NB run bash "$F/tools/check.sh"
	[ "$status" -eq 0 ]
	[ "$(grep -c '^SKIP ' <<<"$output")" -eq 1 ]
	[[ "$output" == *"SKIP  quilt push: needs a unicorn"* ]]
	[[ "$output" == *"skipped: quilt push: needs a unicorn"* ]]
	[ "${lines[-1]}" = "1 passed, 0 failed, 1 skipped" ]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	run ! grep -q 'base and apply' <<<"$output"
}

@test "no apt-get and no KERNEL=: the Debian base cannot be had, one line, nothing else runs" {
	STAGES=tools PATH=$NB run bash "$TOP/tools/check.sh"
	[ "$status" -ne 0 ]
	[[ "$output" == *"no apt-get here to install them: apt-get (getting the kernel tree), dpkg-deb (getting the kernel tree)"* ]]
	[ "${lines[-1]}" = "0 passed, 1 failed, 2 skipped" ]
}

@test "STAGES: an unknown stage is one error line, before anything runs" {
	STAGES="tools nosuch" run "$TOP/tools/check.sh"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "check.sh: error: STAGES: unknown stage 'nosuch' (stages: tools lint newest quilt patches nfc reverts smp rt send stress)" ]]
	run ! test -d "$BSK_CACHE/runs"
}

@test "PATCHES without the patches stage, without BASE, or out of range is one error line, before anything runs" {
	STAGES=lint PATCHES=2 run "$TOP/tools/check.sh"
	[ "$status" -ne 0 ]
	[[ "$output" == *"PATCHES=2 is for the per-patch table; add 'patches' to STAGES" ]]
	STAGES=patches PATCHES=2 run "$TOP/tools/check.sh"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"PATCHES=2 needs BASE=mainline or BASE=lts: the two series number their patches differently" ]]
	n=$(grep -cv -e '^#' -e '^$' "$TOP/series")
	for r in 08 0 x 3-2 "1-$((n + 1))"; do
		BASE=mainline STAGES=patches PATCHES=$r run "$TOP/tools/check.sh"
		[ "$status" -ne 0 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ "$output" == "check.sh: error: PATCHES=$r: give a patch number or a range N-M within 1-$n (series)" ]]
	done
	run ! test -d "$BSK_CACHE/runs"
}

@test "STAGES=lint checks the series against patches/ without fetching or applying a base" {
	STAGES=lint run "$TOP/tools/check.sh"
	[ "$status" -eq 0 ]
	[[ "$output" == *"PASS  series <-> patches"* ]]
	[[ "$output" == *"PASS  series-6.12 <-> patches"* ]]
	run ! grep -qE 'base and apply|LTS base, apply' <<<"$output"
	run ! test -d "$BSK_CACHE/work"
}

# applied_tree: a fake kernel $k with the fake series of $BATS_TEST_TMPDIR/s applied
applied_tree() {
	k=$BATS_TEST_TMPDIR/k
	fake_kernel "$k"
	fake_series "$k" "$BATS_TEST_TMPDIR/s"
	git -C "$k" am -q "$BATS_TEST_TMPDIR"/s/patches/*.patch
}

@test "patchcheck.sh: PATCHES out of the series' range or malformed is one error line" {
	applied_tree
	for r in 3 0-1 2-1 x 1-; do
		PATCHES=$r run "$TOP/tools/gate/patchcheck.sh" "$k" v7.3.4 "$BATS_TEST_TMPDIR/s/series" "$BATS_TEST_TMPDIR/log"
		[ "$status" -ne 0 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ "$output" == "patchcheck.sh: error: PATCHES=$r: "* ]]
	done
	# the tree is where it was
	[ "$(git -C "$k" rev-parse --abbrev-ref HEAD)" = master ]
	[ "$(git -C "$k" rev-list --count v7.3.4..HEAD)" -eq 2 ]
}

@test "clang.sh without apt-get and no clang new enough: the reason on stdout, status 1 (n/a, not a failure)" {
	mkdir -p "$BATS_TEST_TMPDIR/t/scripts"
	printf '#!/bin/sh\necho 99.0.0\n' >"$BATS_TEST_TMPDIR/t/scripts/min-tool-version.sh"
	chmod +x "$BATS_TEST_TMPDIR/t/scripts/min-tool-version.sh"
	PATH=$NB run --separate-stderr bash "$TOP/tools/gate/clang.sh" "$BATS_TEST_TMPDIR/t"
	[ "$status" -eq 1 ]
	[[ "$output" == "t needs LLVM >= 99.0.0; installed here: "*", and no apt-get to install another" ]]
}

@test "sparse.sh without apt-get and no sparse: the reason on stdout, status 1" {
	mkdir -p "$BATS_TEST_TMPDIR/t/scripts"
	printf 'all:\n' >"$BATS_TEST_TMPDIR/t/Makefile"
	printf '#!/bin/sh\necho 0\n' >"$BATS_TEST_TMPDIR/t/scripts/checker-valid.sh"
	chmod +x "$BATS_TEST_TMPDIR/t/scripts/checker-valid.sh"
	PATH=$NB run --separate-stderr bash "$TOP/tools/gate/sparse.sh" "$BATS_TEST_TMPDIR/t"
	[ "$status" -eq 1 ]
	[ "$output" = "no sparse that t accepts, and no apt-get to build Debian's" ]
}

@test "patchcheck.sh on TERM: its background builds are stopped and waited for, then the branch is checked out" {
	applied_tree
	# A BSK_TOP whose x86_64 builds never end: each notes where the tree
	# was when it was stopped.
	F=$BATS_TEST_TMPDIR/top
	mkdir -p "$F/tools/gate"
	cat >"$F/tools/gate/buildcheck.sh" <<-EOS
		#!/bin/bash
		echo "\$1" >>"$F/started"
		trap 'echo "\$1 \$(git -C "$k" rev-parse --abbrev-ref HEAD)" >>"$F/stopped"; exit 143' TERM
		sleep 300 &
		wait
	EOS
	printf '#!/bin/sh\necho -19\n' >"$F/tools/gate/clang.sh"
	printf '#!/bin/sh\necho /bin/true\n' >"$F/tools/gate/sparse.sh"
	chmod +x "$F"/tools/gate/*.sh
	# (3>&-: bats waits for whatever holds its fd 3 open)
	CHECK_LIGHT=0 BSK_TOP=$F "$TOP/tools/gate/patchcheck.sh" "$k" v7.3.4 "$BATS_TEST_TMPDIR/s/series" \
		"$BATS_TEST_TMPDIR/log" >"$BATS_TEST_TMPDIR/out" 2>&1 3>&- &
	pid=$!
	echo "$pid" >"$BATS_TEST_TMPDIR/patchcheck.pid"
	for _ in $(seq 100); do
		[ "$(wc -l <"$F/started" 2>/dev/null)" != 3 ] || break
		sleep 0.1
	done
	[ "$(wc -l <"$F/started")" -eq 3 ]
	kill -TERM "$pid"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" -eq 130 ]
	# all three stopped while the tree was still at the base (detached),
	# and nothing of them is left running
	[ "$(sort "$F/stopped" | paste -sd,)" = "clang HEAD,t HEAD,y HEAD" ]
	run ! pgrep -f "$F/tools/gate/buildcheck.sh"
	[ "$(git -C "$k" rev-parse --abbrev-ref HEAD)" = master ]
}

# patchcheck_fakes K: a checkpatch that finds one problem in the second
# patch, a get_maintainer.pl and a kernel-doc, in the fake tree K.
patchcheck_fakes() {
	mkdir -p "$1/scripts"
	cat >"$1/scripts/checkpatch.pl" <<-'EOS'
		#!/bin/sh
		for a; do p=$a; done
		case $p in *second*) echo "WARNING:LONG_LINE: line too long"; exit 1 ;; esac
		exit 0
	EOS
	cat >"$1/scripts/get_maintainer.pl" <<-'EOS'
		#!/bin/sh
		case " $* " in *" --nol "*) echo "Jens Axboe <axboe@kernel.dk>" ;; *) echo "linux-block@vger.kernel.org" ;; esac
	EOS
	printf '#!/bin/sh\nexit 0\n' >"$1/scripts/kernel-doc"
	chmod +x "$1"/scripts/*
}

@test "patchcheck.sh: a red cell planted by a fake checkpatch shows in the table and the totals" {
	applied_tree
	patchcheck_fakes "$k"
	mkdir -p "$BATS_TEST_TMPDIR/top/tools"
	CHECK_LIGHT=1 BSK_TOP=$BATS_TEST_TMPDIR/top run "$TOP/tools/gate/patchcheck.sh" "$k" v7.3.4 \
		"$BATS_TEST_TMPDIR/s/series" "$BATS_TEST_TMPDIR/log"
	[ "$status" -ne 0 ]
	[[ "$output" == *"FAIL  block-bfq-second-change.patch checkpatch: 1 reports"* ]]
	grep -qxF '| 1 | block, bfq: first change | ✓ | – | ✓ | – | – | ✓ |' "$BATS_TEST_TMPDIR/log/checks.md"
	grep -qxF '| 2 | block, bfq: second change | ✗ | – | ✓ | – | – | ✓ |' "$BATS_TEST_TMPDIR/log/checks.md"
	# 3 + 2 green cells (KUnit has no suite yet), 1 red
	[ "${lines[-1]}" = "5 passed, 1 failed, 0 skipped" ]

	# the second patch alone: its row only
	rm -rf "$BATS_TEST_TMPDIR/log"
	PATCHES=2 CHECK_LIGHT=1 BSK_TOP=$BATS_TEST_TMPDIR/top run "$TOP/tools/gate/patchcheck.sh" "$k" v7.3.4 \
		"$BATS_TEST_TMPDIR/s/series" "$BATS_TEST_TMPDIR/log"
	[ "$status" -ne 0 ]
	[ "${lines[-1]}" = "2 passed, 1 failed, 0 skipped" ]
	run ! grep -q '^| 1 |' "$BATS_TEST_TMPDIR/log/checks.md"
	grep -q '^| 2 |' "$BATS_TEST_TMPDIR/log/checks.md"
	grep -qxF -- '- patches 2-2 only (PATCHES=2)' "$BATS_TEST_TMPDIR/log/checks.md"
	[ "$(git -C "$k" rev-parse --abbrev-ref HEAD)" = master ]
}

@test "a bad BASE, ARCH or number is one error line before anything is installed or run" {
	fake_bin
	printf '#!/bin/sh\necho "$0 $*" >>"%s/installs"\n' "$BATS_TEST_TMPDIR" >"$BATS_TEST_TMPDIR/bin/apt-get"
	chmod +x "$BATS_TEST_TMPDIR/bin/apt-get"
	BASE=foo STAGES=patches PATCHES=6 run ! "$TOP/tools/check.sh"
	[ "$output" = "check.sh: error: unknown BASE 'foo' (use BASE=mainline or BASE=lts, or KERNEL=/path/to/linux)" ]
	ARCH=sparc run ! "$TOP/tools/env/deps.sh" base build
	[ "$output" = "deps.sh: error: ARCH=sparc is not supported (use ARCH=um, x86_64, i386 or arm64)" ]
	RUNS=x run ! "$TOP/tools/env/deps.sh" base
	[ "${#lines[@]}" -eq 1 ]
	[ ! -e "$BATS_TEST_TMPDIR/installs" ]
	[ ! -e "$BSK_CACHE/runs" ]
	# PATCHES is numbered in the series of the BASE given
	BASE=lts STAGES=patches PATCHES=7 run ! "$TOP/tools/check.sh"
	[[ "$output" == *"within 1-6 (series-6.12)" ]]
}

# stage_run NAME [SERIES]: check.sh's part for one stage of the tools copied to $F
# (common.sh, step, the stage file), its run on a fake tree, then the counts
stage_run() {
	(
		cd "$F" || exit
		BSK_TOP=$F BSK_STAGE_T0=$SECONDS BASE=mainline
		# shellcheck source=../tools/lib/common.sh
		. tools/lib/common.sh
		step() { "$@"; }
		# shellcheck source=/dev/null
		. "tools/gate/stages/$1.sh"
		run "$BATS_TEST_TMPDIR/wt" base "${2:-series}" "$BATS_TEST_TMPDIR"
		results_end
	)
}

@test "the smp stage: a skipped case or kunit.sh's non-zero status fails it (kunit.sh faked)" {
	F=$BATS_TEST_TMPDIR/top
	mkdir -p "$F"
	cp -r "$TOP/tools" "$F/"
	# the counts where BSK_COUNTS says, kunit.py's results where KUNIT_OUT says
	cat >"$F/tools/kunit.sh" <<-'EOT'
		#!/bin/sh
		echo "$FAKE_COUNTS" >"$BSK_COUNTS"
		mkdir -p "$KUNIT_OUT"
		cp "$TOP/tests/fixtures/kunit/$FAKE_JSON.json" "$KUNIT_OUT/results.json"
		exit "$FAKE_RC"
	EOT
	chmod +x "$F/tools/kunit.sh"
	export TOP
	FAKE_RC=0 FAKE_COUNTS="25 0 0" FAKE_JSON=all_passed run stage_run smp
	[ "$status" -eq 0 ]
	[[ "$output" == "PASS  KUnit x86_64 SMP under KASAN, KFENCE, UBSAN, lockdep at the tip (mainline): 25 passed"* ]]
	[ "${lines[-1]}" = "25 passed, 0 failed, 0 skipped" ]
	FAKE_RC=0 FAKE_COUNTS="23 0 2" FAKE_JSON=param_all_skipped run stage_run smp
	[ "$status" -ne 0 ]
	[[ "$output" == *"skipped: blk_mq_complete.blk_mq_test_route: rq_affinity 0, other LLC, "* ]]
	[[ "$output" == *"FAIL  no case skipped under x86_64 SMP (mainline)"* ]]
	[ "${lines[-1]}" = "23 passed, 1 failed, 2 skipped" ]
	FAKE_RC=1 FAKE_COUNTS="25 0 0" FAKE_JSON=all_passed run stage_run smp
	[ "$status" -ne 0 ]
	[ "${lines[-1]}" = "25 passed, 1 failed, 0 skipped" ]
}

@test "the bats stage: a skipped test is a SKIP line with its reason, not a pass (bats faked)" {
	F=$BATS_TEST_TMPDIR/top
	mkdir -p "$F"
	cp -r "$TOP/tools" "$F/"
	fake_bin
	printf '#!/bin/sh\nprintf "1..3\\nok 1 a b # skip no unicorn\\nok 2 c # skip\\nok 3 d\\n"\n' >"$BATS_TEST_TMPDIR/bin/bats"
	chmod +x "$BATS_TEST_TMPDIR/bin/bats"
	run stage_run bats
	[ "$status" -eq 0 ]
	[[ "$output" == *"SKIP  bats: a b: no unicorn"* ]]
	[[ "$output" == *"SKIP  bats: c: no reason given"* ]]
	[[ "$output" == *"PASS  bats tests/: 1 ok"* ]]
	[ "${lines[-1]}" = "1 passed, 0 failed, 2 skipped" ]
}

@test "the reverts stage: a fix's blktests test is the one series names after it, failed on base and passed on series in blktests' result files" {
	F=$BATS_TEST_TMPDIR/top
	mkdir -p "$F/results/blktests/fixes"
	printf '# thread fixes: x\nfix.patch # blktests: block/048\nother.patch\n' >"$F/series"
	# result DIR STATUS: a result file as blktests' check -o writes it
	result_file() {
		mkdir -p "$F/results/blktests/fixes/$1/nodev/block"
		printf 'description\tx\nstatus\t%s\n' "$2" >"$F/results/blktests/fixes/$1/nodev/block/048"
	}
	result_file base-results fail
	result_file series-results pass
	stage() { (BSK_TOP=$F; . "$TOP/tools/gate/stages/reverts.sh"; blktests_regression "$F/series" "$1"); }
	run stage 1
	[ "$status" -eq 0 ]
	[ "$output" = block/048 ]
	# the second patch names no test
	run ! stage 2
	# passed on the base too: no regression test
	result_file base-results pass
	run ! stage 1
	# not run on the series
	result_file base-results fail
	result_file series-results "not run"
	run ! stage 1
}

@test "patchcheck.sh: a warning new at a patch turns its build cell red, one the patch before had stays green" {
	applied_tree
	patchcheck_fakes "$k"
	sed -i 's/exit 1 ;;/exit 0 ;;/' "$k/scripts/checkpatch.pl"
	# builds whose diagnostics (as buildcheck.sh writes them) are an old
	# warning throughout and, in the gcc y build of the second patch, a new one
	F=$BATS_TEST_TMPDIR/top
	mkdir -p "$F/tools/gate"
	cat >"$F/tools/gate/buildcheck.sh" <<-EOS
		#!/bin/bash
		echo "block/bfq-iosched.c: warning: old [-Wold]" >"\$3.cc"
		case "\$1 \$(git -C "$k" log -1 --format=%s)" in
		"y block, bfq: second change") echo "block/bfq-iosched.c: warning: new [-Wnew]" >>"\$3.cc" ;;
		esac
		: >"\$3.sparse"
		: >"\$3.other"
	EOS
	printf '#!/bin/sh\necho -19\n' >"$F/tools/gate/clang.sh"
	printf '#!/bin/sh\necho /bin/true\n' >"$F/tools/gate/sparse.sh"
	chmod +x "$F"/tools/gate/*.sh
	CHECK_LIGHT=0 BSK_TOP=$F run "$TOP/tools/gate/patchcheck.sh" "$k" v7.3.4 "$BATS_TEST_TMPDIR/s/series" "$BATS_TEST_TMPDIR/log"
	[ "$status" -ne 0 ]
	[[ "$output" == *"block/bfq-iosched.c: warning: new [-Wnew]"* ]]
	[[ "$output" == *"FAIL  block-bfq-second-change.patch gcc y: 1 new warnings"* ]]
	run ! grep -q 'warning: old' <<<"$(grep '^FAIL' <<<"$output")"
	grep -qxF '| 1 | block, bfq: first change | ✓ | – | ✓ | ✓ | ✓ | ✓ | ✓ | – | – | ✓ |' "$BATS_TEST_TMPDIR/log/checks.md"
	grep -qxF '| 2 | block, bfq: second change | ✓ | – | ✗ | ✓ | ✓ | ✓ | ✓ | – | – | ✓ |' "$BATS_TEST_TMPDIR/log/checks.md"
}

@test "patchcheck.sh: the Fixes, Link, kernel-doc and recipients cells each go red on planted bad input" {
	applied_tree
	S=$BATS_TEST_TMPDIR/s
	patchcheck_fakes "$k"
	sed -i 's/exit 1 ;;/exit 0 ;;/' "$k/scripts/checkpatch.pl"
	# checkpatch's BAD_FIXES_TAG on a Fixes: line that is not "<12+ hex> ("subject")"
	sed -i '2i case " $* " in *" --types BAD_FIXES_TAG "*) grep -q "^Fixes: [0-9a-f]\\{12\\} (\\"" "$p" || { echo "WARNING:BAD_FIXES_TAG: Please use ..."; exit 1; } ;; esac' "$k/scripts/checkpatch.pl"
	sed -i '2i for a; do p=$a; done' "$k/scripts/checkpatch.pl"
	# a kernel-doc that warns about "line nine", which the second patch adds
	printf '#!/bin/sh\nfor f; do :; done\n! grep -qn "line nine" "$f" || echo "$f:9: warning: bad doc"\n' >"$k/scripts/kernel-doc"
	# the trailers: the first patch's well-formed, the second's not
	p1=$S/patches/block-bfq-first-change.patch p2=$S/patches/block-bfq-second-change.patch
	sed -i '0,/^Signed-off-by:/s//Fixes: 0123456789ab ("block: a thing")\nLink: https:\/\/lore.kernel.org\/r\/x\n&/' "$p1"
	sed -i '0,/^Signed-off-by:/s//Fixes: 123 (x)\nLink: not a url\n&/' "$p2"
	# MAINTAINERS-notes records the recipients of the first patch only
	F=$BATS_TEST_TMPDIR/top
	mkdir -p "$F/tools"
	echo '| block, bfq: first change | Jens Axboe <axboe@kernel.dk> | linux-block@vger.kernel.org |' >"$F/MAINTAINERS-notes"
	CHECK_LIGHT=1 BSK_TOP=$F run "$TOP/tools/gate/patchcheck.sh" "$k" v7.3.4 "$S/series" "$BATS_TEST_TMPDIR/log"
	[ "$status" -ne 0 ]
	grep -qxF '| 1 | block, bfq: first change | ✓ | – | ✓ | ✓ | ✓ | ✓ |' "$BATS_TEST_TMPDIR/log/checks.md"
	grep -qxF '| 2 | block, bfq: second change | ✓ | – | ✗ | ✗ | ✗ | ✗ |' "$BATS_TEST_TMPDIR/log/checks.md"
	[[ "$output" == *"FAIL  block-bfq-second-change.patch Fixes: WARNING:BAD_FIXES_TAG: Please use ..."* ]]
	[[ "$output" == *"FAIL  block-bfq-second-change.patch Link: not a URL: Link: not a url"* ]]
	[[ "$output" == *"FAIL  block-bfq-second-change.patch kernel-doc: 1 new warnings"* ]]
	[[ "$output" == *"FAIL  block-bfq-second-change.patch recipients: MAINTAINERS-notes lacks: | block, bfq: second change |"* ]]
	grep -qxF -- '- 1 Fixes: 0123456789ab: form checked, not in the history of the base (set FIXES_GIT)' "$BATS_TEST_TMPDIR/log/checks.md"
}

@test "the reverts stage: a fix whose revert fails a case passes only if MAINTAINERS-notes names the case; one that fails none fails" {
	F=$BATS_TEST_TMPDIR/top
	mkdir -p "$F"
	cp -r "$TOP/tools" "$F/"
	# kunit.sh faked: the recorded run with one failed case, unless the fix is in the tree
	cat >"$F/tools/kunit.sh" <<-'EOT'
		#!/bin/sh
		mkdir -p "$KUNIT_OUT"
		f=failure; ! grep -q fixed "$1/a.c" || f=all_passed
		cp "$TOP/tests/fixtures/kunit/$f.json" "$KUNIT_OUT/results.json"
	EOT
	chmod +x "$F/tools/kunit.sh"
	export TOP
	w=$BATS_TEST_TMPDIR/wt
	git init -q "$w" && echo broken >"$w/a.c"
	git -C "$w" add a.c && git -C "$w" -c user.name=t -c user.email=t@t commit -qm base && git -C "$w" tag base
	echo fixed >"$w/a.c"
	git -C "$w" -c user.name=t -c user.email=t@t commit -qam "block: the fix" -m "Fixes: 0123456789ab (\"x\")"
	printf 'x.patch\n' >"$BATS_TEST_TMPDIR/series"
	echo "bfq_inject_limit.bfq_test_inject_limit: no baseline, alone, plug cached before the start (clock fix)" >"$F/MAINTAINERS-notes"
	run stage_run reverts
	[ "$status" -eq 0 ]
	[[ "$output" == *'PASS  without "block: the fix" 1 case(s) fail (mainline)'* ]]
	[ "$(git -C "$w" rev-parse --abbrev-ref HEAD)" != HEAD ] && [ -z "$(git -C "$w" status --porcelain)" ]
	# the notes do not name it
	: >"$F/MAINTAINERS-notes"
	run stage_run reverts
	[ "$status" -ne 0 ]
	[[ "$output" == *"FAIL  MAINTAINERS-notes names every case that fails without \"block: the fix\""* ]]
	# a fix whose revert fails nothing, and no blktests test named for it
	sed -i 's/! grep -q fixed/grep -q nothing/' "$F/tools/kunit.sh"
	run stage_run reverts
	[ "$status" -ne 0 ]
	[[ "$output" == *'FAIL  without "block: the fix" a case fails (mainline)'* ]]
}

@test "the nfc stage: each 'No functional change' patch, and the tests' commit up to the last patch before the RFC, go to objcheck.sh" {
	F=$BATS_TEST_TMPDIR/top
	mkdir -p "$F"
	cp -r "$TOP/tools" "$F/"
	printf '#!/bin/sh\necho "objcheck $NFC_CONFIGS|$NFC_KUNIT|$(git -C "$1" log -1 --format=%%s "$2")..$(git -C "$1" log -1 --format=%%s "$3")"\n' >"$F/tools/gate/objcheck.sh"
	w=$BATS_TEST_TMPDIR/wt
	git init -q "$w" && echo a >"$w/a.c" && git -C "$w" add a.c
	c() { git -C "$w" -c user.name=t -c user.email=t@t commit -qam "$@"; }
	c base && git -C "$w" tag base
	echo b >"$w/a.c" && c "a: rename" -m "No functional change."
	mkdir -p "$w/block/tests" && echo t >"$w/block/tests/x.c" && git -C "$w" add block/tests && c "tests: add"
	echo c >"$w/a.c" && c "a: change"
	echo d >"$w/a.c" && c "rfc: inline"
	printf '# thread x: y\na.patch\nt.patch\nc.patch\n# thread rfc: z\nr.patch\n' >"$BATS_TEST_TMPDIR/series"
	CHECK_LIGHT=0 run stage_run nfc "$BATS_TEST_TMPDIR/series"
	[ "$status" -eq 0 ]
	[[ "$output" == *"objcheck ||base..a: rename"* ]]
	[[ "$output" == *"PASS  same object code (tiny, bench, distro configs): a: rename (mainline)"* ]]
	[[ "$output" == *"objcheck tiny distro|m y|a: rename..a: change"* ]]
	[ "$(grep -c '^objcheck' <<<"$output")" -eq 2 ]
}
