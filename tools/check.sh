#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh - the full gate.  Without BASE it covers both bases: the
# mainline series on the mainline base in full, then series-6.12 on the LTS
# base in a light pass; BASE=mainline or BASE=lts gives that base alone, in
# full.  Stages (STAGES= names some of them; the default is all, in order):
#
#   tools    shellcheck on every script and test, the bats tests
#   lint     series consistency (lint-series.sh)
#   newest   whether the series applies to Debian's newest linux-source
#            for its base (the base itself stays pinned: newest.sh)
#   (apply)  the base and git am of the series: run whenever a stage below
#            is, as they all need the applied tree (lint does not)
#   quilt    quilt push -a --fuzz=0 on a plain tree gives the same files
#   patches  the per-patch checks of patchcheck.sh for every patch in order
#            (PATCHES=N or N-M: those only, with BASE= or KERNEL=, as the
#            two series number their patches differently): checkpatch
#            --strict, KUnit,
#            trailers, kernel-doc, recipients; in full also x86_64 W=1
#            builds with BFQ =y, =m and clang, and sparse: a patch x check
#            table; in the light pass KUnit at the last patch only and no
#            x86_64 builds
#   nfc      every patch that says "No functional change": the same object
#            code on three configs (objcheck.sh nfc); and, in full, the test
#            patches (from the first that adds a file under block/tests/ to
#            the last patch before the RFC threads, which change code on
#            purpose) change no object code of a kernel that does not build
#            them: CONFIG_KUNIT=m, and =y with the tests off, on the
#            gate's and on a defconfig-based config
#   reverts  every patch with a Fixes: tag, reverted on top of the series:
#            the suites (UML) must fail a case, and each failing case must
#            be named in MAINTAINERS-notes ("Reverting the fixes"); a fix
#            whose test needs a disk instead names a blktests test in its
#            mail, which the committed run results/blktests/fixes must show
#            failing on the base and passing with the series
#   smp      in full: KUnit under x86_64 SMP and the sanitizers at the tip
#            (RFC threads included: vmkernel.sh tip)
#   rt       on mainline in full: the same under PREEMPT_RT (kunit.sh,
#            KUNIT_DEBUG=rt): every case passes or skips with its reason,
#            and the kernel log has no report
#   send     on mainline in full: the test of 'make send' (sendcheck.sh)
#   stress   on mainline in full: the short stress
#
# On mainline, KUnit under x86_64 SMP and the short stress boot one kernel:
# the series' debug guest kernel with the suites built in, built in the
# background beside the 'make send' test and the LTS pass.  With both
# bases, the LTS base is fetched, applied and its UML KUnit build warmed
# in the background (nice) while the mainline checks run.  Every long step
# runs in a process group of its own: INT, TERM or HUP stops them all and
# waits for them before the gate exits.
#
# On a machine without apt-get nothing is installed: the base and build
# dependencies must be there, and a stage whose programs are not is
# skipped, with a SKIP line naming them (the way blktests reports a
# missing program).  Each stage prints its duration; each result is one
# PASS, FAIL or SKIP line; the last line is "N passed, N failed, N
# skipped", where N counts checks and KUnit cases.  Without STAGES= or
# ARCH= (the full gate) a skipped check (not a KUnit case that skips with
# its reason) makes the exit status 1.
set -uo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

ALL_STAGES="tools lint newest quilt patches nfc reverts smp rt send stress"
TREE_STAGES=(quilt patches nfc reverts smp rt send stress)

T0=$SECONDS

finish() {
	printf '\ncheck: logs in %s; total %ds\n' "$LOGDIR" $((SECONDS - T0))
	# The full gate has not passed if it could not run all of itself.
	if [ -z "$asked" ] && [ "${#BSK_SKIPS[@]}" -gt 0 ]; then
		printf 'check: %s checks skipped: the full gate has not passed (STAGES= asks for a subset)\n' "${#BSK_SKIPS[@]}"
		results_end
		exit 1
	fi
	results_end
	exit
}

