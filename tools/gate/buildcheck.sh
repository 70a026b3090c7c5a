#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# buildcheck.sh y|t|clang TREE STATE [SPARSE|LLVM] - x86_64 W=1 build of TREE's block/: y tests
# off, t the suites + sparse (C=1), clang LLVM=; diagnostics without line numbers to
# STATE.cc, .sparse, .other (modpost, objtool, ld).  docs/gate.md.
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# shellcheck source=../lib/kbuild.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/kbuild.sh"

mode=${1:-} tree=${2:-} state=${3:-} tool=${4:-}
case $mode in y|t|clang) ;; *) die "usage: buildcheck.sh y|t|clang TREE STATE [SPARSE|LLVM]" ;; esac
{ [ -f "$tree/Makefile" ] && [ -n "$state" ]; } || die "usage: buildcheck.sh $mode TREE STATE [SPARSE|LLVM]"

frags=("$BSK_TOP/configs/x86_64-block.config" "$BSK_TOP/configs/kunit-tests.config")
[ "$mode" != y ] || frags[1]=$BSK_TOP/configs/kunit-off.config
cc=$(kbuild_cc gcc)
tc=() check=()
if [ "$mode" = clang ]; then
	[ -n "$tool" ] || die "usage: buildcheck.sh clang TREE STATE LLVM (the LLVM= suffix clang.sh prints)"
	cc=$(kbuild_cc "clang$tool")
	tc=(LLVM="$tool")
elif [ "$mode" = t ] && [ -n "$tool" ]; then
	check=(C=1 CHECK="$BSK_TOP/tools/gate/warnlog.sh sparse $tool")
fi

out=$BSK_CACHE/build/${BSK_BUILD_NAME:-$(basename "$tree")}-x86_64-w1-$mode
need_space 2048 "$BSK_CACHE"
mkdir -p "$out"
BSK_WARN_TREE=$(cd "$tree" && pwd -P) && export BSK_WARN_DIR=$out/.bsk-warn BSK_WARN_TREE
[ "$mode" = t ] || rm -rf "$BSK_WARN_DIR/sparse"
kmake() {
	make -s -C "$tree" O="$out" ARCH=x86_64 "${tc[@]}" \
		CC="$BSK_TOP/tools/gate/warnlog.sh cc $cc" -j"$(nproc)" "$@"
}

# configure only on a change; tinyconfig only for a new build dir (else every symbol changes twice)
key=$(kconfig_key "$tree" "$(cat "${frags[@]}")" "$cc ${tc[*]}")
if kconfig_stale "$out" "$key"; then
	[ -f "$out/.config" ] || kmake tinyconfig >/dev/null
	"$tree/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "${frags[@]}" >"$out/merge.log" 2>&1
	kmake olddefconfig >/dev/null
	kconfig_made "$out" "$key"
fi
grep -qx "CONFIG_IOSCHED_BFQ=y" "$out/.config" ||
	die "$out/.config lost CONFIG_IOSCHED_BFQ=y; check the configs/ fragments"
[ "$mode" != y ] || ! grep -q '^CONFIG_KUNIT=y' "$out/.config" || die "$out/.config has KUnit on; the =y build must not"

if ! kmake W=1 "${check[@]}" block/ >"$out/build.log" 2>&1; then
	grep -m 3 -E 'error|Error' "$out/build.log" >&2 || tail -n 3 "$out/build.log" >&2
	die "x86_64 $mode build failed at $(git -C "$tree" log -1 --format='%h ("%s")') (see $out/build.log)"
fi

norm() { kbuild_diagnostics "$tree" "$out"; }
for k in cc sparse; do
	if [ -d "$BSK_WARN_DIR/$k" ]; then
		find "$BSK_WARN_DIR/$k" -type f ! -name '*.tmp' -exec cat {} + | norm
	fi >"$state.$k"
done
grep -v -e 'modpost: ' -e 'vmlinux.o is missing' -e '^         ' "$out/build.log" | norm | LC_ALL=C sort -u |
	LC_ALL=C comm -23 - <(cat "$state.cc" "$state.sparse" | LC_ALL=C sort -u) >"$state.other" || true
