# SPDX-License-Identifier: GPL-2.0
DESCRIPTION="bats tests"
requires() { needs bats; }
# shellcheck source=../../lib/bats.sh
. "$BSK_TOP/tools/lib/bats.sh"

run() { bats_stage "bats tests/" "$4/bats.tap" bats --tap "$BSK_TOP/tests"; }