# in_background OUT ERR CMD...: CMD in its own process group, so that it
# can be stopped with everything it started (a background job of a script
# ignores SIGINT: Ctrl-C alone would leave it building); stdout to OUT,
# stderr to ERR ("-": to OUT too); its pid in $!.  bg_wait PID waits for
# it and forgets it.
in_background() {
	local out=$1 err=$2
	shift 2
	if [ "$err" = - ]; then
		setsid "$@" >"$out" 2>&1 &
	else
		setsid "$@" >"$out" 2>"$err" &
	fi
	BSK_BG+=($!)
}

bg_wait() {
	local rc=0 p keep=()
	wait "$1" || rc=$?
	for p in "${BSK_BG[@]}"; do
		[ "$p" = "$1" ] || keep+=("$p")
	done
	BSK_BG=("${keep[@]}")
	return "$rc"
}

# step CMD...: a long step in the foreground, in its own process group, so
# that a signal to the gate reaches it at once (bash runs a trap only when
# the foreground command returns; wait returns on a signal).  Its status.
step() {
	setsid "$@" &
	BSK_BG+=($!)
	bg_wait "$!"
}

# On INT, TERM or HUP: stop the background builds, wait for them, then leave.
# shellcheck disable=SC2317 # run by the trap
interrupted() {
	trap - INT TERM HUP
	bg_stop
	# a fix reverted for stage_reverts: the applied tree gets it back
	[ -z "${reverted_wt:-}" ] || git -C "$reverted_wt" reset -q --hard HEAD
	printf 'check: interrupted; background builds stopped (logs in %s)\n' "$LOGDIR" >&2
	exit 130
}

selected() { # STAGE...: is one of them to run?
	local st
	for st in "$@"; do
		case " $STAGES " in *" $st "*) return 0 ;; esac
	done
	return 1
}

