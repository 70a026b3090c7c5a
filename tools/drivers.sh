#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# drivers.sh [base|series|rfc...|summary] - 'make drivers': ext4 and fio (verify, sync and libaio
# readers beside buffered writeback), then raw-device readers, on four drivers and dm-multipath
# under QEMU, on debug kernels (guest side: tools/vm/drivers.sh); summary: results and summary.md again.
# Settings: docs/reference.md; what it writes: docs/drivers.md.
set -euo pipefail
# shellcheck source=lib/vm.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/vm.sh"

# check K: K's results: no splat, and on each disk fio's status 0 with no job in error
check() {
	local k=$1 splats name rc verr j be qd1=0 more raws=()
	# the raw-device readers, in runs since they came (rfc v5; raw-prio since v8; raw-qd1 on
	# scsi_debug since v9)
	! compgen -G "$out/$k-*-raw-psync.status" >/dev/null || raws=(raw-psync raw-uring)
	! compgen -G "$out/$k-*-raw-prio.status" >/dev/null || raws+=(raw-prio)
	! compgen -G "$out/*-raw-qd1.status" >/dev/null || qd1=1
	# the guest's last act: its dmesg
	[ -s "$out/$k-dmesg.txt" ] || { result "$k: the run finished (see $out/$k-console.log)" 1; return; }
	splats=$(splat_lines "$out/$k-dmesg.txt" | wc -l)
	result "$k: no kernel splat (BUG, WARNING, KASAN, lockdep, hung task, ...): $splats" "$([ "$splats" -eq 0 ]; echo $?)"
	while IFS=$'\t' read -r name _; do
		read -r rc _ <"$out/$k-$name.status" 2>/dev/null || rc="no status"
		verr=$(fio_json "$out/$k-$name.json" | jq '[.jobs[] | select(.error != 0)] | length' 2>/dev/null || echo "no fio JSON")
		result "$k, $name: fio exit status $rc, jobs with an error (verify included): $verr" \
			"$([ "$rc" = 0 ] && [ "$verr" = 0 ]; echo $?)"
		more=()
		[ "$name:$qd1" != scsi_debug:1 ] || more=(raw-qd1)
		for j in "${raws[@]}" "${more[@]}"; do
			read -r rc _ <"$out/$k-$name-$j.status" 2>/dev/null || rc="no status"
			result "$k, $name, $j: fio exit status $rc" "$([ "$rc" = 0 ]; echo $?)"
		done
		[[ " ${raws[*]} " = *" raw-prio "* ]] || continue
		be=$(fio_json "$out/$k-$name-raw-prio.json" | jq '.jobs[] | select(.jobname == "be") | .read.total_ios' 2>/dev/null)
		result "$k, $name, raw-prio: the BE reader beside the RT one was served: ${be:-no fio JSON} reads" \
			"$([ "${be:-0}" -gt 0 ]; echo $?)"
	done <"$out/$k-disks.tsv"
	# dm-multipath over scsi_debug, since v8: it ran, and the stack tracer saw its jobs
	[[ " ${raws[*]} " = *" raw-prio "* ]] || return 0
	result "$k: dm-mpath ran, the deepest stack in its jobs: $(head -1 "$out/$k-dm-mpath.stack" 2>/dev/null || echo "no") bytes" \
		"$(grep -q '^dm-mpath' "$out/$k-disks.tsv" && [ -s "$out/$k-dm-mpath.stack" ]; echo $?)"
}

# raw K: per disk of K, the raw-device readers: I/Os, p99, kblockd runs per 1000 I/O
raw() {
	local k=$1 name d j rc runs lost
	while IFS=$'\t' read -r name d _; do
		for j in raw-psync raw-uring raw-prio raw-qd1; do
			read -r rc runs lost 2>/dev/null <"$out/$k-$name-$j.status" || continue
			# a row per reader; kblockd's runs are the run's, per 1000 reads of all its readers
			fio_json "$out/$k-$name-$j.json" | jq -r --arg k "$k" --arg n "$name" --arg j "$j" --arg rc "$rc" \
				--argjson runs "$runs" --arg lost "$lost" '
				([.jobs[].read.total_ios] | add) as $all | (.jobs | length) as $nj | .jobs[] |
				.jobname as $jn | .read as $r |
				"| \($k) | \($n) | \(if $nj > 1 then "\($j) \($jn)" else $j end) | \($r.total_ios) | \($r.clat_ns.percentile["99.000000"] / 1000 | floor) | \($runs * 1000 / ([$all, 1] | max) | round) | \($lost) | \($rc) |"'
		done
	done <"$out/$k-disks.tsv"
}

