#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# patchcheck.sh TREE BASE SERIES LOGDIR - each patch against what maintainers' CI
# checks, a table in LOGDIR/checks.md (docs/gate.md, "per-patch checks").
set -uo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

wt=${1:-} base=${2:-} series=${3:-} logdir=${4:-}
{ [ -d "$wt" ] && [ -f "$series" ] && [ -n "$logdir" ]; } ||
	die "usage: patchcheck.sh TREE BASE SERIES LOGDIR"
[ -z "$(git -C "$wt" status --porcelain --untracked-files=no)" ] || die "$wt has uncommitted changes"
pdir=$(cd "$(dirname "$series")" && pwd)/patches
notes=$BSK_TOP/MAINTAINERS-notes
ver=$(series_version "$series")
mkdir -p "$logdir/state"
mapfile -t pfiles < <(series_patches "$series")
mapfile -t commits < <(git -C "$wt" rev-list --reverse "$base..HEAD")
[ "${#pfiles[@]}" -eq "${#commits[@]}" ] ||
	die "$series lists ${#pfiles[@]} patches but $wt has ${#commits[@]} commits on $base"
tip=$(git -C "$wt" rev-parse HEAD)
branch=$(git -C "$wt" symbolic-ref -q --short HEAD || echo "$tip")

read -r first last < <(patch_range "${#pfiles[@]}" "$(basename "$series")") || exit 1
in_range() { [ "$1" -ge "$first" ] && [ "$1" -le "$last" ]; }

# the builds (process groups of their own) stopped before the branch is back
trap 'trap - INT TERM HUP; bg_stop; exit 130' INT TERM HUP
trap 'git -C "$wt" checkout -q "$branch"' EXIT

cells=$logdir/cells.tsv
: >"$cells"
kunit_cases=0
cell() { # I CHECK ok|fail|na TEXT
	printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "${4:-}" >>"$cells"
	[ "$3" != fail ] || printf 'FAIL  %s %s: %s\n' "$(basename "${pfiles[$1 - 1]}")" "$2" "${4:-}"
}
new_lines() { LC_ALL=C comm -13 "$1" "$2"; } # OLD NEW: lines of NEW not in OLD
new_cell() { # I CHECK FILE [TEXT]: red with FILE's new warnings, or green
	if [ -s "$3" ]; then
		cat "$3"
		cell "$1" "$2" fail "$(wc -l <"$3") new warnings"
	else
		cell "$1" "$2" ok "${4:-}"
	fi
}

gm=("$wt/scripts/get_maintainer.pl" --nogit --nogit-fallback --nogit-chief-penguins --norolestats)
# BAD_FIXES_TAG needs the commit's history (not the Debian base's): the form, then FIXES_GIT's.
fixes_gitdir=
if [ -n "${FIXES_GIT:-}" ]; then
	fixes_gitdir=$(git -C "$FIXES_GIT" rev-parse --absolute-git-dir 2>/dev/null) ||
		die "FIXES_GIT=$FIXES_GIT is not a git tree"
fi
fixes_check() { # MAIL GIT_DIR
	(cd "$wt" && GIT_DIR=$2 PATH=/usr/bin:/bin:$PATH scripts/checkpatch.pl --quiet --show-types \
		--types BAD_FIXES_TAG "$1")
}
printf '| patch | To | Cc |\n|---|---|---|\n' >"$logdir/recipients.md"
# the notes' rows hold for their "MAINTAINERS blob" only (not KERNEL='s)
gm_other=
rec_blob=$(sed -n 's/.*MAINTAINERS blob \([0-9a-f]\{40\}\).*/\1/p' "$notes" 2>/dev/null | head -n 1)
cur_blob=$(git -C "$wt" rev-parse -q --verify "$base:MAINTAINERS" 2>/dev/null || true)
if [ -n "$rec_blob" ] && [ "$cur_blob" != "$rec_blob" ]; then
	gm_other="this tree's MAINTAINERS is not the one MAINTAINERS-notes' table was made from: not compared (see recipients.md)"
