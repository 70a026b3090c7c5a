#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# qemu-tcg.sh - run $BSK_QEMU_REAL without kunit.py's "-accel kvm" and
# "-accel hvf", so QEMU falls through to TCG (a /dev/kvm that opens but
# does not run guests would hang every run; docs/gate.md).
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
