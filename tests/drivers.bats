#!/usr/bin/env bats
# make drivers (tools/drivers.sh): the results and summary.md of a run
# directory, read again from the committed run (results/drivers), and a
# splat or a fio job in error fails its kernel or disk.

load helper
bats_require_minimum_version 1.5.0

setup() {
	common_setup
	unset DRIVERS_SECONDS
	R=$BATS_TEST_TMPDIR/run
	mkdir -p "$R"
	cp "$TOP"/results/drivers/{base,rfc}-*.* "$R/"
}

@test "drivers: the committed run reads back to its results and summary.md" {
	DRIVERS_OUT=$R run "$TOP/tools/drivers.sh" summary
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "56 passed, 0 failed, 0 skipped" ]
	[[ "$output" == *"PASS  rfc, ahci, raw-psync: fio exit status 0"* ]]
	[[ "$output" == *"PASS  rfc, sd-card: fio exit status 0, jobs with an error (verify included): 0"* ]]
	[[ "$output" == *"PASS  rfc, scsi_debug, raw-qd1: fio exit status 0"* ]]
	# the date is the run's files' (their checkout's, in a clone)
	diff <(grep -v '^Produced by' "$TOP/results/drivers/summary.md") <(grep -v '^Produced by' "$R/summary.md")
}

@test "drivers: a splat, a fio job in error, a failed raw reader or a boot cut short fails, naming the kernel and disk" {
	echo "BUG: KASAN: use-after-free in blk_mq_run_hw_queue" >>"$R/rfc-dmesg.txt"
	echo "1 0 0" >"$R/rfc-ahci-raw-psync.status"
	rm "$R/base-sd-card-raw-uring.status"
	sed -n '/^{/,$p' "$R/base-ahci.json" | jq '.jobs[0].error = 84' >"$R/j" && mv "$R/j" "$R/base-ahci.json"
	rm "$R/base-virtio-blk.json"
	DRIVERS_OUT=$R run "$TOP/tools/drivers.sh" summary
	[ "$status" -ne 0 ]
	[[ "$output" == *"FAIL  rfc: no kernel splat (BUG, WARNING, KASAN, lockdep, hung task, ...): 1"* ]]
	[[ "$output" == *"FAIL  base, ahci: fio exit status 0, jobs with an error (verify included): 1"* ]]
	[[ "$output" == *"FAIL  base, virtio-blk: fio exit status 0, jobs with an error (verify included): no fio JSON"* ]]
	[[ "$output" == *"FAIL  rfc, ahci, raw-psync: fio exit status 1"* ]]
	[[ "$output" == *"FAIL  base, sd-card, raw-uring: fio exit status no status"* ]]
	: >"$R/base-dmesg.txt"
	DRIVERS_OUT=$R run "$TOP/tools/drivers.sh" summary
	[[ "$output" == *"FAIL  base: the run finished"* ]]
}

@test "drivers: a BE reader starved beside the RT one, a dm-mpath run without its stack, or scsi_debug without raw-qd1, fails" {
	rm "$R/base-scsi_debug-raw-qd1.status"
	j=$R/rfc-ahci-raw-prio.json
	sed -n '/^{/,$p' "$j" | jq '(.jobs[] | select(.jobname == "be") | .read.total_ios) = 0' >"$R/j" && mv "$R/j" "$j"
	rm "$R/base-dm-mpath.stack"
	DRIVERS_OUT=$R run "$TOP/tools/drivers.sh" summary
	[ "$status" -ne 0 ]
	[[ "$output" == *"FAIL  rfc, ahci, raw-prio: the BE reader beside the RT one was served: 0 reads"* ]]
	[[ "$output" == *"FAIL  base: dm-mpath ran, the deepest stack in its jobs: no bytes"* ]]
	[[ "$output" == *"PASS  rfc: dm-mpath ran, the deepest stack in its jobs: "* ]]
	[[ "$output" == *"FAIL  base, scsi_debug, raw-qd1: fio exit status no status"* ]]
	[[ "$output" != *"ahci, raw-qd1"* ]]
}

@test "drivers: an unknown kernel, a bad DRIVERS_SECONDS or DRIVERS_DEBUG, one error line before anything runs" {
	run "$TOP/tools/drivers.sh" tip
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "drivers.sh: error: usage: drivers.sh [base|series|rfc...|summary] (not 'tip')" ]]
	DRIVERS_SECONDS=0 run "$TOP/tools/drivers.sh"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	DRIVERS_DEBUG=yes run "$TOP/tools/drivers.sh"
	[ "$status" -ne 0 ]
	[ "$output" = "drivers.sh: error: DRIVERS_DEBUG is 0 or 1 (not 'yes')" ]
}

@test "drivers: who queued kblockd's runs, named from the committed run's stacks" {
	# the stacks through __iomap_dio_read_simple (13591 from aio, 13134 from
	# pread through submit_bio_wait, ...): ext4's O_DIRECT reads, unplugged
	run awk -f "$TOP/tools/lib/kblockd-origins.awk" "$TOP/results/drivers/v5/base-sd-card.stacks"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "26725 blk_mq_submit_bio < __iomap_dio_read_simple" ]
	# past the run helpers and the block layer's frames: mmc's post-request
	# frees, from its completion work and from its ->queue_rq() alike
	[[ "$output" == *$'\n'"2811 __blk_mq_free_request < mmc_blk_mq_post_req"$'\n'* ]]
	run awk -f "$TOP/tools/lib/kblockd-origins.awk" "$TOP/results/drivers/v5/base-sd-card-raw-psync.stacks"
	[ "$output" = "22532 blk_mq_submit_bio < __blkdev_direct_IO_simple" ]
}
