#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# arches.sh [TREE] - the series' KUnit suites on the architectures the
# gate does not build: i386 (32-bit: unsigned long and pointers of 32
# bits) and arm64 (weakly ordered; QEMU virt), each under QEMU TCG with
# four CPUs in two sockets (tools/kunit.sh ARCH=...).  ARCHES="i386 arm64"
# by default.  One line per architecture with its time and counts, then
# the total: "N passed, N failed, N skipped".  A kernel that does not build or boot
# counts as a failure; skipped cases are counted on the line (kunit.py
# prints each with its reason).
set -uo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

tree=${1:-}
for a in ${ARCHES:-i386 arm64}; do
	case $a in i386 | arm64 | x86_64 | um) ;; *) die "ARCHES: no KUnit run for '$a' (i386, arm64, x86_64, um)" ;; esac
done
for a in ${ARCHES:-i386 arm64}; do
	t=$SECONDS
	log=$BSK_CACHE/runs/arches-$a.log
	mkdir -p "$BSK_CACHE/runs"
	ARCH=$a "$BSK_TOP/tools/kunit.sh" ${tree:+"$tree"} >"$log" 2>&1
	rc=$?
	run=$(sed -n 's/.*results in \(.*\) (kunit.log.*/\1/p' "$log" | tail -n 1)
	skipped=
	[ ! -f "$run/results.json" ] || read -r _ _ skipped < <(kunit_json_counts "$run/results.json")
	result_of_run "$log" "$rc" "$a, ${skipped:-?} skipped (${run:-no run dir})" "$t"
done
results_end
