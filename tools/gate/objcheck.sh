#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# objcheck.sh TREE A B - the x86_64 objects of the .c files A..B changes, built at A and B
# of the clean worktree TREE: the same code on each of NFC_CONFIGS (tiny bench distro) under
# each NFC_KUNIT (off m y).  docs/gate.md.
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# shellcheck source=../lib/kbuild.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/kbuild.sh"

tree=${1:-}
{ [ -d "$tree" ] && [ -n "${3:-}" ]; } || die "usage: objcheck.sh TREE A B"
[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] || die "$tree has uncommitted changes"
a=$(git -C "$tree" rev-parse -q --verify "$2^{commit}") || die "not a commit in $tree: $2"
b=$(git -C "$tree" rev-parse -q --verify "$3^{commit}") || die "not a commit in $tree: $3"
configs=${NFC_CONFIGS:-tiny bench distro}
kunits=${NFC_KUNIT:-off}
for k in $kunits; do [[ $k =~ ^(off|m|y)$ ]] || die "NFC_KUNIT: no KUnit setting '$k' (off, m, y)"; done
for k in $configs; do [[ $k =~ ^(tiny|bench|distro)$ ]] || die "NFC_CONFIGS: no config '$k' (tiny, bench, distro)"; done

name=${BSK_BUILD_NAME:-$(basename "$tree")}
cc=$(kbuild_cc gcc)
cfg=$BSK_TOP/configs
kmake() { make -s -C "$tree" O="$out" ARCH=x86_64 CC="$cc" -j"$(nproc)" "$@"; }

# configure KIND KUNIT: $out's config; the base config only for a new build dir
configure() {
	local frags=("$cfg/x86_64-block.config" "$cfg/kunit-$2.config")
	case $1 in
	bench) kconfig_tiny "$tree" "$out" "$cfg/vm.config" "$cfg/kunit-off.config" >/dev/null 2>&1 ;; # vmkernel.sh's recipe
	*)
		[ -f "$out/.config" ] || kmake "$([ "$1" = tiny ] && echo tinyconfig || echo defconfig)" >/dev/null
		"$tree/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "${frags[@]}" >/dev/null 2>&1 ;;
	esac
	kmake olddefconfig >/dev/null
	grep -qx 'CONFIG_IOSCHED_BFQ=y' "$out/.config" ||
		die "$out/.config ($1) lost CONFIG_IOSCHED_BFQ=y; check the configs/ fragments"
	if [ "$2" = off ]; then ! grep -q '^CONFIG_KUNIT=' "$out/.config"; else grep -qx "CONFIG_KUNIT=$2" "$out/.config"; fi ||
		die "$out/.config ($1) does not have KUnit $2"
	! grep -Eq '^CONFIG_(ELEVATOR|BLK_MQ|BFQ)_KUNIT_TEST=y' "$out/.config" || die "$out/.config ($1, KUnit $2) builds the block tests"
}

# disasm OBJ: code and relocations (what a call points to), addresses out: moved code compares equal
disasm() {
	objdump -dr --no-show-raw-insn "$1" | sed -E -n '/^Disassembly/,$p' |
		sed -E -e '/^Disassembly/d' -e 's/^[0-9a-f]+ (<[^>]*>:)$/\1/' \
			-e 's/^ *[0-9a-f]+:[[:space:]]*//' -e 's/[0-9a-f]+ (<[^>]*>)/\1/g'
}

# the objects of the .c files A..B touches (tests are #included)
mapfile -t objs < <(git -C "$tree" diff --name-only "$a" "$b" -- '*.c' | grep -v '/tests/' | sed 's/\.c$/.o/')
[ ${#objs[@]} -gt 0 ] || { info "no compiled .c file changes between $a and $b"; exit 0; }
orig=$(git -C "$tree" symbolic-ref -q --short HEAD || git -C "$tree" rev-parse HEAD)
tmp=$(mktemp -d)
trap 'git -C "$tree" checkout -q "$orig"; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
need_space 3072 "$BSK_CACHE"
rc=0
for kunit in $kunits; do
	for kind in $configs; do
		label="$kind config" out=$BSK_CACHE/build/$name-x86_64-nfc-$kind
		[ "$kunit" = off ] || label+=", CONFIG_KUNIT=$kunit" out+=-kunit-$kunit
		d=$tmp/$kind-$kunit
		mkdir -p "$out"
		for side in a b; do
			git -C "$tree" checkout -q --detach "${!side}"
			configure "$kind" "$kunit"
			for o in "${objs[@]}"; do
				[ -f "$tree/${o%.o}.c" ] || continue
				kmake "$o" || die "$o does not build ($label, $(git -C "$tree" log -1 --format=%h "${!side}"))"
				mkdir -p "$(dirname "$d/$side/$o")"
				cp "$out/$o" "$d/$side/$o"
			done
		done
		for o in "${objs[@]}"; do
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
