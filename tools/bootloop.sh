#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bootloop.sh base|series [N] - boot the debug guest kernel N times (50) to dmesg
# and count the boots with a splat; BOOT_INIT BOOT_LOAD BOOT_STOP: docs/stress.md.
set -euo pipefail
# shellcheck source=lib/vm.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/vm.sh"

k=${1:-}
case $k in base|series) ;; *) die "usage: bootloop.sh base|series [N]" ;; esac
n=${2:-50}
[[ $n =~ ^[1-9][0-9]*$ ]] || die "N=$n is not a positive number of boots"
load=${BOOT_LOAD:-2}
[[ $load =~ ^[0-9]+$ ]] || die "BOOT_LOAD=$load is not a number of QEMUs"
init=${BOOT_INIT:-busybox}
case $init in virtme|busybox) ;; *) die "BOOT_INIT=$init: virtme or busybox" ;; esac
runs=$BSK_CACHE/bootloop/$k
out=$runs/$(date -u +%Y%m%dT%H%M%S)
mkdir -p "$out"

vm_setup
read -r _ wt _ < <("$BSK_TOP/tools/env/tree.sh") || exit 1
frags=("$BSK_TOP/configs/debug.config")
[ "$k" = base ] || frags+=("$wt/block/tests/.kunitconfig")
kimg=$(vm_kernel "debug guest kernel: $k" "$k" "${frags[@]}")

# BOOT_INIT=busybox's init: the host's static busybox prints dmesg and powers off
if [ "$init" = busybox ]; then
	bb=$(static_busybox BOOT_INIT=busybox)
	printf '#!%s sh\n%s dmesg\n%s poweroff -f\n' "$bb" "$bb" "$bb" >"$out/init"
	chmod +x "$out/init"
fi

boot() {
	if [ "$init" = virtme ]; then
		(cd "$BSK_TOP" && timeout 600 "$vng" --disable-kvm --cpus 2 --memory 2G -r "$kimg" \
			--append "kunit.enable=0" --exec 'dmesg; poweroff -f') >"$1" 2>&1 || true
	else
		# virtme-ng's machine, root and command line, but for its init
		timeout 600 qemu-system-x86_64 -name bootloop -m 2G -machine q35 -cpu max -smp 2 \
			-accel tcg -parallel none -net none -vga none -display none -no-reboot \
			-fsdev local,id=root,path=/,security_model=none,readonly=on,multidevs=remap \
			-device virtio-9p-pci,fsdev=root,mount_tag=/dev/root \
			-serial "file:$1" -kernel "$kimg" \
			-append "console=ttyS0 earlyprintk=serial,ttyS0,115200 quiet loglevel=1 panic=-1 printk.time=1 rootfstype=9p rootflags=version=9p2000.L,trans=virtio,access=any,msize=524288 ro kunit.enable=0 init=$out/init" \
			>"$1.qemu" 2>&1 || true
		cat "$1.qemu" >>"$1"
		rm -f "$1.qemu"
	fi
}

i=0 splats=0 note=
finish() {
	bg_stop || true
	printf '%s: %d boots, %d with a splat, %d other QEMUs beside, BOOT_INIT=%s, %s%s\n' \
		"$k" "$((i > n ? n : i))" "$splats" "$load" "$init" "$(date -u +%F)" "$note" >>"$runs/summary.txt"
}
trap finish EXIT
trap 'i=$((i - 1)) note=" (interrupted)"; exit 130' INT TERM
for ((j = 1; j <= load; j++)); do
	# a session of its own: killing vng alone leaves its QEMU running
	(cd "$BSK_TOP" && exec setsid "$vng" --disable-kvm --cpus 2 --memory 1G -r "$kimg" \
		--append "kunit.enable=0" --exec 'while :; do :; done') >/dev/null 2>&1 &
	BSK_BG+=($!)
done

stage "$n boots of the $k debug kernel (BOOT_INIT=$init), $load other QEMUs beside"
for ((i = 1; i <= n; i++)); do
	log=$out/boot-$i.log
	boot "$log"
	if ! grep -q 'Linux version' "$log" ||
		{ [ "$init" = busybox ] && ! grep -q 'reboot: Power down' "$log"; }; then
		result "$k boot $i: the guest booted and printed its log (see $log)" 1
	elif splat=$(grep -m1 -E -f "$BSK_TOP/tools/lib/splat-patterns" "$log"); then
		splats=$((splats + 1))
		result "$k boot $i: no splat ($splat)" 1
		[ "${BOOT_STOP:-0}" = 0 ] || break
	else
		rm -f "$log"
		result "$k boot $i: no splat" 0
	fi
done
stage_end
results_end
