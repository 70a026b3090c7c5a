#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# stress.sh KERNEL OUTDIR SECONDS - guest side of 'make stress': fio with verify and injected
# faults beside loops that switch, flip, resize, hotplug and tune; writes
# OUTDIR/KERNEL.json and KERNEL-dmesg.txt.  docs/stress.md.
set -u
pats=$(cd "$(dirname "$0")/.." && pwd)/lib/splat-patterns
kernel=$1 out=$2 secs=$3
mkdir -p "$out"
tmp=$(mktemp -d)
cfs=/sys/kernel/config/nullb
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
say() { printf 'stress: %s: %s\n' "$kernel" "$*"; }
nullb() {
	d=$cfs/$1
	shift
	mkdir "$d"
	for kv in "$@"; do echo "${kv#*=}" >"$d/${kv%%=*}"; done
	echo 1 >"$d/power"
}

nullb v0 size=256 blocksize=4096 memory_backed=1 queue_mode=2 submit_queues=2 \
	hw_queue_depth=64 irqmode=2 completion_nsec=100000 \
	requeue_inject/probability=1 requeue_inject/interval=1 requeue_inject/times=100000 requeue_inject/verbose=0
nullb t0 size=256 blocksize=4096 queue_mode=2 submit_queues=1 hw_queue_depth=32 \
	irqmode=2 completion_nsec=100000 \
	timeout_inject/probability=1 timeout_inject/interval=1 timeout_inject/times=30 timeout_inject/verbose=0
