# SPDX-License-Identifier: GPL-2.0
# The host's reading of a 'make bench ICOUNT=1' run ($raw/icount.csv): the repeat check,
# the published CSV and icount.md.  Sourced by bench-icount.sh and tests/icount.bats.
# shellcheck shell=bash disable=SC2154 # raw, scen, count, icount: the caller's

want() { [[ " $scen " == *" $1 "* ]]; }

# has SCENARIO-PREFIX VARIANT-ERE: the run has a figure of that variant (S1-rot: both)
has() {
	awk -F, -v s="$1" -v v="$2" 'index($1, s) == 1 && $3 ~ v { f = 1 } END { exit !f }' "$raw/icount.csv"
}

# every figure measured twice: KEY, first, second, difference in %
# shellcheck disable=SC2016 # awk's fields
spread='$6 == 1 { a[$1 FS $2 FS $3 FS $4] = $5 } $6 == 2 { k = $1 FS $2 FS $3 FS $4; if ((k in a) && a[k] + 0 != 0) printf "%s\t%s\t%s\t%.3f\n", k, a[k], $5, 100 * ($5 - a[k]) / a[k] }'

# icount_bad: the S1 and S6 figures whose repeat is off by more than 0.2%, on one line
icount_bad() {
	awk -F, "$spread" "$raw/icount.csv" | awk -F'\t' '$1 !~ /^S[45],/ && $1 ~ /,instructions per/ { d = $4 < 0 ? -$4 : $4; if (d > 0.2) { printf "%s%s: %s then %s (%+.2f%%)", sep, $1, $2, $3, $4; sep = "; " } }'
}

# icount_csv: the published CSV (instructions per MiB added).
icount_csv() {
	echo 'scenario,kernel,scheduler,metric,value,repeat'
	awk -F, -v OFS=, '{ print } $4 ~ /^instructions per (I\/O|4 KiB moved)$/ { $4 = "instructions per MiB"; $5 = sprintf("%.0f", $5 * 256); print }' "$raw/icount.csv"
}

# table SCENARIO METRIC: variant, base, series, series/base (repeat 1)
table() {
	echo '| variant | base | series | series/base |'
	echo '|---|---|---|---|'
	awk -F, -v sc="$1" -v m="$2" '$1 == sc && $4 == m && $6 == 1 { k = $3; if (!(k in seen)) { seen[k] = 1; o[++n] = k } v[k, $2] = $5 }
		END { for (i = 1; i <= n; i++) { k = o[i]; b = v[k, "base"]; s = v[k, "series"]
			printf "| %s | %s | %s | %s |\n", k, b, s, (b && s) ? sprintf("%.4f", s / b) : "-" } }' "$raw/icount.csv"
}

