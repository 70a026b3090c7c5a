#!/usr/bin/env bats
# make hwbench (tools/hwbench.sh): bad input gets one error line before
# anything runs; a recorded run on a loop device (tests/fixtures/hwbench,
# its README) reads back to its summary.csv; the LAVA test definition and
# job template (lava/) parse and call the tool.

load helper
bats_require_minimum_version 1.5.0

F=$TOP/tests/fixtures/hwbench

setup() {
	common_setup
	unset HWBENCH_SECONDS HWBENCH_RUNS HWBENCH_JOBS HWBENCH_NUMJOBS HWBENCH_SCHEDULERS HWBENCH_DESTROY HWBENCH_OUT
	R=$BATS_TEST_TMPDIR/run
	mkdir -p "$R"
	cp -r "$F/." "$R/"
	rm "$R/summary.csv" "$R/metrics.tsv"
}

@test "hwbench: bad input, one error line each, before anything runs" {
	run -1 "$TOP/tools/hwbench.sh"
	[ "$output" = "hwbench.sh: error: usage: hwbench.sh DEVICE (a whole disk: make hwbench DEV=/dev/sdX)" ]
	run -1 "$TOP/tools/hwbench.sh" "$F/header.txt"
	[ "$output" = "hwbench.sh: error: $F/header.txt is not a block device" ]
	HWBENCH_JOBS="psync-qd1 psync-qd4" run -1 "$TOP/tools/hwbench.sh" /dev/null
	[ "$output" = "hwbench.sh: error: HWBENCH_JOBS: unknown job 'psync-qd4' (have: psync-qd1 libaio-qd1 libaio-qd2 writeback)" ]
	HWBENCH_SECONDS=0 run -1 "$TOP/tools/hwbench.sh" /dev/null
	[ "$output" = "hwbench.sh: error: HWBENCH_SECONDS=0: a whole number above 0" ]
	HWBENCH_NUMJOBS="1 x" run -1 "$TOP/tools/hwbench.sh" /dev/null
	[ "$output" = "hwbench.sh: error: HWBENCH_NUMJOBS: 'x' is not a whole number above 0" ]
	HWBENCH_SCHEDULERS=cfq run -1 "$TOP/tools/hwbench.sh" /dev/null
	[ "$output" = "hwbench.sh: error: HWBENCH_SCHEDULERS: unknown scheduler 'cfq' (have: none mq-deadline kyber bfq)" ]
	run -1 "$TOP/tools/hwbench.sh" summarize "$BATS_TEST_TMPDIR"
	[ "${#lines[@]}" -eq 1 ]
}

@test "hwbench: the recorded loop-device run reads back to its metrics.tsv and summary.csv" {
	"$TOP/tools/hwbench.sh" summarize "$R"
	diff -u "$F/metrics.tsv" "$R/metrics.tsv"
	diff -u "$F/summary.csv" "$R/summary.csv"
}

@test "hwbench: figures of the recorded run, checked by hand against fio's JSON and the disk's stat" {
	"$TOP/tools/hwbench.sh" summarize "$R"
	# 6 scenarios x 2 schedulers x 9 figures, the writer's MiB/s in 4; a header
	[ "$(wc -l <"$R/summary.csv")" -eq 113 ]
	# p99 24448 and 53504 ns in runs 1 and 2; 82298.85 and 63109.45 IOPS
	grep -qxF 'psync-qd1-j1,6.18.44-fc-v1300,none,"read clat p99 (us)",38.98,24.45,53.5,2' "$R/summary.csv"
	grep -qxF 'psync-qd1-j1,6.18.44-fc-v1300,none,"read IOPS",72704,63109,82299,2' "$R/summary.csv"
	# ctx 164721 over 164680 reads, 126340 over 126282
	grep -qxF 'psync-qd1-j1,6.18.44-fc-v1300,none,"context switches per read",1,1,1,2' "$R/summary.csv"
	# field 6 of the stat: 20719176 - 19418442 and 25017872 - 24042258
	grep -qxF 'writeback-j1,6.18.44-fc-v1300,mq-deadline,"write merges",1138174,975614,1300734,2' "$R/summary.csv"
	grep -qxF 'writeback-j1,6.18.44-fc-v1300,mq-deadline,"write MiB/s",1410,1214,1607,2' "$R/summary.csv"
}

@test "hwbench: a run on a CONFIG_LOCK_STAT kernel (results/hwbench-vm) reads back, the scheduler's lock per 1000 reads" {
	cp -r "$TOP/results/hwbench-vm/run/." "$BATS_TEST_TMPDIR/vm/"
	rm "$BATS_TEST_TMPDIR/vm/summary.csv" "$BATS_TEST_TMPDIR/vm/metrics.tsv"
	"$TOP/tools/hwbench.sh" summarize "$BATS_TEST_TMPDIR/vm"
	diff "$TOP/results/hwbench-vm/run/metrics.tsv" "$BATS_TEST_TMPDIR/vm/metrics.tsv"
	diff "$TOP/results/hwbench-vm/run/summary.csv" "$BATS_TEST_TMPDIR/vm/summary.csv"
	# &dd->lock: 238 contentions and 14686 acquisitions over the job's 4877 reads
	grep -qxF 'psync-qd1-j2,7.3.4+,mq-deadline,"dd->lock contentions per 1000 reads",48.8,48.8,48.8,1' "$BATS_TEST_TMPDIR/vm/summary.csv"
	grep -qxF 'psync-qd1-j2,7.3.4+,mq-deadline,"dd->lock acquisitions per 1000 reads",3011,3011,3011,1' "$BATS_TEST_TMPDIR/vm/summary.csv"
	# none has neither lock; a lock_stat line per scheduler lock and job
	run ! grep -q 'none,".*lock' "$BATS_TEST_TMPDIR/vm/summary.csv"
	[ "$(grep -c 'bfqd->lock contentions' "$BATS_TEST_TMPDIR/vm/summary.csv")" -eq 8 ]
}

