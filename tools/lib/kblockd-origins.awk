# SPDX-License-Identifier: GPL-2.0
# kblockd-origins.awk STACKS: who queued kblockd's runs of a hw queue.  STACKS
# (make drivers' .stacks) has a line per distinct stack of workqueue_queue_work
# for blk_mq_run_work_fn, "COUNT frame < caller < ...".  A run's origin is its
# first frame outside the workqueue's and blk-mq's run helpers, and the first
# caller beyond the block layer's own submit and wait frames.  Prints
# "COUNT ORIGIN", most first.
{
	o = w = ""
	for (i = 2; i <= NF; i++) {
		if ($i == "<")
			continue
		if (o == "") {
			if ($i !~ /^(__queue_work|queue_work_on|__queue_delayed_work|queue_delayed_work_on|mod_delayed_work_on|kblockd_mod_delayed_work_on|kblockd_schedule_work|blk_mq_delay_run_hw_queues?|blk_mq_run_hw_queues?|blk_mq_sched_insert_run|0x[0-9a-f]+)$/)
				o = $i
		} else if ($i !~ /^_*(blk_|bio_|blkdev_issue|submit_bio|io_schedule|schedule|rq_qos|wbt_|wait_for|__wait_for|0x)/) {
			w = $i
			break
		}
	}
	n[(o == "" ? "?" : o) (w == "" ? "" : " < " w)] += $1
}
END {
	for (f in n)
		print n[f], f | "sort -k1,1nr -k2"
}
