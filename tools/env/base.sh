#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# base.sh [--newest] [mainline|lts] - the Debian linux-source the series' "# base:" line pins,
# made a git tree of one commit tagged vX.Y.Z; prints its path (--newest: "PACKAGE VERSION"
# of Debian's newest, nothing fetched).  docs/bases.md.
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# shellcheck source=../lib/apt.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/apt.sh"

NEWEST=
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	[ "${1:-}" != --newest ] || { NEWEST=1; shift; }
	BASE=${1:-${BASE:-mainline}}
else # sourced for its functions (tests, newest.sh): $1 is not ours
	BASE=${BASE:-mainline}
fi
APT_DIR=$BSK_CACHE/apt/$BASE
SRC_DIR=$BSK_CACHE/src

case $BASE in
mainline|lts) ;;
*) die "unknown BASE '$BASE' (use BASE=mainline or BASE=lts, or KERNEL=/path/to/linux)" ;;
esac

make_sources() {
	local cn repos mirror suite
	cn=$(codename)
	mirror=$(mirror_uri) || exit 1
	repos=$(machine_repos)
	if [ "$BASE" = lts ]; then
		awk -v cn="$cn" -v kr="$KEYRING" \
			'$2 == cn || index($2, cn "-") == 1 { printf "deb [signed-by=%s] %s %s %s\n", kr, $1, $2, $3 }' <<<"$repos"
	else
		for suite in ${BSK_MAINLINE_SUITES:-unstable stable-backports}; do
			printf 'deb [signed-by=%s] %s %s main\n' "$KEYRING" "$mirror" "$suite"
		done
	fi
}

apt_update() {
	apt_opts
	make_sources >"$APT_DIR/sources.list"
	apt-get -q "${APT_OPTS[@]}" update >"$APT_DIR/update.log" 2>&1 || return 1
	! grep -qE '^(W|E): ' "$APT_DIR/update.log"
}

# Some mirrors serve a stale "stable-backports": ask by its codename.
resolve_backports() {
	local rel cn
	rel=$(find "$APT_DIR/lists" -maxdepth 1 -name '*_dists_stable-backports_InRelease' | head -n 1)
	[ -n "$rel" ] || return 0
	cn=$(sed -n 's/^Codename: //p' "$rel" | head -n 1)
	[ -n "$cn" ] && [ "$cn" != stable-backports ] || return 0
	BSK_MAINLINE_SUITES="unstable $cn" apt_update
}

pinned() {
	local s
	s=$(bsk_series)
	sed -n 's/^# base: \([^ ]*\) \([^ ]*\) sha256:\([0-9a-f]\{64\}\)$/\1 \2 \3/p' "$s" | grep . ||
		die "$(basename "$s") has no '# base: PACKAGE VERSION sha256:TARBALL' line"
}

pick_package() {
	local pkg ver
	if [ "$BASE" = lts ]; then
		pkg=linux-source-$BSK_LTS_SERIES
	else
		pkg=$(apt-cache "${APT_OPTS[@]}" pkgnames linux-source- |
			grep -E '^linux-source-[0-9]+\.[0-9]+$' | sort -V | tail -n 1)
	fi
	[ -n "$pkg" ] || return 1
	ver=$(apt-cache "${APT_OPTS[@]}" show "$pkg" 2>/dev/null |
		sed -n 's/^Version: //p' | sort -V | tail -n 1)
	[ -n "$ver" ] || return 1
	printf '%s %s\n' "$pkg" "$ver"
}

# Debian's top-level "/*" ignore rules would hide the tree from git add.
fix_gitignore() {
	local f=$1/.gitignore
	[ -f "$f" ] || return 0
	sed -i -e '\#^/\*$#d' -e '\#^!/debian/$#d' "$f"
}

