#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# qemu-tcg.sh - run $BSK_QEMU_REAL (a qemu-system-*) without "-accel kvm"
# and "-accel hvf", so that QEMU falls through to TCG.  kunit.py (7.x)
# asks for "-accel kvm -accel hvf -accel tcg" and QEMU takes the first
# that opens: on a machine whose /dev/kvm opens but does not run guests
# (nested virtualization without support: the guest never prints a line),
# every x86_64 KUnit run would time out.  tools/kunit.sh puts this first
# on PATH under the qemu-system-* name unless BSK_KVM=1.
set -eu
[ -n "${BSK_QEMU_REAL:-}" ] || { echo "qemu-tcg.sh: BSK_QEMU_REAL is not set" >&2; exit 1; }
n=$#
while [ "$n" -gt 0 ]; do
	a=$1
	shift
	n=$((n - 1))
	if [ "$a" = -accel ] && [ "$n" -gt 0 ] && { [ "$1" = kvm ] || [ "$1" = hvf ]; }; then
		shift
		n=$((n - 1))
		continue
	fi
	set -- "$@" "$a"
done
exec "$BSK_QEMU_REAL" "$@"
