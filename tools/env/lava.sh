#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lava.sh - print $BSK_CACHE/lava: Debian unstable's lava-common, lava-dispatcher and lava-server
# (device-type templates) unpacked for 'make lava': bin/lava-run, bin/lava-python, device-types/.
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# shellcheck source=../lib/apt.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/apt.sh"
[ "${BASH_SOURCE[0]}" = "$0" ] || die "lava.sh is a command, not a library"

dir=$BSK_CACHE/lava
"$BSK_TOP/tools/env/deps.sh" lava
"$dir/bin/lava-run" --help >/dev/null 2>&1 && { printf '%s\n' "$dir"; exit 0; }
command -v apt-get >/dev/null || die "make lava runs Debian unstable's lava-dispatcher, and there is no apt-get here to fetch it"
need_space 50 "$BSK_CACHE"
info "fetching Debian unstable's lava-common, lava-dispatcher and lava-server (for its device-type templates) into $dir"
debian_unpack "$dir" unstable lava-common lava-dispatcher lava-server
site=$dir/root/usr/lib/python3/dist-packages
{ [ -d "$site/lava_dispatcher" ] && [ -f "$dir/root/usr/share/lava-server/device-types/qemu.jinja2" ]; } ||
	die "the unpacked LAVA packages have no lava_dispatcher or no device-types/qemu.jinja2 (see $dir/fetch.log)"
rm -rf "${dir:?}/bin" "${dir:?}/device-types"
mkdir -p "$dir/bin"
ln -s root/usr/share/lava-server/device-types "$dir/device-types"
versions=$(find "$dir/dl" -name '*.deb' -printf '%f\n' | sed 's/\.deb$//' | sort | paste -sd' ')
head="#!/bin/sh
# $versions, unpacked by tools/env/lava.sh"
# shellcheck disable=SC2016 # the wrappers' own variables
printf '%s\nPYTHONPATH=%q${PYTHONPATH:+:$PYTHONPATH} exec /usr/bin/python3 "$@"\n' "$head" "$site" >"$dir/bin/lava-python"
printf '%s\nexec %q %q "$@"\n' "$head" "$dir/bin/lava-python" "$dir/root/usr/bin/lava-run" >"$dir/bin/lava-run"
chmod +x "$dir/bin/lava-python" "$dir/bin/lava-run"
"$dir/bin/lava-run" --help >/dev/null 2>"$dir/start.err" ||
	die "the unpacked lava-run does not start with /usr/bin/python3: $(tail -n 1 "$dir/start.err")"
info "using $versions"
printf '%s\n' "$dir"
