#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# counts.sh RESULTS.json [TOP] - every figure README, docs/, MAINTAINERS-notes,
# the mails (cover letters, reports, blktests', the patches' messages above
# "---") and results/*/README.md state, against its source
# (docs/gate.md, "Figures and their sources"):
#   counts ("58 passed", "four cases skip", "Ran 58 tests", the suites
#   table of docs/reference.md) against RESULTS.json, a kunit.py --json
#   run, or the run the sentence names (6.12/LTS: COUNTS_LTS_JSON, UML:
#   COUNTS_UML_JSON, PREEMPT_RT: COUNTS_RT_JSON, one CPU: COUNTS_UML1_JSON);
#   "N mutants" against kunit/mutations/, "N patches" against the series;
#   measurements (units, %, ratios, "N of M", integers of 4+ digits) must
#   appear in a file or directory of the tree that their unit names.
# One line per figure: "ok", "unchecked" (a source that is not a file,
# with it) or "WRONG", with FILE:LINE; exits 1 if any is wrong, or if the
# run holds no case.
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

json=${1:-}
top=${2:-$BSK_TOP}
[ -f "$json" ] || die "usage: counts.sh RESULTS.json [TOP] (no file '$json')"
exec python3 "$BSK_TOP/tools/lib/counts.py" "$json" "$top" "$BSK_LTS_SERIES"
