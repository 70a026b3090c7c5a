#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench.sh SCENARIO KERNEL OUTDIR RUNS RUNTIME RUN - guest side of 'make bench': fio's JSON
# and metrics.tsv ("scenario kernel scheduler metric value run") of each scheduler to
# OUTDIR/SCENARIO/KERNEL/.  The scenarios: docs/benchmarks.md.
set -eu
s=$1 kernel=$2 out=$3/$1/$2 runs=$4 rt=$5 rlist=$6
mkdir -p "$out"
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug 2>/dev/null || true
say() { printf 'bench: %s %s: %s\n' "$s" "$kernel" "$*"; }
# js FILE FIGURE: a figure of tools/vm/fio.jq from fio's JSON (fio may write notices before it)
js() { sed -n '/^{/,$p' "$1" | jq -L "$(dirname "$0")" "include \"fio\"; $2"; }
metric() { printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$s" "$kernel" "$1" "$2" "$3" "$4" >>"$out/metrics.tsv"; }
sched() { # DEV SCHED
	echo "$2" >"/sys/block/$1/queue/scheduler"
	grep -q "\[$2\]" "/sys/block/$1/queue/scheduler" || { echo "cannot set $2 on $1"; exit 1; }
}

# variant DEV SPEC: a fresh instance (through none) of SPEC, "sched[:tunable=value]";
# sets $label ("bfq slice_idle=0") and $tag
variant() {
	echo none >"/sys/block/$1/queue/scheduler"
	sched "$1" "${2%%:*}"
	label=${2%%:*} tag=${2%%:*}
	case $2 in
	*:*=*)
		t=${2#*:}
		echo "${t#*=}" >"/sys/block/$1/queue/iosched/${t%%=*}"
		label="$label $t" tag=$tag-${t%%=*}${t#*=}
		;;
	esac
}

# cpu_stat: busy and idle jiffies so far; cpu_busy BEFORE AFTER: % busy between them
cpu_stat() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8, $5 + $6 }' /proc/stat; }
cpu_busy() { echo "$1 $2" | awk '{ b = $3 - $1; i = $4 - $2; print (b + i) ? 100 * b / (b + i) : 0 }'; }

# sampler_start OUT FILE FIELD: from 3 s on, FIELD (1|2) of FILE each second into OUT,
# with builtins only (an awk per sample costs the figures)
sampler_start() {
	(src=$2 fld=$3
	 sleep 3
	 while :; do
		read -r f1 f2 _ <"$src"
		if [ "$fld" = 1 ]; then echo "$f1"; else echo "$f2"; fi
		sleep 1
	 done) >"$1" &
	sampler=$!
}
sampler_stop() { kill "$sampler"; wait "$sampler" 2>/dev/null || true; }
col_mean() { awk '{ t += $1; n++ } END { print n ? t / n : 0 }' "$1"; }
col_max() { awk '$1 > m { m = $1 } END { print m + 0 }' "$1"; }

sd=/sys/bus/pseudo/drivers/scsi_debug
scsi_debug_disk() {
	for d in "$sd"/adapter*/host*/target*/*/block/*; do
		[ -e "$d" ] && { basename "$d"; return 0; }
	done
	echo "no scsi_debug disk (boot with scsi_debug.* parameters)" >&2
	exit 1
}

case $s in
S1)
	dev=$(scsi_debug_disk)
	echo 32 >"/sys/block/$dev/device/queue_depth"
	echo 1 >"/sys/block/$dev/queue/rotational"
	say "$dev: queue_depth $(cat "/sys/block/$dev/device/queue_depth"), rotational $(cat "/sys/block/$dev/queue/rotational")"
	# again at 20 ms, where a fixed cost per I/O weighs a quarter as much
	for r in $rlist; do
		for lat in 5 20; do
			echo "${lat}000000" >"$sd/ndelay"
			v="bfq mq-deadline none"
			[ "$lat" != 5 ] || v="bfq bfq:slice_idle=0 mq-deadline none"
			for spec in $v; do
				variant "$dev" "$spec"
				say "$label at $lat ms per command, run $r/$runs (${rt}s)"
				j=$out/$tag-$lat-$r.json
				busy=$out/$tag-$lat-$r.busy
				sampler_start "$busy" "/sys/block/$dev/device/device_busy" 1
				c0=$(cpu_stat)
				fio --name=s1 --filename="/dev/$dev" --rw=randread --bs=16k --direct=1 \
					--ioengine=psync --numjobs=8 --group_reporting --time_based \
					--ramp_time=2 --runtime="$rt" --output-format=json --output="$j"
				c1=$(cpu_stat)
				sampler_stop
				if [ "$lat" = 5 ]; then
					metric "$label" MiB/s "$(js "$j" read_mibs)" "$r"
					metric "$label" "commands at the device (mean)" "$(col_mean "$busy")" "$r"
					metric "$label" "read clat mean (us)" "$(js "$j" read_clat_us)" "$r"
					metric "$label" "guest CPU busy %" "$(cpu_busy "$c0" "$c1")" "$r"
				else
					metric "$label" "MiB/s at $lat ms per command" "$(js "$j" read_mibs)" "$r"
				fi
			done
		done
	done
	;;
S2)
	dev=$(scsi_debug_disk)
	echo 1 >"/sys/block/$dev/queue/rotational"
	tr=/sys/kernel/tracing
	mountpoint -q "$tr" || mount -t tracefs none "$tr"
	echo 16384 >"$tr/buffer_size_kb"
	for r in $rlist; do
		for mode in latched fresh; do
			echo none >"/sys/block/$dev/queue/scheduler"
			echo 32 >"/sys/block/$dev/device/queue_depth"
			sched "$dev" bfq
			if [ "$mode" = latched ]; then
				say "bfq: S1's load at depth 32 for 10 s (hw_tag latches), run $r/$runs"
				fio --name=latch --filename="/dev/$dev" --rw=randread --bs=16k --direct=1 \
					--ioengine=psync --numjobs=8 --time_based --runtime=10 --output=/dev/null
				echo 1 >"/sys/block/$dev/device/queue_depth"
			else
				echo 1 >"/sys/block/$dev/device/queue_depth"
				variant "$dev" bfq
			fi
			say "bfq ($mode) at queue_depth $(cat "/sys/block/$dev/device/queue_depth"): two readers with think time, run $r/$runs (${rt}s)"
			echo 0 >"/sys/block/$dev/trace/enable"
			echo nop >"$tr/current_tracer"
			: >"$tr/trace"
			echo 1 >"$tr/tracing_on"
			echo 1 >"/sys/block/$dev/trace/enable"
			echo blk >"$tr/current_tracer"
			j=$out/bfq-$mode-$r.json
			fio --output-format=json --output="$j" --filename="/dev/$dev" --rw=read --bs=64k \
				--direct=1 --ioengine=psync --thinktime=2000 --time_based --runtime="$rt" \
				--name=r0 --offset=0 --name=r1 --offset=128m
			# stop before reading: a change of tracer empties the buffer
			echo 0 >"$tr/tracing_on"
			grep ' expire (' "$tr/trace" >"$out/bfq-$mode-$r.expire" || true
			echo nop >"$tr/current_tracer"
			echo 0 >"/sys/block/$dev/trace/enable"
			metric "bfq ($mode)" "MiB/s" \
				"$(js "$j" read_mibs)" "$r"
			metric "bfq ($mode)" "idle expirations" "$(grep -c 'expire (0,' "$out/bfq-$mode-$r.expire" || true)" "$r"
			metric "bfq ($mode)" "expirations" "$(wc -l <"$out/bfq-$mode-$r.expire")" "$r"
		done
	done
	;;
S3)
	dev=$(scsi_debug_disk)
	mnt=/tmp/s3
	mkdir -p "$mnt"
	# the host's ext4 image of the files: one copy, not 8000 writes
	job=$(dirname "$0")/s3.fio
	img=${BENCH_S3_IMAGE:?the host passes the S3 ext4 image in BENCH_S3_IMAGE}
	say "copying $img ($(du -m "$img" | cut -f1) MiB) to $dev"
	echo 100000 >"$sd/ndelay"
	dd if="$img" of="/dev/$dev" bs=4M conv=fsync status=none
	mount -o ro "/dev/$dev" "$mnt"
	say "$(find "$mnt" -type f | wc -l) files, $(du -sm "$mnt" | cut -f1) MiB on ext4"
	for lat in rot nonrot; do
		if [ "$lat" = rot ]; then
			echo 5000000 >"$sd/ndelay"
			echo 1 >"/sys/block/$dev/queue/rotational"
		else
			echo 100000 >"$sd/ndelay"
			echo 0 >"/sys/block/$dev/queue/rotational"
		fi
		for r in $rlist; do
			for spec in bfq bfq:low_latency=0 bfq:slice_idle=0 mq-deadline none; do
				variant "$dev" "$spec"
				sync
				echo 3 >/proc/sys/vm/drop_caches
				say "$label ($lat, ndelay $(cat "$sd/ndelay") ns) run $r/$runs"
				j=$out/$tag-$lat-$r.json
				c0=$(cpu_stat)
				S3_DIR=$mnt S3_CREATE=0 fio --output-format=json --output="$j" "$job"
				c1=$(cpu_stat)
				metric "$label" "seconds ($lat)" "$(js "$j" runtime_s)" "$r"
				metric "$label" "guest CPU busy % ($lat)" "$(cpu_busy "$c0" "$c1")" "$r"
			done
		done
	done
	umount "$mnt"
	;;
S5)
	dev=vda
	[ -e "/sys/block/$dev" ] || { echo "no virtio-blk disk $dev" >&2; exit 1; }
	# the disk's request interrupt (MSI-X: virtioN-req.0; INTx: virtioN)
	vdv=$(basename "$(readlink -f "/sys/block/$dev/device")")
	irq=$(awk -F: -v v="$vdv" '$0 ~ v "-req" { gsub(/ /, "", $1); print $1; exit }' /proc/interrupts)
	[ -n "$irq" ] || irq=$(awk -F: -v v="$vdv" '$0 ~ v "$" { gsub(/ /, "", $1); print $1; exit }' /proc/interrupts)
	[ -n "$irq" ] || { echo "no virtio-blk interrupt in /proc/interrupts" >&2; exit 1; }
	# on CPU 0 (a managed vector: isolcpus=managed_irq,1-3 keeps it there), fio on node 1
	icpu=$(cut -d, -f1 "/proc/irq/$irq/effective_affinity_list" | cut -d- -f1)
	[ "$icpu" = 0 ] || { echo "the virtio-blk interrupt $irq is on CPU $icpu, not 0" >&2; exit 1; }
	sub=2-3 lo=3
	say "$dev: irq $irq on CPU $(cat "/proc/irq/$irq/effective_affinity_list"), fio on CPUs $sub, $(nproc) CPUs, nodes: $(find /sys/devices/system/node -maxdepth 1 -name "node[0-9]*" | wc -l)"
	sched "$dev" none
	# row FILE KEY: the per-CPU counts of /proc/interrupts or /proc/softirqs
	row() { awk -v k="$2" '$1 == k ":" || $1 == k { $1 = ""; print; exit }' "$1"; }
	share() { # BEFORE AFTER: % of the growth on the submitting CPUs
		printf '%s\n%s\n' "$1" "$2" | awk -v lo="$lo" 'NR == 1 { for (i = 1; i <= NF; i++) a[i] = $i }
			NR == 2 { for (i = 1; i <= NF && i <= 4; i++) { d = $i - a[i]; t += d; if (i == lo || i == lo + 1) s += d }
				print t ? 100 * s / t : 0 }'
	}
	for r in $rlist; do
		for aff in 0 1 2; do
			echo "$aff" >"/sys/block/$dev/queue/rq_affinity"
			say "rq_affinity=$aff run $r/$runs (${rt}s)"
			j=$out/none-rq$aff-$r.json
			b0=$(row /proc/softirqs BLOCK)
			c0=$(row /proc/interrupts CAL)
			fio --name=s5 --filename="/dev/$dev" --rw=randread --bs=4k --direct=1 \
				--ioengine=libaio --iodepth=32 --numjobs=2 --cpus_allowed="$sub" \
				--cpus_allowed_policy=split --group_reporting --time_based \
				--runtime="$rt" --output-format=json --output="$j"
			b1=$(row /proc/softirqs BLOCK)
			c1=$(row /proc/interrupts CAL)
			metric "rq_affinity=$aff" "kIOPS" "$(js "$j" 'kiops("read")')" "$r"
			metric "rq_affinity=$aff" "BLOCK softirqs on submitting CPUs %" "$(share "$b0" "$b1")" "$r"
			metric "rq_affinity=$aff" "CAL IPIs on submitting CPUs %" "$(share "$c0" "$c1")" "$r"
		done
	done
	;;
S4)
	dev=nullb0
	sched "$dev" bfq
	say "$dev: nr_requests $(cat /sys/block/$dev/queue/nr_requests), async_depth $(cat /sys/block/$dev/queue/async_depth 2>/dev/null || echo -)"
	for r in $rlist; do
		for ll in 1 0; do
			echo "$ll" >"/sys/block/$dev/queue/iosched/low_latency"
			say "bfq low_latency=$ll run $r/$runs (${rt}s)"
			j=$out/bfq-ll$ll-$r.json
			# writes at the driver: the async depth limit is their ceiling
			sampler_start "$out/bfq-ll$ll-$r.inflight" "/sys/block/$dev/inflight" 2
			fio --output-format=json --output="$j" \
				--name=writers --filename="/dev/$dev" --rw=write --bs=64k \
				--ioengine=psync --numjobs=4 --offset_increment=256m --size=256m \
				--time_based --runtime="$rt" \
				--name=reader --filename="/dev/$dev" --rw=randread --bs=4k --direct=1 \
				--ioengine=psync --percentile_list=50:99:99.9 --startdelay=2 \
				--time_based --runtime="$rt"
			sampler_stop
			metric "bfq low_latency=$ll" "writes in flight (max)" "$(col_max "$out/bfq-ll$ll-$r.inflight")" "$r"
			metric "bfq low_latency=$ll" "writes in flight (mean)" "$(col_mean "$out/bfq-ll$ll-$r.inflight")" "$r"
			for p in 50 99 99.9; do
				metric "bfq low_latency=$ll" "read clat p$p (us)" \
					"$(js "$j" "reader_clat_us(\"$(printf '%.6f' "$p")\")")" "$r"
			done
			metric "bfq low_latency=$ll" "write MiB/s" \
				"$(js "$j" writers_mibs)" "$r"
		done
	done
	;;
S6)
	dev=nullb0
	sched "$dev" mq-deadline
	for r in $rlist; do
		for nr in 256 2048; do
			for nm in 0 1; do
				echo "$nr" >"/sys/block/$dev/queue/nr_requests"
				echo "$nm" >"/sys/block/$dev/queue/nomerges"
				v="nr_requests=$nr nomerges=$nm"
				say "mq-deadline $v run $r/$runs (${rt}s)"
				j=$out/mq-deadline-nr$nr-nm$nm-$r.json
				fio --name=s6 --filename="/dev/$dev" --rw=randwrite --bs=4k --direct=1 \
					--ioengine=io_uring --iodepth=2048 --iodepth_batch_submit=32 \
					--norandommap --randrepeat=0 --time_based --ramp_time=2 \
					--runtime="$rt" --output-format=json --output="$j"
				metric "mq-deadline" "sys us/IO ($v)" \
					"$(js "$j" sys_us_per_write)" "$r"
				metric "mq-deadline" "kIOPS ($v)" "$(js "$j" 'kiops("write")')" "$r"
			done
		done
	done
	;;
*)
	echo "bench.sh: unknown scenario $s" >&2
	exit 1
	;;
esac
say "done"
: >"$3/done" # for the host: this boot ran to its end
