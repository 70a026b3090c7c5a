#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# s3-trace.sh OUTDIR PASSES SPEC... - guest side of 'make s3-trace': S3 per
# SPEC ("bfq:slice_idle=0") and pass, traced: OUTDIR/<spec>-<pass>.json, .trace.
set -eu
out=$1 passes=$2
shift 2
job=$(cd "$(dirname "$0")" && pwd)/s3.fio
img=${BENCH_S3_IMAGE:?the host passes the S3 ext4 image in BENCH_S3_IMAGE}
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug 2>/dev/null || true
tr=/sys/kernel/tracing
[ -e $tr/trace ] || mount -t tracefs none $tr
dev=$(for d in /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/block/*; do basename "$d"; done | head -n 1)
[ -n "$dev" ] || { echo "s3-trace: no scsi_debug disk" >&2; exit 1; }
sd=/sys/bus/pseudo/drivers/scsi_debug
mnt=/tmp/s3
mkdir -p $mnt
echo 100000 >$sd/ndelay
dd if="$img" of=/dev/"$dev" bs=4M conv=fsync status=none
mount -o ro /dev/"$dev" $mnt
echo 5000000 >$sd/ndelay
echo 1 >/sys/block/"$dev"/queue/rotational
echo "s3-trace: $dev, device queue depth $(cat /sys/block/"$dev"/device/queue_depth), $(nproc) CPUs"
echo 65536 >$tr/buffer_size_kb
for p in $(seq "$passes"); do
	for spec in "$@"; do
		echo none >/sys/block/"$dev"/queue/scheduler
		echo "${spec%%:*}" >/sys/block/"$dev"/queue/scheduler
		case $spec in *:*=*) t=${spec#*:}; echo "${t#*=}" >/sys/block/"$dev"/queue/iosched/"${t%%=*}" ;; esac
		sync
		echo 3 >/proc/sys/vm/drop_caches
		echo 0 >$tr/tracing_on
		echo >$tr/trace
		echo issue,complete,notify >/sys/block/"$dev"/trace/act_mask
		echo 1 >/sys/block/"$dev"/trace/enable
		echo blk >$tr/current_tracer
		echo 1 >$tr/tracing_on
		tag=$(echo "$spec" | tr ':=' '--')-$p
		S3_DIR=$mnt S3_CREATE=0 fio --output-format=json --output="$out/$tag.json" "$job"
		echo 0 >$tr/tracing_on
		awk '$1 == "overrun:" && $2 { o = 1 } END { exit o }' $tr/per_cpu/cpu*/stats || { echo "s3-trace: $tag: a buffer overran" >&2; exit 1; }
		cat $tr/trace >"$out/$tag.trace"
		echo 0 >/sys/block/"$dev"/trace/enable
		echo nop >$tr/current_tracer
		echo "s3-trace: $tag $(sed -n '/^{/,$p' "$out/$tag.json" | jq '[.jobs[].job_runtime] | max / 1000') s"
	done
done
umount $mnt
echo "s3-trace: done"
: >"$out/done" # for the host: this boot ran to its end
