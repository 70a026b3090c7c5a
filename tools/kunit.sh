#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# kunit.sh [TREE] - 'make kunit': kunit.py on TREE's block/tests/.kunitconfig
# (default TREE: the applied worktree); settings in docs/reference.md.
set -euo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
check_settings

arch=${ARCH:-x86_64}
# the QEMU kunit.py runs, its Debian package, the compiler, the cross prefix
cross=
case $arch in
um) qemu=() ;;
x86_64 | i386) qemu_bin=qemu-system-$arch qemu_pkg=qemu-system-x86 cc=x86_64-linux-gnu-gcc ;;
arm64) qemu_bin=qemu-system-aarch64 qemu_pkg=qemu-system-arm cc=aarch64-linux-gnu-gcc cross=aarch64-linux-gnu- ;;
esac
if [ "$arch" != um ]; then
	topo=${KUNIT_TOPOLOGY:-$arch}
	read -r tarch smp < <(awk -v n="$topo" '$1 == n { print $2, $3; exit }' "$BSK_TOP/kunit/matrix") || true
	[ -n "${smp:-}" ] || die "KUNIT_TOPOLOGY=$topo: no such line in kunit/matrix ($(awk '/^[^#]/ { printf "%s%s", s, $1; s = ", " }' "$BSK_TOP/kunit/matrix"))"
	[ "$tarch" = "$arch" ] || die "KUNIT_TOPOLOGY=$topo is an $tarch machine, not ARCH=$arch"
	qemu=(--qemu_args "-smp $smp")
elif [ -n "${KUNIT_TOPOLOGY:-}" ]; then
	die "KUNIT_TOPOLOGY needs ARCH=x86_64, i386 or arm64 (UML's CPUs come from ncpus=)"
fi
[ -z "$cross" ] || command -v "$cc" >/dev/null ||
	die "$cc not found (ARCH=$arch builds with it); run: apt-get install gcc-${cross%-}"
if [ "$arch" != um ] && [ "${BSK_KVM:-0}" != 1 ]; then
	BSK_QEMU_REAL=$(command -v "$qemu_bin") ||
		die "$qemu_bin not found (ARCH=$arch boots with it); run: apt-get install $qemu_pkg"
	mkdir -p "$BSK_CACHE/bin"
	ln -sfn "$BSK_TOP/tools/env/qemu-tcg.sh" "$BSK_CACHE/bin/$qemu_bin"
	export BSK_QEMU_REAL PATH=$BSK_CACHE/bin:$PATH
fi

tree=${1:-}
if [ -z "$tree" ]; then
	read -r _ tree _ < <("$BSK_TOP/tools/env/tree.sh") || exit 1
	[ -d "$tree" ] || die "no applied tree at $tree; run 'make apply' first"
fi
[ -f "$tree/block/tests/.kunitconfig" ] ||
	die "$tree has no block/tests/.kunitconfig: the series is not applied there"

name=${BSK_BUILD_NAME:-$(basename "$tree")}
case ${KUNIT_DEBUG:-0} in
0) debug= ;;
1) debug=-debug ;;
rt) debug=-rt ;;
esac
if [ "${KUNIT_COVERAGE:-0}" != 0 ]; then
	[ "$arch" = um ] || die "KUNIT_COVERAGE needs ARCH=um (not $arch)"
	[ -z "$debug" ] || die "KUNIT_COVERAGE and KUNIT_DEBUG exclude each other"
	debug=-coverage
fi
build=$BSK_CACHE/build/$name-$arch$debug
if [ -n "${KUNIT_KERNEL:-}" ]; then
	[ "$arch" = x86_64 ] || die "KUNIT_KERNEL needs ARCH=x86_64 (not $arch)"
	{ [ -f "$KUNIT_KERNEL/arch/x86/boot/bzImage" ] && grep -qx 'CONFIG_KUNIT=y' "$KUNIT_KERNEL/.config"; } ||
		die "KUNIT_KERNEL=$KUNIT_KERNEL has no x86_64 bzImage built with CONFIG_KUNIT=y"
	[ "${KUNIT_BUILD_ONLY:-0}" = 0 ] || die "KUNIT_KERNEL and KUNIT_BUILD_ONLY exclude each other"
	build=$(cd "$KUNIT_KERNEL" && pwd)
