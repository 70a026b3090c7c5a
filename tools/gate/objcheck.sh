#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# objcheck.sh - x86_64 object checks of what a range of commits changes,
# on tinyconfig + configs/x86_64-block.config, in build dirs in the cache.
#
#   objcheck.sh bloat TREE A B   scripts/bloat-o-meter of the objects A..B
#                                changes, tests off; fails if B is bigger
#                                than A
#   objcheck.sh bloat-dirs TREE A B ADIR BDIR
#                                the same on objects already built: ADIR
#                                and BDIR hold A's and B's block/ objects
#                                (buildcheck.sh y keeps them; make check
#                                takes them from there)
#
#   objcheck.sh nfc TREE A B     the object code of A..B's objects is
#                                the same: objdump -d of every function,
#                                addresses aside, and bloat-o-meter, tests
#                                off, on three configs (NFC_CONFIGS):
#                                tiny     the gate's: tinyconfig +
#                                         x86_64-block (-Os)
#                                bench    the bench guest's: tinyconfig's
#                                         recipe + configs/vm.config (-O2)
#                                distro   defconfig + x86_64-block (-O2),
#                                         the way distributions build
#                                Only the objects are compiled, no vmlinux.
#                                Fails on any difference, and shows it.
#                                NFC_KUNIT= the KUnit settings to compare
#                                under (default off): off (no KUnit), m
#                                (KUnit a module, as distributions build
#                                it: the block tests cannot be built), y
#                                (KUnit built in, the block tests off)
#
# (Warnings, sparse included, are patchcheck.sh's and buildcheck.sh's.)
#
# TREE is a clean git worktree; it is left at the commit it was on.
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# shellcheck source=../lib/kbuild.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/kbuild.sh"

mode=${1:-}
tree=${2:-}
a=${3:-}
b=${4:-}
adir=${5:-}
bdir=${6:-}
case $mode in
bloat|nfc) { [ -d "$tree" ] && [ -n "$b" ]; } || die "usage: objcheck.sh $mode TREE A B" ;;
bloat-dirs) { [ -d "$tree" ] && [ -d "$adir" ] && [ -d "$bdir" ]; } ||
	die "usage: objcheck.sh bloat-dirs TREE A B ADIR BDIR" ;;
*) die "usage: objcheck.sh bloat|nfc TREE A B | bloat-dirs TREE A B ADIR BDIR" ;;
esac
[ "$mode" = bloat-dirs ] || [ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
	die "$tree has uncommitted changes"
# Resolve now: HEAD moves once the first side is checked out.
a=$(git -C "$tree" rev-parse -q --verify "$a^{commit}") || die "not a commit in $tree: $3"
b=$(git -C "$tree" rev-parse -q --verify "$b^{commit}") || die "not a commit in $tree: $4"

name=${BSK_BUILD_NAME:-$(basename "$tree")}
out=$BSK_CACHE/build/$name-x86_64-bloat
[ "$mode" != bloat ] || mkdir -p "$out"
cc=$(kbuild_cc gcc)
kmake() {
	make -s -C "$tree" O="$out" ARCH=x86_64 CC="$cc" -j"$(nproc)" "$@"
}

cfg=$BSK_TOP/configs
frags=("$cfg/x86_64-block.config" "$cfg/kunit-off.config")

# configure [tiny|bench|distro [off|m|y]]: the build dir $out for that
# config, KUnit off, a module, or built in without the block tests.  Its
# base config is made only for a new build dir (regenerating it makes
# kbuild rebuild every object); the fragments are merged onto it.
configure() {
	local kind=${1:-tiny} kunit=${2:-off}
	frags=("$cfg/x86_64-block.config" "$cfg/kunit-$kunit.config")
	case $kind in
	tiny)
		[ -f "$out/.config" ] || kmake tinyconfig >/dev/null
		"$tree/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "${frags[@]}" >/dev/null 2>&1
		;;
	distro)
		[ -f "$out/.config" ] || kmake defconfig >/dev/null
		"$tree/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "${frags[@]}" >/dev/null 2>&1
		;;
	bench)
		# tools/env/vmkernel.sh's recipe, tests off
		kconfig_tiny "$tree" "$out" "$cfg/vm.config" "$cfg/kunit-off.config" >/dev/null 2>&1
		;;
	esac
	kmake olddefconfig >/dev/null
	grep -qx 'CONFIG_IOSCHED_BFQ=y' "$out/.config" ||
		die "$out/.config ($kind) lost CONFIG_IOSCHED_BFQ=y; check the configs/ fragments"
	case $kunit in
	off) ! grep -q '^CONFIG_KUNIT=' "$out/.config" || die "$out/.config ($kind) has KUnit on" ;;
	m) grep -qx 'CONFIG_KUNIT=m' "$out/.config" || die "$out/.config ($kind) lost CONFIG_KUNIT=m" ;;
	y) grep -qx 'CONFIG_KUNIT=y' "$out/.config" || die "$out/.config ($kind) lost CONFIG_KUNIT=y" ;;
	esac
	! grep -Eq '^CONFIG_(ELEVATOR|BLK_MQ|BFQ)_KUNIT_TEST=y' "$out/.config" || die "$out/.config ($kind, KUnit $kunit) builds the block tests"
}

# disasm OBJ: objdump -d with the addresses out, so that code moved
# within the object compares equal; one "<function>:" line per function.
disasm() {
	objdump -d --no-show-raw-insn "$1" | sed -E -n '/^Disassembly/,$p' |
		sed -E -e '/^Disassembly/d' -e 's/^[0-9a-f]+ (<[^>]*>:)$/\1/' \
			-e 's/^ *[0-9a-f]+:[[:space:]]*//' -e 's/[0-9a-f]+ (<[^>]*>)/\1/g'
}

