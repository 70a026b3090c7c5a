# SPDX-License-Identifier: GPL-2.0
DESCRIPTION="make send test"
requires() { needs b4 && needs bats; } # one at a time: b4's reason first
# shellcheck source=../../lib/bats.sh
. "$BSK_TOP/tools/lib/bats.sh"

# its own bats file: it needs the applied tree and b4, which only this stage has
run() { bats_stage "make send dry run" "$4/send.tap" step bats --tap "$BSK_TOP/tests/gate/send.bats"; }