fi
run=${KUNIT_OUT:-$BSK_CACHE/runs/$(date +%Y%m%d-%H%M%S)-$name-${topo:-$arch}$debug}
need_space 3072 "$BSK_CACHE"
mkdir -p "$build" "$run"
ln -sfn "$build" "$run/build" # the kernel it boots, for make lava

args=(--build_dir="$build" --jobs="$(nproc)" --arch="$arch" --kunitconfig=block/tests)
[ ! -f "$BSK_TOP/kunit/$arch.kunitconfig" ] ||
	args+=(--kunitconfig="$BSK_TOP/kunit/$arch.kunitconfig")
# UML with two CPUs where it has SMP (7.x, seccomp mode): real IPIs
smp=()
if [ "$arch" = um ] && grep -qsx 'config SMP' "$tree/arch/um/Kconfig"; then
	args+=(--kunitconfig="$BSK_TOP/kunit/um-smp.kunitconfig")
	smp=(--kernel_args ncpus=2 --kernel_args seccomp=on)
fi
case $debug in
-debug) args+=(--kunitconfig="$BSK_TOP/configs/debug.config") ;;
-rt) args+=(--kunitconfig="$BSK_TOP/configs/debug.config" --kunitconfig="$BSK_TOP/configs/rt.config") ;;
-coverage) args+=(--kunitconfig=tools/testing/kunit/configs/coverage_uml.config) ;;
esac
[ -z "$cross" ] || args+=(--cross_compile="$cross")
if command -v ccache >/dev/null; then
	[ "$arch" != um ] || cc=gcc
	command -v "$cc" >/dev/null || cc=gcc
	args+=(--make_options "CC=ccache $cc")
fi
if [ "${KUNIT_BUILD_ONLY:-0}" != 0 ]; then
	info "kunit.py build ${args[*]} (in $tree)"
	(cd "$tree" && python3 tools/testing/kunit/kunit.py build "${args[@]}") >"$run/kunit.log" 2>&1 ||
		die "kunit.py build failed in $tree (see $run/kunit.log)"
	echo built
	exit 0
fi
if [ -n "${KUNIT_KERNEL:-}" ]; then
	# kunit.autorun=1: allnoconfig leaves KUNIT_AUTORUN_ENABLED off
	args=(exec --build_dir="$build" --arch="$arch" --kunitconfig=block/tests --kernel_args kunit.autorun=1)
fi
[ -n "${KUNIT_KERNEL:-}" ] || args=(run "${args[@]}")
args+=(--json="$run/results.json" --timeout=600)
[ ${#smp[@]} -eq 0 ] || [ -n "${KUNIT_KERNEL:-}" ] || args+=("${smp[@]}")
[ ${#qemu[@]} -eq 0 ] || args+=("${qemu[@]}")
[ -z "${KUNIT_FILTER:-}" ] || args+=("$KUNIT_FILTER")

info "kunit.py ${args[*]} (in $tree)"
rc=0
rm -f "$build/test.log" "$run/results.json" # a stale KUNIT_OUT holds no result
(cd "$tree" && python3 tools/testing/kunit/kunit.py "${args[@]}") 2>&1 |
	tee "$run/kunit.log" || rc=$?
[ ! -f "$build/test.log" ] || cp "$build/test.log" "$run/ktap.log"

# no JSON (the build or the boot failed) or nothing passed is a failure
counts=$(kunit_json_counts "$run/results.json" 2>/dev/null) || counts=
read -r passed failed skipped <<<"${counts:-0 0 0}"
[ "$skipped" -eq 0 ] || info "$skipped skipped, not passed: the SKIPPED lines of $run/kunit.log say why"
{ [ -n "$counts" ] && [ "$passed" -gt 0 ] && [ "$rc" -eq 0 ]; } || [ "$failed" -gt 0 ] || failed=1
if { [ "$debug" = -debug ] || [ "$debug" = -rt ]; } && [ -f "$run/ktap.log" ]; then
	# a sanitizer report fails no case by itself (only KASAN's own)
	n=$(splat_lines "$run/ktap.log" | wc -l)
	if [ "$n" -gt 0 ]; then
		splat_lines "$run/ktap.log" | head -n 20
		info "the kernel log has $n sanitizer or splat lines (see $run/ktap.log)"
		failed=$((failed + 1))
	else
		info "no sanitizer report in the kernel log ($(wc -l <"$run/ktap.log") lines)"
	fi
fi
info "results in $run (kunit.log, ktap.log, results.json)"
counts_line "$passed" "$failed" "$skipped"
[ "$failed" -eq 0 ]
