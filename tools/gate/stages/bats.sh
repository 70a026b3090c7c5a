# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # DESCRIPTION: check.sh's
DESCRIPTION="bats tests"
requires() { needs bats; }
# shellcheck source=../../lib/bats.sh
. "$BSK_TOP/tools/lib/bats.sh"

run() { bats_stage "bats tests/" "$4/bats.tap" bats --tap "$BSK_TOP/tests"; }
