# SPDX-License-Identifier: GPL-2.0
# kblockd-origins.awk TRACE: who queued kblockd's runs of a hw queue. TRACE holds
# the stacks of a stacktrace trigger on workqueue_queue_work (filtered to
# blk_mq_run_work_fn); a stack's origin is its first frame outside the workqueue
# and blk-mq run helpers.  Prints "COUNT ORIGIN", most first.
function flush() {
	if (on)
		n[o == "" ? "?" : o]++
	on = 0
	o = ""
}
/<stack trace>/ { flush(); on = 1; next }
on && /^ => / {
	f = $2
	sub(/\+.*/, "", f)
	if (o == "" && f !~ /^(__queue_work|queue_work_on|__queue_delayed_work|queue_delayed_work_on|mod_delayed_work_on|kblockd_mod_delayed_work_on|kblockd_schedule_work|blk_mq_delay_run_hw_queues?|blk_mq_run_hw_queues?|blk_mq_sched_insert_run|0x[0-9a-f]+)$/)
		o = f
	next
}
{ flush() }
END {
	flush()
	for (f in n)
		print n[f], f | "sort -k1,1nr -k2"
}
