#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lint-series.sh [SERIES] - SERIES against patches/ (and patches/*/series): every patch listed
# once, a format-patch mail from the role identity, no orphan, each thread one stretch
# with its cover letter, RFC threads last; an LTS patch has its note.  docs/gate.md.
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

SERIES=${1:-${SERIES:-$(bsk_series)}}
PATCHDIR=$(dirname "$SERIES")/patches
[ -f "$SERIES" ] || die "no series file $SERIES"
ident="$BSK_NAME <$BSK_EMAIL>"
bad=0
problem() { printf '%s\n' "$*"; bad=1; }

check_mail() {
	local p=$1 f=$2
	head -n 1 "$f" | grep -qE '^From [0-9a-f]{40} ' || problem "$p: not a git format-patch mail (no 'From <sha>' line)"
	grep -qxF "From: $ident" "$f" || problem "$p: From: is not '$ident'"
	grep -q '^Subject: \[PATCH' "$f" || problem "$p: no 'Subject: [PATCH...' header"
	grep -qxF "Signed-off-by: $ident" "$f" || problem "$p: no 'Signed-off-by: $ident'"
	grep -q '^diff --git ' "$f" || problem "$p: contains no diff"
}
# check_series FILE DIR PREFIX: FILE's patches (in DIR), added to "listed" as PREFIX<name>
listed=()
check_series() {
	local s=$1 d=$2 pre=$3 p dup ps=()
	mapfile -t ps < <(series_patches "$s")
	[ ${#ps[@]} -gt 0 ] || problem "$s lists no patches"
	for dup in $(printf '%s\n' "${ps[@]}" | sort | uniq -d); do
		problem "$s lists $dup more than once"
	done
	for p in "${ps[@]}"; do
		if [ -f "$d/$p" ]; then
			check_mail "$pre$p" "$d/$p"
		else
			problem "$s lists $p but $d/$p does not exist"
		fi
		listed+=("$pre$p")
	done
}
check_series "$SERIES" "$PATCHDIR" ""
ver=$(series_version "$SERIES")
if [ -n "$ver" ]; then
	for p in "${listed[@]}"; do
		case $p in "$ver"/*) ;; */*) problem "$SERIES lists $p: not a mainline patch nor one in $ver/" ;; *) continue ;; esac
		f=$PATCHDIR/$p
		[ -f "$f" ] || continue
		[ -n "$(patch_note "$f")" ] ||
			problem "$p: no note below '---' saying what differs from the mainline version and why"
		! { [ -f "$PATCHDIR/${p#*/}" ] && same_patch "$PATCHDIR/${p#*/}" "$f"; } ||
			problem "$p is the mainline patch ${p#*/} unchanged: list that instead"
	done
fi
# orphans: patch files no series file lists
mapfile -t all < <(for s in "$(dirname "$SERIES")"/series "$(dirname "$SERIES")"/series-*; do
	[ ! -f "$s" ] || series_patches "$s"
done)
n=${#listed[@]}
for s in "$PATCHDIR"/*/series; do
	[ ! -f "$s" ] || check_series "$s" "${s%/series}" "$(basename "${s%/series}")/"
done
all+=("${listed[@]:$n}")
listed=("${listed[@]:0:$n}")
while IFS= read -r f; do
	n=${f#"$PATCHDIR"/}
	printf '%s\n' "${all[@]}" | grep -qxF "$n" ||
		problem "$n is in $PATCHDIR but not listed in any series file"
done < <(find "$PATCHDIR" -maxdepth 2 -type f -name '*.patch' | sort)
if [ -z "$ver" ]; then
	for t in $(series_threads "$SERIES" | cut -d' ' -f1 | uniq | sort | uniq -d); do
		problem "thread $t is in two places of $SERIES: a thread is one stretch of patches"
	done
	rfc=
	for t in $(series_threads "$SERIES" | cut -d' ' -f1 | uniq); do
		[ -f "$PATCHDIR/cover-letter-$t" ] || problem "no cover letter for thread $t at $PATCHDIR/cover-letter-$t"
		# the series kernels stop before the RFC threads
		if is_rfc_thread "$t"; then
			rfc=$t
		elif [ -n "$rfc" ]; then
			problem "thread $t comes after the RFC thread $rfc in $SERIES: RFC threads come last"
		fi
	done
fi
[ "$bad" -eq 0 ] || exit 1
info "$SERIES: ${#listed[@]} patches, consistent"