# disk NAME: the disk of configfs device NAME (NAME, or nullb<index> before 6.x)
disk() { if [ -e "/sys/block/$1" ]; then echo "$1"; else echo "nullb$(cat "$cfs/$1/index")"; fi; }
vdev=$(disk v0) tdev=$(disk t0)
sdev=
for d in /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/block/*; do
	[ -e "$d" ] && sdev=$(basename "$d")
done
if [ -z "$sdev" ] || [ ! -e "/sys/block/$vdev" ] || [ ! -e "/sys/block/$tdev" ]; then
	say "no devices (null_blk: $vdev $tdev, scsi_debug: ${sdev:-none})"
	exit 1
fi
echo 1000 >"/sys/block/$tdev/queue/io_timeout"
devs="$vdev $tdev $sdev"
say "devices: $vdev (verify, requeues injected), $tdev (timeouts injected), $sdev (scsi_debug, verify); ${secs}s"

tunables() { # DEV: one pass; prints "valid invalid refused"
	q=/sys/block/$1/queue/iosched
	v=0 i=0 ok=0
	for t in "$q"/*; do
		{ [ -f "$t" ] && [ -w "$t" ]; } || continue
		cur=$(cat "$t" 2>/dev/null) || continue
		echo "$cur" >"$t" 2>/dev/null && v=$((v + 1))
		for bad in abc -1 ''; do
			i=$((i + 1))
			# coreutils' echo: dash's builtin reports EIO for any error
			err=$( (env echo "$bad" >"$t") 2>&1) && continue
			case $err in *"Invalid argument"*) ;; *) continue ;; esac
			[ "$(cat "$t" 2>/dev/null)" = "$cur" ] && ok=$((ok + 1))
		done
	done
	echo "$v $i $ok"
}
echo bfq >"/sys/block/$vdev/queue/scheduler"
read -r tv ti tr <<EOF
$(tunables "$vdev")
EOF
say "BFQ tunables: $tv valid writes, $tr of $ti invalid writes refused with EINVAL and nothing changed"

# from $tmp: fio keeps its verify state in the working directory
cd "$tmp" || exit 1
end=$(($(date +%s) + secs))
fio --output-format=json --output="$tmp/fio.json" --time_based --runtime="$secs" \
	--ioengine=libaio --direct=1 --bs=4k --iodepth=16 --randrepeat=0 \
	--name=vnull --filename="/dev/$vdev" --rw=randwrite --size=128m \
	--verify=crc32c --verify_fatal=1 --verify_backlog=256 \
	--name=vscsi --filename="/dev/$sdev" --rw=randwrite --size=64m \
	--verify=crc32c --verify_fatal=1 --verify_backlog=256 >"$tmp/fio.out" 2>&1 &
fio_pid=$!
# reads that time out now and then: errors expected, exit status ignored
fio --output-format=json --output="$tmp/fio-t.json" --time_based --runtime="$secs" \
	--ioengine=libaio --direct=1 --bs=4k --iodepth=16 --randrepeat=0 \
	--name=tnull --filename="/dev/$tdev" --rw=randread --size=128m \
	--continue_on_error=all >"$tmp/fio-t.out" 2>&1 &
fiot_pid=$!

# loop NAME PERIOD CMD...: CMD every PERIOD seconds until $end, successes counted in $tmp/NAME
loop() {
	n=$1 p=$2
	shift 2
	c=0
	while [ "$(date +%s)" -lt "$end" ]; do
		"$@" && c=$((c + 1))
		echo "$c" >"$tmp/$n"
		sleep "$p"
	done
}
i=0
switch() {
	i=$((i + 1))
	set -- bfq mq-deadline kyber none
	shift $((i % 4))
	for d in $devs; do
		# coreutils' echo, so a refusal is logged with its errno
		env echo "$1" >"/sys/block/$d/queue/scheduler" 2>>"$tmp/switch-errors" || return 1
	done
}
j=0
affinity() {
	j=$((j + 1))
	for d in $devs; do echo $((j % 3)) >"/sys/block/$d/queue/rq_affinity" || return 1; done
}
k=0
depths() {
	k=$((k + 1))
	set -- 1 4 16 32
	shift $((k % 4))
	echo "$1" >"/sys/block/$sdev/device/queue_depth" || return 1
	set -- 4 16 64 128
	shift $((k % 4))
	for d in $devs; do
		echo "$1" >"/sys/block/$d/queue/nr_requests" 2>/dev/null
		[ ! -e "/sys/block/$d/queue/async_depth" ] ||
			echo $(( $1 / 2 + 1 )) >"/sys/block/$d/queue/async_depth" 2>/dev/null
	done
	return 0
}
hotplug() {
	echo 0 >/sys/devices/system/cpu/cpu1/online || return 1
	sleep 0.5
	echo 1 >/sys/devices/system/cpu/cpu1/online
}
bfqtun() {
	for d in $devs; do
		grep -q '\[bfq\]' "/sys/block/$d/queue/scheduler" || continue
		f=/sys/block/$d/queue/iosched/slice_idle
		v=$(cat "$f" 2>/dev/null) && { echo "$v" >"$f"; } 2>/dev/null && return 0
	done
	return 1
}
loop scheduler_switches 0.1 switch &
loop affinity_flips 0.3 affinity &
loop depth_changes 0.5 depths &
loop cpu_offlines 2 hotplug &
loop tunable_writes 0.2 bfqtun &
wait "$fio_pid"
fio_rc=$?
wait "$fiot_pid"
wait
for d in $devs; do echo none >"/sys/block/$d/queue/scheduler"; done
[ "$(cat /sys/devices/system/cpu/cpu1/online)" = 1 ] || echo 1 >/sys/devices/system/cpu/cpu1/online

left() { cat "$cfs/$1/$2/times"; }
faults=$((100000 - $(left v0 requeue_inject) + 30 - $(left t0 timeout_inject)))
verr=$(grep -c 'verify: \|bad magic\|crc32c' "$tmp/fio.out" || true)
jverr=$(jq '[.jobs[] | .error] | map(select(. != 0)) | length' "$tmp/fio.json" 2>/dev/null || echo 1)
[ "$fio_rc" -eq 0 ] || [ "$verr" -gt 0 ] || [ "$jverr" -gt 0 ] || verr=1
dmesg >"$out/$kernel-dmesg.txt"
splats=$(grep -caE -f "$pats" "$out/$kernel-dmesg.txt" || true)
c() { cat "$tmp/$1" 2>/dev/null || echo 0; }
touch "$tmp/switch-errors"
refused=$(grep -c . "$tmp/switch-errors" || true)
[ "$refused" -eq 0 ] || say "scheduler switches refused: $(sed 's/.*: //' "$tmp/switch-errors" | sort | uniq -c | tr -s ' ' | paste -sd,)"
jq -n --arg k "$kernel" --argjson secs "$secs" \
	--argjson s "$(c scheduler_switches)" --argjson sr "$refused" --argjson a "$(c affinity_flips)" \
	--argjson d "$(c depth_changes)" --argjson o "$(c cpu_offlines)" \
	--argjson f "$faults" --argjson v "$((verr + jverr))" --argjson sp "$splats" \
	--argjson tw "$(c tunable_writes)" --argjson tv "$tv" --argjson ti "$ti" --argjson tr "$tr" \
	--argjson ios "$(jq -s '[.[].jobs[] | .read.total_ios + .write.total_ios] | add' "$tmp/fio.json" "$tmp/fio-t.json" 2>/dev/null || echo 0)" \
	'{kernel: $k, seconds: $secs, scheduler_switches: $s,
	  scheduler_switches_refused: $sr, affinity_flips: $a,
	  depth_changes: $d, cpu_offlines: $o, faults_injected: $f,
	  bfq_tunable_writes: ($tw + $tv), bfq_invalid_writes: $ti,
	  bfq_invalid_refused_unchanged: $tr, fio_ios: $ios,
	  fio_verify_errors: $v, splats: $sp}' >"$out/$kernel.json"
cat "$tmp/fio.out" "$tmp/fio-t.out" >"$out/$kernel-fio.txt"
say "$(tr -d '\n ' <"$out/$kernel.json")"
say "done"
