#!/usr/bin/env bats
# Committed evidence changes only on purpose: every tool writes a run
# directory of its own, and make promote copies one run into results/.

load helper
bats_require_minimum_version 1.5.0

setup() {
	common_setup
	T=$BATS_TEST_TMPDIR/top
	mkdir -p "$T/results/bench" "$T/tools"
	cp -r "$TOP/tools/lib" "$TOP/tools/promote.sh" "$T/tools/"
	echo old >"$T/results/bench/summary.md"
	echo kept >"$T/results/bench/other.md"
	git -C "$T" init -q && git -C "$T" add -A && git -C "$T" commit -q -m results
	R=$BSK_CACHE/runs/20261206-000000-bench
	mkdir -p "$R"
	echo new >"$R/summary.md"
	ln -s /nonexistent "$R/build"
}

@test "promote: one run into results/, the same names replaced, nothing else removed, the run named" {
	run "$T/tools/promote.sh" "$R" results/bench
	[ "$status" -eq 0 ]
	[ "$(cat "$T/results/bench/summary.md")" = new ]
	[ "$(cat "$T/results/bench/other.md")" = kept ]
	[ ! -e "$T/results/bench/build" ]
	grep -qx "promoted from 20261206-000000-bench on $(date -u +%Y-%m-%d)" "$T/results/bench/PROMOTED"
}

@test "promote: uncommitted changes in the target, a target outside results/ or no run: one line, nothing copied" {
	echo mine >"$T/results/bench/summary.md"
	run ! "$T/tools/promote.sh" "$R" results/bench
	[ "$output" = "promote.sh: error: results/bench has uncommitted changes; commit or stash them first" ]
	[ "$(cat "$T/results/bench/summary.md")" = mine ]
	run ! "$T/tools/promote.sh" "$R" docs
	[ "${#lines[@]}" -eq 1 ]
	run ! "$T/tools/promote.sh" "$BATS_TEST_TMPDIR/none" results/bench
	[ "${#lines[@]}" -eq 1 ]
}

@test "no tool writes results/ by default: each run goes to a directory of its own" {
	# (make send's mails go to results/outgoing/, which is not committed)
	run ! grep -nE '_OUT:-\$BSK_TOP/results/[^o]|^out=\$BSK_TOP/results' "$TOP"/tools/*.sh "$TOP"/tools/*/*.sh
	for t in bench bench-icount blktests stress s3-trace coverage lava; do
		grep -qE '(run_dir|out_dir [A-Z_]+) ' "$TOP/tools/$t.sh" || { echo "$t.sh"; false; }
	done
}
