#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# vmkernel.sh base|series [FRAGMENT...] - build the x86_64 guest kernel for
# virtme-ng (tinyconfig's fragments + configs/vm.config + FRAGMENTs, on
# allnoconfig: merge_config.sh -n) at the base or at
# the tip of the applied series, and print the path of its bzImage.
# A FRAGMENT may be a .kunitconfig (the series' block/tests/.kunitconfig
# builds its suites in: 'make check' boots that kernel with kunit.py exec).
#
# Both kernels come from one worktree of the base's repository,
# $BSK_CACHE/work/<tag>-vm (detached; the series worktree is not touched),
# and one build dir, $BSK_CACHE/build/<tag>-vm[-<fragment names>]: after
# one of them is built, the other only recompiles what the series changes.
# Each build's bzImage and vmlinux are copied beside it as bzImage-<kind>
# and vmlinux-<kind> (for scripts/bloat-o-meter).  Every line of the
# fragments must hold in the final .config, or the build stops with the
# lines that do not.
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# shellcheck source=../lib/kbuild.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/kbuild.sh"

kind=${1:-}
case $kind in base|series) ;; *) die "usage: vmkernel.sh base|series [FRAGMENT...]" ;; esac
shift
frags=("$BSK_TOP/configs/vm.config")
suffix=
for f in "$@"; do
	[ -f "$f" ] || die "no config fragment $f"
	frags+=("$(cd "$(dirname "$f")" && pwd)/$(basename "$f")")
	# debug.config -> -debug; a tree's block/tests/.kunitconfig -> -kunit
	n=$(basename "$f" .config)
	n=${n%.kunitconfig}
	suffix+=-${n:-kunit}
done

read -r repo wt base < <("$BSK_TOP/tools/env/tree.sh") || exit 1
tag=$(basename "$wt")
git -C "$repo" rev-parse -q --verify "refs/heads/$BSK_BRANCH" >/dev/null ||
	die "no series branch $BSK_BRANCH in $repo; run 'make apply' first"
rev=$base
[ "$kind" = base ] || rev=$(git -C "$repo" rev-parse "refs/heads/$BSK_BRANCH")

vwt=$BSK_CACHE/work/$tag-vm
out=$BSK_CACHE/build/$tag-vm$suffix
need_space 3072 "$BSK_CACHE"
if [ ! -e "$vwt/.git" ]; then
	git -C "$repo" worktree prune
	git -C "$repo" worktree add -q --detach "$vwt" "$rev"
fi
[ -z "$(git -C "$vwt" status --porcelain --untracked-files=no)" ] ||
	die "$vwt has uncommitted changes; it is the VM kernel's worktree: commit them elsewhere or remove it (git worktree remove)"
git -C "$vwt" checkout -q --detach "$rev"
mkdir -p "$out"

cc=$(kbuild_cc gcc)
kmake() {
	make -s -C "$vwt" O="$out" ARCH=x86_64 CC="$cc" -j"$(nproc)" "$@"
}
key=$(kconfig_key "$vwt" "$(cat "${frags[@]}")")
if kconfig_stale "$out" "$key"; then
	kconfig_tiny "$vwt" "$out" "${frags[@]}" >"$out/merge.log" 2>&1 ||
		die "merge_config.sh failed (see $out/merge.log)"
	kmake olddefconfig >/dev/null
	# What each symbol's last mention asks (a later fragment overrides).
	bad=$(grep -hE '^CONFIG_|^# CONFIG_.* is not set$' "${frags[@]}" |
		awk '{ s = $0; sub(/^# /, "", s); sub(/[= ].*/, "", s)
			if (!(s in last)) o[++n] = s; last[s] = $0 }
			END { for (i = 1; i <= n; i++) print last[o[i]] }' | while read -r l; do
		case $l in
		"# "*) s=${l#\# }; s=${s%% *}; ! grep -q "^$s=" "$out/.config" || echo "$s (wanted off)" ;;
		*) grep -qxF "$l" "$out/.config" || echo "$l" ;;
		esac
	done | paste -sd' ')
	[ -z "$bad" ] || die "$out/.config does not hold: $bad (a dependency is missing from the fragments)"
	kconfig_made "$out" "$key"
fi

t=$SECONDS
info "building the $kind guest kernel ($(git -C "$vwt" log -1 --format='%h %s' "$rev")) in $out"
kmake bzImage >"$out/build.log" 2>&1 ||
	die "the $kind guest kernel does not build (see $out/build.log)"
cp "$out/arch/x86/boot/bzImage" "$out/bzImage-$kind"
cp "$out/vmlinux" "$out/vmlinux-$kind"
info "$kind guest kernel built in $((SECONDS - t))s"
printf '%s\n' "$out/bzImage-$kind"
