#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# qemu-tcg.sh - $BSK_QEMU_REAL without kunit.py's "-accel kvm" and "-accel hvf": TCG (a /dev/kvm
# that opens but runs no guest would hang every run; docs/gate.md).
a=()
while [ $# -gt 0 ]; do
	if [ "$1" = -accel ] && { [ "${2:-}" = kvm ] || [ "${2:-}" = hvf ]; }; then
		shift 2
		continue
	fi
	a+=("$1")
	shift
done
exec "${BSK_QEMU_REAL:?qemu-tcg.sh: BSK_QEMU_REAL is not set}" "${a[@]}"
