#!/usr/bin/env bats
# bench.sh, s3-trace.sh, stress.sh and vmkernel.sh: bad input gets one error line before anything
# is fetched or built; and how bench.sh reads its figures (tools/lib/bench.sh), on the committed run.

load helper

setup() {
	common_setup
}

@test "bench: unknown scenario, one error line" {
	S=S9 run "$TOP/tools/bench.sh"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "${lines[0]}" == "bench.sh: error: unknown scenario 'S9' (have: "* ]]
}

@test "bench: RUNS must be a positive number" {
	S=S1 RUNS=0 run "$TOP/tools/bench.sh"
	[ "$status" -eq 1 ]
	[[ "$output" == "bench.sh: error: RUNS=0 is not a positive number" ]]
}

@test "bench: the committed run's figures read back to its summary.csv and table" {
	# shellcheck source=../tools/lib/bench.sh
	. "$TOP/tools/lib/bench.sh"
	bench_csv "$TOP/results/bench/raw" >"$BATS_TEST_TMPDIR/summary.csv"
	diff -u "$TOP/results/bench/summary.csv" "$BATS_TEST_TMPDIR/summary.csv"
	# its tables, one per run with that run's kernels: tests/results.bats
}

@test "bench: the guest's figures of fio's JSON (tools/vm/fio.jq) are those the committed run recorded" {
	command -v jq >/dev/null || skip "no jq (deps.sh vm)"
	R=$TOP/results/bench/raw
	# FILE (of R/S/base)|FIGURE|SCHEDULER|METRIC, each of run 1 of S's base kernel
	while IFS='|' read -r f fig sched metric; do
		echo "row: $f|$fig|$sched|$metric"
		s=${f%%/*}
		got=$(sed -n '/^{/,$p' "$R/$s/base/${f#*/}" | jq -L "$TOP/tools/vm" "include \"fio\"; $fig")
		want=$(awk -F'\t' -v sc="$sched" -v m="$metric" '$3 == sc && $4 == m && $6 == 1 { print $5 }' "$R/$s/base/metrics.tsv")
		echo "got $got, recorded $want"
		[ -n "$want" ]
		awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; exit !(d * d <= 1e-18 * b * b) }'
	done <<-'EOT'
		S1/bfq-5-1.json|read_mibs|bfq|MiB/s
		S1/bfq-5-1.json|read_clat_us|bfq|read clat mean (us)
		S1/mq-deadline-20-1.json|read_mibs|mq-deadline|MiB/s at 20 ms per command
		S2/bfq-latched-1.json|read_mibs|bfq (latched)|MiB/s
		S3/bfq-low_latency0-rot-1.json|runtime_s|bfq low_latency=0|seconds (rot)
		S4/bfq-ll1-1.json|reader_clat_us("99.000000")|bfq low_latency=1|read clat p99 (us)
		S4/bfq-ll1-1.json|writers_mibs|bfq low_latency=1|write MiB/s
		S5/none-rq0-1.json|kiops("read")|rq_affinity=0|kIOPS
		S6/mq-deadline-nr256-nm0-1.json|sys_us_per_write|mq-deadline|sys us/IO (nr_requests=256 nomerges=0)
		S6/mq-deadline-nr256-nm0-1.json|kiops("write")|mq-deadline|kIOPS (nr_requests=256 nomerges=0)
	EOT
}

@test "bench: each kernel has its column and its ratio to the base; a figure a kernel lacks is a dash" {
	mkdir -p "$BATS_TEST_TMPDIR/raw/S1/base" "$BATS_TEST_TMPDIR/raw/S1/series" "$BATS_TEST_TMPDIR/raw/S2/rfc" \
		"$BATS_TEST_TMPDIR/raw/S2/base"
	printf 'S1\tbase\tbfq\tMiB/s\t%s\t%s\n' 10 1 12 2 11 3 >"$BATS_TEST_TMPDIR/raw/S1/base/metrics.tsv"
	printf 'S1\tseries\tbfq\tMiB/s\t%s\t%s\n' 9 1 9 2 9 3 >"$BATS_TEST_TMPDIR/raw/S1/series/metrics.tsv"
	printf 'S2\tbase\tbfq (fresh)\tMiB/s\t%s\t%s\n' 8 1 8 2 >"$BATS_TEST_TMPDIR/raw/S2/base/metrics.tsv"
	printf 'S2\trfc\tbfq (fresh)\tMiB/s\t%s\t%s\n' 2 1 4 2 >"$BATS_TEST_TMPDIR/raw/S2/rfc/metrics.tsv"
	# shellcheck source=../tools/lib/bench.sh
	. "$TOP/tools/lib/bench.sh"
	run bench_table base series rfc < <(bench_csv "$BATS_TEST_TMPDIR/raw")
	[ "${lines[0]}" = "| scenario | scheduler | metric | base | series | rfc | series/base | rfc/base |" ]
	[ "${lines[2]}" = "| S1 | bfq | MiB/s | 11 (10–12) | 9 (9–9) | – | 0.818 | – |" ]
	[ "${lines[3]}" = "| S2 | bfq (fresh) | MiB/s | 8 (8–8) | – | 3 (2–4) | – | 0.375 |" ]
	[ "${#lines[@]}" -eq 4 ]
}

@test "vmkernel: unknown kind and missing fragment, one error line each" {
	run "$TOP/tools/env/vmkernel.sh" tipp
	[ "$status" -eq 1 ]
	[[ "$output" == "vmkernel.sh: error: usage: vmkernel.sh base|series|rfc|tip|debug [FRAGMENT...]" ]]
	run "$TOP/tools/env/vmkernel.sh" series "$BATS_TEST_TMPDIR/none.config"
	[ "$status" -eq 1 ]
	[[ "$output" == "vmkernel.sh: error: no config fragment $BATS_TEST_TMPDIR/none.config" ]]
}

