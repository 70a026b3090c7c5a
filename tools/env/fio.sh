#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# fio.sh - print the directory of a fio that blktests' newest tests take
# (3.40 or later: block/041 passes fio's io_uring PI options,
# --md_per_io_size, --pi_act, --pi_chk, --apptag).  An installed fio that
# new is taken as it is.  Otherwise fio's upstream source as Debian
# unstable carries it (the package's orig tarball, fetched through a
# private apt state, which checks its hash against the signed Sources
# index) is built in $BSK_CACHE/fio, once.  Debian 12 has 3.33, and
# unstable's binary package needs glibc 2.38.  Not installed: make
# blktests puts the directory first in the guest's PATH.
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# shellcheck source=../lib/apt.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/apt.sh"
[ "${BASH_SOURCE[0]}" = "$0" ] || die "fio.sh is a command, not a library"

MIN=3.40

# new_enough FIO: "fio-3.41" (or "fio-3.41-2-gabcdef") is MIN or later
new_enough() {
	local v
	v=$("$1" --version 2>/dev/null) || return 1
	v=${v#fio-}
	v=${v%%-*}
	[[ $v =~ ^[0-9]+\.[0-9]+ ]] || return 1
	ver_ge "$v" "$MIN"
}

dir=$BSK_CACHE/fio
# The directory printed goes first in the guest's PATH: one that holds
# fio alone, not the installed fio's own (/usr/bin, ~/bin).
if command -v fio >/dev/null && new_enough fio; then
	mkdir -p "$dir/bin"
	ln -sfn "$(readlink -f "$(command -v fio)")" "$dir/bin/fio"
	printf '%s\n' "$dir/bin"
	exit 0
fi
bin=$dir/src/fio
if [ -x "$bin" ] && new_enough "$bin"; then
	printf '%s\n' "$dir/src"
	exit 0
fi
command -v apt-get >/dev/null 2>&1 ||
	die "fio $MIN or later is needed for block/041 (installed: $(fio --version 2>/dev/null || echo none)), and there is no apt-get here to fetch its source: install fio $MIN or later"
need_space 200 "$BSK_CACHE"
info "the installed fio ($(fio --version 2>/dev/null || echo none)) is older than $MIN; building Debian unstable's fio source in $dir"
unstable_apt "$dir" deb-src ||
	die "apt-get update for the fio source package failed (see $dir/update.log)"
rm -rf "$dir/dl" "$dir/src" "$dir/src.new"
mkdir -p "$dir/dl" "$dir/src.new"
# Only the upstream tarball: this machine's mirror has been seen without
# the package's .dsc and Debian diff, and the tarball is all fio needs.
(cd "$dir/dl" && apt-get -q "${APT_OPTS[@]}" source --download-only fio >"$dir/fetch.log" 2>&1) || true
tarball=$(find "$dir/dl" -name 'fio_*.orig.tar.*' ! -name '*.asc' | head -n 1)
[ -n "$tarball" ] || die "apt-get source fio fetched no fio_*.orig.tar.* (see $dir/fetch.log)"
tar -C "$dir/src.new" --strip-components=1 -xf "$tarball" 2>"$dir/tar.log" ||
	die "unpacking $(basename "$tarball") failed (see $dir/tar.log)"
# The engines blktests uses: libaio (libaio-dev, deps.sh blktests),
# io_uring (fio's own), sync and pvsync.  Built in src.new, kept as src
# only when it is what block/041 needs.
(cd "$dir/src.new" && ./configure --disable-native >"$dir/build.log" 2>&1 && make -j"$(nproc)" fio >>"$dir/build.log" 2>&1) ||
	die "building fio failed (see $dir/build.log)"
grep -q '^Linux AIO support  *yes' "$dir/build.log" ||
	die "fio was configured without libaio (see $dir/build.log); install libaio-dev"
new_enough "$dir/src.new/fio" || die "$(basename "$tarball") builds $("$dir/src.new/fio" --version), older than $MIN"
mv "$dir/src.new" "$dir/src"
info "using $("$bin" --version), built from $(basename "$tarball")"
printf '%s\n' "$dir/src"
