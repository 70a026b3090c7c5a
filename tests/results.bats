#!/usr/bin/env bats
# The committed results say what they are: the stress summary of a run
# with any kernels, one date and one set of kernels per bench table, the
# S3 counts as the committed runs show them, the docs' case counts as the
# suites have them.

bats_require_minimum_version 1.5.0

load helper

setup() {
	common_setup
}

@test "stress summary: an rfc-only run's summary is its rfc.json" {
	command -v jq >/dev/null || skip "no jq"
	d=$BATS_TEST_TMPDIR/out
	mkdir -p "$d"
	cp "$TOP/results/stress/rfc/rfc.json" "$d/"
	STRESS_OUT=$d run "$TOP/tools/stress.sh" summary
	[ "$status" -eq 0 ]
	[ -s "$d/summary.json" ]
	[ "$(jq -c '.rfc' "$d/summary.json")" = "$(jq -c 'del(.kernel)' "$d/rfc.json")" ]
	# what is committed is what the tool writes
	diff -u "$TOP/results/stress/rfc/summary.json" "$d/summary.json"
}

@test "stress summary: the base and series run's summary is what the tool writes" {
	command -v jq >/dev/null || skip "no jq"
	d=$BATS_TEST_TMPDIR/out
	mkdir -p "$d"
	cp "$TOP/results/stress/base.json" "$TOP/results/stress/series.json" "$d/"
	STRESS_OUT=$d run "$TOP/tools/stress.sh" summary
	[ "$status" -eq 0 ]
	diff -u "$TOP/results/stress/summary.json" "$d/summary.json"
}

@test "stress summary: no kernel's json, no summary and a failure" {
	command -v jq >/dev/null || skip "no jq"
	d=$BATS_TEST_TMPDIR/out
	mkdir -p "$d"
	: >"$d/summary.json"
	STRESS_OUT=$d run ! "$TOP/tools/stress.sh" summary
	[ ! -e "$d/summary.json" ]
}

