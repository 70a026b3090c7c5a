#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# lint-series.sh [SERIES] - is SERIES consistent with patches/?  Every listed
# patch exists and is listed once, no patch file is left out (of all the
# series files), each patch is a git format-patch mail from the role identity
# (a placeholder: make send puts the sender there) with a Signed-off-by
# from it and a diff; each "# thread" of the mainline series is one
# stretch of it and has its cover letter; RFC threads ("# thread rfc:",
# "rfc-NAME:") come last.
# A directory of patches/ with a series file of its own (patches/blktests/:
# patches to blktests) is a series of its own: the patches it lists are
# checked as mails the same way, and are no orphans; any other patch file
# in that directory is one.
# For an LTS series (series-<V>), each patch in patches/<V>/ carries a note
# below "---" and is not a copy of its mainline patch.  One line per problem;
# exits non-zero if there is any.
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

SERIES=${1:-${SERIES:-$(bsk_series)}}
PATCHDIR=$(dirname "$SERIES")/patches
[ -f "$SERIES" ] || die "no series file $SERIES"
ident="$BSK_NAME <$BSK_EMAIL>"
bad=0
problem() {
	printf '%s\n' "$*"
	bad=1
}

# check_mail NAME FILE: a git format-patch mail from the role identity,
# signed off by it, with a diff.
check_mail() {
	local p=$1 f=$2
	head -n 1 "$f" | grep -qE '^From [0-9a-f]{40} ' || problem "$p: not a git format-patch mail (no 'From <sha>' line)"
	grep -qxF "From: $ident" "$f" || problem "$p: From: is not '$ident'"
	grep -q '^Subject: \[PATCH' "$f" || problem "$p: no 'Subject: [PATCH...' header"
	grep -qxF "Signed-off-by: $ident" "$f" || problem "$p: no 'Signed-off-by: $ident'"
	grep -q '^diff --git ' "$f" || problem "$p: contains no diff"
}
# check_series FILE DIR PREFIX: FILE lists its patches (in DIR) once
# each, and each is a mail as above; they are added to "listed" as
# PREFIX<name>.
listed=()
check_series() {
	local s=$1 d=$2 pre=$3 p dup
	local -a ps
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
# An LTS series: a patch of its own must say below --- what differs from
# mainline and why, and must not be a copy of the mainline patch.
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
# Orphans: patch files beside the series files (series, series-*) that
# none of them lists.
mapfile -t all < <(for s in "$(dirname "$SERIES")"/series "$(dirname "$SERIES")"/series-*; do
	[ ! -f "$s" ] || series_patches "$s"
done)
# The series of their own in patches/ (patches/blktests/series), each
# patch listed by its directory's name.
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
# Each thread that make send writes has its cover letter (the LTS series
# is not sent).
if [ -z "$ver" ]; then
	for t in $(series_threads "$SERIES" | cut -d' ' -f1 | uniq | sort | uniq -d); do
		problem "thread $t is in two places of $SERIES: a thread is one stretch of patches"
	done
	rfc=
	for t in $(series_threads "$SERIES" | cut -d' ' -f1 | uniq); do
		[ -f "$PATCHDIR/cover-letter-$t" ] || problem "no cover letter for thread $t at $PATCHDIR/cover-letter-$t"
		# RFC threads come last: the series kernels stop before them.
		if is_rfc_thread "$t"; then
			rfc=$t
		elif [ -n "$rfc" ]; then
			problem "thread $t comes after the RFC thread $rfc in $SERIES: RFC threads come last"
		fi
	done
fi
[ "$bad" -eq 0 ] || exit 1
info "$SERIES: ${#listed[@]} patches, consistent"
