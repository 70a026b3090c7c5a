#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# blktests-tree.sh SRC DEST [SERIES] - SRC copied to DEST (no .git,
# results or config) with SERIES' patches (default patches/blktests/series)
# applied by git apply; one SRC has already is left out, saying so.
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

{ [ $# -ge 2 ] && [ $# -le 3 ]; } || die "usage: blktests-tree.sh SRC DEST [SERIES]"
src=$1 series=${3:-$BSK_TOP/patches/blktests/series}
rm -rf "$2"
mkdir -p "$2"
dest=$(cd "$2" && pwd)
tar -C "$src" --exclude=./.git --exclude=./results --exclude=./config -cf - . | tar -C "$dest" -xf -
[ -f "$series" ] || exit 0
pdir=$(cd "$(dirname "$series")" && pwd)
# git apply on DEST's own paths, even inside a git work tree
export GIT_CEILING_DIRECTORIES=${dest%/*}
mapfile -t patches < <(series_patches "$series")
for p in "${patches[@]}"; do
	f=$pdir/$p
	name=${f#"$BSK_TOP"/}
	[ -f "$f" ] || die "$series lists $p but $f does not exist"
	if err=$(cd "$dest" && git apply --check "$f" 2>&1); then
		(cd "$dest" && git apply "$f")
	elif (cd "$dest" && git apply --check --reverse "$f") >/dev/null 2>&1; then
		info "$name is in $src already: not applied again"
	else
		err=$(head -n 1 <<<"$err")
		die "$name does not apply to the blktests tree $src: ${err#error: }"
	fi
done