# Objects built from the .c files A..B touches (tests are #included).
mapfile -t objs < <(git -C "$tree" diff --name-only "$a" "$b" -- '*.c' |
	grep -v '/tests/' | sed 's/\.c$/.o/')
if [ ${#objs[@]} -eq 0 ]; then
	info "no compiled .c file changes between $a and $b"
	exit 0
fi

# nfc: per config, both sides compiled in a build dir of that config, then
# every function's code and the sizes compared.
if [ "$mode" = nfc ]; then
	orig=$(git -C "$tree" symbolic-ref -q --short HEAD || git -C "$tree" rev-parse HEAD)
	tmp=$(mktemp -d)
	# shellcheck disable=SC2317 # called from the trap
	restore() { git -C "$tree" checkout -q "$orig"; }
	trap 'restore; rm -rf "$tmp"' EXIT
	trap 'exit 130' INT TERM
	need_space 3072 "$BSK_CACHE"
	rc=0
	for kunit in ${NFC_KUNIT:-off}; do
		case $kunit in off|m|y) ;; *) die "NFC_KUNIT: no KUnit setting '$kunit' (off, m, y)" ;; esac
	done
	for kind in ${NFC_CONFIGS:-tiny bench distro}; do
		case $kind in tiny|bench|distro) ;; *) die "NFC_CONFIGS: no config '$kind' (tiny, bench, distro)" ;; esac
	done
	for kunit in ${NFC_KUNIT:-off}; do
		for kind in ${NFC_CONFIGS:-tiny bench distro}; do
			label="$kind config"
			out=$BSK_CACHE/build/$name-x86_64-nfc-$kind
			if [ "$kunit" != off ]; then
				label="$kind config, CONFIG_KUNIT=$kunit"
				out=$out-kunit-$kunit
			fi
			mkdir -p "$out"
			for side in a b; do
				git -C "$tree" checkout -q --detach "${!side}"
				configure "$kind" "$kunit"
				for o in "${objs[@]}"; do
					[ -f "$tree/${o%.o}.c" ] || continue
					kmake "$o" || die "$o does not build ($label, $(git -C "$tree" log -1 --format=%h "${!side}"))"
					mkdir -p "$(dirname "$tmp/$kind-$kunit/$side/$o")"
					cp "$out/$o" "$tmp/$kind-$kunit/$side/$o"
				done
			done
			for o in "${objs[@]}"; do
				d=$tmp/$kind-$kunit
				if [ ! -f "$d/a/$o" ] || [ ! -f "$d/b/$o" ]; then
					[ -f "$d/a/$o" ] || [ -f "$d/b/$o" ] && die "$o was built on one side only ($label)"
					continue
				fi
				"$tree/scripts/bloat-o-meter" "$d/a/$o" "$d/b/$o" >"$tmp/bloat"
				disasm "$d/a/$o" >"$tmp/a.s"
				disasm "$d/b/$o" >"$tmp/b.s"
				if cmp -s "$tmp/a.s" "$tmp/b.s"; then
					printf 'same code: %s, %s (%d functions; %s)\n' "$o" "$label" \
						"$(grep -c '^<.*>:$' "$tmp/a.s")" "$(grep -m1 '^add/remove' "$tmp/bloat")"
				else
					printf 'DIFFERENT code: %s, %s; functions that differ:\n' "$o" "$label"
					diff "$tmp/a.s" "$tmp/b.s" | head -n 40 || true
					grep -A3 '^Function' "$tmp/bloat" || true
					rc=1
				fi
			done
		done
	done
	exit "$rc"
fi

tmp=$(mktemp -d)
if [ "$mode" = bloat-dirs ]; then
	trap 'rm -rf "$tmp"' EXIT
	ln -s "$(cd "$adir" && pwd)" "$tmp/a"
	ln -s "$(cd "$bdir" && pwd)" "$tmp/b"
else
	orig=$(git -C "$tree" symbolic-ref -q --short HEAD || git -C "$tree" rev-parse HEAD)
	# shellcheck disable=SC2317 # called from the trap
	restore() { git -C "$tree" checkout -q "$orig"; }
	trap 'restore; rm -rf "$tmp"' EXIT
fi
for side in a b; do
	[ "$mode" = bloat ] || break
	git -C "$tree" checkout -q --detach "${!side}"
	configure
	mkdir -p "$tmp/$side"
	for o in "${objs[@]}"; do
		[ -f "$tree/${o%.o}.c" ] || continue
		kmake "$o"
		mkdir -p "$(dirname "$tmp/$side/$o")"
		cp "$out/$o" "$tmp/$side/$o"
	done
done

rc=0
for o in "${objs[@]}"; do
	if [ ! -f "$tmp/a/$o" ] || [ ! -f "$tmp/b/$o" ]; then
		[ -f "$tmp/a/$o" ] || [ -f "$tmp/b/$o" ] && die "$o was built on one side only"
		info "$o is not built in this configuration"
		continue
	fi
	printf '$ scripts/bloat-o-meter %s (x86_64, %s, tests off)\n' "$o" "$(basename "${frags[0]}")"
	"$tree/scripts/bloat-o-meter" "$tmp/a/$o" "$tmp/b/$o" | tee "$tmp/bloat"
	before=$(sed -n 's/^Total: Before=\([0-9]*\), After=\([0-9]*\).*/\1/p' "$tmp/bloat")
	after=$(sed -n 's/^Total: Before=\([0-9]*\), After=\([0-9]*\).*/\2/p' "$tmp/bloat")
	if [ -n "$before" ] && [ "$after" -gt "$before" ]; then
		printf '%s grew from %s to %s bytes\n' "$o" "$before" "$after"
		rc=1
	fi
done
exit "$rc"