# needs STAGE LABEL PROGRAM...: on a machine without apt-get, a selected
# stage whose programs are missing is skipped (with apt-get, stage_deps
# has installed them or stopped).  STAGE "-NAME": a check within stage
# NAME, skipped alone (the stage itself runs).
needs() {
	local st=$1 label=$2 p miss=()
	shift 2
	[ -n "$noapt" ] || return 0
	selected "${st#-}" || return 0
	for p in "$@"; do
		command -v "$p" >/dev/null 2>&1 || miss+=("$p")
	done
	[ ${#miss[@]} -gt 0 ] || return 0
	result_skip "$label" "needs ${miss[*]} (not installed, and no apt-get here)"
	[ "${st#-}" != "$st" ] || STAGES=$(tr ' ' '\n' <<<"$STAGES" | grep -vx "$st" | paste -sd' ')
	return 1
}

stage_deps() {
	stage "dependencies"
	if [ -z "$noapt" ]; then
		tools/env/deps.sh base build x86 vm check
		result "dependencies" $?
	else
		# What the base and the builds need cannot be skipped.
		tools/env/deps.sh base build
		result "dependencies (base, build; no apt-get: stages that need more are skipped)" $?
		needs -tools "shellcheck" shellcheck
		needs -tools "bats tests" bats
		needs quilt "quilt push" quilt
		needs newest "Debian's newest linux-source" apt-get
		needs smp "KUnit under x86_64 SMP" qemu-system-x86_64 cpio
		needs send "make send test" b4
		# virtme-ng comes from Debian's package when not installed.
		needs stress "short stress" qemu-system-x86_64 udevadm fio jq vng
	fi
	[ "$BSK_FAILED" -eq 0 ] || finish
	stage_end
}

stage_tools() {
	local rc ok nok
	stage "tools: shellcheck and bats"
	if command -v shellcheck >/dev/null 2>&1 || [ -z "$noapt" ]; then
		shellcheck "$BSK_TOP"/tools/*.sh "$BSK_TOP"/tools/*/*.sh "$BSK_TOP"/tests/*.bash "$BSK_TOP"/.ci/run \
			>"$LOGDIR/shellcheck.log" 2>&1
		result "shellcheck tools" $?
		# The bats files too (SC2314: a bare "!" asserts nothing in bats).
		shellcheck -S warning "$BSK_TOP"/tests/*.bats >"$LOGDIR/shellcheck-bats.log" 2>&1
		rc=$?
		[ "$rc" -eq 0 ] || cat "$LOGDIR/shellcheck-bats.log"
		result "shellcheck tests/*.bats" "$rc"
	fi
	if command -v bats >/dev/null 2>&1 || [ -z "$noapt" ]; then
		bats --tap "$BSK_TOP/tests" >"$LOGDIR/bats.tap" 2>&1
		rc=$?
		ok=$(grep -c '^ok ' "$LOGDIR/bats.tap")
		nok=$(grep -c '^not ok ' "$LOGDIR/bats.tap")
		grep '^not ok ' "$LOGDIR/bats.tap"
		[ "$ok" -gt 0 ] || nok=$((nok + 1))
		[ "$rc" -eq 0 ] || [ "$nok" -gt 0 ] || nok=1
		[ "$ok" -eq 0 ] || result "bats tests/: $ok ok" 0 "$ok"
		[ "$nok" -eq 0 ] || result "bats tests/: $nok not ok (see $LOGDIR/bats.tap)" 1 "$nok"
	fi
	stage_end
}

stage_lint() {
	stage "series consistency ($b)"
	tools/gate/lint-series.sh "$SERIES"
	result "$(basename "$SERIES") <-> patches" $?
	stage_end
}

# stage_apply: the base and the series on it; sets wt, base, commits.
stage_apply() {
	stage "base and apply ($b)"
	if [ "$b" = lts ] && [ -n "${lts_prep:-}" ]; then
		bg_wait "$lts_prep" || {
			tail -n 3 "$LOGDIR/lts-prep.log"
			info "the background LTS preparation failed; trying again here"
		}
	fi
	wt=$(tools/apply.sh "$SERIES")
	result "git am of $(basename "$SERIES") onto the $b base" $?
	stage_end
	[ -n "$wt" ] || return 1
	read -r _ _ base < <(tools/env/tree.sh)
	mapfile -t commits < <(git -C "$wt" rev-list --reverse "$base..HEAD")
}

stage_quilt() {
	local qt rc f files
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
	result "quilt push -a --fuzz=0 of $(basename "$SERIES") gives the same files as git am" "$rc"
	stage_end
}

stage_patches() {
	local what light t
	if [ "$mode" = full ]; then
		what="checkpatch, KUnit, W=1 gcc (tests off, tests built) and clang, sparse, kernel-doc, trailers, recipients"
		light=0
	else
		what="checkpatch, kernel-doc, trailers, KUnit at the last patch; BASE=$b make check runs the whole table"
		light=1
	fi
	stage "per-patch checks, $b (${PATCHES:+patches $PATCHES of }${#commits[@]} patches: $what)"
	t=$SECONDS
	# shellcheck disable=SC2016 # expanded by the inner bash
	PATCHCHECK_LIGHT=$light ERR=$L/patchcheck.err LOG=$L/patchcheck.log step bash -c \
		'"$0" "$@" 2> >(tee "$ERR" >&2) | tee "$LOG"; exit "${PIPESTATUS[0]}"' \
		tools/gate/patchcheck.sh "$wt" "$base" "$SERIES" "$L/patches"
	result_of_run "$L/patchcheck.log" $? "per-patch checks, $b (table: $L/patches/checks.md)" "$t"
	stage_end
}

# Every patch that says "No functional change": the same object code
# (objdump -d of every function, addresses aside, and bloat-o-meter), tests
# off, on the gate's, the bench guest's and a distribution-like config.
stage_nfc() {
	local c subj rc last
	stage "same object code for patches that claim no functional change ($b)"
	for c in "${commits[@]}"; do
		git -C "$wt" log -1 --format=%B "$c" | grep -qi 'no functional change' || continue
		subj=$(git -C "$wt" log -1 --format=%s "$c")
		step tools/gate/objcheck.sh nfc "$wt" "$c^" "$c" >"$L/nfc-$c.log" 2>&1
		rc=$?
		cat "$L/nfc-$c.log"
		result "same object code (tiny, bench, distro configs): $subj ($b)" "$rc"
	done
	# The tests' own cost: in the full pass (the light pass of the LTS base
	# shares the suites and would take five minutes more), up to the last
	# patch before the RFC threads (which change code on purpose).
	last=${commits[${#commits[@]} - 1 - $(series_rfc_count "$SERIES")]}
	for c in "${commits[@]}"; do
		[ "$mode" = full ] || break
		[ -n "$(git -C "$wt" diff-tree --no-commit-id --name-only -r --diff-filter=A "$c" -- block/tests)" ] || continue
		NFC_CONFIGS="tiny distro" NFC_KUNIT="m y" step tools/gate/objcheck.sh nfc "$wt" "$c^" "$last" \
			>"$L/nfc-tests.log" 2>&1
		rc=$?
		cat "$L/nfc-tests.log"
		result "the tests change no object code with CONFIG_KUNIT=m, nor =y with the tests off (tiny, distro configs; $b)" "$rc"
		break
	done
	stage_end
}

# Every fix has a case that fails without it: each patch with a Fixes: tag
# is reverted on top of the series in the applied tree, the suites run
# (UML; the build directory is the tree's own, so only what the revert
# touches is rebuilt), and the tree is put back.  The cases that fail must
# be the ones MAINTAINERS-notes names for that fix.
# blktests_regression SUBJECT: the blktests test the mail of SUBJECT names
# (below its ---), if the committed run results/blktests/fixes has it
# failed on the base and passed with the series.
blktests_regression() {
	local mail t sum=$BSK_TOP/results/blktests/fixes/summary.md
	[ -f "$sum" ] || return 1
	for mail in "$BSK_TOP"/patches/*.patch; do
		# the Subject: header, unfolded
		[ "$(sed -n '/^Subject: /{N;s/\n / /;s/\n.*//;s/^Subject: \[PATCH[^]]*\] //;p;q}' "$mail")" = "$1" ] && break
		mail=
	done
	[ -n "$mail" ] || return 1
	while read -r t; do
		if awk -F' *[|] *' -v t="$t" '$2 == t && $4 == "failed" && $5 == "passed" { f = 1 } END { exit !f }' "$sum"; then
			echo "$t"
			return 0
		fi
	done < <(grep -oE '\b(block|dm|zbd|nvme|scsi|loop)/[0-9]{3}\b' "$mail" | sort -u)
	return 1
}

stage_reverts() {
	local c subj rc log names n missing notes
	stage "every fix, reverted on top of the series, fails a case ($b)"
	for c in "${commits[@]}"; do
		git -C "$wt" log -1 --format=%B "$c" | grep -q '^Fixes: ' || continue
		subj=$(git -C "$wt" log -1 --format=%s "$c")
		log=$L/revert-$c.log
		reverted_wt=$wt
		if ! git -C "$wt" revert --no-commit "$c" >"$log" 2>&1; then
			git -C "$wt" reset -q --hard HEAD
			reverted_wt=
			result "$subj reverts on top of the series ($b)" 1
			continue
		fi
		n=$L/revert-$c
		ARCH=um KUNIT_OUT=$n step tools/kunit.sh "$wt" >>"$log" 2>&1
		rc=$?
		git -C "$wt" reset -q --hard HEAD
		reverted_wt=
		names=
		[ ! -f "$n/results.json" ] || names=$(kunit_json_failed "$n/results.json")
		if [ -z "$names" ]; then
			# only a revert the suites ran clean on may rest on blktests:
			# one that broke the build or the boot fails here
			if [ "$rc" -eq 0 ] && names=$(blktests_regression "$subj"); then
				result "without \"$subj\" blktests $names fails (results/blktests/fixes: failed on the base, passed with the series; $b)" 0
				continue
			fi
			tail -n 3 "$log"
			result "without \"$subj\" a case fails ($b)" 1
			continue
		fi
		printf '%s\n' "$names" | sed 's/^/      fails: /'
		# the notes wrap their lines: compare with whitespace collapsed
		notes=$(tr -s ' \t\n' '   ' <"$BSK_TOP/MAINTAINERS-notes")
		missing=$(printf '%s\n' "$names" | while IFS= read -r n; do
			grep -qF -- "$n" <<<"$notes" || printf '%s; ' "$n"
		done)
		result "without \"$subj\" $(printf '%s\n' "$names" | wc -l) case(s) fail ($b)" 0
		[ -z "$missing" ] || result "MAINTAINERS-notes names every case that fails without \"$subj\" (missing: $missing)" 1
	done
	stage_end
}

# smp_result LOG RC START: the x86_64 SMP run under the sanitizers of
# configs/debug.config, in which nothing may skip and the kernel log must
# have no report (kunit.sh, KUNIT_DEBUG=1).
smp_result() {
	result_of_run "$1" "$2" "KUnit x86_64 SMP under KASAN, KFENCE, UBSAN, lockdep at the tip ($b)" "$3"
	local c
	c=$(counts_of "$(tail -n 1 "$1")") || return 0
	if [ "${c##* }" -gt 0 ]; then
		grep 'SKIPPED' "$1"
		result "no case skipped under x86_64 SMP ($b)" 1
	fi
}

# UML runs the suites with two CPUs on 7.x and with one on 6.12 (no UML
# SMP there); x86_64 SMP adds a real two-LLC topology and the sanitizers,
# and there no case may skip.  On mainline that kernel is the series'
# debug guest kernel with the suites built in (vmkernel.sh:
# configs/vm.config, debug.config and the tree's block/tests/.kunitconfig,
# on allnoconfig), the kernel the short stress boots too: one build serves
# both.  It builds in the background beside the next stages, and kunit.py
# exec boots it at the end (stage_smp_end).  On the LTS base, which the
# guest fragment does not fit, kunit.py builds its own.
stage_smp() {
	local t
	if [ "$b" = mainline ]; then
		vm_base=$b
		vm_wt=$wt
		vm_start=$SECONDS
		in_background "$L/vmkernel.out" "$L/vmkernel.log" \
			tools/env/vmkernel.sh tip "$BSK_TOP/configs/debug.config" "$wt/block/tests/.kunitconfig"
		vm_pid=$!
		info "the series' debug guest kernel with the suites builds in the background (log: $L/vmkernel.log)"
		return
	fi
	stage "KUnit at the tip, $b (x86_64 SMP under sanitizers: QEMU TCG, 2 sockets x 2 CPUs)"
	t=$SECONDS
	KUNIT_DEBUG=1 ARCH=x86_64 step tools/kunit.sh "$wt" >"$L/kunit-x86_64.log" 2>&1
	smp_result "$L/kunit-x86_64.log" $? "$t"
	stage_end
}

stage_smp_end() {
	local rc=0 d=$LOGDIR/$vm_base
	stage "KUnit at the tip, $vm_base (x86_64 SMP under sanitizers: the series' debug guest kernel, QEMU TCG, 2 sockets x 2 CPUs)"
	bg_wait "$vm_pid" || rc=$?
	b=$vm_base
	if [ "$rc" -ne 0 ] || [ ! -s "$d/vmkernel.out" ]; then
		tail -n 3 "$d/vmkernel.log"
		result "the series' debug guest kernel with the suites builds ($b)" 1
	else
		info "$(tail -n 1 "$d/vmkernel.log")"
		KUNIT_DEBUG=1 ARCH=x86_64 KUNIT_KERNEL=$(dirname "$(cat "$d/vmkernel.out")") KUNIT_OUT=$d/kunit-x86_64 \
			step tools/kunit.sh "$vm_wt" >"$d/kunit-x86_64.log" 2>&1
		smp_result "$d/kunit-x86_64.log" $? "$vm_start"
	fi
	stage_end
}

# last_run DIR: the results.json of the last patch's KUnit run in DIR.
last_run() {
	find "$1" -maxdepth 2 -path '*/kunit-*/results.json' 2>/dev/null | sort -V | tail -n 1
}

# Every figure README, docs/, the mails, the reports, results/*/README.md
# and MAINTAINERS-notes state, against this gate's runs (x86_64 SMP; UML,
# PREEMPT_RT and the LTS pass when they ran) and the files they cite.
stage_figures() {
	local d=$LOGDIR/$vm_base rc
	stage "figures and their sources"
	COUNTS_UML_JSON=$(last_run "$d/patches") COUNTS_RT_JSON=$(find "$d/kunit-rt" -name results.json 2>/dev/null) \
		COUNTS_LTS_JSON=$(last_run "$LOGDIR/lts/patches") \
		tools/gate/counts.sh "$d/kunit-x86_64/results.json" >"$d/counts.log" 2>&1
	rc=$?
	grep -Ev '^ok ' "$d/counts.log"
	result "every figure stated in README, docs/, the mails and results/ is its source's ($vm_base)" "$rc"
	stage_end
}

# PREEMPT_RT: spinlock_t sleeps and interrupts are threaded, so the five
# completion cases that need an IPI skip, each saying why; nothing may
# fail and the log may hold no report.  After the smp stage's kernel: never
# two kernel builds at once.
stage_rt() {
	stage "KUnit at the tip, $rt_base, under PREEMPT_RT with the sanitizers (x86_64, QEMU TCG, 2 sockets x 2 CPUs)"
	b=$rt_base
	KUNIT_DEBUG=rt ARCH=x86_64 KUNIT_OUT=$LOGDIR/$b/kunit-rt step tools/kunit.sh "$rt_wt" >"$LOGDIR/$b/kunit-rt.log" 2>&1
	result_of_run "$LOGDIR/$b/kunit-rt.log" $? "KUnit x86_64 SMP under PREEMPT_RT, lockdep and the sanitizers at the tip ($b)" "$BSK_STAGE_T0"
	grep 'SKIPPED' "$LOGDIR/$b/kunit-rt.log" | sed 's/^/      /'
	stage_end
}

stage_send() {
	stage "make send, dry run: each thread from the sender, git am, v1 then v2 with one change-id, interrupted runs keep it"
	step tools/gate/sendcheck.sh >"$L/sendcheck.log" 2>&1
	result_of_run "$L/sendcheck.log" $? "make send dry run" "$BSK_STAGE_T0"
	grep -E '^(PASS|FAIL) ' "$L/sendcheck.log"
	stage_end
}

# The short 'make stress': the mainline series' debug guest kernel
# (configs/vm.config + configs/debug.config) under switching, hotplug and
# injected faults, for CHECK_STRESS_SECONDS (default 120; with the debug
# kernel's boot and setup, about 150 s, the run stays under 5 minutes).
stage_stress() {
	stage "short stress on the series debug guest kernel ($stress_base)"
	BASE=$stress_base STRESS_SECONDS=${CHECK_STRESS_SECONDS:-120} STRESS_OUT=$LOGDIR/stress \
		STRESS_FRAGMENTS=${vm_wt:+$vm_wt/block/tests/.kunitconfig} step tools/stress.sh tip >"$LOGDIR/stress.log" 2>&1
	result_of_run "$LOGDIR/stress.log" $? "short stress, tip kernel ($stress_base)" "$BSK_STAGE_T0"
	grep -E '^(PASS|FAIL) ' "$LOGDIR/stress.log"
	# A report in the guest's log goes into the gate's own output: the log
	# directory is in the cache, gone with a CI machine (the KASAN report
	# of 2026-12-03 was lost so).
	if [ -s "$LOGDIR/stress/series-splats.txt" ]; then
		echo "      the kernel's reports ($LOGDIR/stress/series-splats.txt):"
		head -n 200 "$LOGDIR/stress/series-splats.txt" | sed 's/^/      | /'
	fi
	stage_end
}

# One base: its series, applied, through the selected stages.
check_base() {
	local out
	b=${1%%:*}
	mode=${1#*:}
	export BASE=$b
	SERIES=$(bsk_series)
	L=$LOGDIR/$b
	mkdir -p "$L"
	printf '\n=== %s base, %s (%s) ===\n' "$b" "$(basename "$SERIES")" "$mode" >&2

	! selected lint || stage_lint
	if selected newest; then
		stage "Debian's newest linux-source ($b)"
		out=$(tools/gate/newest.sh "$b" 2>&1)
		result "$out" $?
		stage_end
	fi
	# Every later stage needs the applied tree.
	selected "${TREE_STAGES[@]}" || return 0
	stage_apply || return 0
	if [ "$mode" = full ] && selected patches; then
		# The clang the per-patch builds need depends on the base (its
		# minimum LLVM): installed now as root, else one line; none new
		# enough (or no apt-get to install one) is "n/a" in the table.
		tools/gate/clang.sh "$wt" >/dev/null 2>"$L/clang.err"
		if [ $? -eq 1 ]; then
			cat "$L/clang.err"
			result "a Debian clang for the $b base" 1
			return 0
		fi
	fi
	! selected quilt || stage_quilt
	! selected patches || stage_patches
	! selected nfc || stage_nfc
	! selected reverts || stage_reverts
	if [ "$mode" = full ] && selected smp; then
		if [ "${ARCH:-um}" = um ]; then
			stage_smp
		else
			# it adds x86_64 under QEMU to UML per-patch runs; ARCH= has
			# put those under QEMU already
			result_skip "smp stage" "ARCH=$ARCH: the per-patch runs are already under QEMU, not UML"
		fi
	fi
	if [ "$mode" = full ] && [ "$b" = mainline ]; then
		selected stress && stress_base=$b
		selected rt && rt_base=$b rt_wt=$wt
		! selected send || stage_send
	fi
}

main() {
	local st pass
	cd "$BSK_TOP" || exit 1
	# The gate runs every suite, and picks its own debug run: what is set
	# for 'make kunit' must not narrow or change it.
	unset KUNIT_FILTER KUNIT_DEBUG KUNIT_COVERAGE KUNIT_BUILD_ONLY KUNIT_KERNEL KUNIT_OUT
	check_settings
	# The per-patch runs are UML's (ARCH= picks another); the smp stage
	# adds x86_64 with two LLCs, where no case may skip.
	asked=${STAGES:-}${ARCH:-}
	export ARCH=${ARCH:-um}
	STAGES=${STAGES:-$ALL_STAGES}
	for st in $STAGES; do
		case " $ALL_STAGES " in
		*" $st "*) ;;
		*) die "STAGES: unknown stage '$st' (stages: $ALL_STAGES)" ;;
		esac
	done
	if [ -n "${PATCHES:-}" ]; then
		selected patches || die "PATCHES=$PATCHES is for the per-patch table; add 'patches' to STAGES"
		[ -n "${BASE:-}" ] || [ -n "${KERNEL:-}" ] ||
			die "PATCHES=$PATCHES needs BASE=mainline or BASE=lts: the two series number their patches differently"
		local n
		n=$(series_patches "$(bsk_series)" | wc -l)
		local first=0 last=0
		if [[ $PATCHES =~ ^([1-9][0-9]*)(-([1-9][0-9]*))?$ ]]; then
			first=${BASH_REMATCH[1]}
			last=${BASH_REMATCH[3]:-$first}
		fi
		if [ "$first" -eq 0 ] || [ "$first" -gt "$last" ] || [ "$last" -gt "$n" ]; then
			die "PATCHES=$PATCHES: give a patch number or a range N-M within 1-$n ($(basename "$(bsk_series)"))"
		fi
	fi
	export PATCHES
	# CHECK_ARGS_ONLY=1: the arguments are good; nothing runs (the test of
	# the commands README and docs/ give, tests/readme.bats)
	[ -z "${CHECK_ARGS_ONLY:-}" ] || { info "arguments ok: STAGES=$STAGES${PATCHES:+ PATCHES=$PATCHES}"; exit 0; }
	LOGDIR=$BSK_CACHE/runs/$(date +%Y%m%d-%H%M%S)-check
	mkdir -p "$LOGDIR"
	noapt=
	command -v apt-get >/dev/null 2>&1 || noapt=1
	trap interrupted INT TERM HUP

	stage_deps
	! selected tools || stage_tools

	local passes
	if [ -n "${BASE:-}" ] || [ -n "${KERNEL:-}" ]; then
		# One base named, or the user's own tree (one tree, one series).
		passes=("${BASE:-mainline}:full")
	else
		passes=(mainline:full lts:light)
		if selected "${TREE_STAGES[@]}"; then
			# The LTS base, its series and a warm UML build, in the background.
			# shellcheck disable=SC2016 # expanded by the inner bash
			in_background "$LOGDIR/lts-prep.log" - env BASE=lts SERIES="$(BASE=lts bsk_series)" \
				nice -n 10 bash -c 'wt=$(tools/apply.sh) && KUNIT_BUILD_ONLY=1 tools/kunit.sh "$wt"'
			lts_prep=$!
			info "LTS base, apply and UML build in the background (log: $LOGDIR/lts-prep.log)"
		fi
	fi
	vm_pid=
	vm_wt=
	stress_base=
	rt_base=
	rt_wt=
	if selected lint newest "${TREE_STAGES[@]}"; then
		for pass in "${passes[@]}"; do
			check_base "$pass"
		done
	fi
	[ -z "$vm_pid" ] || stage_smp_end
	[ -z "$rt_base" ] || stage_rt
	[ -z "$vm_pid" ] || stage_figures
	[ -z "$stress_base" ] || stage_stress
	finish
}

main "$@"