@test "hwbench: the whole machine's CPU and context switches per read, from /proc/stat before and after a job" {
	# psync-qd1-j1-1 under none: 164680 reads (fio's JSON); busy ticks 200 of 800
	# (iowait and idle are not busy; guest time is in user already), 329360 switches
	[ "$(jq '.jobs[] | select(.jobname == "reader") | .read.total_ios' "$R/none/psync-qd1-j1-1.json")" = 164680 ]
	printf '%s\n' 'cpu  100 0 100 1000 100 0 0 0 0 0' 'ctxt 5000' \
		'cpu  250 0 150 1500 200 0 0 0 50 0' 'ctxt 334360' >"$R/none/psync-qd1-j1-1.procstat"
	"$TOP/tools/hwbench.sh" summarize "$R"
	grep -qxF 'psync-qd1-j1,6.18.44-fc-v1300,none,"system CPU busy (%)",25,25,25,1' "$R/summary.csv"
	grep -qxF 'psync-qd1-j1,6.18.44-fc-v1300,none,"system context switches per read",2,2,2,1' "$R/summary.csv"
	# no such file, no such figure
	[ "$(grep -c 'system CPU' "$R/summary.csv")" -eq 1 ]
}

@test "hwbench: a disk that is not rotational has no merge figures" {
	sed -i 's/^rotational=1$/rotational=0/' "$R/header.txt"
	"$TOP/tools/hwbench.sh" summarize "$R"
	run ! grep -q merges "$R/summary.csv"
	[ "$(wc -l <"$R/summary.csv")" -eq 89 ]
}

@test "hwbench: a LAVA test case per figure, ids LAVA accepts, the median as measurement" {
	run "$TOP/tools/hwbench.sh" cases "$F"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 112 ]
	[[ "$output" == *$'\npsync-qd1-j1_none_read_clat_p99 38.98 us\n'* ]]
	[[ "$output" == *$'\nwriteback-j1_mq-deadline_write_MiB_s 1410 MiB/s\n'* ]]
	run ! grep -vE '^[A-Za-z0-9._-]+ [0-9.e+-]+ (us|%|IOPS|MiB/s|count)$' <<<"$output"
}

# yaml_keys FILE: its top-level keys, with python3's yaml; else the lines
# that look like them (no tabs, and every line a comment, a key or a list)
yaml_keys() {
	if python3 -c 'import yaml' 2>/dev/null; then
		python3 -c 'import sys, yaml; print(" ".join(yaml.safe_load(open(sys.argv[1]))))' "$1"
	else
		! grep -qP '\t' "$1" && ! grep -vE '^\s*(#.*)?$|^\s*[A-Za-z_][A-Za-z0-9_-]*:|^\s*- ' "$1" &&
			sed -n 's/^\([a-z_]*\):.*/\1/p' "$1" | xargs
	fi
}

@test "hwbench: the LAVA test definition parses and its steps run the tool and report each figure" {
	run yaml_keys "$TOP/lava/hwbench.yaml"
	[ "$output" = "metadata install params run" ]
	grep -qx '  format: Lava-Test Test Definition 1.0' "$TOP/lava/hwbench.yaml"
	grep -qxF '    - lava-test-case hwbench --shell ./tools/hwbench.sh "$DEVICE"' "$TOP/lava/hwbench.yaml"
	grep -qE '^    - \./tools/hwbench\.sh cases "\$HWBENCH_OUT" \| .*lava-test-case "\$id" --result pass --measurement "\$median"' "$TOP/lava/hwbench.yaml"
	# every HWBENCH_ setting it passes is one the tool reads
	for v in $(grep -o 'HWBENCH_[A-Z]*' "$TOP/lava/hwbench.yaml" | sort -u); do
		grep -q "$v" "$TOP/tools/hwbench.sh"
	done
}

@test "hwbench: the job template parses, runs the definition with DEVICE, and docs/lava.md names each field" {
	run yaml_keys "$TOP/lava/hwbench-job.yaml"
	[ "$output" = "job_name device_type visibility priority timeouts actions" ]
	grep -qx '          path: lava/hwbench.yaml' "$TOP/lava/hwbench-job.yaml"
	grep -qx '            DEVICE: "@DISK@"' "$TOP/lava/hwbench-job.yaml"
	for f in $(grep -o '@[A-Z_]*@' "$TOP/lava/hwbench-job.yaml" | sort -u); do
		grep -qF "$f" "$TOP/docs/lava.md"
	done
}

@test "hwbench: make hwbench passes DEV to the tool" {
	run make -s -n -C "$TOP" hwbench DEV=/dev/sdz
	[ "$output" = 'tools/hwbench.sh "/dev/sdz"' ]
}
