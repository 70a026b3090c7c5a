#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# refresh.sh [SERIES] - 'make refresh': export the applied branch back into patches/ and
# SERIES, comments and notes below "---" kept (LTS patches: patches/<V>/); docs/bases.md.
set -euo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

SERIES=${1:-${SERIES:-$(bsk_series)}}
PATCHDIR=$(dirname "$SERIES")/patches

sdir=$(dirname "$SERIES")
# "path blob" per uncommitted file of patches/ and SERIES ("-": deleted); recorded
# after an export, so that refresh can tell its own edits from the user's
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
# no user config: the output depends on the commits only
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
	# keep the note below "---" (git am drops it) from the file replaced
	if [ -f "$PATCHDIR/$n" ] && [ -z "$(patch_note "$f")" ] &&
		note=$(patch_note "$PATCHDIR/$n") && [ -n "$note" ]; then
		printf '%s\n\n' "$note" >"$tmp/note"
		sed -i "0,/^---\$/{/^---\$/r $tmp/note
}" "$f"
	fi
	mkdir -p "$tmp/$(dirname "$n")"
	mv "$f" "$tmp/$n.new"
done

# patches no longer in the series go; only those the old series listed
pre=("") anchor=()
declare -A note=() # what follows a patch's name on its line ("# blktests: block/048")
if [ -f "$SERIES" ]; then
	while read -r old; do
		[ -z "$ver" ] || [ "${old%%/*}" = "$ver" ] || continue
		case " ${names[*]-} " in *" $old "*) ;; *) rm -f "$PATCHDIR/$old" ;; esac
	done < <(series_patches "$SERIES")
	# pre[k]: the comment block before the old series' k-th patch anchor[k]
	k=0
	while IFS= read -r l || [ -n "$l" ]; do
		if [[ $l =~ ^[[:space:]]*(#|$) ]]; then
			pre[k]+=$l$'\n'
		else
			anchor[k]=${l%%[[:space:]]*}
			note[${anchor[k]}]=${l#"${anchor[k]}"}
			pre[++k]=
		fi
	done <"$SERIES"
fi
# a comment block stays before its patch, else (said) takes its position
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
	printf '%s%s%s\n' "$b" "$n" "${note[$n]-}" >>"$tmp/series"
	k=$((k + 1))
done
for ((j = 1; j < ${#anchor[@]}; j++)); do
	if [ "${placed[j]-}" = lost ] && [ -n "${pre[j]}" ]; then
		printf '%s' "${pre[j]}" >>"$tmp/series"
		info "the comment lines before ${anchor[j]}, which left the series, moved to its end: check $(basename "$SERIES")"
	fi
done
[ ${#anchor[@]} -eq 0 ] || printf '%s' "${pre[${#anchor[@]}]-}" >>"$tmp/series"
mv "$tmp/series" "$SERIES"
# apply.sh may take what is exported as applied
gitdir=$(git -C "$wt" rev-parse --absolute-git-dir)
git -C "$wt" rev-parse HEAD >"$gitdir/bsk-applied"
rm -f "$gitdir/bsk-fingerprint"
mkdir -p "$(dirname "$ours")"
edits >"$ours"
info "exported ${#names[@]} patches from $wt to $PATCHDIR"
