#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# promote.sh RUN TO - 'make promote': copy a run's results into TO under results/ (the
# only way committed evidence changes), same-named files replaced; docs/reference.md.
set -euo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

run=${1:-${RUN:-}}
to=${2:-${TO:-}}
{ [ -n "$run" ] && [ -n "$to" ]; } || die "usage: make promote RUN=<run directory> TO=results/<name>"
[ -n "$(ls -A "$run" 2>/dev/null)" ] || die "RUN=$run is not a run directory with results"
case $to in
results/*) [[ $to != *..* ]] || die "TO=$to: a path under results/ without '..'" ;;
*) die "TO=$to: committed evidence lives under results/" ;;
esac
cd "$BSK_TOP"
[ -z "$(git status --porcelain -- "$to")" ] ||
	die "$to has uncommitted changes; commit or stash them first"
mkdir -p "$to"
# the cache's link to a build directory is not evidence
# done, <kernel>.done: the guests' empty "ran to its end" markers, not evidence
tar -C "$run" --exclude=./build --exclude=done --exclude='*.done' -cf - . | tar -C "$to" -xf -
printf 'promoted from %s on %s\n' "$(basename "$run")" "$(date -u +%Y-%m-%d)" >"$to/PROMOTED"
info "$run -> $to; review and commit: git add $to && git commit"
git status --short -- "$to"
