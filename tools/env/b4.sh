#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# b4.sh - print the path of a b4 0.13 or later: the installed one, or
# Debian trixie's unpacked in $BSK_CACHE/b4 with a wrapper there (why not
# unstable's: docs/environment.md).
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# shellcheck source=../lib/apt.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/apt.sh"
[ "${BASH_SOURCE[0]}" = "$0" ] || die "b4.sh is a command, not a library"

MIN=0.13

command -v b4 >/dev/null && new_enough b4 && { command -v b4; exit 0; }
dir=$BSK_CACHE/b4
wrap=$dir/bin/b4
[ -x "$wrap" ] && new_enough "$wrap" && { printf '%s\n' "$wrap"; exit 0; }

have=$(b4 --version 2>/dev/null | head -n 1 || true)
command -v apt-get >/dev/null ||
	die "b4 $MIN or later is needed for the threads' prerequisites${have:+ (installed: $have)}, and there is no apt-get here to fetch it: install b4 $MIN or later"
"$BSK_TOP/tools/env/deps.sh" b4
need_space 50 "$BSK_CACHE"
info "${have:+b4 $have is older than $MIN; }fetching Debian trixie's b4 into $dir"
debian_unpack "$dir" trixie b4
site=$dir/root/usr/lib/python3/dist-packages
[ -d "$site/b4" ] || die "the b4 package has no dist-packages/b4"
mkdir -p "$dir/bin"
cat >"$wrap" <<WRAP
#!/bin/sh
# $(find "$dir/dl" -name '*.deb' -printf '%f\n' | sed 's/\.deb$//' | sort | paste -sd' '), unpacked by tools/env/b4.sh
PYTHONPATH=$site\${PYTHONPATH:+:\$PYTHONPATH} exec /usr/bin/python3 -c 'import sys; from b4.command import cmd; sys.argv[0] = "b4"; sys.exit(cmd())' "\$@"
WRAP
chmod +x "$wrap"
new_enough "$wrap" ||
	die "the unpacked b4 does not start with /usr/bin/python3: $("$wrap" --version 2>&1 | tail -n 1)"
info "using b4 $("$wrap" --version)"
printf '%s\n' "$wrap"