@test "vmkernel: the rfc kernel of a series without an RFC thread, one error line" {
	mkdir -p "$BATS_TEST_TMPDIR/top"
	# the repository's series without its RFC thread
	awk '/^# thread / { t = $3 } t != "rfc:"' "$TOP/series" >"$BATS_TEST_TMPDIR/top/series"
	BSK_TOP=$BATS_TEST_TMPDIR/top run "$TOP/tools/env/vmkernel.sh" rfc
	[ "$status" -eq 1 ]
	[[ "$output" == "vmkernel.sh: error: $BATS_TEST_TMPDIR/top/series has no RFC thread ('# thread rfc:'): there is no rfc kernel" ]]
}

@test "stress: unknown kernel and bad STRESS_SECONDS, one error line each" {
	run "$TOP/tools/stress.sh" tipp
	[ "$status" -eq 1 ]
	[[ "$output" == "stress.sh: error: usage: stress.sh [base|series|rfc|tip...] (not 'tipp')" ]]
	STRESS_SECONDS=soon run "$TOP/tools/stress.sh" series
	[ "$status" -eq 1 ]
	[[ "$output" == "stress.sh: error: STRESS_SECONDS=soon is not a positive number" ]]
}

@test "bench: S3's job file lays out files that its read pass reads as they are" {
	command -v fio >/dev/null || skip "no fio (deps.sh vm)"
	d=$BATS_TEST_TMPDIR/s3
	mkdir -p "$d"
	S3_DIR=$d S3_CREATE=1 run fio --output=/dev/null "$TOP/tools/vm/s3.fio"
	[ "$status" -eq 0 ]
	[ "$(find "$d" -type f | wc -l)" -eq 8000 ]
	before=$(find "$d" -type f -printf '%P %s %T@\n' | sort)
	total=$(find "$d" -type f -printf '%s\n' | awk '{ t += $1 } END { print t }')
	S3_DIR=$d S3_CREATE=0 run fio --output-format=json "$TOP/tools/vm/s3.fio"
	[ "$status" -eq 0 ]
	# every byte read once, and no file laid out again
	[ "$(sed -n '/^{/,$p' <<<"$output" | jq '[.jobs[].read.io_bytes] | add')" -eq "$total" ]
	[ "$(find "$d" -type f -printf '%P %s %T@\n' | sort)" = "$before" ]
}

@test "bench ICOUNT=1: bad ICOUNT_COUNT, ICOUNT_PROFILE or a scenario, one error line each" {
	ICOUNT=1 ICOUNT_COUNT=lots run "$TOP/tools/bench.sh"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "bench-icount.sh: error: ICOUNT_COUNT=lots: give a number of reads, 1000 or more" ]]
	ICOUNT=1 ICOUNT_COUNT=999 run "$TOP/tools/bench.sh"
	[ "$status" -eq 1 ]
	[[ "$output" == "bench-icount.sh: error: ICOUNT_COUNT=999: "* ]]
	ICOUNT=1 ICOUNT_PROFILE=yes run "$TOP/tools/bench.sh"
	[ "$status" -eq 1 ]
	[[ "$output" == "bench-icount.sh: error: ICOUNT_PROFILE=yes: 0 or 1" ]]
	ICOUNT=1 S=S2 run "$TOP/tools/bench.sh"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "bench-icount.sh: error: S=S2: ICOUNT=1 counts S1, S4, S5, S6 and S7"* ]]
	ICOUNT=1 S="S1 S8" run "$TOP/tools/bench.sh"
	[ "$status" -eq 1 ]
	[[ "$output" == "bench-icount.sh: error: S=S1 S8: ICOUNT=1 counts S1, S4, S5, S6 and S7"* ]]
	ICOUNT=1 ICOUNT_PROFILE=1 S=S6 run "$TOP/tools/bench.sh"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "bench-icount.sh: error: ICOUNT_PROFILE=1 profiles S1's path; S=S6 leaves S1 out" ]]
	ICOUNT=2 run "$TOP/tools/bench.sh"
	[ "$status" -eq 1 ]
	[[ "$output" == "bench.sh: error: ICOUNT=2: 0 or 1" ]]
}

@test "s3-trace: bad PASSES, SPECS or ICOUNT, one error line each; a full TRACE_OUT is left alone" {
	PASSES=0 run "$TOP/tools/s3-trace.sh"
	[ "$status" -eq 1 ]
	[[ "$output" == "s3-trace.sh: error: PASSES=0 is not a positive number" ]]
	SPECS="bfq cfq" run "$TOP/tools/s3-trace.sh"
	[ "$status" -eq 1 ]
	[[ "$output" == "s3-trace.sh: error: SPECS: 'cfq' is not SCHED or SCHED:TUNABLE=N (e.g. bfq:slice_idle=0)" ]]
	SPECS="bfq:slice_idle" run "$TOP/tools/s3-trace.sh"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	ICOUNT=2 run "$TOP/tools/s3-trace.sh"
	[ "$status" -eq 1 ]
	[[ "$output" == "s3-trace.sh: error: ICOUNT=2: 0 or 1" ]] # check_settings, through lib/vm.sh
	mkdir -p "$BATS_TEST_TMPDIR/out"
	echo mine >"$BATS_TEST_TMPDIR/out/notes"
	TRACE_OUT=$BATS_TEST_TMPDIR/out run "$TOP/tools/s3-trace.sh"
	[ "$status" -eq 1 ]
	[[ "$output" == "s3-trace.sh: error: TRACE_OUT=$BATS_TEST_TMPDIR/out is not empty; remove it or choose another" ]]
	[ "$(cat "$BATS_TEST_TMPDIR/out/notes")" = mine ]
}
