#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# refresh.sh [SERIES] - export the applied branch back into patches/ and
# SERIES with git format-patch: one mail per commit, named after its subject
# (no numbers: the order lives in SERIES).  The series' leading comment block
# and the cover letter are kept.  Refuses while patches/ or SERIES has
# uncommitted edits, so nothing of the user's is overwritten.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

SERIES=${1:-${SERIES:-$BSK_TOP/series}}
PATCHDIR=$(dirname "$SERIES")/patches

sdir=$(dirname "$SERIES")
if git -C "$sdir" rev-parse --git-dir >/dev/null 2>&1 &&
   [ -n "$(git -C "$sdir" status --porcelain -- patches "$(basename "$SERIES")")" ]; then
	die "patches/ or $(basename "$SERIES") has uncommitted edits; commit or stash them first"
fi

read -r _ wt base < <("$BSK_TOP/tools/tree.sh") || exit 1
[ -n "${base:-}" ] || exit 1
[ -d "$wt" ] || die "no applied tree at $wt; run 'make apply' first"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Pin every knob that changes format-patch output, so that the files depend
# only on the commits: no user or system configuration, fixed abbreviation.
GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 \
git -C "$wt" -c core.abbrev=12 -c diff.algorithm=myers -c diff.renames=true \
	format-patch -q --zero-commit --no-signature -N -o "$tmp" "$base..HEAD"

names=()
for f in "$tmp"/*.patch; do
	[ -e "$f" ] || continue
	n=$(basename "$f")
	n=${n#[0-9][0-9][0-9][0-9]-}
	names+=("$n")
	mv "$f" "$tmp/$n.new"
done

# Old patches that are no longer in the series go away; the rest are
# replaced.  Only files the old series listed are touched.
if [ -f "$SERIES" ]; then
	while read -r old; do
		case " ${names[*]-} " in *" $old "*) ;; *) rm -f "$PATCHDIR/$old" ;; esac
	done < <(series_patches "$SERIES")
	# the comment block before the first patch name
	sed -n '/^[^#[:space:]]/q; p' "$SERIES" >"$tmp/series"
else
	: >"$tmp/series"
fi
mkdir -p "$PATCHDIR"
for n in "${names[@]}"; do
	mv "$tmp/$n.new" "$PATCHDIR/$n"
	printf '%s\n' "$n" >>"$tmp/series"
done
mv "$tmp/series" "$SERIES"
# What is exported may be re-applied by apply.sh without losing anything;
# the next apply re-applies from the new files.
gitdir=$(git -C "$wt" rev-parse --absolute-git-dir)
git -C "$wt" rev-parse HEAD >"$gitdir/bsk-applied"
rm -f "$gitdir/bsk-fingerprint"
info "exported ${#names[@]} patches from $wt to $PATCHDIR"
