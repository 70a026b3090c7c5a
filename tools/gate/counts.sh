#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# counts.sh RESULTS.json [TOP] - every figure the repository states, against
# its source (docs/gate.md, "Figures and their sources"; tools/lib/counts.py).
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

[ -f "${1:-}" ] || die "usage: counts.sh RESULTS.json [TOP] (no file '${1:-}')"
[ -d "${2:-$BSK_TOP}" ] || die "usage: counts.sh RESULTS.json [TOP] (no directory '${2:-}')"
exec python3 "$BSK_TOP/tools/lib/counts.py" "$1" "${2:-$BSK_TOP}" "$BSK_LTS_SERIES"
