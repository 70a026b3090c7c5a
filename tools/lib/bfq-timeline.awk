# SPDX-License-Identifier: GPL-2.0
# awk -f bfq-timeline.awk PASS.trace - a line per second of a blk-tracer trace with BFQ's log
# (tools/s3-trace.sh): dispatches, requests at the device, expirations by reason
# (bfq-iosched.h), queues served, merges, empty dispatches, idle arms.
function account(t) {
	if (last != "") integ[int(last - t0)] += inflight * (t - last)
	last = t
}
match($0, / [0-9]+\.[0-9]+: /) {
	t = substr($0, RSTART + 1, RLENGTH - 3) + 0
	if (t0 == "") t0 = t
	s = int(t - t0)
	if (s > smax) smax = s
	if ($0 ~ / [0-9]+,[0-9]+ +D +R/) {
		account(t); inflight++; nd[s]++
	} else if ($0 ~ / [0-9]+,[0-9]+ +C +R/) {
		account(t); if (inflight > 0) inflight--
	} else if ($0 ~ / m +N /) {
		if (match($0, /expire \([0-9]/)) ex[s, substr($0, RSTART + 8, 1)]++
		if ($0 ~ /set_in_service_queue/) {
			q = $0; sub(/.* m +N /, "", q); sub(/ .*/, "", q)
			if (!((s, q) in sq)) { sq[s, q] = 1; nq[s]++ }
		}
		if ($0 ~ /merging with queue|splitting queue/) mg[s]++
		if ($0 ~ /no queue returned/) np[s]++
		if ($0 ~ /arm idle/) ai[s]++
	}
}
END {
	print "second\tD\tat device\texp0\texp1\texp2\texp3\texp4\tqueues\tmerges+splits\tno request\tidle armed"
	for (i = 0; i <= smax; i++)
		printf "%d\t%d\t%.2f\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n", i, nd[i], integ[i],
			ex[i, 0], ex[i, 1], ex[i, 2], ex[i, 3], ex[i, 4], nq[i], mg[i], np[i], ai[i]
}
