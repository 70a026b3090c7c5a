#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# buildcheck.sh CONFIG TREE STATE - build TREE (at whatever it has checked
# out) for x86_64 with W=1 in a build dir kept in the cache, and write the
# diagnostics of the whole build, line numbers dropped and sorted, to
# STATE.cc (compiler), STATE.sparse and STATE.other (modpost, objtool, ld).
# Comparing two STATEs gives the warnings a patch adds (NIPA's "HEAD~ then
# HEAD" rule); warnlog.sh keeps per-object copies, so the second build only
# recompiles what changed.
#
#   y      tinyconfig + x86_64-block + kunit-off: block/ with BFQ built in
#          and the tests off, i.e. the objects a kernel ships; they are
#          kept in STATE.o/ for bloat-o-meter (objcheck.sh bloat-dirs)
#   t      tinyconfig + x86_64-block + kunit-tests: block/ with every
#          suite built in (BFQ's need BFQ built in), sparse (C=1) on every
#          object compiled (without a usable sparse and no apt-get to get
#          one: no C=1, and the reason in STATE.sparse-na)
#   clang  tinyconfig + x86_64-block + kunit-tests (BFQ and the tests built
#          in) with the Debian clang clang.sh picks (LLVM=-N); exit 2 if
#          none meets TREE's minimum
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# shellcheck source=../lib/kbuild.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/kbuild.sh"

mode=${1:-}
tree=${2:-}
state=${3:-}
case $mode in y|t|clang) ;; *) die "usage: buildcheck.sh y|t|clang TREE STATE" ;; esac
{ [ -f "$tree/Makefile" ] && [ -n "$state" ]; } || die "usage: buildcheck.sh $mode TREE STATE"

cfg=$BSK_TOP/configs
frags=("$cfg/x86_64-block.config")
case $mode in
y) frags+=("$cfg/kunit-off.config") ;;
t) frags+=("$cfg/kunit-tests.config") ;;
clang) frags+=("$cfg/kunit-tests.config") ;;
esac
targets=(block/)

cc=$(kbuild_cc gcc)
tc=()
if [ "$mode" = clang ]; then
	llvm=$("$BSK_TOP/tools/gate/clang.sh" "$tree") || exit
	cc=$(kbuild_cc "clang$llvm")
	tc=(LLVM="$llvm")
fi
check=()
rm -f "$state.sparse-na"
if [ "$mode" = t ]; then
	rc=0
	sp=$("$BSK_TOP/tools/gate/sparse.sh" "$tree" 2>"$state.sparse-na") || rc=$?
	if [ "$rc" -eq 0 ]; then
		check=(C=1 CHECK="$BSK_TOP/tools/gate/warnlog.sh sparse $sp")
		rm -f "$state.sparse-na"
	elif [ "$rc" -eq 2 ]; then
		# No sparse on this machine: the build runs, its sparse cell is
		# n/a with the reason in STATE.sparse-na.
		sed -i 's/^sparse.sh: //' "$state.sparse-na"
	else
		cat "$state.sparse-na" >&2
		exit 1
	fi
fi

name=${BSK_BUILD_NAME:-$(basename "$tree")}
out=$BSK_CACHE/build/$name-x86_64-w1-$mode
need_space 2048 "$BSK_CACHE"
mkdir -p "$out"
export BSK_WARN_DIR=$out/.bsk-warn
# sparse runs in the t build only (older caches had it elsewhere).
[ "$mode" = t ] || rm -rf "$BSK_WARN_DIR/sparse"
kmake() {
	make -s -C "$tree" O="$out" ARCH=x86_64 "${tc[@]}" \
		CC="$BSK_TOP/tools/gate/warnlog.sh cc $cc" -j"$(nproc)" "$@"
}

# Configure only when a Kconfig file, a fragment or the compiler changed:
# it costs more than an incremental build.
key=$(kconfig_key "$tree" "$(cat "${frags[@]}")" "$cc ${tc[*]}")
# tinyconfig only for a new build dir: regenerating it each time would
# make kbuild see every symbol the fragments set change twice and rebuild
# all.  Afterwards the fragments are merged onto the existing .config.
if kconfig_stale "$out" "$key"; then
	[ -f "$out/.config" ] || kmake tinyconfig >/dev/null
	"$tree/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "${frags[@]}" >"$out/merge.log" 2>&1
	kmake olddefconfig >/dev/null
	kconfig_made "$out" "$key"
fi
grep -qx "CONFIG_IOSCHED_BFQ=y" "$out/.config" ||
	die "$out/.config lost CONFIG_IOSCHED_BFQ=y; check the configs/ fragments"

rc=0
kmake W=1 "${check[@]}" "${targets[@]}" >"$out/build.log" 2>&1 || rc=$?
if [ "$rc" -ne 0 ]; then
	grep -m 3 -E 'error|Error' "$out/build.log" >&2 || tail -n 3 "$out/build.log" >&2
	die "x86_64 $mode build failed at $(git -C "$tree" log -1 --format='%h ("%s")') (see $out/build.log)"
fi

if [ "$mode" = y ]; then
	! grep -q '^CONFIG_KUNIT=y' "$out/.config" || die "$out/.config has KUnit on; the =y build must not"
	rm -rf "$state.o"
	mkdir -p "$state.o"
	(cd "$out" && find block -name '*.o' ! -name '*.mod.o' -exec cp --parents {} "$state.o/" \;)
fi

# norm: keep diagnostics, drop tree prefixes and line:column numbers.
norm() {
	grep -ahE '(warning|error):|^WARNING:' | sed -E \
		-e "s#$tree/##g" -e "s#$out/##g" -e 's#(\.\./)+##g' \
		-e 's/:[0-9]+(:[0-9]+)?([: ]|$)/\2/g' | LC_ALL=C sort || true
}
for k in cc sparse; do
	if [ -d "$BSK_WARN_DIR/$k" ]; then
		find "$BSK_WARN_DIR/$k" -type f ! -name '*.tmp' -exec cat {} + | norm
	fi >"$state.$k"
done
# Diagnostics not printed by the compiler or sparse (modpost, objtool, ld).
cat "$state.cc" "$state.sparse" | LC_ALL=C sort -u >"$state.known"
{
	grep -v -e 'modpost: ' -e 'vmlinux.o is missing' -e '^         ' "$out/build.log" || true
} | norm | LC_ALL=C sort -u | LC_ALL=C comm -23 - "$state.known" >"$state.other" || true
rm -f "$state.known"
