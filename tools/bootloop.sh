#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bootloop.sh base|series [N] - boot the debug guest kernel of 'make
# stress' (configs/debug.config: KASAN, KFENCE, UBSAN, lockdep, ...; the
# series one with the suites' .kunitconfig, as 'make check' builds it) N
# times (default 50), each boot straight to a dmesg and a power-off, and
# count the boots whose log has a splat (tools/lib/splat-patterns).  For a
# report seen once at boot: does it come again, and on which kernel.
#
#   BOOT_INIT=virtme   the guest as 'make stress' boots it: virtme-ng, its
#                      init and the host's root over 9p (about 110 s a boot
#                      here with BOOT_LOAD=2, 95 s of them in user space)
#   BOOT_INIT=busybox  (default) the same QEMU machine, root and kernel
#                      command line as virtme-ng's (q35, -cpu max, -smp 2,
#                      -m 2G, the host's root over 9p), but init is a script
#                      of the host's static busybox that prints dmesg and
#                      powers off: every line the kernel prints up to user
#                      space, in a fraction of the time
#   BOOT_LOAD=2        other QEMUs (the same kernel under virtme-ng,
#                      spinning in the guest) running beside each boot, as
#                      the load on the host when the report was seen (0:
#                      none)
#   BOOT_STOP=1        stop at the first boot with a splat (default 0)
#   BOOT_OUT=dir       where each run keeps its splats' boot logs, in a
#                      directory of its own (default
#                      $BSK_CACHE/bootloop/<kernel>); the counts go to
#                      summary.txt there, also for a run that was
#                      interrupted
#
# Last line: "N passed, N failed, N skipped" (a boot with a splat fails).
set -euo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

k=${1:-}
case $k in base|series) ;; *) die "usage: bootloop.sh base|series [N]" ;; esac
n=${2:-50}
[[ $n =~ ^[1-9][0-9]*$ ]] || die "N=$n is not a positive number of boots"
load=${BOOT_LOAD:-2}
[[ $load =~ ^[0-9]+$ ]] || die "BOOT_LOAD=$load is not a number of QEMUs"
init=${BOOT_INIT:-busybox}
case $init in virtme|busybox) ;; *) die "BOOT_INIT=$init: virtme or busybox" ;; esac
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

# The init of BOOT_INIT=busybox: a script run by the host's static busybox
# (the guest's root is the host's, read-only over 9p, as under virtme-ng)
# that prints the kernel's log to the console and powers off.
if [ "$init" = busybox ]; then
	bb=$(command -v busybox)
	! ldd "$bb" >/dev/null 2>&1 || die "$bb is linked dynamically; BOOT_INIT=busybox needs busybox-static"
	printf '#!%s sh\n%s dmesg\n%s poweroff -f\n' "$bb" "$bb" "$bb" >"$out/init"
	chmod +x "$out/init"
fi

# boot LOG: one boot of the kernel, its log (the guest's dmesg) in LOG.
boot() {
	if [ "$init" = virtme ]; then
		(cd "$BSK_TOP" && timeout 600 "$vng" --disable-kvm --cpus 2 --memory 2G -r "$img" \
			--append "kunit.enable=0" --exec 'dmesg; poweroff -f') >"$1" 2>&1 || true
	else
		# virtme-ng's machine and root (vng --dry-run prints them) and its
		# kernel command line, but for its init
		timeout 600 qemu-system-x86_64 -name bootloop -m 2G -machine q35 -cpu max -smp 2 \
			-accel tcg -parallel none -net none -vga none -display none -no-reboot \
			-fsdev local,id=root,path=/,security_model=none,readonly=on,multidevs=remap \
			-device virtio-9p-pci,fsdev=root,mount_tag=/dev/root \
			-serial "file:$1" -kernel "$img" \
			-append "console=ttyS0 earlyprintk=serial,ttyS0,115200 quiet loglevel=1 panic=-1 printk.time=1 rootfstype=9p rootflags=version=9p2000.L,trans=virtio,access=any,msize=524288 ro kunit.enable=0 init=$out/init" \
			>"$1.qemu" 2>&1 || true
		cat "$1.qemu" >>"$1"
		rm -f "$1.qemu"
	fi
}

pids=()
i=0
splats=0
stopped=
finish() {
	local p
	# each load QEMU is a session of its own: vng's QEMU with it
	for p in "${pids[@]}"; do kill -- -"$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	# the boots that ran to the end, also when interrupted
	[ -n "$stopped" ] || printf '%s: %d boots, %d with a splat, %d other QEMUs beside, BOOT_INIT=%s, %s%s\n' \
		"$k" "$((i > n ? n : i))" "$splats" "$load" "$init" "$(date -u +%F)" "${1:-}" >>"$runs/summary.txt"
	stopped=1
}
trap finish EXIT
trap 'i=$((i - 1)); finish " (interrupted)"; exit 130' INT TERM
for ((j = 1; j <= load; j++)); do
	# (killing vng alone leaves its QEMU running: two of them spun on
	# through the next kernel's build, 2026-12-04)
	(cd "$BSK_TOP" && exec setsid "$vng" --disable-kvm --cpus 2 --memory 1G -r "$img" \
		--append "kunit.enable=0" --exec 'while :; do :; done') >/dev/null 2>&1 &
	pids+=($!)
done

stage "$n boots of the $k debug kernel (BOOT_INIT=$init), $load other QEMUs beside"
for ((i = 1; i <= n; i++)); do
	log=$out/boot-$i.log
	boot "$log"
	# the whole log: in the busybox mode the kernel's power-off line
	if ! grep -q 'Linux version' "$log" ||
		{ [ "$init" = busybox ] && ! grep -q 'reboot: Power down' "$log"; }; then
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
finish ""
results_end
