#!/usr/bin/env bats
# tools/lib/icount.sh: how 'make bench ICOUNT=1' reads the guest's figures,
# tested on the runs committed under results/bench (as kunit.py tests its
# parser on recorded logs): the tables and the CSV it publishes, and the
# 0.2% rule on the repeats.

load helper
bats_require_minimum_version 1.5.0

setup() {
	common_setup
	icount="-icount shift=0,sleep=off -accel tcg,thread=single"
}

# reads DIR SCEN COUNT: icount.md and icount.csv made again from DIR's
# icount-raw/icount.csv must be DIR's own (the day is the one it states).
reads() {
	local day
	day=$(grep -o "Produced by \`make bench ICOUNT=1 S='$2'\` ([0-9-]*)" "$1/icount.md" | grep -oE '[0-9]{4}-[0-9-]+')
	[ -n "$day" ]
	raw=$1/icount-raw scen=$2 count=$3
	# shellcheck source=../tools/lib/icount.sh
	. "$TOP/tools/lib/icount.sh"
	icount_md v7.3.4 "$day" >"$BATS_TEST_TMPDIR/icount.md"
	icount_csv >"$BATS_TEST_TMPDIR/icount.csv"
	diff -u "$1/icount.md" "$BATS_TEST_TMPDIR/icount.md"
	diff -u "$1/icount.csv" "$BATS_TEST_TMPDIR/icount.csv"
	[ -z "$(icount_bad)" ]
}

@test "icount: S1's committed runs read back to their tables and CSV" {
	reads "$TOP/results/bench" S1 60000
	reads "$TOP/results/bench/icount-run2" S1 60000
	reads "$TOP/results/bench/icount-split" S1 60000
}

@test "icount: the RFC's fourth to ninth versions, S1 and S7, read back to their tables and CSV" {
	reads "$TOP/results/bench/icount-rfc-v9" 'S1 S7' 60000
	reads "$TOP/results/bench/icount-rfc-v8" 'S1 S7' 60000
	reads "$TOP/results/bench/icount-rfc-v7" 'S1 S7' 60000
	reads "$TOP/results/bench/icount-rfc-v6" 'S1 S7' 60000
	reads "$TOP/results/bench/icount-rfc-v5" 'S1 S7' 60000
	reads "$TOP/results/bench/icount-rfc-v5-run1" 'S1 S7' 60000
	reads "$TOP/results/bench/icount-rfc-v4" 'S1 S7' 60000
	reads "$TOP/results/bench/icount-rfc-v4-nobit" 'S1 S7' 60000
}

@test "icount: S5's committed run reads back to its tables and CSV" {
	reads "$TOP/results/bench/icount-s5-rfc" S5 60000
}

@test "icount: S6's committed runs read back to their tables and CSV" {
	reads "$TOP/results/bench/icount-s6" S6 60000
	reads "$TOP/results/bench/icount-s6-run2" S6 60000
	reads "$TOP/results/bench/icount-s6-rfc" S6 60000
}

# repeat LINE FACTOR: the committed S1 run with LINE's repeat scaled.
repeat() {
	mkdir -p "$BATS_TEST_TMPDIR/raw"
	awk -F, -v OFS=, -v l="$1" -v f="$2" 'NR == l { $5 = sprintf("%.1f", $5 * f) } { print }' \
		"$TOP/results/bench/icount-raw/icount.csv" >"$BATS_TEST_TMPDIR/raw/icount.csv"
	raw=$BATS_TEST_TMPDIR/raw scen=S1 count=60000
	# shellcheck source=../tools/lib/icount.sh
	. "$TOP/tools/lib/icount.sh"
}

@test "icount: an S1 repeat 0.3% off the first figure fails the run, naming it" {
	repeat 4 1.003
	# line 1: the first figure of what line 4 repeats
	first=$(awk -F, 'NR == 1 { print $5 }' "$BATS_TEST_TMPDIR/raw/icount.csv")
	again=$(awk -F, 'NR == 4 { print $5 }' "$BATS_TEST_TMPDIR/raw/icount.csv")
	run icount_bad
	# named, with both figures and a difference beyond 0.2% (the
	# committed repeat is a little off the first already)
	[[ "$output" == "S1-rot0,base,none,instructions per I/O: $first then $again (+0."[2-9]*"%)" ]]
}

@test "icount: an S1 repeat within 0.2% passes" {
	repeat 4 1.0015
	run icount_bad
	[ -z "$output" ]
	repeat 16 0.999
	run icount_bad
	[ -z "$output" ]
}

@test "icount: S4 and S5 repeats are reported, not held to 0.2%" {
	mkdir -p "$BATS_TEST_TMPDIR/raw"
	printf '%s\n' 'S5,base,bfq rq_affinity=2,instructions per I/O,20000,1' \
		'S5,base,bfq rq_affinity=2,instructions per I/O,20400,2' >"$BATS_TEST_TMPDIR/raw/icount.csv"
	raw=$BATS_TEST_TMPDIR/raw scen=S5 count=60000
	# shellcheck source=../tools/lib/icount.sh
	. "$TOP/tools/lib/icount.sh"
	run icount_bad
	[ -z "$output" ]
	run icount_md v7.3.4 2026-12-04
	[[ "$output" == *"Two vCPUs: run 2 differs from run 1 by up to 2.00%."* ]]
}

@test "icount: S1's split of what a scheduler adds: the kblockd hop, the merge attempts and the rest add up to it" {
	mkdir -p "$BATS_TEST_TMPDIR/raw"
	# base: mq-deadline adds 900 over none; rfc: 200, of which nomerges=2
	# saves mq-deadline 50 and none 10
	{
		for k in base series; do
			printf 'S1-rot0,%s,%s,instructions per I/O,%s,1\n' "$k" none 100 "$k" mq-deadline 1000 \
				"$k" 'none nomerges=2' 90 "$k" 'mq-deadline nomerges=2' 950
		done
		printf 'S1-rot0,rfc,%s,instructions per I/O,%s,1\n' none 100 mq-deadline 300 \
			'none nomerges=2' 90 'mq-deadline nomerges=2' 250
	} >"$BATS_TEST_TMPDIR/raw/icount.csv"
	raw=$BATS_TEST_TMPDIR/raw scen=S1 count=60000
	# shellcheck source=../tools/lib/icount.sh
	. "$TOP/tools/lib/icount.sh"
	run icount_md v7.3.4 2026-12-06
	[[ "$output" == *"| 0 | mq-deadline | +900.0 | +700.0 (77.8%) | +40.0 (4.4%) | +160.0 (17.8%) |"* ]]
	# each scheduler's nomerges=2 row is against none's nomerges=2
	[[ "$output" == *"| 0 | mq-deadline nomerges=2 | 950 | 950 | 1.0000 | +860.0 | +860.0 |"* ]]
}