# unpack PKG VER TMP [SHA256]: Debian's linux-source PKG=VER unpacked to TMP/linux
unpack() {
	local tarball
	info "downloading $1 $2 (signature checked against $KEYRING)"
	(cd "$3" && apt-get -q "${APT_OPTS[@]}" download "$1=$2" >/dev/null) ||
		die "apt-get download $1=$2 failed (see $APT_DIR/update.log)"
	dpkg-deb -x "$3"/*.deb "$3/deb"
	tarball=$(find "$3/deb/usr/src" -maxdepth 1 -name 'linux-source-*.tar.*' | head -n 1)
	[ -n "$tarball" ] || die "$1 $2 has no linux-source tarball in /usr/src"
	[ -z "${4:-}" ] || [ "$(sha256sum <"$tarball" | cut -d' ' -f1)" = "$4" ] ||
		die "$1 $2: $(basename "$tarball") does not have the sha256 $(basename "$(bsk_series)") pins"
	mkdir "$3/linux"
	info "extracting $(basename "$tarball")"
	tar -xf "$tarball" -C "$3/linux" --strip-components=1
	rm -rf "$3/deb" "$3"/*.deb
}

extract() {
	local pkg=$1 ver=$2 tmp kv dest
	need_space 4096 "$SRC_DIR"
	mkdir -p "$SRC_DIR"
	tmp=$(mktemp -d "$SRC_DIR/.fetch.XXXXXX")
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp'" EXIT
	unpack "$pkg" "$ver" "$tmp" "$3"
	kv=$(make -s -C "$tmp/linux" kernelversion 2>/dev/null ||
		awk -F' *= *' '/^VERSION/{v=$2} /^PATCHLEVEL/{p=$2} /^SUBLEVEL/{s=$2} END{print v "." p "." s}' "$tmp/linux/Makefile")
	fix_gitignore "$tmp/linux"
	info "making a git tree of Linux $kv"
	(
		cd "$tmp/linux"
		bsk_git init -q -b base
		# no automatic gc: repacking ~90k loose objects would stall a later git am
		git config gc.auto 0
		git config maintenance.auto false
		bsk_git add -A
		bsk_git commit -q -m "Linux $kv" \
			-m "Debian package $pkg $ver, unpacked as is except for .gitignore: the top-level \"/*\" and \"!/debian/\" rules Debian appends are removed so that git sees the tree."
		bsk_git tag "v$kv"
		printf '%s %s\n' "$pkg" "$ver" >.git/bsk-package
	)
	dest=$SRC_DIR/linux-$kv
	[ ! -e "$dest" ] || die "$dest exists but is not the tree of $pkg $ver; move it away"
	mv "$tmp/linux" "$dest"
	rm -rf "$tmp"
	trap - EXIT
	ln -sfn "linux-$kv" "$SRC_DIR/$BASE"
}

main() {
	local pin pkg ver sum cur
	command -v apt-get >/dev/null || die "apt-get not found: the Debian kernel bases need a Debian machine (or use KERNEL=/path/to/linux)"
	[ -r "$KEYRING" ] || die "$KEYRING missing: apt-get install debian-archive-keyring"
	pin=$(pinned) || exit 1
	read -r pkg ver sum <<<"$pin"
	cur=$SRC_DIR/$BASE
	apt_opts
	if [ -n "$NEWEST" ]; then
		{ apt_update && resolve_backports && pick_package; } || die "cannot read Debian's package lists for BASE=$BASE (see $APT_DIR/update.log)"
		return
	fi
	if [ -e "$cur/.git/bsk-package" ] && [ "$(cat "$cur/.git/bsk-package")" = "$pkg $ver" ]; then
		info "base $BASE: $pkg $ver (cached, tag $(git -C "$cur" describe --tags --abbrev=0))"
		readlink -f "$cur"
		return 0
	fi
	{ apt_update && resolve_backports; } || die "cannot read Debian's package lists for BASE=$BASE (see $APT_DIR/update.log)"
	apt-cache "${APT_OPTS[@]}" show "$pkg=$ver" >/dev/null 2>&1 ||
		die "$pkg $ver, the pinned base, is no longer in Debian's archive: move the pin (docs/bases.md)"
	extract "$pkg" "$ver" "$sum"
	info "base $BASE: $pkg $ver -> $(readlink -f "$cur") (tag $(git -C "$cur" describe --tags --abbrev=0))"
	readlink -f "$cur"
}

[ "${BASH_SOURCE[0]}" != "$0" ] || main
