#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# refresh.sh [SERIES] - export the applied branch back into patches/ and
# SERIES with git format-patch: one mail per commit, named after its subject
# (no numbers: the order lives in SERIES).  The series' comment lines (the
# leading block, the "# thread" markers) stay before the N-th patch they
# preceded, and the cover letters are kept.  Refuses while patches/ or SERIES has
# uncommitted edits other than its own last export, so nothing of the
# user's is overwritten and the edit loop can run again and again.
#
# A mail's note below its "---" (which git am drops) is kept from the file
# it replaces.
#
# For an LTS series (series-<V>, BASE=lts) a commit that is the mainline
# patch of the same name (same message, same git patch-id) is listed by
# that name; any other goes to patches/<V>/, keeping the note below its
# "---" (what differs from mainline, and why) from the file it replaces.
# Only files in patches/<V>/ are written or removed then.
set -euo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

SERIES=${1:-${SERIES:-$(bsk_series)}}
PATCHDIR=$(dirname "$SERIES")/patches

sdir=$(dirname "$SERIES")
# "path blob" per uncommitted file of patches/ and SERIES ("-" if deleted).
# After an export it is kept in the cache: those edits are ours.
edits() {
	git -C "$sdir" rev-parse --git-dir >/dev/null 2>&1 || return 0
	git -C "$sdir" status --porcelain -uall -- patches "$(basename "$SERIES")" | cut -c4- |
		while read -r f; do
			printf '%s %s\n' "$f" "$(git -C "$sdir" hash-object "$f" 2>/dev/null || echo -)"
		done | sort
}
ours=$BSK_CACHE/refresh/$(realpath "$SERIES" | sha1sum | cut -c1-16)
mine=$(edits | comm -23 - <(cat "$ours" 2>/dev/null || true))
[ -z "$mine" ] ||
	die "patches/ or $(basename "$SERIES") has uncommitted edits refresh did not write (${mine%% *}); commit or stash them first"

read -r _ wt base < <("$BSK_TOP/tools/env/tree.sh") || exit 1
[ -n "${base:-}" ] || exit 1
[ -d "$wt" ] || die "no applied tree at $wt; run 'make apply' first"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Pin every knob that changes format-patch output, so that the files depend
# only on the commits: no user or system configuration, fixed abbreviation.
GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 \
git -C "$wt" -c core.abbrev=12 -c diff.algorithm=myers -c diff.renames=true \
	format-patch -q --zero-commit --no-signature -N -o "$tmp" "$base..HEAD"

ver=$(series_version "$SERIES")
names=()
for f in "$tmp"/*.patch; do
	[ -e "$f" ] || continue
	n=$(basename "$f")
	n=${n#[0-9][0-9][0-9][0-9]-}
	if [ -n "$ver" ] && [ -f "$PATCHDIR/$n" ] && same_patch "$PATCHDIR/$n" "$f"; then
		rm -f "$f"
		names+=("$n")
		continue
	fi
	[ -z "$ver" ] || n=$ver/$n
	names+=("$n")
	# git am drops what a mail has below its "---": keep it from the file
	# this one replaces (a mainline note for reviewers, or an LTS note)
	if [ -f "$PATCHDIR/$n" ] && [ -z "$(patch_note "$f")" ] &&
		note=$(patch_note "$PATCHDIR/$n") && [ -n "$note" ]; then
		printf '%s\n\n' "$note" >"$tmp/note"
		sed -i "0,/^---\$/{/^---\$/r $tmp/note
}" "$f"
	fi
	mkdir -p "$tmp/$(dirname "$n")"
	mv "$f" "$tmp/$n.new"
done

# Old patches that are no longer in the series go away; the rest are
# replaced.  Only files the old series listed are touched (for an LTS
# series, only those in patches/<V>/).
if [ -f "$SERIES" ]; then
	while read -r old; do
		[ -z "$ver" ] || [ "${old%%/*}" = "$ver" ] || continue
		case " ${names[*]-} " in *" $old "*) ;; *) rm -f "$PATCHDIR/$old" ;; esac
	done < <(series_patches "$SERIES")
	# The comment lines before a patch name (the leading block, the
	# "# thread NAME:" markers) stay before that patch: pre[k] is the
	# block before the old series' k-th patch, anchor[k] that patch.  So
	# a patch added at the end of a thread stays in that thread.
	k=0
	pre=("")
	anchor=()
	while IFS= read -r l || [ -n "$l" ]; do
		if [[ $l =~ ^[[:space:]]*(#|$) ]]; then
			pre[k]+=$l$'\n'
		else
			anchor[k]=$l
			k=$((k + 1))
			pre[k]=
		fi
	done <"$SERIES"
else
	pre=("")
	anchor=()
fi
# Where each block goes: before the patch it preceded if that patch is
# still there; the leading block first; a block whose patch left, by
# position (said, as a thread may have moved).
declare -A block_of=()
placed=()
for ((j = 1; j < ${#anchor[@]}; j++)); do
	case " ${names[*]-} " in
	*" ${anchor[j]} "*) block_of[${anchor[j]}]=${pre[j]} ;;
	*) placed[j]=lost ;;
	esac
done
: >"$tmp/series"
mkdir -p "$PATCHDIR"
k=0
for n in "${names[@]}"; do
	if [ -f "$tmp/$n.new" ]; then
		mkdir -p "$PATCHDIR/$(dirname "$n")"
		mv "$tmp/$n.new" "$PATCHDIR/$n"
	fi
	if [ "$k" -eq 0 ]; then
		# the leading block, then the block of a patch moved to the top
		b=${pre[0]-}${block_of[$n]-}
	elif [ -n "${block_of[$n]+x}" ]; then
		b=${block_of[$n]}
	elif [ "${placed[k]-}" = lost ]; then
		b=${pre[k]}
		placed[k]=used
		[ -z "$b" ] || info "the comment lines before ${anchor[k]}, which left the series, now precede $n: check $(basename "$SERIES")"
	else
		b=
	fi
	printf '%s%s\n' "$b" "$n" >>"$tmp/series"
	k=$((k + 1))
done
# Blocks whose patch left beyond the new end, then the trailing block.
for ((j = 1; j < ${#anchor[@]}; j++)); do
	if [ "${placed[j]-}" = lost ] && [ -n "${pre[j]}" ]; then
		printf '%s' "${pre[j]}" >>"$tmp/series"
		info "the comment lines before ${anchor[j]}, which left the series, moved to its end: check $(basename "$SERIES")"
	fi
done
[ ${#anchor[@]} -eq 0 ] || printf '%s' "${pre[${#anchor[@]}]-}" >>"$tmp/series"
mv "$tmp/series" "$SERIES"
# What is exported may be re-applied by apply.sh without losing anything;
# the next apply re-applies from the new files.
gitdir=$(git -C "$wt" rev-parse --absolute-git-dir)
git -C "$wt" rev-parse HEAD >"$gitdir/bsk-applied"
rm -f "$gitdir/bsk-fingerprint"
mkdir -p "$(dirname "$ours")"
edits >"$ours"
info "exported ${#names[@]} patches from $wt to $PATCHDIR"
