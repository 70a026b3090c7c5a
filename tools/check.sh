#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh - the full gate.  Without BASE it covers both bases: the
# mainline series on the mainline base in full, then series-6.12 on the LTS
# base in a light pass; BASE=mainline or BASE=lts gives that base alone, in
# full.  Per base:
#
#   series consistency (lint-series.sh), apply (git am; quilt --fuzz=0 on a
#   plain tree gives the same files), the per-patch checks of patchcheck.sh
#   for every patch in order (checkpatch --strict, KUnit, trailers,
#   kernel-doc, recipients; in full also x86_64 W=1 builds with BFQ =y, =m
#   and clang, and sparse: a patch x check table; in the light pass KUnit
#   at the last patch only and no x86_64 builds), for every patch that says
#   "No functional change" the same object code on three configs
#   (objcheck.sh nfc), and in full: KUnit under x86_64 SMP at the tip, and
#   on mainline the test of 'make send' (sendcheck.sh).
#
# On mainline, KUnit under x86_64 SMP and the short stress boot one kernel:
# the series' debug guest kernel with the suites built in, built in the
# background beside the 'make send' test and the LTS pass.  With both
# bases, the LTS base is fetched, applied and its UML KUnit build warmed
# in the background (nice) while the mainline checks run.  Each stage
# prints its duration; the last line is "N passed, N failed", where N
# counts checks and KUnit cases.
set -uo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

T0=$SECONDS
cd "$BSK_TOP" || exit 1
# The gate runs every suite, and picks its own debug run: what is set for
# 'make kunit' must not narrow or change it.
unset KUNIT_FILTER KUNIT_DEBUG
LOGDIR=$BSK_CACHE/runs/$(date +%Y%m%d-%H%M%S)-check
mkdir -p "$LOGDIR"
passed=0
failed=0
failures=()

# record NAME RC [N]: one result (N cases, default 1).
record() {
	local n=${3:-1}
	if [ "$2" -eq 0 ]; then
		passed=$((passed + n))
		printf 'PASS  %s\n' "$1"
	else
		failed=$((failed + n))
		failures+=("$1")
		printf 'FAIL  %s\n' "$1"
	fi
}

finish() {
	printf '\ncheck: logs in %s; total %ds\n' "$LOGDIR" $((SECONDS - T0))
	for f in "${failures[@]}"; do
		printf 'failed: %s\n' "$f"
	done
	printf '%s passed, %s failed\n' "$passed" "$failed"
	[ "$failed" -eq 0 ]
	exit
}

stage "dependencies"
tools/deps.sh base build x86 vm check
record "dependencies" $?
[ "${failed}" -eq 0 ] || finish
stage_end