# top5 EXT FILTER K...: per kernel, disk and window with a .EXT file, the five most of
# FILTER's "COUNT WHAT" lines of it, per 1000 I/Os of the window
top5() {
	local ext=$1 filter=$2 k name w win
	shift 2
	for k in "$@"; do
		while IFS=$'\t' read -r name _; do
			for w in "" -raw-psync -raw-uring -raw-prio -raw-qd1; do
				[ -f "$out/$k-$name$w.$ext" ] || continue
				win=${w#-}
				"$filter" "$out/$k-$name$w.$ext" | awk -v ios="$(fio_json "$out/$k-$name$w.json" | jq '[.jobs[] | .read.total_ios + .write.total_ios] | add')" \
					-v row="| $k | $name | ${win:-ext4 jobs} |" 'NR <= 5 { o = $0; sub(/^[0-9]+ /, "", o); s = s sep sprintf("%s %.1f", o, 1000 * $1 / ios); sep = ", " }
					END { print row, (s == "" ? "none" : s), "|" }'
			done
		done <"$out/$k-disks.tsv"
	done
}
origins() { awk -f "$BSK_TOP/tools/lib/kblockd-origins.awk" "$1"; }

# summary: OUT/summary.md, per kernel and disk, what fio moved and how
summary() {
	local k name d sched nq rot flags rc c0 c1 runs lost
	local kind="debug kernels"
	[ "$(cat "$out/debug" 2>/dev/null)" != 0 ] || kind="kernels without the debug options (DRIVERS_DEBUG=0)"
	echo "# make drivers: four drivers under QEMU, $kind"
	echo
	echo "Produced by \`make drivers\` ($(date -u -r "$out/$1-disks.tsv" +%Y-%m-%d)), $(cat "$out/seconds" 2>/dev/null || echo "$secs")s of fio per disk: docs/drivers.md."
	echo
	echo '| kernel | driver | disk | scheduler | hw queues | rotational | hctx flags | I/Os | psync read p99 (us) | libaio QD2 read p99 (us) | context switches per I/O | kblockd runs per 1000 I/Os | fio status |'
	echo '|---|---|---|---|---|---|---|---|---|---|---|---|---|'
	for k in "$@"; do
		while IFS=$'\t' read -r name d sched nq rot flags; do
			# runs before v5's counted no kblockd runs here
			read -r rc c0 c1 runs lost <"$out/$k-$name.status" 2>/dev/null || { rc=- c0=0 c1=0; }
			[ -s "$out/$k-$name.json" ] || { echo "| $k | $name | $d | $sched | $nq | $rot | $flags | - | - | - | - | - | $rc |"; continue; }
			fio_json "$out/$k-$name.json" | jq -r --arg k "$k" --arg n "$name" --arg d "$d" --arg s "$sched" --arg q "$nq" \
				--arg r "$rot" --arg f "$flags" --arg rc "$rc" --argjson cs $((c1 - c0)) --arg runs "${runs:--}" --arg lost "${lost:-0}" '
				def p99(n): (.jobs[] | select(.jobname == n) | .read.clat_ns.percentile["99.000000"] / 1000 | floor);
				([.jobs[] | .read.total_ios + .write.total_ios] | add) as $ios |
				"| \($k) | \($n) | \($d) | \($s) | \($q) | \($r) | \($f) | \($ios) | \(p99("psync")) | \(p99("libaio")) | \($cs / $ios * 100 | round / 100) | \(if $runs == "-" then "-" else "\(($runs | tonumber) * 1000 / $ios | round)\(if $lost != "0" then " (\($lost) trace events lost)" else "" end)" end) | \($rc) |"'
		done <"$out/$k-disks.tsv"
	done
	[ -n "$(compgen -G "$out/*-raw-psync.status")" ] || return 0
	echo
	local prio=
	[ -z "$(compgen -G "$out/*-raw-prio.status")" ] ||
		prio=", then raw-prio, a psync reader of I/O class RT beside one of class BE (mq-deadline holds BE back while RT is in flight)"
	[ -z "$(compgen -G "$out/*-raw-qd1.status")" ] ||
		prio+=", and on scsi_debug raw-qd1, four psync readers at a SCSI queue depth of one (the dispatch budget runs out within a pass)"
	echo "On the raw device, one reader at a time for $(($(cat "$out/seconds" 2>/dev/null || echo "$secs") / 4))s: psync (unplugged, the RFC's case), then io_uring at QD1 (REQ_NOWAIT first)$prio: kblockd's runs of a hw queue (workqueue_execute_start of blk_mq_run_work_fn) per 1000 reads${prio:+ of the run}."
	echo
	echo '| kernel | driver | job | reads | read p99 (us) | kblockd runs per 1000 reads | trace events lost | fio status |'
	echo '|---|---|---|---|---|---|---|---|'
	for k in "$@"; do raw "$k"; done
	if [ -n "$(compgen -G "$out/*-dm-mpath.stack")" ]; then
		echo
		echo "The deepest stack the stack tracer (stack_max_size, stack_trace) saw while the dm-mpath jobs ran, with the frames through dm (<kernel>-dm-mpath.stack):"
		echo
		echo '| kernel | bytes | frames | dm frames, deepest first |'
		echo '|---|---|---|---|'
		for k in "$@"; do
			[ -f "$out/$k-dm-mpath.stack" ] || continue
			awk -v k="$k" 'NR == 1 { b = $1; next } $1 ~ /^[0-9]+\)$/ { n++; fn = $NF; sub(/\+.*/, "", fn); if (fn ~ /^dm_|^map_request|^blk_insert_cloned/) f = f (f == "" ? "" : " < ") fn }
				END { print "| " k " | " b " | " n " | " (f == "" ? "none" : f) " |" }' "$out/$k-dm-mpath.stack"
		done
	fi
	[ -n "$(compgen -G "$out/*.stacks")" ] || return 0
	echo
	echo "Who asked kblockd for those runs: a stack per workqueue_queue_work of blk_mq_run_work_fn (<kernel>-<driver>[-<job>].stacks), named by its first frame outside the workqueue's and blk-mq's run helpers and its first caller beyond the block layer's submit and wait frames (tools/lib/kblockd-origins.awk), per 1000 I/Os of the window, the five most. A request for a run while one is pending is counted too, so these can add up to more than the runs."
	echo
	echo '| kernel | driver | window | queued by, per 1000 I/Os |'
	echo '|---|---|---|---|'
	top5 stacks origins "$@"
	[ -n "$(compgen -G "$out/*.lines")" ] || return 0
	echo
	echo "The branch that asked for each run: the call site of each stack's first frame past the workqueue's and the run helpers (<kernel>-<driver>[-<job>].sites), as addr2line -i places it on the kernel's vmlinux, innermost first, or as function+offset where the kernel has no debug information (.lines), per 1000 I/Os of the window, the five most."
	echo
	echo '| kernel | driver | window | call site, per 1000 I/Os |'
	echo '|---|---|---|---|'
	top5 lines cat "$@"
}

# lines K VMLINUX: each of K's .sites as .lines, "COUNT function file:line < caller file:line ...",
# the inline chain addr2line gives for the call (the return address less one), one addr2line in all
lines() {
	local map site sym off a t f
	local -A addr=()
	compgen -G "$out/$1-*.sites" >/dev/null || return 0
	map=$(mktemp)
	while read -r a t sym; do [[ $t != [tT] ]] || addr[$sym]=$a; done < <(nm "$2")
	while read -r site; do
		sym=${site%%+*} off=${site#*+} off=${off%%/*}
		[ -n "${addr[$sym]:-}" ] && printf '%s 0x%x\n' "$site" $((0x${addr[$sym]} + off - 1))
	done < <(cat "$out/$1"-*.sites | awk '{ print $2 }' | sort -u) >"$map.in"
	# shellcheck disable=SC2016 # awk's fields
	cut -d' ' -f2 "$map.in" | addr2line -e "$2" -a -f -i -p |
		sed -e 's/ (inlined by) / /' -e 's/ at [^ ]*\/\([^/]*:[0-9]*\).*/ \1/' |
		awk 'NR == FNR { site[$2] = $1; next } /^0x/ { a = $1; sub(/:$/, "", a); k = site[a]; sub(/^0x[0-9a-f]+: /, ""); c[k] = $0; next }
			{ c[k] = c[k] " < " $0 } END { for (k in c) print k "\t" c[k] }' "$map.in" - |
		# no debug information: the site itself, which objdump -d places
		awk -F'\t' -v OFS='\t' '$2 ~ /\?/ { $2 = $1 } { print }' >"$map"
	for f in "$out/$1"-*.sites; do
		# shellcheck disable=SC2016 # awk's fields
		awk -F'\t' 'NR == FNR { c[$1] = $2; next } { split($0, w, " "); l[w[2] in c ? c[w[2]] : w[2]] += w[1] } END { for (s in l) print l[s], s }' "$map" "$f" | sort -k1,1nr >"${f%.sites}.lines"
	done
	rm -f "$map" "$map.in"
}

kernels=("$@")
secs=${DRIVERS_SECONDS:-120} # check_settings: a positive number
if [ "${kernels[*]}" = summary ]; then
	command -v jq >/dev/null || die "drivers.sh summary needs jq"
	out=${DRIVERS_OUT:?drivers.sh summary: DRIVERS_OUT= names the run}
	kernels=()
	for k in base series rfc; do [ ! -e "$out/$k-disks.tsv" ] || kernels+=("$k"); done
	[ ${#kernels[@]} -gt 0 ] || die "no <kernel>-disks.tsv in $out"
	for k in "${kernels[@]}"; do check "$k"; done
	summary "${kernels[@]}" >"$out/summary.md"
	results_end
	exit
fi
[ ${#kernels[@]} -gt 0 ] || kernels=(base rfc)
for k in "${kernels[@]}"; do
	case $k in base | series | rfc) ;; *) die "usage: drivers.sh [base|series|rfc...|summary] (not '$k')" ;; esac
done
# DRIVERS_DEBUG=0: the same without configs/debug.config, for figures a debug kernel blurs
frags=("$BSK_TOP/configs/drivers.config")
case ${DRIVERS_DEBUG:-1} in
0) ;;
1) frags=("$BSK_TOP/configs/debug.config" "${frags[@]}") ;;
*) die "DRIVERS_DEBUG is 0 or 1 (not '$DRIVERS_DEBUG')" ;;
esac
out=$(out_dir DRIVERS_OUT drivers)
vm_setup
command -v mkfs.ext4 >/dev/null || die "make drivers needs mkfs.ext4 (apt-get install e2fsprogs)"

