#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# vng.sh - print the path of a virtme-ng 'vng': the installed one, or
# Debian unstable's unpacked in $BSK_CACHE/vng with a wrapper there.
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# shellcheck source=../lib/apt.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/apt.sh"
[ "${BASH_SOURCE[0]}" = "$0" ] || die "vng.sh is a command, not a library"

command -v vng && exit 0
dir=$BSK_CACHE/vng
wrap=$dir/vng
[ -x "$wrap" ] && "$wrap" --version >/dev/null 2>&1 && { printf '%s\n' "$wrap"; exit 0; }

need_space 200 "$BSK_CACHE"
info "no vng installed; fetching Debian's virtme-ng into $dir"
debian_unpack "$dir" unstable virtme-ng
site=$(find "$dir/root/usr/lib" -maxdepth 3 -type d -name dist-packages | head -n 1)
{ [ -n "$site" ] && [ -f "$dir/root/usr/bin/vng" ]; } || die "the virtme-ng package has no usr/bin/vng or dist-packages"
cat >"$wrap" <<EOF
#!/bin/sh
# virtme-ng $(basename "$dir"/dl/virtme-ng_*.deb .deb), unpacked by tools/env/vng.sh
# vng runs virtme-run and the package's other commands from PATH
PATH=$dir/root/usr/bin:\$PATH PYTHONPATH=$site\${PYTHONPATH:+:\$PYTHONPATH} \\
	exec /usr/bin/python3 $dir/root/usr/bin/vng "\$@"
EOF
chmod +x "$wrap"
"$wrap" --version >"$dir/version.log" 2>&1 ||
	die "the unpacked vng does not start with /usr/bin/python3 (see $dir/version.log)"
info "using $(head -n 1 "$dir/version.log")"
printf '%s\n' "$wrap"
