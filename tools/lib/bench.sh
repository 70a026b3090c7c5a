# SPDX-License-Identifier: GPL-2.0
# The host's reading of a 'make bench' run (RAW/<S>/<kernel>/metrics.tsv):
# summary.csv and summary.md's table.  Sourced by tools/bench.sh and tests.
# shellcheck shell=bash

# bench_csv RAW: summary.csv over every scenario in RAW
bench_csv() {
	cat "$1"/*/*/metrics.tsv | bench_summary
}

# bench_summary: the same from metrics.tsv lines on stdin (tools/hwbench.sh
# has one metrics.tsv per run directory).
bench_summary() {
	echo 'scenario,kernel,scheduler,metric,median,min,max,runs'
	sort -t$'\t' -k1,1 -k3,3 -k4,4 -k2,2 -k5,5g |
		awk -F'\t' '
		function fmt(x) { return (x >= 1000 || x <= -1000) ? sprintf("%d", x + 0.5) : sprintf("%.4g", x) }
		function flush() {
			if (n == 0) return
			med = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
			printf "%s,%s,%s,\"%s\",%s,%s,%s,%d\n", ks, kk, kc, km, fmt(med), fmt(v[1]), fmt(v[n]), n
			n = 0
		}
		{ key = $1 FS $2 FS $3 FS $4
		  if (key != last) { flush(); last = key; ks = $1; kk = $2; kc = $3; km = $4 }
		  v[++n] = $5 }
		END { flush() }'
}

# bench_table KERNEL...: summary.csv (stdin) as a table, a column per KERNEL (the first
# the base), then each other's median over the base's
bench_table() {
	tail -n +2 | awk -F',' -v ks="$*" '
		BEGIN { nk = split(ks, kn, " ")
			printf "| scenario | scheduler | metric |"; sep = "|---|---|---|"
			for (j = 1; j <= nk; j++) { printf " %s |", kn[j]; sep = sep "---|" }
			for (j = 2; j <= nk; j++) { printf " %s/%s |", kn[j], kn[1]; sep = sep "---|" }
			printf "\n%s\n", sep }
		{ gsub(/"/, "", $4); key = $1 SUBSEP $3 SUBSEP $4
		  if (!(key in seen)) { seen[key] = 1; order[++n] = key }
		  fig[key, $2] = sprintf("%s (%s–%s)", $5, $6, $7); med[key, $2] = $5 }
		END { for (i = 1; i <= n; i++) { split(order[i], p, SUBSEP); k = order[i]
			printf "| %s | %s | %s |", p[1], p[2], p[3]
			for (j = 1; j <= nk; j++) printf " %s |", ((k, kn[j]) in fig) ? fig[k, kn[j]] : "–"
			for (j = 2; j <= nk; j++)
				printf " %s |", (med[k, kn[1]] + 0 != 0 && (k, kn[j]) in med) ? sprintf("%.3f", med[k, kn[j]] / med[k, kn[1]]) : "–"
			printf "\n" } }'
}