# icount_md BASE DAY: icount.md of the run (BASE: v7.3.4; DAY: its date)
icount_md() {
	echo '# make bench ICOUNT=1: guest instructions per I/O, base vs series'
	echo
	echo "Kernels: $1 (base) and + series, x86_64, allnoconfig + tinyconfig's fragments + configs/vm.config."
	echo "QEMU $icount; null_blk. Produced by \`make bench ICOUNT=1 S='$scen'\` ($2); what each scenario runs: tools/vm/icount.sh and docs/benchmarks.md."
	if compgen -G "$raw/kernel-*.id" >/dev/null; then
		echo
		# shellcheck disable=SC2016 # markdown's backquotes
		echo 'Kernels by what they hold (tools/env/vmkernel.sh): the base commit, then each commit on it by `git patch-id --stable`, which a posted mail gives too.'
		echo
		local f k
		for f in "$raw"/kernel-*.id; do
			k=${f##*/kernel-}
			echo "- ${k%.id}: $(paste -sd';' "$f" | sed 's/;/; /g')"
		done
	fi
	if want S1; then
		echo
		echo "## S1: the read path (one vCPU)"
		echo
		echo "null_blk irqmode=0 (completed inside ->queue_rq()), one hardware queue of depth 64; $count sequential 4 KiB O_DIRECT reads with dd per figure, after $((count / 4)) not counted, each scheduler a fresh instance. Instructions of the whole guest per read (dd, the syscall, the block layer, the scheduler, null_blk), counted by the virtual clock.$(! has S1-rot ' nomerges=2$' || echo ' "nomerges=2": the same with the queue'"'"'s nomerges at 2 (no merge attempts), minus the none of the same setting.')"
		echo
		echo '| rotational | scheduler | base | series | series/base | minus none (base) | minus none (series) |'
		echo '|---|---|---|---|---|---|---|'
		awk -F, '$1 ~ /^S1-rot/ && $6 == 1 { split($1, p, "-rot"); v[p[2], $3, $2] = $5; if (!((p[2], $3) in seen)) { seen[p[2], $3] = 1; o[++n] = p[2] SUBSEP $3 } }
			END { for (i = 1; i <= n; i++) { split(o[i], q, SUBSEP); r = q[1]; s = q[2]; z = s; sub(/^[^ ]*/, "none", z)
				printf "| %s | %s | %s | %s | %.4f | %+.1f | %+.1f |\n", r, s, v[r, s, "base"], v[r, s, "series"],
					v[r, s, "series"] / v[r, s, "base"], v[r, s, "base"] - v[r, z, "base"],
					v[r, s, "series"] - v[r, z, "series"] } }' "$raw/icount.csv"
		echo
		echo '![S1: instructions per I/O](icount.png)'
	fi
	if want S4; then
		echo
		echo "## S4: reads against buffered writers (one vCPU)"
		echo
		echo "null_blk of 128 tags completing from a timer after 1 ms (nr_requests 256); one psync reader of 4 KiB O_DIRECT random reads and 4 buffered sequential writers (64 KiB, end_fsync), a fifth of the 4 KiB units read. Busy instructions (the window less the vCPU's idle time, from ftrace's power:cpu_idle) per 4 KiB moved, the difference of a run of $((count / 8)) units and one of $((3 * count / 8)), over the $((count / 4)) between them (fio's start-up cancels)."
		echo
		table S4 'instructions per 4 KiB moved'
		echo
		awk -F, "$spread" "$raw/icount.csv" | awk -F'\t' '$1 ~ /^S4,/ && $1 ~ /,instructions per/ { d = $4 < 0 ? -$4 : $4; if (d > m) m = d }
			END { printf "S4 is not held to 0.2%%: five processes and the flusher interleave differently from run to run; here none measured again at the end differs by up to %.2f%%. Differences between schedulers below that mean nothing.\n", m }'
	fi
	if want S6; then
		echo
		echo "## S6: the merge hash as it fills (one vCPU)"
		echo
		echo "mq-deadline on a null_blk of one tag completing from a timer after 100 us; fio io_uring 4 KiB O_DIRECT random reads, 8 KiB aligned (no two adjacent, so none merges), at iodepth = nr_requests, each point in a boot of its own (the first twice: the repeat): nearly nr_requests requests wait hashed in the scheduler and every new read walks its chain of about nr_requests/64 whole, twice (back merge, insert merge), besides the rb-tree lookup for a front merge. nomerges=2 skips the lookups. Busy time ends each idle interval at the first interrupt entry (the completion runs before cpu_idle's exit); the trace events themselves (cpu_idle, irq entry and exit, block_rq_complete) add a constant per I/O. Busy instructions per I/O over $((count / 4)) completions of the steady state: counted from the (nr_requests + $((count / 8)))th completion of one fio run that goes on for nr_requests + 64 reads after the window, so that fio's start-up and exit (which read from the host) and the fill and drain of the queue stay out. nr_requests stops at 2048 (MAX_SCHED_RQ: 4096 is refused with a scheduler)."
		echo
		echo '| nr_requests | lookups (nomerges 0): base | series | no lookups (nomerges 2): base | series | lookups cost: base | series |'
		echo '|---|---|---|---|---|---|---|'
		awk -F, '$1 == "S6" && $6 == 1 { split($3, w, /[ =]/); nr = w[3]; nm = w[5]; v[nr, nm, $2] = $5; if (!(nr in seen)) { seen[nr] = 1; o[++n] = nr } }
			END { for (i = 1; i <= n; i++) { r = o[i]
				printf "| %s | %s | %s | %s | %s | %+.1f | %+.1f |\n", r, v[r, 0, "base"], v[r, 0, "series"], v[r, 2, "base"], v[r, 2, "series"],
					v[r, 0, "base"] - v[r, 2, "base"], v[r, 0, "series"] - v[r, 2, "series"] } }' "$raw/icount.csv"
		echo
		echo '![S6: instructions per I/O against nr_requests](icount-s6.png)'
	fi
	if want S5; then
		echo
		echo "## S5: completion routing, rq_affinity 0/1/2 (two vCPUs, one LLC)"
		echo
		echo "null_blk irqmode=1 (completed through blk_mq_complete_request()), its default poll queue making two hardware queues; dd pinned to CPU 0, $count sequential 4 KiB O_DIRECT reads per figure, every figure measured twice in one boot (run 1, run 2). Instructions of both vCPUs per read (nothing waits for a timer: the clock counts what either vCPU runs), IPIs (CAL) per read, and the share of BLOCK softirqs on CPU 0, the submitting CPU (- when none ran). With none the request completes inline on CPU 0; with bfq the dispatch runs from kblockd on either CPU and only rq_affinity=2 sends those completions home; 0 and 1 are the same in one LLC.$(! has S5 ' two submitters$' || echo " The rows \"two submitters\": a dd pinned to each vCPU at once, $((count / 2)) reads each from its own half of the device, rq_affinity 1: both CPUs submit into the one queue and its scheduler (lock contention, spinning included, counts as instructions).")"
		echo
		echo '| variant | base (run 1, run 2) | series (run 1, run 2) | series/base | IPIs per I/O (base, series) | BLOCK on CPU 0 % (base, series) |'
		echo '|---|---|---|---|---|---|'
		awk -F, '$1 == "S5" { k = $3; if (!(k in seen)) { seen[k] = 1; o[++n] = k } v[k, $2, $4, $6] = $5 }
			END { m = "instructions per I/O"; for (i = 1; i <= n; i++) { k = o[i]
				printf "| %s | %s, %s | %s, %s | %.4f | %s, %s | %s, %s |\n", k, v[k, "base", m, 1], v[k, "base", m, 2],
					v[k, "series", m, 1], v[k, "series", m, 2], v[k, "series", m, 1] / v[k, "base", m, 1],
					v[k, "base", "IPIs per I/O", 1], v[k, "series", "IPIs per I/O", 1],
					v[k, "base", "BLOCK softirqs on CPU 0 (%)", 1], v[k, "series", "BLOCK softirqs on CPU 0 (%)", 1] } }' "$raw/icount.csv"
		echo
		awk -F, "$spread" "$raw/icount.csv" | awk -F'\t' '$1 ~ /^S5,/ && $1 ~ /,instructions per/ { d = $4 < 0 ? -$4 : $4; if (d > m) m = d }
			END { printf "Two vCPUs: run 2 differs from run 1 by up to %.2f%%.\n", m }'
	fi
	if want S7; then
		echo
		echo "## S7: concurrent submitters (four vCPUs)"
		echo
		echo "null_blk irqmode=0, one hardware queue of depth 64; numjobs dd readers at once, the jth pinned to vCPU j and reading its own quarter of the device, $count sequential 4 KiB O_DIRECT reads in all per figure, after $((count / 4)) not counted. Instructions of all four vCPUs per read, and, from a second boot of each kernel built with configs/lockstat.config, the contentions and acquisitions of the scheduler's lock (dd->lock, bfqd->lock; the hctx locks too, but this path takes none) per 1000 reads (/proc/lock_stat, cleared before the window). QEMU runs the vCPUs one at a time, in turns: a lock is found taken only when a vCPU's turn ends while it holds it, so the contention counts say whether concurrent submitters meet on a lock under this interleaving, not how often they would on hardware, and spinning costs what a turn lasts, not what a cache-line transfer does."
		if has S7 ' hw queue per vCPU$'; then
			echo
			echo "Kyber is measured last in each boot. The rows \"hw queue per vCPU\": a second null_blk (configfs, irqmode=0) with a hardware queue per vCPU sharing one tag bitmap of depth 64 (shared_tag_bitmap=1, as a host-tagset HBA has), as many readers as vCPUs, each on its own hardware queue and all on the one scheduler. IPIs per I/O: the CAL interrupts of all vCPUs per read, in the instruction boot. kblockd runs of a hw queue per 1000 I/O: trace events workqueue_execute_start of blk_mq_run_work_fn, in the lock_stat boot (tracing costs instructions), the trace buffer checked for overruns."
		fi
		echo
		echo '| variant | metric | base | rfc |'
		echo '|---|---|---|---|'
		awk -F, '$1 ~ /^S7/ && $6 == 1 && ($2 == "base" || $2 == "rfc") { k = $3 SUBSEP $4; if (!(k in seen)) { seen[k] = 1; o[++n] = k } v[k, $2] = $5 }
			END { for (i = 1; i <= n; i++) { split(o[i], q, SUBSEP); printf "| %s | %s | %s | %s |\n", q[1], q[2], v[o[i], "base"], ((o[i], "rfc") in v) ? v[o[i], "rfc"] : "-" } }' "$raw/icount.csv"
	fi
	if awk -F, '$2 == "rfc" { f = 1 } END { exit !f }' "$raw/icount.csv"; then
		echo
		echo "## rfc: the base with the RFC thread alone, against the base"
		echo
		echo "Kernel rfc is the base with the series' RFC thread alone, what the RFC is posted against. Instructions per I/O (S4: per 4 KiB moved), first figures."
		echo
		echo '| scenario | variant | base | rfc | rfc/base |'
		echo '|---|---|---|---|---|'
		awk -F, '$6 == 1 && $4 ~ /^instructions per/ && ($2 == "base" || $2 == "rfc") { k = $1 SUBSEP $3; if (!(k in seen)) { seen[k] = 1; o[++n] = k } v[k, $2] = $5 }
			END { for (i = 1; i <= n; i++) { split(o[i], q, SUBSEP); s = v[o[i], "base"]; r = v[o[i], "rfc"]
				printf "| %s | %s | %s | %s | %s |\n", q[1], q[2], s, r, (s && r) ? sprintf("%.4f", r / s) : "-" } }' "$raw/icount.csv"
		if want S1; then
			echo
			echo "S1, what each scheduler adds per read over none on the same kernel:"
			echo
			echo '| rotational | scheduler | minus none (base) | minus none (rfc) | change |'
			echo '|---|---|---|---|---|'
			awk -F, '$1 ~ /^S1-rot/ && $6 == 1 { split($1, p, "-rot"); v[p[2], $3, $2] = $5; if ($3 !~ /^none/ && !((p[2], $3) in seen)) { seen[p[2], $3] = 1; o[++n] = p[2] SUBSEP $3 } }
				END { for (i = 1; i <= n; i++) { split(o[i], q, SUBSEP); r = q[1]; s = q[2]; z = s; sub(/^[^ ]*/, "none", z)
					a = v[r, s, "base"] - v[r, z, "base"]; b = v[r, s, "rfc"] - v[r, z, "rfc"]
					printf "| %s | %s | %+.1f | %+.1f | %+.1f%% |\n", r, s, a, b, a ? 100 * (b - a) / a : 0 } }' "$raw/icount.csv"
			if has S1-rot ' nomerges=2$'; then
				echo
				echo "S1, where what each scheduler adds per read over none goes (base kernel): the kblockd hop is what the RFC removes (added on base less added on rfc); the merge attempts are what nomerges=2 saves the scheduler on rfc beyond what it saves none; the rest is the insert, the dispatch and the scheduler's own work (added on rfc less the merge attempts). Each a difference of figures that repeat within 0.2%."
				echo
				echo '| rotational | scheduler | added over none | kblockd hop | merge attempts | the rest |'
				echo '|---|---|---|---|---|---|'
				awk -F, '$1 ~ /^S1-rot/ && $6 == 1 { split($1, p, "-rot"); v[p[2], $3, $2] = $5; if ($3 !~ /^none/ && $3 !~ / / && !((p[2], $3) in seen)) { seen[p[2], $3] = 1; o[++n] = p[2] SUBSEP $3 } }
					function pc(x) { return sprintf("%+.1f (%.1f%%)", x, a ? 100 * x / a : 0) }
					END { for (i = 1; i <= n; i++) { split(o[i], q, SUBSEP); r = q[1]; s = q[2]
						if (!((r, s " nomerges=2", "rfc") in v)) continue
						a = v[r, s, "base"] - v[r, "none", "base"]; b = v[r, s, "rfc"] - v[r, "none", "rfc"]
						m = (v[r, s, "rfc"] - v[r, s " nomerges=2", "rfc"]) - (v[r, "none", "rfc"] - v[r, "none nomerges=2", "rfc"])
						printf "| %s | %s | %+.1f | %s | %s | %s |\n", r, s, a, pc(a - b), pc(m), pc(b - m) } }' "$raw/icount.csv"
			fi
		fi
	fi
	echo
	echo '## Repeats'
	echo
	echo 'Figures measured twice (S1: none again at the end of its boot, on a fresh instance; S4: none again in its boot; S6: nomerges 0, nr_requests 64 again in a boot of its own; S5: every figure, in its boot). S1 and S6 must agree within 0.2% or the run fails; S4 and S5 are reported.'
	echo
	awk -F, "$spread" "$raw/icount.csv" | awk -F'\t' '$1 ~ /,instructions per/ { split($1, k, ","); printf "- %s %s %s: %s, repeat %s (%+.3f%%)\n", k[1], k[2], k[3], $2, $3, $4 }'
}