# check_bench_summary DIR: every table of DIR/summary.md is under a
# "## S...: DATE, kernels K..." heading with a "Command:" line, its rows
# are bench_table's of those scenarios and kernels from DIR/summary.csv,
# summary.csv is bench_csv's of DIR/raw, and DATE is the day of every
# fio timestamp in DIR/raw/<S>/.
check_bench_summary() {
	local dir=$1 sc date ks s day
	# shellcheck source=../tools/lib/bench.sh
	. "$TOP/tools/lib/bench.sh"
	diff -u "$dir/summary.csv" <(bench_csv "$dir/raw")
	# no table outside a section with its date and kernels
	awk '/^## / { ok = ($0 ~ /^## [^:]+: 20[0-9][0-9]-[01][0-9]-[0-3][0-9], kernels base( [a-z]+)*$/) }
	     /^\|/ && !ok { print FILENAME ": a table row under no dated heading: " $0; bad = 1 }
	     END { exit bad }' "$dir/summary.md"
	while IFS='|' read -r sc date ks; do
		awk -v h="## $sc: $date, kernels $ks" '$0 == h { f = 1; next } /^## / { f = 0 } f && /^Command: `/ { n++ } END { exit !n }' "$dir/summary.md"
		diff -u <(awk -v h="## $sc: $date, kernels $ks" '$0 == h { f = 1; next } /^## / { f = 0 } f && /^\|/' "$dir/summary.md") \
			<({ head -n 1 "$dir/summary.csv"; grep -E "^(${sc// /|})," "$dir/summary.csv"; } | bench_table $ks)
		for s in $sc; do
			day=$(jq -r .timestamp "$dir"/raw/"$s"/*/*.json | xargs -I{} date -u -d @{} +%F | sort -u)
			[ "$day" = "$date" ] || { echo "$dir: $s ran on $day, its heading says $date"; return 1; }
		done
	done < <(sed -nE 's/^## (S[1-6]( S[1-6])*): ([0-9-]{10}), kernels (.*)$/\1|\3|\4/p' "$dir/summary.md")
	grep -qE '^## S[1-6]' "$dir/summary.md"
}

@test "bench summaries: one date, one set of kernels and the command per table" {
	command -v jq >/dev/null || skip "no jq"
	for d in bench bench-v2 bench-s4-rfc; do
		check_bench_summary "$TOP/results/$d"
	done
}

@test "S3: README, results/s3-trace and the report give the committed runs' counts" {
	local tsv=("$TOP"/results/bench/raw/S3/*/metrics.tsv) slow all icount
	# plain TCG: BFQ with idling over twice mq-deadline's longest reader
	read -r slow all < <(awk -F'\t' '$4 == "seconds (rot)" && $3 == "mq-deadline" && $5 > m { m = $5 }
		$4 == "seconds (rot)" && ($3 == "bfq" || $3 == "bfq low_latency=0") { v[++n] = $5 }
		END { for (i = 1; i <= n; i++) s += v[i] > 2 * m; print s, n }' "${tsv[@]}")
	[ "$all" -eq 18 ]
	icount=$(awk -F, '$1 == "bfq" && $6 == "yes"' "$TOP/results/s3-trace/run/passes.csv" | wc -l)
	for f in README.md results/s3-trace/README.md; do
		run ! grep -q '4 of 18' "$TOP/$f"
		tr '\n' ' ' <"$TOP/$f" | tr -s ' ' | grep -q "all $all passes of BFQ with idling\|all $all of its passes\|BFQ with idling took [0-9.-]* s (longest reader) in all $all plain-TCG passes"
		tr '\n' ' ' <"$TOP/$f" | tr -s ' ' | grep -q "$icount of 8"
		tr '\n' ' ' <"$TOP/$f" | tr -s ' ' | grep -q 'no seek cost'
	done
	[ "$slow" -eq "$all" ]
	r=$TOP/patches/report-bfq-s3-slow-mode
	run ! grep -q '4 of 18' "$r"
	tr '\n' ' ' <"$r" | tr -s ' ' | grep -q "all $all passes of bfq with idling"
	# not ready to send: its first line says so
	[[ "$(head -n 1 "$r")" == "Draft: not ready to send: "* ]]
}

@test "docs: the completion cases that skip, as the suite has them" {
	local p=$TOP/patches/blk-mq-add-KUnit-tests-for-completion-routing.patch w n
	w=(zero one two three four five six seven eight nine ten eleven twelve)
	n=$(grep -c 'BLK_MQ_TEST_ROUTE("[^"]*same LLC' "$p")
	[ "$n" -eq 4 ]
	tr '\n' ' ' <"$TOP/docs/reference.md" | grep -oE '[a-z]+ same-LLC' | sort -u >"$BATS_TEST_TMPDIR/said"
	[ "$(cat "$BATS_TEST_TMPDIR/said")" = "${w[n]} same-LLC" ]
}

@test "docs: bases.md counts series-6.12's mainline and 6.12 patches" {
	local w=(zero one two three four five six seven) m l
	m=$(grep -v '^#' "$TOP/series-6.12" | grep . | grep -vc '^6\.12/')
	l=$(grep -v '^#' "$TOP/series-6.12" | grep -c '^6\.12/')
	tr '\n' ' ' <"$TOP/docs/bases.md" | tr -s ' ' | grep -q "unchanged (${w[m]} of them)"
	tr '\n' ' ' <"$TOP/docs/bases.md" | tr -s ' ' | grep -q "its own version (${w[l]};"
}

@test "docs: benchmarks.md names the committed S4 icount figures; timings.md does not claim current figures only" {
	[ -f "$TOP/results/bench/icount-s45/icount.md" ]
	grep -q '^## S4' "$TOP/results/bench/icount-s45/icount.md"
	run ! grep -q 'No S4 figure is committed' "$TOP/docs/benchmarks.md"
	grep -q 'results/bench/icount-s45/icount.md' "$TOP/docs/benchmarks.md"
	run ! grep -q '^Current figures only' "$TOP/docs/timings.md"
}
