#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# check.sh - the full gate (docs/gate.md): the stages of tools/gate/stages/ (DESCRIPTION,
# requires: why not here; run TREE BASE SERIES LOGDIR) in order, around background builds.
# shellcheck disable=SC2317 # functions for the stage files and the trap
set -uo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

ALL_STAGES="tools lint newest quilt patches nfc reverts smp rt send stress"
TREE_STAGES=" quilt patches nfc reverts vmkernel smp rt figures send stress "
T0=$SECONDS
declare -A job=()

finish() { # the full gate has not passed if it could not run all of itself
	local full=0
	printf '\ncheck: logs in %s; total %ds\n' "$LOGDIR" $((SECONDS - T0))
	[ -n "$asked" ] || [ "${#BSK_SKIPS[@]}" -eq 0 ] || full=1
	[ "$full" = 0 ] || printf 'check: %s checks skipped: the full gate has not passed (STAGES= asks for a subset)\n' "${#BSK_SKIPS[@]}"
	results_end && [ "$full" = 0 ]
	exit
}

# join KEY: wait for the background job a stage needs (its status: its .rc file)
join() {
	local pid rcf rc=0
	[ -n "${job[$1]:-}" ] || return 0
	read -r pid rcf <<<"${job[$1]}"
	bg_wait "$pid" || rc=$?
	echo "$rc" >"$rcf"
	return "$rc"
}

interrupted() {
	trap - INT TERM HUP
	bg_stop
	! declare -F cleanup >/dev/null || cleanup "${args[@]}"
	printf 'check: interrupted; background builds stopped (logs in %s)\n' "$LOGDIR" >&2
	exit 130
}

selected() { [[ " $STAGES " == *" $1 "* ]]; }

# needs PROGRAM...: for requires; with apt-get, deps.sh has installed them.
needs() {
	local p miss=()
	[ -n "$noapt" ] || return 0
	for p in "$@"; do command -v "$p" >/dev/null 2>&1 || miss+=("$p"); done
	[ ${#miss[@]} -eq 0 ] || { echo "needs ${miss[*]} (not installed, and no apt-get here)"; return 1; }
}

load() { # FILE: the stage tools/gate/stages/FILE.sh
	unset -f requires run cleanup
	DESCRIPTION=$1
	requires() { :; }
	# shellcheck source=/dev/null
	. "$BSK_TOP/tools/gate/stages/$1.sh"
}

wanted() { # FILE: asked for and not skipped
	case $1 in
	shellcheck | bats) selected tools ;;
	vmkernel | figures) wanted smp ;;
	*) selected "$1" ;;
	esac && [[ $skipped != *" $1 "* ]]
}

apply() { # "TREE BASE-COMMIT" of the series on $BASE in $L/tree; empty if it failed
	local wt base
	stage "base and apply ($BASE)"
	join "$BASE:apply" || {
		tail -n 3 "$LOGDIR/lts-prep.log"
		info "the background LTS preparation failed; trying again here"
	}
	wt=$(tools/apply.sh "$SERIES")
	result "git am of $(basename "$SERIES") onto the $BASE base" $?
	stage_end
	: >"$L/tree"
	[ -n "$wt" ] || return 0
	read -r _ _ base < <(tools/env/tree.sh)
	echo "$wt $base" >"$L/tree"
}

