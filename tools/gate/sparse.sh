#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# sparse.sh TREE - the path of a sparse TREE's scripts/checker-valid.sh
# accepts; if the installed one is refused, Debian unstable's built in the
# cache.  None to be had here: the reason on stdout, status 1.
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# shellcheck source=../lib/apt.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/apt.sh"
[ "${BASH_SOURCE[0]}" = "$0" ] || die "sparse.sh is a command, not a library"

tree=${1:-}
[ -f "$tree/Makefile" ] || die "usage: sparse.sh KERNEL_TREE (no kernel tree at '$tree')"
# 6.12 has no checker-valid.sh: the installed sparse as it is
if [ ! -x "$tree/scripts/checker-valid.sh" ]; then
	command -v sparse && exit 0
	command -v apt-get >/dev/null 2>&1 || { echo "no sparse installed, and no apt-get"; exit 1; }
	die "sparse not found; run: apt-get install sparse"
fi

valid() { [ "$("$tree/scripts/checker-valid.sh" "$1" -m64 2>/dev/null)" = 1 ]; }
command -v sparse >/dev/null && valid sparse && { command -v sparse; exit 0; }
dir=$BSK_CACHE/sparse
bin=$dir/src/sparse
[ -x "$bin" ] && valid "$bin" && { printf '%s\n' "$bin"; exit 0; }
if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg-source >/dev/null 2>&1; then
	command -v apt-get >/dev/null 2>&1 ||
		{ echo "no sparse that $(basename "$tree") accepts, and no apt-get to build Debian's"; exit 1; }
	die "dpkg-source not found; run: apt-get install dpkg-dev"
fi
info "installed sparse $(sparse --version 2>/dev/null || echo '(none)') is too old for $tree; building Debian unstable's sparse in $dir"
debian_apt "$dir" deb-src unstable ||
	die "apt-get update for the sparse source package failed (see $dir/update.log)"
rm -rf "$dir/dl" "$dir/src"
mkdir -p "$dir/dl"
(cd "$dir/dl" && apt-get -q "${APT_OPTS[@]}" source --download-only sparse >"$dir/fetch.log" 2>&1) ||
	die "apt-get source sparse failed (see $dir/fetch.log)"
dpkg-source -x "$dir"/dl/sparse_*.dsc "$dir/src" >>"$dir/fetch.log" 2>&1 ||
	die "dpkg-source -x failed (see $dir/fetch.log)"
# CC=gcc: Debian's package pins unstable's gcc
make -C "$dir/src" -j"$(nproc)" CC=gcc sparse >"$dir/build.log" 2>&1 ||
	die "building sparse failed (see $dir/build.log)"
valid "$bin" || die "Debian unstable's sparse ($(basename "$dir"/dl/sparse_*.dsc .dsc)) is also refused by $tree/scripts/checker-valid.sh"
info "using $(basename "$dir"/dl/sparse_*.dsc .dsc) (its --version says $("$bin" --version))"
printf '%s\n' "$bin"
