#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# fio.sh - print the directory of a fio 3.40 or later (blktests' block/041
# uses its PI options): the installed one, or Debian unstable's upstream
# tarball built once in $BSK_CACHE/fio.  docs/environment.md.
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# shellcheck source=../lib/apt.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/apt.sh"
[ "${BASH_SOURCE[0]}" = "$0" ] || die "fio.sh is a command, not a library"

MIN=3.40

dir=$BSK_CACHE/fio
# the directory goes first in the guest's PATH: fio alone in it
if command -v fio >/dev/null && new_enough fio; then
	mkdir -p "$dir/bin"
	ln -sfn "$(readlink -f "$(command -v fio)")" "$dir/bin/fio"
	printf '%s\n' "$dir/bin"
	exit 0
fi
bin=$dir/src/fio
[ -x "$bin" ] && new_enough "$bin" && { printf '%s\n' "$dir/src"; exit 0; }
command -v apt-get >/dev/null 2>&1 ||
	die "fio $MIN or later is needed for block/041 (installed: $(fio --version 2>/dev/null || echo none)), and there is no apt-get here to fetch its source: install fio $MIN or later"
need_space 200 "$BSK_CACHE"
info "the installed fio ($(fio --version 2>/dev/null || echo none)) is older than $MIN; building Debian unstable's fio source in $dir"
debian_apt "$dir" deb-src unstable ||
	die "apt-get update for the fio source package failed (see $dir/update.log)"
rm -rf "$dir/dl" "$dir/src" "$dir/src.new"
mkdir -p "$dir/dl" "$dir/src.new"
# only the upstream tarball (mirrors have been seen without the .dsc)
(cd "$dir/dl" && apt-get -q "${APT_OPTS[@]}" source --download-only fio >"$dir/fetch.log" 2>&1) || true
tarball=$(find "$dir/dl" -name 'fio_*.orig.tar.*' ! -name '*.asc' | head -n 1)
[ -n "$tarball" ] || die "apt-get source fio fetched no fio_*.orig.tar.* (see $dir/fetch.log)"
tar -C "$dir/src.new" --strip-components=1 -xf "$tarball" 2>"$dir/tar.log" ||
	die "unpacking $(basename "$tarball") failed (see $dir/tar.log)"
# libaio needed; built in src.new, kept only when new enough
(cd "$dir/src.new" && ./configure --disable-native >"$dir/build.log" 2>&1 && make -j"$(nproc)" fio >>"$dir/build.log" 2>&1) ||
	die "building fio failed (see $dir/build.log)"
grep -q '^Linux AIO support  *yes' "$dir/build.log" ||
	die "fio was configured without libaio (see $dir/build.log); install libaio-dev"
new_enough "$dir/src.new/fio" || die "$(basename "$tarball") builds $("$dir/src.new/fio" --version), older than $MIN"
mv "$dir/src.new" "$dir/src"
info "using $("$bin" --version), built from $(basename "$tarball")"
printf '%s\n' "$dir/src"