main() {
	local st f b m e cur='' wt base label passes plan=() later=()
	cd "$BSK_TOP" || exit 1
	# nothing set for 'make kunit' may narrow or change the gate's runs
	unset KUNIT_FILTER KUNIT_DEBUG KUNIT_COVERAGE KUNIT_BUILD_ONLY KUNIT_KERNEL KUNIT_OUT
	check_settings
	asked=${STAGES:-}${ARCH:-}
	export ARCH=${ARCH:-um}
	STAGES=${STAGES:-$ALL_STAGES}
	for st in $STAGES; do
		[[ " $ALL_STAGES " == *" $st "* ]] || die "STAGES: unknown stage '$st' (stages: $ALL_STAGES)"
	done
	if [ -n "${PATCHES:-}" ]; then
		selected patches || die "PATCHES=$PATCHES is for the per-patch table; add 'patches' to STAGES"
		[ -n "${BASE:-}" ] || [ -n "${KERNEL:-}" ] ||
			die "PATCHES=$PATCHES needs BASE=mainline or BASE=lts: the two series number their patches differently"
		patch_range "$(series_patches "$(bsk_series)" | wc -l)" "$(basename "$(bsk_series)")" >/dev/null || exit 1
	fi
	export PATCHES
	[ -z "${CHECK_ARGS_ONLY:-}" ] || { info "arguments ok: STAGES=$STAGES${PATCHES:+ PATCHES=$PATCHES}"; exit 0; }
	LOGDIR=$(run_dir check)
	noapt=$(command -v apt-get >/dev/null 2>&1 || echo 1)
	trap interrupted INT TERM HUP

	stage "dependencies"
	local groups=(base build x86 vm check) what=dependencies
	[ -z "$noapt" ] || groups=(base build) what="dependencies (base, build; no apt-get: stages that need more are skipped)"
	tools/env/deps.sh "${groups[@]}"
	result "$what" $?
	skipped=" "
	for st in shellcheck bats lint newest quilt patches nfc reverts smp rt send stress; do
		wanted "$st" || continue
		load "$st"
		e=$(requires) && continue
		result_skip "$DESCRIPTION" "$e"
		skipped+="$st "
	done
	[ "$BSK_FAILED" -eq 0 ] || finish
	stage_end

	# the run order (docs/gate.md, "Stages")
	plan=(-:-:shellcheck -:-:bats)
	passes=(mainline:full lts:light)
	[ -z "${BASE:-}${KERNEL:-}" ] || passes=("${BASE:-mainline}:full")
	for e in "${passes[@]}"; do
		b=${e%:*} m=${e#*:}
		for st in lint newest quilt patches nfc reverts; do plan+=("$b:$m:$st"); done
		case $m:$b in
		full:mainline) plan+=("$b:$m:vmkernel" "$b:$m:send") later+=("$b:$m:smp" "$b:$m:rt" "$b:$m:figures" "$b:$m:stress") ;;
		full:*) plan+=("$b:$m:smp") ;;
		esac
	done
	if [ "${passes[1]:-}" = lts:light ] && { wanted quilt || wanted patches || wanted nfc || wanted reverts; }; then
		# shellcheck disable=SC2016 # expanded by the inner bash
		bg env BASE=lts SERIES="$(BASE=lts bsk_series)" nice -n 10 \
			bash -c 'wt=$(tools/apply.sh) && KUNIT_BUILD_ONLY=1 tools/kunit.sh "$wt"' >"$LOGDIR/lts-prep.log" 2>&1
		job[lts:apply]="$! $LOGDIR/lts-prep.rc"
		info "LTS base, apply and UML build in the background (log: $LOGDIR/lts-prep.log)"
	fi
	for e in "${plan[@]}" "${later[@]}"; do
		IFS=: read -r b m f <<<"$e"
		wanted "$f" || continue
		wt='' base='' L=$LOGDIR/$b label=" ($b)"
		[ "$b" != - ] || L=$LOGDIR label=
		if [ "$b" != - ] && [ "$b:$m" != "$cur" ]; then
			cur=$b:$m
			BASE=$b CHECK_LIGHT=$([ "$m" = full ]; echo $?)
			export BASE CHECK_LIGHT
			SERIES=$(bsk_series)
			mkdir -p "$L"
			printf '\n=== %s base, %s (%s) ===\n' "$b" "$(basename "$SERIES")" "$m" >&2
		fi
		if [[ $TREE_STAGES == *" $f "* ]]; then
			[ -f "$L/tree" ] || apply
			read -r wt base <"$L/tree" || continue
		fi
		args=("$wt" "$base" "${SERIES:-}" "$L")
		if [ "$f" = vmkernel ]; then
			bg tools/env/vmkernel.sh tip "$BSK_TOP/configs/debug.config" "$wt/block/tests/.kunitconfig" \
				>"$L/vmkernel.out" 2>"$L/vmkernel.log"
			job[$b:smp]="$! $L/vmkernel.rc"
			info "the series' debug guest kernel with the suites builds in the background (log: $L/vmkernel.log)"
			continue
		fi
		load "$f"
		stage "$DESCRIPTION$label"
		join "$b:$f"
		run "${args[@]}"
		stage_end
		unset -f cleanup
	done
	finish
}

main "$@"
