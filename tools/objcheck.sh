#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# objcheck.sh - x86_64 object checks of what a range of commits changes,
# on tinyconfig + configs/x86_64-block.config, in build dirs in the cache.
#
#   objcheck.sh sparse TREE A B  sparse (C=2) on the objects A..B changes,
#                                with the KUnit tests built in; fails if B
#                                has a warning A does not have
#   objcheck.sh bloat TREE A B   scripts/bloat-o-meter of those objects,
#                                tests off; fails if B is bigger than A
#
# TREE is a clean git worktree; it is left at the commit it was on.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

mode=${1:-}
tree=${2:-}
a=${3:-}
b=${4:-}
case $mode in sparse|bloat) ;; *) die "usage: objcheck.sh sparse|bloat TREE A B" ;; esac
if [ ! -d "$tree" ] || [ -z "$b" ]; then
	die "usage: objcheck.sh $mode TREE A B"
fi
[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
	die "$tree has uncommitted changes"
# Resolve now: HEAD moves once the first side is checked out.
a=$(git -C "$tree" rev-parse -q --verify "$a^{commit}") || die "not a commit in $tree: $3"
b=$(git -C "$tree" rev-parse -q --verify "$b^{commit}") || die "not a commit in $tree: $4"

name=${BSK_BUILD_NAME:-$(basename "$tree")}
out=$BSK_CACHE/build/$name-x86_64-$mode
mkdir -p "$out"
cc=gcc
! command -v ccache >/dev/null || cc="ccache gcc"
kmake() {
	make -s -C "$tree" O="$out" ARCH=x86_64 CC="$cc" -j"$(nproc)" "$@"
}

check=()
if [ "$mode" = sparse ]; then
	sp=$("$BSK_TOP/tools/sparse.sh" "$tree") || exit 1
	check=(CHECK="$sp")
fi
frags=("$BSK_TOP/configs/x86_64-block.config")
[ "$mode" = bloat ] || frags+=("$BSK_TOP/configs/kunit-tests.config")

configure() {
	kmake tinyconfig >/dev/null
	"$tree/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "${frags[@]}" >/dev/null 2>&1
	kmake olddefconfig >/dev/null
	grep -qx 'CONFIG_IOSCHED_BFQ=y' "$out/.config" ||
		die "$out/.config lost CONFIG_IOSCHED_BFQ=y; check configs/x86_64-block.config"
}

# Objects built from the .c files A..B touches (tests are #included).
mapfile -t objs < <(git -C "$tree" diff --name-only "$a" "$b" -- '*.c' |
	grep -v '/tests/' | sed 's/\.c$/.o/')
if [ ${#objs[@]} -eq 0 ]; then
	info "no compiled .c file changes between $a and $b"
	exit 0
fi

orig=$(git -C "$tree" symbolic-ref -q --short HEAD || git -C "$tree" rev-parse HEAD)
tmp=$(mktemp -d)
# shellcheck disable=SC2317 # called from the trap
restore() { git -C "$tree" checkout -q "$orig"; }
trap 'restore; rm -rf "$tmp"' EXIT
for side in a b; do
	git -C "$tree" checkout -q --detach "${!side}"
	configure
	mkdir -p "$tmp/$side"
	if [ "$mode" = sparse ]; then
		for o in "${objs[@]}"; do
			[ -f "$tree/${o%.o}.c" ] || continue
			kmake "${check[@]}" C=2 "$o" >"$tmp/$side/log" 2>&1 ||
				die "x86_64 build of $o failed at ${!side}: $(grep -m1 -E 'error' "$tmp/$side/log")"
			! grep -q 'is not available or not up to date' "$tmp/$side/log" ||
				die "kbuild refused sparse at ${!side}: $(grep -m1 'not up to date' "$tmp/$side/log")"
			grep -E '(warning|error):' "$tmp/$side/log" |
				sed -E 's/:[0-9]+:[0-9]+:/:/' >>"$tmp/$side/sparse" || true
		done
	else
		for o in "${objs[@]}"; do
			[ -f "$tree/${o%.o}.c" ] || continue
			kmake "$o"
			mkdir -p "$(dirname "$tmp/$side/$o")"
			cp "$out/$o" "$tmp/$side/$o"
		done
	fi
done

rc=0
if [ "$mode" = sparse ]; then
	sort -u "$tmp/a/sparse" >"$tmp/a.s" 2>/dev/null || :
	sort -u "$tmp/b/sparse" >"$tmp/b.s" 2>/dev/null || :
	new=$(comm -13 "$tmp/a.s" "$tmp/b.s")
	printf 'sparse on %s: %s warnings before, %s after\n' "${objs[*]}" \
		"$(wc -l <"$tmp/a.s")" "$(wc -l <"$tmp/b.s")"
	if [ -n "$new" ]; then
		printf 'new sparse warnings:\n%s\n' "$new"
		rc=1
	fi
else
	for o in "${objs[@]}"; do
		{ [ -f "$tmp/a/$o" ] && [ -f "$tmp/b/$o" ]; } || continue
		printf '$ scripts/bloat-o-meter %s (x86_64, %s)\n' "$o" "$(basename "${frags[0]}")"
		"$tree/scripts/bloat-o-meter" "$tmp/a/$o" "$tmp/b/$o" | tee "$tmp/bloat"
		before=$(sed -n 's/^Total: Before=\([0-9]*\), After=\([0-9]*\).*/\1/p' "$tmp/bloat")
		after=$(sed -n 's/^Total: Before=\([0-9]*\), After=\([0-9]*\).*/\2/p' "$tmp/bloat")
		if [ -n "$before" ] && [ "$after" -gt "$before" ]; then
			printf '%s grew from %s to %s bytes\n' "$o" "$before" "$after"
			rc=1
		fi
	done
fi
exit "$rc"
