#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# arches.sh [TREE] - the suites on the arches the gate does not build,
# ARCHES="i386 arm64" (32-bit; weakly ordered), QEMU TCG, via tools/kunit.sh.
# A line per arch, then "N passed, N failed, N skipped".
set -uo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

tree=${1:-}
for a in ${ARCHES:-i386 arm64}; do
	case $a in i386 | arm64 | x86_64 | um) ;; *) die "ARCHES: no KUnit run for '$a' (i386, arm64, x86_64, um)" ;; esac
done
for a in ${ARCHES:-i386 arm64}; do
	t=$SECONDS
	run=$(run_dir "arches-$a")
	log=$run/kunit.sh.log
	KUNIT_OUT=$run ARCH=$a BSK_COUNTS=$run/counts "$BSK_TOP/tools/kunit.sh" ${tree:+"$tree"} >"$log" 2>&1
	result_of_run "$run/counts" "$log" $? "$a ($run)" "$t"
done
results_end
