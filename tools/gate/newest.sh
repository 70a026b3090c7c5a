#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# newest.sh [mainline|lts] - one line: does the series apply to Debian's
# newest linux-source for its base?  The base stays pinned (docs/bases.md).
set -euo pipefail
BASE=${1:-${BASE:-mainline}}
# shellcheck source=../env/base.sh
. "$(dirname "${BASH_SOURCE[0]}")/../env/base.sh"

pin=$(pinned) || exit 1
read -r pkg ver _ <<<"$pin"
new=$("$BSK_TOP/tools/env/base.sh" --newest "$BASE" 2>/dev/null) ||
	die "cannot read Debian's package lists for BASE=$BASE"
[ "$new" != "$pkg $ver" ] || { echo "Debian's newest linux-source for $BASE is the pinned one, $new"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
apt_opts
info() { :; } # one line: only the verdict, or an error
unpack "${new% *}" "${new#* }" "$tmp"
while read -r p; do
	if ! patch -d "$tmp/linux" -p1 -s -N --fuzz=0 <"$BSK_TOP/patches/$p" >/dev/null 2>&1; then
		echo "the series does not apply to Debian's newest $new ($p); the base stays pinned at $pkg $ver"
		exit 1
	fi
done < <(series_patches "$(bsk_series)")
echo "the series applies to Debian's newest $new; the base stays pinned at $pkg $ver"