stage "tools: shellcheck and bats"
shellcheck "$BSK_TOP"/tools/*.sh "$BSK_TOP"/tools/vm/*.sh "$BSK_TOP"/tests/*.bash "$BSK_TOP"/.ci/run >"$LOGDIR/shellcheck.log" 2>&1
record "shellcheck tools" $?
# The bats files too (SC2314: a bare "!" asserts nothing in bats).
shellcheck -S warning "$BSK_TOP"/tests/*.bats >"$LOGDIR/shellcheck-bats.log" 2>&1
rc=$?
[ "$rc" -eq 0 ] || cat "$LOGDIR/shellcheck-bats.log"
record "shellcheck tests/*.bats" "$rc"
bats --tap "$BSK_TOP/tests" >"$LOGDIR/bats.tap" 2>&1
rc=$?
ok=$(grep -c '^ok ' "$LOGDIR/bats.tap")
nok=$(grep -c '^not ok ' "$LOGDIR/bats.tap")
grep '^not ok ' "$LOGDIR/bats.tap"
[ "$ok" -gt 0 ] || nok=$((nok + 1))
[ "$rc" -eq 0 ] || [ "$nok" -gt 0 ] || nok=1
passed=$((passed + ok))
failed=$((failed + nok))
[ "$nok" -eq 0 ] || failures+=("bats: $nok failed (see $LOGDIR/bats.tap)")
printf '%s  bats tests/: %d ok, %d not ok\n' "$([ "$nok" -eq 0 ] && echo PASS || echo FAIL)" "$ok" "$nok"
stage_end

if [ -n "${BASE:-}" ] || [ -n "${KERNEL:-}" ]; then
	# One base named, or the user's own tree (one tree, one series).
	passes=("${BASE:-mainline}:full")
else
	passes=(mainline:full lts:light)
	# The LTS base, its series and a warm UML build, in the background.
	# shellcheck disable=SC2016 # expanded by the inner bash
	BASE=lts SERIES=$(BASE=lts bsk_series) nice -n 10 bash -c '
		wt=$(tools/apply.sh) && KUNIT_BUILD_ONLY=1 tools/kunit.sh "$wt"' \
		>"$LOGDIR/lts-prep.log" 2>&1 &
	lts_prep=$!
	info "LTS base, apply and UML build in the background (log: $LOGDIR/lts-prep.log)"
fi

# kunit_result LOG RC LABEL START: count a kunit.sh run in the totals.
kunit_result() {
	local line p f
	line=$(tail -n 1 "$1")
	p=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p' <<<"$line")
	f=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p' <<<"$line")
	[ "$2" -eq 0 ] || [ "${f:-0}" -gt 0 ] || f=1
	passed=$((passed + ${p:-0}))
	if [ "${f:-1}" -eq 0 ]; then
		printf 'PASS  %s: %s (%ds)\n' "$3" "$line" $((SECONDS - $4))
	else
		grep -E 'FAILED|CRASHED|error|Error' "$1" | head -n 20
		failed=$((failed + ${f:-1}))
		failures+=("$3 (see $1)")
		printf 'FAIL  %s: %s\n' "$3" "$line"
	fi
}

# x86_smp_result LOG RC START: the x86_64 SMP run under the sanitizers of
# configs/debug.config, in which nothing may skip and the kernel log must
# have no report (kunit.sh, KUNIT_DEBUG=1).
x86_smp_result() {
	kunit_result "$1" "$2" "KUnit x86_64 SMP under KASAN, KFENCE, UBSAN, lockdep at the tip ($b)" "$3"
	if grep -q 'SKIPPED' "$1"; then
		grep 'SKIPPED' "$1"
		record "no case skipped under x86_64 SMP ($b)" 1
	fi
}

vm_pid=
vm_wt=
stress_base=
for pass in "${passes[@]}"; do
b=${pass%%:*}
mode=${pass#*:}
export BASE=$b
SERIES=$(bsk_series)
L=$LOGDIR/$b
mkdir -p "$L"
printf '\n=== %s base, %s (%s) ===\n' "$b" "$(basename "$SERIES")" "$mode" >&2

stage "series consistency ($b)"
tools/lint-series.sh "$SERIES"
record "$(basename "$SERIES") <-> patches" $?
stage_end

stage "base and apply ($b)"
if [ "$b" = lts ] && [ -n "${lts_prep:-}" ]; then
	wait "$lts_prep" || { tail -n 3 "$LOGDIR/lts-prep.log"; info "the background LTS preparation failed; trying again here"; }
fi
wt=$(tools/apply.sh "$SERIES")
record "git am of $(basename "$SERIES") onto the $b base" $?
stage_end
[ -n "$wt" ] || continue
read -r _ _ base < <(tools/tree.sh)
mapfile -t commits < <(git -C "$wt" rev-list --reverse "$base..HEAD")
if [ "$mode" = full ]; then
	# The clang the per-patch builds need depends on the base (its minimum
	# LLVM): installed now as root, else one line; none new enough is "n/a".
	tools/clang.sh "$wt" >/dev/null 2>"$L/clang.err"
	if [ $? -eq 1 ]; then
		cat "$L/clang.err"
		record "a Debian clang for the $b base" 1
		continue
	fi
fi

stage "quilt push -a on a plain tree ($b)"
qt=$(mktemp -d)
mapfile -t files < <(git -C "$wt" diff --name-only "$base" HEAD)
for f in "${files[@]}"; do
	if git -C "$wt" cat-file -e "$base:$f" 2>/dev/null; then
		mkdir -p "$qt/$(dirname "$f")"
		git -C "$wt" show "$base:$f" >"$qt/$f"
	fi
done
(cd "$qt" && QUILT_PATCHES="$(dirname "$SERIES")/patches" QUILT_SERIES="$SERIES" \
	quilt push -a -q --fuzz=0 >"$L/quilt.log" 2>&1)
rc=$?
if [ "$rc" -eq 0 ]; then
	for f in "${files[@]}"; do
		cmp -s "$qt/$f" "$wt/$f" || { echo "quilt result differs from git am: $f"; rc=1; }
	done
else
	cat "$L/quilt.log"
fi
rm -rf "$qt"
record "quilt push -a --fuzz=0 of $(basename "$SERIES") gives the same files as git am" "$rc"
stage_end

if [ "$mode" = full ]; then
	what="checkpatch, KUnit, W=1 gcc =y/=m and clang, sparse, kernel-doc, trailers, recipients"
	light=0
else
	what="checkpatch, kernel-doc, trailers, KUnit at the last patch; BASE=$b make check runs the whole table"
	light=1
fi
stage "per-patch checks, $b (${#commits[@]} patches: $what)"
t=$SECONDS
PATCHCHECK_LIGHT=$light tools/patchcheck.sh "$wt" "$base" "$SERIES" "$L/patches" 2> >(tee "$L/patchcheck.err" >&2) |
	tee "$L/patchcheck.log"
kunit_result "$L/patchcheck.log" "${PIPESTATUS[0]}" "per-patch checks, $b (table: $L/patches/checks.md)" "$t"
stage_end

# Every patch that says "No functional change": the same object code
# (objdump -d of every function, addresses aside, and bloat-o-meter), tests
# off, on the gate's, the bench guest's and a distribution-like config.
stage "same object code for patches that claim no functional change ($b)"
for i in "${!commits[@]}"; do
	c=${commits[$i]}
	git -C "$wt" log -1 --format=%B "$c" | grep -qi 'no functional change' || continue
	subj=$(git -C "$wt" log -1 --format=%s "$c")
	tools/objcheck.sh nfc "$wt" "$c^" "$c" >"$L/nfc-$c.log" 2>&1
	rc=$?
	cat "$L/nfc-$c.log"
	record "same object code (tiny, bench, distro configs): $subj ($b)" "$rc"
done
stage_end

# UML runs the suites with two CPUs on 7.x and with one on 6.12 (no UML
# SMP there); x86_64 SMP adds a real two-LLC topology and the sanitizers,
# and there no case may skip.  On mainline that kernel is the series' debug guest kernel
# with the suites built in (vmkernel.sh: configs/vm.config, debug.config and
# the tree's block/tests/.kunitconfig, on allnoconfig), the kernel the short
# stress boots too: one build serves both.  It builds in the background
# beside the next stages, and kunit.py exec boots it at the end.  On the LTS
# base, which the guest fragment does not fit, kunit.py builds its own.
if [ "$mode" = full ] && [ "${ARCH:-um}" = um ]; then
	if [ "$b" = mainline ]; then
		vm_base=$b
		vm_wt=$wt
		vm_start=$SECONDS
		tools/vmkernel.sh series "$BSK_TOP/configs/debug.config" "$wt/block/tests/.kunitconfig" \
			>"$L/vmkernel.out" 2>"$L/vmkernel.log" &
		vm_pid=$!
		info "the series' debug guest kernel with the suites builds in the background (log: $L/vmkernel.log)"
	else
		stage "KUnit at the tip, $b (x86_64 SMP under sanitizers: QEMU TCG, 2 sockets x 2 CPUs)"
		t=$SECONDS
		KUNIT_DEBUG=1 ARCH=x86_64 tools/kunit.sh "$wt" >"$L/kunit-x86_64.log" 2>&1
		x86_smp_result "$L/kunit-x86_64.log" $? "$t"
		stage_end
	fi
fi

if [ "$mode" = full ] && [ "$b" = mainline ]; then
	stress_base=$b
	stage "make send, dry run: two threads from the sender, git am, v1 then v2 with one change-id"
	tools/sendcheck.sh >"$L/sendcheck.log" 2>&1
	kunit_result "$L/sendcheck.log" $? "make send dry run" "$BSK_STAGE_T0"
	grep -E '^(PASS|FAIL) ' "$L/sendcheck.log"
	stage_end
fi

done

if [ -n "$vm_pid" ]; then
	stage "KUnit at the tip, $vm_base (x86_64 SMP under sanitizers: the series' debug guest kernel, QEMU TCG, 2 sockets x 2 CPUs)"
	rc=0
	wait "$vm_pid" || rc=$?
	b=$vm_base
	if [ "$rc" -ne 0 ] || [ ! -s "$LOGDIR/$b/vmkernel.out" ]; then
		tail -n 3 "$LOGDIR/$b/vmkernel.log"
		record "the series' debug guest kernel with the suites builds ($b)" 1
	else
		info "$(tail -n 1 "$LOGDIR/$b/vmkernel.log")"
		KUNIT_DEBUG=1 ARCH=x86_64 KUNIT_KERNEL=$(dirname "$(cat "$LOGDIR/$b/vmkernel.out")") \
			tools/kunit.sh "$vm_wt" >"$LOGDIR/$b/kunit-x86_64.log" 2>&1
		x86_smp_result "$LOGDIR/$b/kunit-x86_64.log" $? "$vm_start"
	fi
	stage_end
fi

# The short 'make stress': the mainline series' debug guest kernel
# (configs/vm.config + configs/debug.config) under switching, hotplug and
# injected faults, for CHECK_STRESS_SECONDS (default 120; with the debug
# kernel's boot and setup, about 150 s, the run stays under 5 minutes).
if [ -n "$stress_base" ]; then
	stage "short stress on the series debug guest kernel ($stress_base)"
	BASE=$stress_base STRESS_SECONDS=${CHECK_STRESS_SECONDS:-120} STRESS_OUT=$LOGDIR/stress \
		STRESS_FRAGMENTS=${vm_wt:+$vm_wt/block/tests/.kunitconfig} tools/stress.sh series >"$LOGDIR/stress.log" 2>&1
	kunit_result "$LOGDIR/stress.log" $? "short stress, series kernel ($stress_base)" "$BSK_STAGE_T0"
	grep -E '^(PASS|FAIL) ' "$LOGDIR/stress.log"
	stage_end
fi

finish
