#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bootloop.sh base|series [N] - boot the debug guest kernel of 'make
# stress' (configs/debug.config: KASAN, KFENCE, UBSAN, lockdep, ...; the
# series one with the suites' .kunitconfig, as 'make check' builds it) N
# times (default 50) under virtme-ng, each boot straight to a dmesg and a
# power-off, and count the boots whose log has a splat
# (tools/lib/splat-patterns).  For a report seen once at boot: does it
# come again, and on which kernel.
#
#   BOOT_LOAD=2      other QEMUs (the same kernel, spinning in the guest)
#                    running beside each boot, as the load on the host
#                    when the report was seen (0: none)
#   BOOT_STOP=1      stop at the first boot with a splat (default 0)
#   BOOT_OUT=dir     where each run keeps its splats' boot logs, in a
#                    directory of its own (default
#                    $BSK_CACHE/bootloop/<kernel>); the counts go to
#                    summary.txt there
#
# Last line: "N passed, N failed" (a boot with a splat fails).
set -euo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

k=${1:-}
case $k in base|series) ;; *) die "usage: bootloop.sh base|series [N]" ;; esac
n=${2:-50}
[[ $n =~ ^[1-9][0-9]*$ ]] || die "N=$n is not a positive number of boots"
load=${BOOT_LOAD:-2}
[[ $load =~ ^[0-9]+$ ]] || die "BOOT_LOAD=$load is not a number of QEMUs"
out=${BOOT_OUT:-$BSK_CACHE/bootloop/$k}
mkdir -p "$out"
out=$(cd "$out" && pwd)
# each run's logs apart: a later run never removes an earlier one's
runs=$out
out=$runs/$(date -u +%Y%m%dT%H%M%S)
mkdir -p "$out"

"$BSK_TOP/tools/env/deps.sh" base build vm
vng=$("$BSK_TOP/tools/env/vng.sh")
"$BSK_TOP/tools/apply.sh" >/dev/null
read -r _ wt _ < <("$BSK_TOP/tools/env/tree.sh") || exit 1
frags=("$BSK_TOP/configs/debug.config")
[ "$k" = base ] || frags+=("$wt/block/tests/.kunitconfig")
stage "debug guest kernel: $k"
img=$("$BSK_TOP/tools/env/vmkernel.sh" "$k" "${frags[@]}")
stage_end

pids=()
stop_load() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
}
trap stop_load EXIT
for ((j = 1; j <= load; j++)); do
	(cd "$BSK_TOP" && exec "$vng" --disable-kvm --cpus 2 --memory 1G -r "$img" \
		--append "kunit.enable=0" --exec 'while :; do :; done') >/dev/null 2>&1 &
	pids+=($!)
done

stage "$n boots of the $k debug kernel, $load other QEMUs beside"
splats=0
for ((i = 1; i <= n; i++)); do
	log=$out/boot-$i.log
	(cd "$BSK_TOP" && timeout 600 "$vng" --disable-kvm --cpus 2 --memory 2G -r "$img" \
		--append "kunit.enable=0" --exec 'dmesg; poweroff -f') >"$log" 2>&1 || true
	if ! grep -q 'Linux version' "$log"; then
		result "$k boot $i: the guest booted and printed its log (see $log)" 1
		continue
	fi
	if grep -qE -f "$BSK_TOP/tools/lib/splat-patterns" "$log"; then
		splats=$((splats + 1))
		result "$k boot $i: no splat ($(grep -m1 -E -f "$BSK_TOP/tools/lib/splat-patterns" "$log"))" 1
		[ "${BOOT_STOP:-0}" = 0 ] || break
	else
		rm -f "$log"
		result "$k boot $i: no splat" 0
	fi
done
stage_end
printf '%s: %d boots, %d with a splat, %d other QEMUs beside, %s\n' "$k" "$((i > n ? n : i))" "$splats" "$load" \
	"$(date -u +%F)" >>"$runs/summary.txt"
results_end
