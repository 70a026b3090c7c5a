#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# blktests-tree.sh SRC DEST [SERIES] - the blktests tree 'make blktests'
# builds and runs: SRC copied to DEST (emptied first; without SRC's .git,
# results and config; SRC is never written to), with the patches SERIES
# lists (default patches/blktests/series: this repository's patches to
# blktests, the tests of its fixes) applied in order by git apply.  A
# patch SRC already has (it reverses cleanly) is left out, with a line
# saying so; one that does not apply is one error line naming it.
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

{ [ $# -ge 2 ] && [ $# -le 3 ]; } || die "usage: blktests-tree.sh SRC DEST [SERIES]"
src=$1
series=${3:-$BSK_TOP/patches/blktests/series}
rm -rf "$2"
mkdir -p "$2"
dest=$(cd "$2" && pwd)
tar -C "$src" --exclude=./.git --exclude=./results --exclude=./config -cf - . | tar -C "$dest" -xf -
[ -f "$series" ] || exit 0
pdir=$(cd "$(dirname "$series")" && pwd)
# git apply outside any repository, on DEST's own paths, even where the
# cache sits in a git work tree.
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