# an SD card behind sdhci-pci (its size a power of two), AHCI with a rotational disk,
# virtio-blk with one queue; scsi_debug's host-wide tags come from the command line
for d in sd sata vd; do truncate -s 512M "$out/$d.img"; done
echo "$secs" >"$out/seconds"
echo "${DRIVERS_DEBUG:-1}" >"$out/debug"
qopts="-device sdhci-pci -drive if=none,id=sdcard,file=$out/sd.img,format=raw -device sd-card,drive=sdcard"
qopts+=" -device ich9-ahci,id=ahci -drive if=none,id=satadisk,file=$out/sata.img,format=raw"
qopts+=" -device ide-hd,drive=satadisk,bus=ahci.0,rotation_rate=7200"
qopts+=" -drive if=none,id=vdisk,file=$out/vd.img,format=raw,cache=none -device virtio-blk-pci,drive=vdisk,num-queues=1"
sdebug="scsi_debug.dev_size_mb=512 scsi_debug.submit_queues=2 scsi_debug.host_max_queue=64 scsi_debug.ndelay=200000"

for k in "${kernels[@]}"; do
	kimg=$(vm_kernel "guest kernel with the drivers: $k" "$k" "${frags[@]}")
	stage "fio on four drivers, $k kernel (${secs}s each)"
	rm -f "$out/$k".* "$out/$k"-*
	vm_run "$out/$k-console.log" '^drivers: ' timeout $((6 * secs + 1200)) "$vng" --disable-kvm --cpus 2 --memory 2G \
		--rwdir "$out" -r "$kimg" --qemu-opts="$qopts" --append "kunit.enable=0 null_blk.nr_devices=0 $sdebug" \
		--exec "sh tools/vm/drivers.sh $k $out $secs; reboot -f"
	stage_end
	# the vmlinux beside the image (or beside root-<kernel>/ with modules)
	vml=$(dirname "$kimg")/vmlinux-$k
	[ -e "$vml" ] || vml=$(dirname "$(dirname "$kimg")")/vmlinux-$k
	lines "$k" "$vml"
	check "$k"
done
summary "${kernels[@]}" >"$out/summary.md"
rm -f "$out"/*.img
results_at "$out" "summary.md, <kernel>-<driver>.json, <kernel>-dmesg.txt" "results/drivers"
results_end
