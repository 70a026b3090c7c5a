#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lava.sh - print the directory of the LAVA 'make lava' runs: Debian
# unstable's lava-common, lava-dispatcher and lava-server (device-type
# templates), unpacked in $BSK_CACHE/lava: bin/lava-run, bin/lava-python,
# device-types/.  docs/environment.md.
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# shellcheck source=../lib/apt.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/apt.sh"
[ "${BASH_SOURCE[0]}" = "$0" ] || die "lava.sh is a command, not a library"

SUITE=unstable
dir=$BSK_CACHE/lava
"$BSK_TOP/tools/env/deps.sh" lava
if [ -x "$dir/bin/lava-run" ] && "$dir/bin/lava-run" --help >/dev/null 2>&1; then
	printf '%s\n' "$dir"
	exit 0
fi
command -v apt-get >/dev/null ||
	die "make lava runs Debian $SUITE's lava-dispatcher, and there is no apt-get here to fetch it"
need_space 50 "$BSK_CACHE"
info "fetching Debian $SUITE's lava-common, lava-dispatcher and lava-server (for its device-type templates) into $dir"
debian_unpack "$dir" "$SUITE" lava-common lava-dispatcher lava-server
site=$dir/root/usr/lib/python3/dist-packages
{ [ -d "$site/lava_dispatcher" ] && [ -f "$dir/root/usr/share/lava-server/device-types/qemu.jinja2" ]; } ||
	die "the unpacked LAVA packages have no lava_dispatcher or no device-types/qemu.jinja2 (see $dir/fetch.log)"
rm -rf "${dir:?}/bin" "${dir:?}/device-types"
mkdir -p "$dir/bin"
ln -s root/usr/share/lava-server/device-types "$dir/device-types"
versions=$(find "$dir/dl" -name '*.deb' -printf '%f\n' | sed 's/\.deb$//' | sort | paste -sd' ')
cat >"$dir/bin/lava-python" <<WRAP
#!/bin/sh
# $versions, unpacked by tools/env/lava.sh
PYTHONPATH=$(printf %q "$site")\${PYTHONPATH:+:\$PYTHONPATH} exec /usr/bin/python3 "\$@"
WRAP
cat >"$dir/bin/lava-run" <<WRAP
#!/bin/sh
# $versions, unpacked by tools/env/lava.sh
exec $(printf %q "$dir/bin/lava-python") $(printf %q "$dir/root/usr/bin/lava-run") "\$@"
WRAP
chmod +x "$dir/bin/lava-python" "$dir/bin/lava-run"
"$dir/bin/lava-run" --help >/dev/null 2>"$dir/start.err" ||
	die "the unpacked lava-run does not start with /usr/bin/python3: $(tail -n 1 "$dir/start.err")"
info "using $versions"
printf '%s\n' "$dir"
