#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# vmkernel.sh base|series|rfc|tip|debug [FRAGMENT...] - build an x86_64 guest kernel
# (tinyconfig + configs/vm.config + FRAGMENTs, each line must hold), print its bzImage:
# series stops before the RFC threads, rfc is the base with them alone, debug base + debug/.
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# shellcheck source=../lib/kbuild.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/kbuild.sh"

kind=${1:-}
case $kind in base|series|rfc|tip|debug) ;; *) die "usage: vmkernel.sh base|series|rfc|tip|debug [FRAGMENT...]" ;; esac
shift
frags=("$BSK_TOP/configs/vm.config")
suffix=
for f in "$@"; do
	[ -f "$f" ] || die "no config fragment $f"
	frags+=("$(cd "$(dirname "$f")" && pwd)/$(basename "$f")")
	n=$(basename "$f" .config)
	n=${n%.kunitconfig}
	suffix+=-${n:-kunit}
done

nrfc=$(series_rfc_count "$(bsk_series)")
[ "$kind" != rfc ] || [ "$nrfc" -gt 0 ] ||
	die "$(bsk_series) has no RFC thread ('# thread rfc:'): there is no rfc kernel"

read -r repo wt base < <("$BSK_TOP/tools/env/tree.sh") || exit 1
tag=$(basename "$wt")
git -C "$repo" rev-parse -q --verify "refs/heads/$BSK_BRANCH" >/dev/null ||
	die "no series branch $BSK_BRANCH in $repo; run 'make apply' first"
rev=$base
case $kind in
series) rev=$(git -C "$repo" rev-parse "refs/heads/$BSK_BRANCH~$nrfc") ;;
tip) rev=$(git -C "$repo" rev-parse "refs/heads/$BSK_BRANCH") ;;
esac

vwt=$BSK_CACHE/work/$tag-vm
out=$BSK_CACHE/build/$tag-vm$suffix
if [ "$kind" = debug ]; then
	vwt=$BSK_CACHE/work/$tag-vm-debug
	out=$BSK_CACHE/build/$tag-vm-debugpatches$suffix
	dp=("$BSK_TOP"/debug/*.patch)
	[ -f "${dp[0]}" ] || die "no debug patch in $BSK_TOP/debug"
fi
need_space 3072 "$BSK_CACHE"
if [ ! -e "$vwt/.git" ]; then
	git -C "$repo" worktree prune
	git -C "$repo" worktree add -q --detach "$vwt" "$rev"
fi
[ -z "$(git -C "$vwt" status --porcelain --untracked-files=no)" ] ||
	die "$vwt has uncommitted changes; it is the VM kernel's worktree: commit them elsewhere or remove it (git worktree remove)"
mkdir -p "$out"
if [ "$kind" = debug ]; then
	# applied again only when debug/ changed: else no rebuild
	dkey="$(git -C "$repo" rev-parse "$base^{commit}") $(cat "${dp[@]}" | sha1sum | cut -c1-40)"
	if [ "$(cat "$out/.debug-patches" 2>/dev/null)" != "$dkey" ] ||
		[ "$(git -C "$vwt" rev-parse -q --verify "HEAD~${#dp[@]}" 2>/dev/null)" != "${dkey%% *}" ]; then
		git -C "$vwt" checkout -q --detach "$rev"
		bsk_git -C "$vwt" am -q "${dp[@]}" ||
			{ git -C "$vwt" am --abort 2>/dev/null || true; die "a patch of $BSK_TOP/debug does not apply to $base"; }
		printf '%s\n' "$dkey" >"$out/.debug-patches"
	fi
	rev=$(git -C "$vwt" rev-parse HEAD)
elif [ "$kind" = rfc ]; then
	# picked with their committer and date: the same commits, so the same image
	git -C "$vwt" checkout -q --detach "$base"
	for c in $(git -C "$repo" rev-list --reverse "refs/heads/$BSK_BRANCH~$nrfc..refs/heads/$BSK_BRANCH"); do
		IFS=$'\t' read -r cname cmail cdate < <(git -C "$repo" log -1 --format=$'%cn\t%ce\t%cD' "$c")
		GIT_COMMITTER_NAME=$cname GIT_COMMITTER_EMAIL=$cmail GIT_COMMITTER_DATE=$cdate \
			git -C "$vwt" -c commit.gpgsign=false cherry-pick "$c" >/dev/null 2>&1 || {
			git -C "$vwt" cherry-pick --abort 2>/dev/null || true
			die "the RFC thread's $(git -C "$repo" log -1 --format='"%s"' "$c") does not apply to $base alone"
		}
	done
	rev=$(git -C "$vwt" rev-parse HEAD)
else
	git -C "$vwt" checkout -q --detach "$rev"
fi

cc=$(kbuild_cc gcc)
# reproducible: a rebuild of the same tree is the same image (icount figures depend on it)
export KBUILD_BUILD_TIMESTAMP
KBUILD_BUILD_TIMESTAMP=$(git -C "$vwt" log -1 --format=%cD "$rev")
export KBUILD_BUILD_VERSION=1 KBUILD_BUILD_USER=blk-sched-kunit KBUILD_BUILD_HOST=vm
kmake() {
	make -s -C "$vwt" O="$out" ARCH=x86_64 CC="$cc" -j"$(nproc)" "$@"
}
key=$(kconfig_key "$vwt" "$(cat "${frags[@]}")")
if kconfig_stale "$out" "$key"; then
	kconfig_tiny "$vwt" "$out" "${frags[@]}" >"$out/merge.log" 2>&1 ||
		die "merge_config.sh failed (see $out/merge.log)"
	kmake olddefconfig >/dev/null
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
targets=(bzImage)
! grep -qx 'CONFIG_MODULES=y' "$out/.config" || targets+=(modules)
kmake "${targets[@]}" >"$out/build.log" 2>&1 ||
	die "the $kind guest kernel does not build (see $out/build.log)"
# copied, then renamed: a guest still booting the last image keeps it
cp "$out/arch/x86/boot/bzImage" "$out/bzImage-$kind.tmp"
cp "$out/vmlinux" "$out/vmlinux-$kind.tmp"
mv -f "$out/bzImage-$kind.tmp" "$out/bzImage-$kind"
mv -f "$out/vmlinux-$kind.tmp" "$out/vmlinux-$kind"
img=$out/bzImage-$kind
if [ ${#targets[@]} -gt 1 ]; then
	# the image beside lib/modules/<release>/, where virtme-ng looks for the modules
	root=$out/root-$kind
	rm -rf "$root.tmp"
	mkdir -p "$root.tmp"
	kmake INSTALL_MOD_PATH="$root.tmp" modules_install >"$out/modules_install.log" 2>&1 ||
		die "modules_install of the $kind guest kernel failed (see $out/modules_install.log)"
	cp "$out/bzImage-$kind" "$root.tmp/bzImage"
	rm -rf "$root"
	mv "$root.tmp" "$root"
	img=$root/bzImage
fi
# what the image is, for the results that cite it: the base, then each commit by patch-id
{
	git -C "$vwt" log -1 --format='base %h (%s)' "$base^{commit}"
	for c in $(git -C "$vwt" rev-list --reverse "$base^{commit}..$rev"); do
		echo "+ $(git -C "$vwt" show "$c" | git patch-id --stable | cut -c1-12) $(git -C "$vwt" log -1 --format=%s "$c")"
	done
} >"$img.id"
info "$kind guest kernel built in $((SECONDS - t))s"
printf '%s\n' "$img"
