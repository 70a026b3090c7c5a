#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# hwbench.sh DEVICE - 'make hwbench DEV=/dev/sdX': fio's 4 KiB O_DIRECT random reads
# (psync QD1, libaio QD1 and QD2, readers beside writeback) on a real disk under none,
# mq-deadline, kyber and bfq, on the kernel this machine booted (base or rfc).  Refuses, in one
# line before anything runs, what is not a whole idle disk.  Settings and outputs:
# docs/benchmarks.md#on-real-hardware-make-hwbench.  Needs fio, jq and tools/ alone.
# hwbench.sh summarize DIR: metrics.tsv and summary.csv again from DIR.
# hwbench.sh cases DIR: a line per figure for lava-test-case (lava/hwbench.yaml).
set -euo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
# shellcheck source=lib/bench.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/bench.sh"

# summarize DIR: a metrics.tsv line (scenario kernel scheduler metric value
# run) per figure of every job's JSON and .stat in DIR, then summary.csv.
summarize() {
	local d=$1 kernel rot j sched name run
	kernel=$(sed -n 's/^kernel=//p' "$d/header.txt")
	rot=$(sed -n 's/^rotational=//p' "$d/header.txt")
	for j in "$d"/*/*.json; do
		sched=$(basename "$(dirname "$j")")
		name=$(basename "$j" .json)
		run=${name##*-}
		name=${name%-*}
		fio_json "$j" | jq -r --arg s "$name" --arg k "$kernel" --arg c "$sched" --arg r "$run" '
			(.jobs[] | select(.jobname == "reader")) as $j
			| [["read clat p50 (us)", $j.read.clat_ns.percentile["50.000000"] / 1000],
			   ["read clat p99 (us)", $j.read.clat_ns.percentile["99.000000"] / 1000],
			   ["read clat p99.9 (us)", $j.read.clat_ns.percentile["99.900000"] / 1000],
			   ["read IOPS", $j.read.iops],
			   ["usr CPU (%)", $j.usr_cpu], ["sys CPU (%)", $j.sys_cpu],
			   ["context switches per read", $j.ctx / $j.read.total_ios]]
			  + [.jobs[] | select(.jobname == "writer") | ["write MiB/s", .write.bw_bytes / 1048576]]
			| .[] | [$s, $k, $c, .[0], .[1], $r] | @tsv'
		# /sys/block/<dev>/stat: field 2 read merges, 6 write merges
		[ "$rot" != 1 ] || awk -v OFS='\t' -v s="$name" -v k="$kernel" -v c="$sched" -v r="$run" '
			NR == 1 { rm = $2; wm = $6 }
			NR == 2 { print s, k, c, "read merges", $2 - rm, r; print s, k, c, "write merges", $6 - wm, r }' "${j%.json}.stat"
		n=$(fio_json "$j" | jq '.jobs[] | select(.jobname == "reader") | .read.total_ios')
		# the whole machine (fio's CPU and ctx are its own jobs'): /proc/stat's cpu and ctxt before and after
		[ ! -f "${j%.json}.procstat" ] || awk -v OFS='\t' -v s="$name" -v k="$kernel" -v c="$sched" -v r="$run" -v n="$n" '
			$1 == "cpu" { t = 0; for (i = 2; i <= 9; i++) t += $i; b[++nc] = t - $5 - $6; a[nc] = t } # guest time is in user
			$1 == "ctxt" { x[++nx] = $2 }
			END { print s, k, c, "system CPU busy (%)", 100 * (b[2] - b[1]) / (a[2] - a[1]), r
				print s, k, c, "system context switches per read", (x[2] - x[1]) / n, r }' "${j%.json}.procstat"
		# a kernel with CONFIG_LOCK_STAT: the scheduler's lock, contended and taken, per 1000 reads
		[ ! -f "${j%.json}.lock_stat" ] || awk -v OFS='\t' -v s="$name" -v k="$kernel" -v c="$sched" -v r="$run" -v n="$n" '
			$1 ~ /^&(dd|bfqd|kcq|khd)->lock:$/ { l = substr($1, 2, length($1) - 2)
				print s, k, c, l " contentions per 1000 reads", 1000 * $3 / n, r
				print s, k, c, l " acquisitions per 1000 reads", 1000 * $9 / n, r }' "${j%.json}.lock_stat"
	done >"$d/metrics.tsv"
	bench_summary <"$d/metrics.tsv" >"$d/summary.csv"
}

# cases DIR: "id median units" per row of DIR's summary.csv, for
# lava-test-case (lava/hwbench.yaml); an id has letters, digits, . _ - only.
cases() {
	tail -n +2 "$1/summary.csv" | awk -F, '{ m = $4; gsub(/"/, "", m)
		u = m ~ /\(us\)$/ ? "us" : m ~ /\(%\)$/ ? "%" : m ~ /IOPS$/ ? "IOPS" : m ~ /MiB\/s$/ ? "MiB/s" : "count"
		sub(/ \((us|%)\)$/, "", m); id = $1 "_" $3 "_" m; gsub(/[^A-Za-z0-9._-]+/, "_", id)
		print id, $5, u }'
}

if [ "${1:-}" = cases ]; then
	[ -f "${2:-}/summary.csv" ] || die "usage: hwbench.sh cases DIR (a run directory with summary.csv)"
	cases "$2"
	exit
fi
if [ "${1:-}" = summarize ]; then
	[ -f "${2:-}/header.txt" ] || die "usage: hwbench.sh summarize DIR (a run directory with header.txt)"
	summarize "$2"
	exit
fi

# --- everything checked before anything runs ---------------------------------
{ [ $# -eq 1 ] && [ -n "$1" ]; } || die "usage: hwbench.sh DEVICE (a whole disk: make hwbench DEV=/dev/sdX)"
dev=$1
for v in HWBENCH_SECONDS HWBENCH_RUNS; do
	[[ ${!v:-1} =~ ^[1-9][0-9]*$ ]] || die "$v=${!v}: a whole number above 0"
done
secs=${HWBENCH_SECONDS:-10}
runs=${HWBENCH_RUNS:-1}
all="psync-qd1 libaio-qd1 libaio-qd2 writeback"
read -r -a jobs <<<"${HWBENCH_JOBS:-$all}"
for j in "${jobs[@]}"; do
	case " $all " in *" $j "*) ;; *) die "HWBENCH_JOBS: unknown job '$j' (have: $all)" ;; esac
done
read -r -a nj <<<"${HWBENCH_NUMJOBS:-1 2 $(nproc)}"
for n in "${nj[@]}"; do
	[[ $n =~ ^[1-9][0-9]*$ ]] || die "HWBENCH_NUMJOBS: '$n' is not a whole number above 0"
done
mapfile -t nj < <(printf '%s\n' "${nj[@]}" | sort -nu)
read -r -a want <<<"${HWBENCH_SCHEDULERS:-none mq-deadline kyber bfq}"
for s in "${want[@]}"; do
	case $s in none | mq-deadline | kyber | bfq) ;; *) die "HWBENCH_SCHEDULERS: unknown scheduler '$s' (have: none mq-deadline kyber bfq)" ;; esac
done

[ -b "$dev" ] || die "$dev is not a block device"
name=$(basename "$(readlink -f "$dev")")
sys=/sys/block/$name
[ -d "$sys" ] || die "$dev is a partition, not a whole disk (the scheduler is the disk's)"
parts=0
for d in "$sys" "$sys/$name"*/; do
	d=${d%/}
	[ -f "$d/dev" ] || continue
	[ "$d" = "$sys" ] || parts=$((parts + 1))
	p=${d##*/}
	! awk -v id="$(cat "$d/dev")" -v src="/dev/$p" '$3 == id { f = 1 }
		{ for (i = 1; i < NF; i++) if ($i == "-") { if ($(i + 2) == src) f = 1; break } }
		END { exit !f }' /proc/self/mountinfo || die "$dev is mounted (/dev/$p)"
	! grep -qs "^/dev/$p " /proc/swaps || die "$dev is in use as swap (/dev/$p)"
	h=$(find "$d/holders" -mindepth 1 -maxdepth 1 -printf '%f\n' | head -n 1)
	[ -z "$h" ] || die "$dev is held by $h (/dev/$p: dm, md or the like)"
done
[ "$parts" -eq 0 ] || [ "${HWBENCH_DESTROY:-0}" = 1 ] ||
	die "$dev has $parts partitions: HWBENCH_DESTROY=1 if its data may be destroyed"
case " ${jobs[*]} " in *" writeback "*)
	[ "${HWBENCH_DESTROY:-0}" = 1 ] ||
		die "the writeback job writes $dev: HWBENCH_DESTROY=1 if its data may be destroyed, or HWBENCH_JOBS without writeback" ;;
esac
[ -w "$sys/queue/scheduler" ] || die "cannot set $dev's scheduler: run as root"
for p in fio jq; do
	command -v "$p" >/dev/null || die "hwbench needs $p (Debian: apt-get install fio jq)"
done

# The schedulers asked for that the disk offers (a module is loaded if need be).
orig=$(sed 's/.*\[\(.*\)\].*/\1/' "$sys/queue/scheduler")
scheds=()
for s in "${want[@]}"; do
	grep -qw -- "$s" "$sys/queue/scheduler" || modprobe -q "$s" 2>/dev/null || true
	if grep -qw -- "$s" "$sys/queue/scheduler"; then scheds+=("$s"); else info "$dev has no $s: skipped"; fi
done
[ "${#scheds[@]}" -gt 0 ] || die "$dev offers none of: ${want[*]} ($(cat "$sys/queue/scheduler"))"

out=${HWBENCH_OUT:-$(run_dir hwbench)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
trap 'echo "$orig" >"$sys/queue/scheduler" 2>/dev/null || true' EXIT
{
	# base and rfc often share a uname -r: HWBENCH_KERNEL names each boot for the comparison
	echo "kernel=${HWBENCH_KERNEL:-$(uname -r)}"
	echo "uname=$(uname -rv)"
	echo "device=$dev"
	echo "model=$({ xargs <"$sys/device/model"; } 2>/dev/null || echo -)"
	echo "rotational=$(cat "$sys/queue/rotational")"
	echo "queue_depth=$(cat "$sys/device/queue_depth" 2>/dev/null || echo -)"
	echo "nr_requests=$(cat "$sys/queue/nr_requests")"
	echo "schedulers=$(cat "$sys/queue/scheduler") (measured: ${scheds[*]})"
	echo "nr_cpus=$(nproc)"
	echo "lock_stat=$([ -w /proc/lock_stat ] && echo yes || echo no)"
	echo "fio=$(fio --version)"
	echo "seconds=$secs runs=$runs jobs=${jobs[*]} numjobs=${nj[*]}"
	echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
} >"$out/header.txt"

T0=$SECONDS
for r in $(seq "$runs"); do
	for s in "${scheds[@]}"; do
		mkdir -p "$out/$s"
		for j in "${jobs[@]}"; do
			for n in "${nj[@]}"; do
				echo none >"$sys/queue/scheduler"
				echo "$s" >"$sys/queue/scheduler"
				f=$out/$s/$j-j$n-$r
				info "run $r/$runs: $s $j-j$n (${secs}s)"
				eng=(--ioengine=psync)
				case $j in libaio-qd*) eng=(--ioengine=libaio "--iodepth=${j#libaio-qd}") ;; esac
				wb=()
				# the readers start a second late (--startdelay, before --name=writer, is
				# theirs), so that they meet dirty pages
				[ "$j" != writeback ] || wb=(--startdelay=1 --name=writer --new_group
					--filename="$dev" --rw=write --bs=1M --ioengine=psync --offset=50%
					--size=50% --end_fsync=1 --time_based --runtime=$((secs + 1)))
				cat "$sys/stat" >"$f.stat"
				grep -E '^(cpu|ctxt) ' /proc/stat >"$f.procstat"
				[ ! -w /proc/lock_stat ] || echo 0 >/proc/lock_stat
				fio --output-format=json --output="$f.json" --group_reporting \
					--percentile_list=50:99:99.9 --name=reader --filename="$dev" \
					--rw=randread --bs=4k --direct=1 --size=50% --time_based \
					--runtime="$secs" --numjobs="$n" "${eng[@]}" "${wb[@]}"
				cat "$sys/stat" >>"$f.stat"
				grep -E '^(cpu|ctxt) ' /proc/stat >>"$f.procstat"
				[ ! -w /proc/lock_stat ] || cp /proc/lock_stat "$f.lock_stat"
			done
		done
	done
done
summarize "$out"
info "$(($(wc -l <"$out/metrics.tsv"))) figures in $out ($((SECONDS - T0))s); kernel ${HWBENCH_KERNEL:-$(uname -r)}"
column -s, -t <"$out/summary.csv"