fi
for i in "${!pfiles[@]}"; do
	n=$((i + 1))
	in_range "$n" || continue
	p=$pdir/${pfiles[$i]}
	subj=$(git -C "$wt" log -1 --format=%s "${commits[$i]}")

	# Debian's python3 for spdxcheck.py; FILE_PATH_CHANGES is the recipients cell's
	if (cd "$wt" && PATH=/usr/bin:/bin:$PATH scripts/checkpatch.pl --strict --quiet --show-types \
		--ignore UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES "$p") >"$logdir/checkpatch-$n.log" 2>&1; then
		cell "$n" checkpatch ok
	else
		cat "$logdir/checkpatch-$n.log"
		cell "$n" checkpatch fail "$(grep -cE '^(ERROR|WARNING|CHECK):' "$logdir/checkpatch-$n.log") reports"
	fi

	# Signed-off-by and Cc: are checkpatch's (MISSING_SIGN_OFF, NO_AUTHOR_SIGN_OFF, BAD_SIGN_OFF)
	msg=$(sed -n '/^$/,$p' "$p" | sed '/^---$/q')

	fx=$(grep '^Fixes:' <<<"$msg" || true)
	if [ -z "$fx" ]; then
		cell "$n" Fixes na
	elif ! fixes_check "$p" /nonexistent >"$logdir/fixes-$n.log" 2>&1 ||
		{ [ -n "$fixes_gitdir" ] && ! fixes_check "$p" "$fixes_gitdir" >"$logdir/fixes-$n.log" 2>&1; }; then
		cell "$n" Fixes fail "$(grep -m1 -A1 BAD_FIXES_TAG "$logdir/fixes-$n.log" | paste -sd' ')"
	else
		note=
		mapfile -t ids < <(sed -n 's/^Fixes: \([0-9a-f]*\) .*/\1/p' <<<"$fx")
		for id in "${ids[@]}"; do
			if [ -n "$fixes_gitdir" ] && GIT_DIR=$fixes_gitdir git cat-file -e "$id^{commit}" 2>/dev/null; then
				note+="${note:+; }$id: subject checked"
			else
				note+="${note:+; }$id: form checked, not in the history of ${FIXES_GIT:-the base} (set FIXES_GIT)"
			fi
		done
		cell "$n" Fixes ok "$note"
	fi

	tl=$(grep -E '^(Link|Closes):' <<<"$msg" || true)
	bad=$(grep -vE '^(Link|Closes): https?://[^[:space:]]+$' <<<"$tl" || true)
	if [ -z "$tl" ]; then cell "$n" Link na; elif [ -z "$bad" ]; then cell "$n" Link ok; else cell "$n" Link fail "not a URL: $(head -n 1 <<<"$bad")"; fi

	if [ -n "$ver" ]; then
		cell "$n" recipients na
		continue
	fi
	to=$(cd "$wt" && "${gm[@]}" --nol "$p" 2>"$logdir/gm-$n.err" | paste -sd, | sed 's/,/, /g')
	cc=$(cd "$wt" && "${gm[@]}" --nom "$p" 2>>"$logdir/gm-$n.err" | paste -sd, | sed 's/,/, /g')
	row="| $subj | $to | $cc |"
	printf '%s\n' "$row" >>"$logdir/recipients.md"
	if [ -z "$to$cc" ]; then
		cell "$n" recipients fail "get_maintainer.pl found nobody ($(head -n 1 "$logdir/gm-$n.err"))"
	elif [ -z "$gm_other" ] && [ -f "$notes" ] && ! grep -qxF -- "$row" "$notes"; then
		cell "$n" recipients fail "MAINTAINERS-notes lacks: $row"
	else
		cell "$n" recipients ok "$(($(tr -cd ',' <<<"$to, $cc" | wc -c) + 1)) addresses${gm_other:+; $gm_other}"
	fi
done

modes=(y t clang)
light=${CHECK_LIGHT:-0}
[ "$light" = 0 ] || modes=()
# clang and sparse for this tree (installed if need be), or why not: their cells are then "–".
declare -A skip=() tool=()
sparse_na=
if [ ${#modes[@]} -gt 0 ]; then
	tool[clang]=$("$BSK_TOP/tools/gate/clang.sh" "$wt") || { [ -n "${tool[clang]}" ] || exit 1; skip[clang]=${tool[clang]}; }
	tool[t]=$("$BSK_TOP/tools/gate/sparse.sh" "$wt") || { [ -n "${tool[t]}" ] || exit 1; sparse_na=${tool[t]} tool[t]=; }
fi
build_step() { # STEP: build every mode at the checked-out commit, side by side
	local m
	declare -A pid=()
	for m in "${modes[@]}"; do
		[ -z "${skip[$m]:-}" ] || continue
		bg "$BSK_TOP/tools/gate/buildcheck.sh" "$m" "$wt" "$logdir/state/$m-$1" ${tool[$m]:+"${tool[$m]}"} \
			2>"$logdir/build-$m-$1.err"
		pid[$m]=$!
	done
	for m in "${!pid[@]}"; do
		bg_wait "${pid[$m]}" || { cat "$logdir/build-$m-$1.err" >&2; rm -rf "$logdir/state/$m-$1".*; }
	done
}

kunit_cell() { # N RC: the KUnit cell of patch N from the counts kunit.sh wrote
	local kp=0 kf=1 ks=0
	[ ! -s "$logdir/kunit-$1.counts" ] || read -r kp kf ks <"$logdir/kunit-$1.counts"
	kunit_cases=$((kunit_cases + kp))
	if [ "$2" -eq 0 ] && [ "$kf" -eq 0 ]; then
		cell "$1" KUnit ok "$kp cases"
	else
		tail -n 20 "$logdir/kunit-$1.log"
		cell "$1" KUnit fail "$kp passed, $kf failed, $ks skipped (see $logdir/kunit-$1.log)"
	fi
	info "KUnit: $kp passed, $kf failed, $ks skipped"
}

# the builds start from the patch before the first one checked
z=$((first - 1))
git -C "$wt" checkout -q --detach "$( [ "$z" -eq 0 ] && echo "$base" || echo "${commits[$z - 1]}")" || die "cannot check out the patch before $first in $wt"
t=$SECONDS
build_step "$z"
[ ${#modes[@]} -eq 0 ] || info "builds before patch $first: $((SECONDS - t))s"
for m in "${modes[@]}"; do
	[ -n "${skip[$m]:-}" ] || [ -f "$logdir/state/$m-$z.cc" ] ||
		die "the x86_64 $m build before patch $first failed (see $logdir/build-$m-$z.err)"
	[ -n "${skip[$m]:-}" ] || cp "$logdir/state/$m-$z.other" "$logdir/state/$m-seen.other"
done

kdoc_wall=()
kdoc=$wt/scripts/kernel-doc
[ -e "$kdoc" ] || kdoc=$wt/scripts/kernel-doc.pl
! "$kdoc" -h 2>&1 | grep -q -- '-Wall' || kdoc_wall=(-Wall)

for i in "${!commits[@]}"; do
	n=$((i + 1))
	in_range "$n" || continue
	c=${commits[$i]}
	git -C "$wt" checkout -q --detach "$c" || die "cannot check out patch $n in $wt"
	info "patch $n/${#commits[@]}: $(git -C "$wt" log -1 --format=%s "$c")"

	t=$SECONDS
	if [ "$light" != 0 ] && [ "$n" -lt "$last" ]; then
		cell "$n" KUnit na
	elif [ ! -f "$wt/block/tests/.kunitconfig" ]; then
		cell "$n" KUnit na "no suite yet"
		build_step "$n"
	else
		KUNIT_OUT=$logdir/kunit-$n BSK_COUNTS=$logdir/kunit-$n.counts bg "$BSK_TOP/tools/kunit.sh" "$wt" >"$logdir/kunit-$n.log" 2>&1
		kpid=$!
		build_step "$n"
		rc=0
		bg_wait "$kpid" || rc=$?
		info "KUnit${modes[*]:+ and x86_64 builds}: $((SECONDS - t))s"
		kunit_cell "$n" "$rc"
	fi

	for m in "${modes[@]}"; do
		col=${m/#t/gcc tests}
		col=${col/#y/gcc y}
		if [ -n "${skip[$m]:-}" ]; then
			cell "$n" "$col" na "${skip[$m]}"
			continue
		fi
		cur=$logdir/state/$m-$n
		prev=$logdir/state/$m-$i
		if [ ! -f "$cur.cc" ]; then
			cell "$n" "$col" fail "build failed (see $logdir/build-$m-$n.err)"
			[ "$m" != t ] || cell "$n" sparse fail "no build"
			continue
		fi
		[ -f "$prev.cc" ] || prev=$logdir/state/$m-$z
		{
			new_lines "$prev.cc" "$cur.cc"
			new_lines "$logdir/state/$m-seen.other" "$cur.other"
		} >"$logdir/new-$m-$n.txt"
		LC_ALL=C sort -u "$logdir/state/$m-seen.other" "$cur.other" -o "$logdir/state/$m-seen.other"
		new_cell "$n" "$col" "$logdir/new-$m-$n.txt"
		if [ "$m" = t ] && [ -n "$sparse_na" ]; then
			cell "$n" sparse na "$sparse_na"
		elif [ "$m" = t ]; then
			new_lines "$prev.sparse" "$cur.sparse" >"$logdir/new-sparse-$n.txt"
			new_cell "$n" sparse "$logdir/new-sparse-$n.txt" "$(wc -l <"$cur.sparse") before and after"
		fi
	done

	mapfile -t files < <(git -C "$wt" diff --name-only "$c^" "$c" -- '*.c' '*.h')
	kd=$(mktemp -d)
	for side in old new; do
		rev=$c
		[ "$side" = new ] || rev=$c^
		mkdir -p "$kd/$side"
		for f in "${files[@]}"; do
			git -C "$wt" cat-file -e "$rev:$f" 2>/dev/null || continue
			mkdir -p "$kd/$side/$(dirname "$f")"
			git -C "$wt" show "$rev:$f" >"$kd/$side/$f"
			(cd "$kd/$side" && "$kdoc" -none "${kdoc_wall[@]}" "$f") 2>&1 |
				sed -E 's/:[0-9]+([: ]|$)/\1/g; s/ line [0-9]+/ line/' >>"$kd/$side.log"
		done
		LC_ALL=C sort -o "$kd/$side.log" "$kd/$side.log" 2>/dev/null || : >"$kd/$side.log"
	done
	new_lines "$kd/old.log" "$kd/new.log" >"$logdir/new-kdoc-$n.txt"
	if [ ${#files[@]} -eq 0 ]; then
		cell "$n" kernel-doc na "no .c/.h change"
	else
		new_cell "$n" kernel-doc "$logdir/new-kdoc-$n.txt" "${kdoc_wall[*]}"
	fi
	rm -rf "$kd"
done
git -C "$wt" checkout -q "$branch"

cols=(checkpatch KUnit)
[ ${#modes[@]} -eq 0 ] || cols+=("gcc y" "gcc tests" clang sparse)
cols+=(kernel-doc Fixes Link recipients)
{
	printf '| # | patch |%s\n|---|---|%s\n' "$(printf ' %s |' "${cols[@]}")" "$(printf -- '---|%.0s' "${cols[@]}")"
	for i in "${!pfiles[@]}"; do
		n=$((i + 1))
		in_range "$n" || continue
		printf '| %s | %s |' "$n" "$(git -C "$wt" log -1 --format=%s "${commits[$i]}")"
		for col in "${cols[@]}"; do
			IFS=$'\t' read -r r note < <(awk -F'\t' -v n="$n" -v c="$col" '$1 == n && $2 == c { print $3 "\t" $4; exit }' "$cells")
			case $r in
			ok) s="✓" ;;
			fail) s="✗" ;;
			na) s="–" ;;
			*) s="✗ (not run)" ;;
			esac
			[ "$col" != KUnit ] || [ "$r" != ok ] || s="✓ ${note%% *}"
			printf ' %s |' "$s"
		done
		printf '\n'
	done
	echo
	echo '✓ pass, ✗ fail, – not applicable.  Notes:'
	awk -F'\t' '($3 == "fail" || ($3 == "na" && $2 != "clang" && $2 != "sparse" && $4 != "") || $2 == "Fixes") && $4 != "" {
		printf "- %s %s: %s%s\n", $1, $2, ($3 == "fail" ? "FAIL: " : ""), $4 }' "$cells"
	[ -z "${skip[clang]:-}" ] || printf -- '- clang: n/a for every patch: %s\n' "${skip[clang]}"
	awk -F'\t' '$2 == "sparse" && $3 == "na" { printf "- sparse: n/a: %s\n", $4; exit }' "$cells"
	[ "$first:$last" = "1:${#pfiles[@]}" ] || printf -- '- patches %s-%s only (PATCHES=%s)\n' "$first" "$last" "$PATCHES"
	[ "$light" = 0 ] || printf -- '- KUnit: at the last patch only (light pass; BASE=... make check runs it after every patch)\n'
	[ -z "$ver" ] || printf -- '- recipients: – for every patch: the %s series is not sent (MAINTAINERS-notes, Stable)\n' "$ver"
} >"$logdir/checks.md"
if [ "$first:$last" = "1:${#pfiles[@]}" ]; then
	mkdir -p "$BSK_CACHE"
	cp "$logdir/checks.md" "$BSK_CACHE/checks-$(basename "$wt").md"
fi
cat "$logdir/checks.md"

ok=$(awk -F'\t' '$3 == "ok" && $2 != "KUnit"' "$cells" | wc -l)
bad=$(awk -F'\t' '$3 == "fail"' "$cells" | wc -l)
# a cell that never got a result is red too
want=$(( (last - first + 1) * ${#cols[@]} ))
got=$(wc -l <"$cells")
[ "$got" -ge "$want" ] || bad=$((bad + want - got))
counts_line "$((kunit_cases + ok))" "$bad" 0
[ "$bad" -eq 0 ]
