#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# patchcheck.sh TREE BASE SERIES LOGDIR - hold every patch of the series,
# in order, to what maintainers and their CI (netdev's NIPA, the 0-day
# bot) hold it to.  TREE is the applied worktree (clean, on the series
# branch), BASE the commit the series applies to.  Per patch:
#
#   checkpatch   scripts/checkpatch.pl --strict on the patch mail
#   KUnit        every suite present at that point passes (UML, kunit.sh)
#   gcc y, gcc tests
#                x86_64 W=1 builds of block/ (buildcheck.sh): the tests
#                off (the objects are kept for bloat-o-meter), and every
#                suite built in: no warning the previous step did not have
#   clang        BFQ =y with the tests, with a Debian clang meeting the
#                base's minimum LLVM version; "n/a" with the reason when
#                there is none
#   sparse       C=1 on every object the patch makes the tests build rebuild
#   kernel-doc   scripts/kernel-doc -none (-Wall where supported) on the
#                .c/.h files the patch changes: no new warnings
#   SoB          a Signed-off-by: equal to From:
#   Fixes        12+ hex digits and ("subject"); the subject must match
#                when the commit is in the history of FIXES_GIT (a kernel
#                git tree with history; the Debian base has none)
#   Link/Cc      well-formed Link:, Cc: and Closes: trailers
#   recipients   To/Cc from scripts/get_maintainer.pl (the commands b4
#                prep -c runs) on the applied tree, recorded; the row must
#                be in MAINTAINERS-notes as printed, where the tree's
#                MAINTAINERS is the one the notes name (else shown only)
#
# PATCHES=N or N-M checks those patches only (make check STAGES=patches
# PATCHES=5-7): their rows of the table, builds compared from the patch
# before N.  Interrupted (INT, TERM), it stops its background builds and
# waits for them before it checks the branch out again.
# PATCHCHECK_LIGHT=1 leaves out the x86_64 builds (gcc y, gcc tests, clang,
# sparse) and runs KUnit at the last patch only: the light pass the
# default 'make check' gives the LTS series (BASE=lts make check runs the
# whole table there).
# For an LTS series (series-<V>) the recipients are "–": it is not sent
# (see MAINTAINERS-notes, Stable).  The KUnit run
# and the builds of one patch run side by side (each a separate build
# dir), so both cores stay busy while one object compiles.
#
# Writes LOGDIR/checks.md (the patch x check table, also printed and
# copied to $BSK_CACHE/checks-<tree>.md) and LOGDIR/recipients.md.  Last
# line: "N passed, N failed" (KUnit cases plus green cells, red cells).
set -uo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

wt=${1:-}
base=${2:-}
series=${3:-}
logdir=${4:-}
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

# PATCHES=N or N-M: only those patches (their builds compare with the
# patch before N).
first=1
last=${#pfiles[@]}
if [ -n "${PATCHES:-}" ]; then
	[[ $PATCHES =~ ^([1-9][0-9]*)(-([1-9][0-9]*))?$ ]] ||
		die "PATCHES=$PATCHES: give a patch number or a range N-M (1-$last)"
	first=${BASH_REMATCH[1]}
	last=${BASH_REMATCH[3]:-$first}
	{ [ "$first" -ge 1 ] && [ "$first" -le "$last" ] && [ "$last" -le "${#pfiles[@]}" ]; } ||
		die "PATCHES=$PATCHES: $(basename "$series") has patches 1-${#pfiles[@]}"
fi
in_range() { [ "$1" -ge "$first" ] && [ "$1" -le "$last" ]; }

# Background builds run in their own process group (a background job of a
# script ignores SIGINT): on INT or TERM they are stopped and waited for,
# and only then is the branch checked out again (the EXIT trap).
# shellcheck disable=SC2317 # run by the trap
interrupted() {
	trap - INT TERM HUP
	bg_stop
	exit 130
}
trap interrupted INT TERM HUP
trap 'git -C "$wt" checkout -q "$branch"' EXIT

cells=$logdir/cells.tsv
: >"$cells"
kunit_cases=0
# cell I CHECK ok|fail|na TEXT
cell() {
	printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "${4:-}" >>"$cells"
	[ "$3" != fail ] || printf 'FAIL  %s %s: %s\n' "$(basename "${pfiles[$1 - 1]}")" "$2" "${4:-}"
}

# --- on the patch mails, and on the applied tree at the tip ---------------
gm=("$wt/scripts/get_maintainer.pl" --nogit --nogit-fallback --nogit-chief-penguins --norolestats)
# Fixes: tags are checkpatch's own BAD_FIXES_TAG check.  It checks the
# form always, and the quoted subject where GIT_DIR has the commit; where
# GIT_DIR has a history without it (the Debian base is one commit) it
# checks nothing.  So: once with no git dir (the form), and once more with
# FIXES_GIT's (the subject) when it is set.
fixes_gitdir=
if [ -n "${FIXES_GIT:-}" ]; then
	fixes_gitdir=$(git -C "$FIXES_GIT" rev-parse --absolute-git-dir 2>/dev/null) ||
		die "FIXES_GIT=$FIXES_GIT is not a git tree"
fi
fixes_check() { # MAIL GIT_DIR
	(cd "$wt" && GIT_DIR=$2 PATH=/usr/bin:/bin:$PATH scripts/checkpatch.pl --quiet --show-types \
		--types BAD_FIXES_TAG "$1")
}
{
	echo '| patch | To | Cc |'
	echo '|---|---|---|'
} >"$logdir/recipients.md"
# MAINTAINERS-notes' table holds for the MAINTAINERS it was made from (its
# "MAINTAINERS blob" line): on a tree whose MAINTAINERS is another (your
# own, KERNEL=), the rows are made and shown, not compared.
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

	# Debian's python3 first: it has the modules spdxcheck.py needs.  The
	# Debian base is one commit, so the ids Fixes: names are checked below.
	# FILE_PATH_CHANGES ("does MAINTAINERS need updating?") is answered by
	# the recipients cell: get_maintainer.pl must name someone for every
	# file (block/ covers block/tests/; a v1 review asked for no F: line
	# that an existing pattern already covers).
	if (cd "$wt" && PATH=/usr/bin:/bin:$PATH scripts/checkpatch.pl --strict --quiet --show-types \
		--ignore UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES "$p") >"$logdir/checkpatch-$n.log" 2>&1; then
		cell "$n" checkpatch ok
	else
		cat "$logdir/checkpatch-$n.log"
		cell "$n" checkpatch fail "$(grep -cE '^(ERROR|WARNING|CHECK):' "$logdir/checkpatch-$n.log") reports"
	fi

	# Trailers: the commit message part of the mail, up to the first ---.
	msg=$(sed -n '/^$/,$p' "$p" | sed '/^---$/q')
	from=$(sed -n 's/^From: //p' "$p" | head -n 1)
	if grep -qxF "Signed-off-by: $from" <<<"$msg"; then
		cell "$n" SoB ok
	else
		cell "$n" SoB fail "no Signed-off-by: $from"
	fi

	fx=$(grep '^Fixes:' <<<"$msg" || true)
	if [ -z "$fx" ]; then
		cell "$n" Fixes na
	elif ! fixes_check "$p" /nonexistent >"$logdir/fixes-$n.log" 2>&1; then
		cell "$n" Fixes fail "$(grep -m1 -A1 BAD_FIXES_TAG "$logdir/fixes-$n.log" | paste -sd' ')"
	elif [ -n "$fixes_gitdir" ] && ! fixes_check "$p" "$fixes_gitdir" >"$logdir/fixes-$n.log" 2>&1; then
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

	tl=$(grep -E '^(Link|Closes|Cc):' <<<"$msg" || true)
	if [ -z "$tl" ]; then
		cell "$n" Link/Cc na
	else
		bad=$(grep -vE '^(Link|Closes): https?://[^[:space:]]+$' <<<"$tl" |
			grep -vE '^Cc: ([^<>@]+ <[^<>@[:space:]]+@[^<>@[:space:]]+>|<?[^<>@[:space:]]+@[^<>@[:space:]]+>?)( # .+)?$' || true)
		if [ -z "$bad" ]; then cell "$n" Link/Cc ok; else cell "$n" Link/Cc fail "malformed: $(head -n 1 <<<"$bad")"; fi
	fi

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
	elif [ -n "$gm_other" ]; then
		cell "$n" recipients ok "$(($(tr -cd ',' <<<"$to, $cc" | wc -c) + 1)) addresses; $gm_other"
	elif [ -f "$notes" ] && ! grep -qxF -- "$row" "$notes"; then
		cell "$n" recipients fail "MAINTAINERS-notes lacks: $row"
	else
		cell "$n" recipients ok "$(($(tr -cd ',' <<<"$to, $cc" | wc -c) + 1)) addresses"
	fi
done

# --- builds: the base, then each patch -------------------------------------
modes=(y t clang)
light=${PATCHCHECK_LIGHT:-0}
[ "$light" = 0 ] || modes=()
declare -A skip=()
build_step() { # STEP: build every mode at the checked-out commit, side by side
	local m rc
	declare -A pid=()
	for m in "${modes[@]}"; do
		[ -z "${skip[$m]:-}" ] || continue
		setsid "$BSK_TOP/tools/gate/buildcheck.sh" "$m" "$wt" "$logdir/state/$m-$1" 2>"$logdir/build-$m-$1.err" &
		pid[$m]=$!
		BSK_BG+=($!)
	done
	for m in "${modes[@]}"; do
		[ -n "${pid[$m]:-}" ] || continue
		rc=0
		wait "${pid[$m]}" || rc=$?
		if [ "$m" = clang ] && [ "$rc" -eq 2 ]; then
			skip[$m]=$(sed 's/^clang.sh: //' "$logdir/build-$m-$1.err")
			info "clang: n/a: ${skip[$m]}"
		elif [ "$rc" -ne 0 ]; then
			cat "$logdir/build-$m-$1.err" >&2
			rm -rf "$logdir/state/$m-$1".*
		fi
	done
}

# new_lines OLD NEW: lines of NEW not in OLD (as multisets).
new_lines() {
	LC_ALL=C comm -13 "$1" "$2"
}

# kunit_cell N RC: the KUnit cell of patch N from its kunit.sh log.
kunit_cell() {
	local line kp kf
	line=$(tail -n 1 "$logdir/kunit-$1.log")
	kp=
	kf=
	read -r kp kf _ < <(counts_of "$line")
	kunit_cases=$((kunit_cases + ${kp:-0}))
	if [ "$2" -eq 0 ] && [ "${kf:-1}" -eq 0 ]; then
		cell "$1" KUnit ok "${kp} cases"
	else
		grep -E 'FAILED|CRASHED|error' "$logdir/kunit-$1.log" | head -n 20
		cell "$1" KUnit fail "${line:-no result} (see $logdir/kunit-$1.log)"
	fi
	info "KUnit: ${line}"
}

# The builds start from the base, or from the patch before the first one
# checked.
z=$((first - 1))
if [ "$z" -eq 0 ]; then
	git -C "$wt" checkout -q --detach "$base"
else
	git -C "$wt" checkout -q --detach "${commits[$z - 1]}"
fi
t=$SECONDS
build_step "$z"
BSK_BG=()
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
	git -C "$wt" checkout -q --detach "$c"
	info "patch $n/${#commits[@]}: $(git -C "$wt" log -1 --format=%s "$c")"

	t=$SECONDS
	if [ "$light" != 0 ] && [ "$n" -lt "$last" ]; then
		cell "$n" KUnit na
	elif [ ! -f "$wt/block/tests/.kunitconfig" ]; then
		# A fix that comes before the first suite: nothing to run yet
		# (its builds are the x86_64 cells).
		cell "$n" KUnit na "no suite yet"
		build_step "$n"
	else
		KUNIT_OUT=$logdir/kunit-$n setsid "$BSK_TOP/tools/kunit.sh" "$wt" >"$logdir/kunit-$n.log" 2>&1 &
		kpid=$!
		BSK_BG+=($!)
		build_step "$n"
		rc=0
		wait "$kpid" || rc=$?
		info "KUnit${modes[*]:+ and x86_64 builds}: $((SECONDS - t))s"
		kunit_cell "$n" "$rc"
	fi
	BSK_BG=()	# all waited for: no pid of theirs may be signalled later


	for m in "${modes[@]}"; do
		col="gcc $m"
		[ "$m" != t ] || col="gcc tests"
		[ "$m" != clang ] || col=clang
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
		if [ ! -f "$prev.cc" ]; then
			# The previous step did not build: compare with the start.
			prev=$logdir/state/$m-$z
		fi
		{
			new_lines "$prev.cc" "$cur.cc"
			new_lines "$logdir/state/$m-seen.other" "$cur.other"
		} >"$logdir/new-$m-$n.txt"
		LC_ALL=C sort -u "$logdir/state/$m-seen.other" "$cur.other" -o "$logdir/state/$m-seen.other"
		if [ -s "$logdir/new-$m-$n.txt" ]; then
			cat "$logdir/new-$m-$n.txt"
			cell "$n" "$col" fail "$(wc -l <"$logdir/new-$m-$n.txt") new warnings"
		else
			cell "$n" "$col" ok
		fi
		if [ "$m" = t ] && [ -f "$cur.sparse-na" ]; then
			cell "$n" sparse na "$(cat "$cur.sparse-na")"
		elif [ "$m" = t ]; then
			new_lines "$prev.sparse" "$cur.sparse" >"$logdir/new-sparse-$n.txt"
			if [ -s "$logdir/new-sparse-$n.txt" ]; then
				cat "$logdir/new-sparse-$n.txt"
				cell "$n" sparse fail "$(wc -l <"$logdir/new-sparse-$n.txt") new warnings"
			else
				cell "$n" sparse ok "$(wc -l <"$cur.sparse") before and after"
			fi
		fi
	done

	# kernel-doc on both sides of the patch, files at their tree paths.
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
	elif [ -s "$logdir/new-kdoc-$n.txt" ]; then
		cat "$logdir/new-kdoc-$n.txt"
		cell "$n" kernel-doc fail "$(wc -l <"$logdir/new-kdoc-$n.txt") new warnings"
	else
		cell "$n" kernel-doc ok "${kdoc_wall[*]}"
	fi
	rm -rf "$kd"
done
git -C "$wt" checkout -q "$branch"

# --- the table ---------------------------------------------------------------
cols=(checkpatch KUnit)
[ ${#modes[@]} -eq 0 ] || cols+=("gcc y" "gcc tests" clang sparse)
cols+=(kernel-doc SoB Fixes Link/Cc recipients)
{
	printf '| # | patch |'
	printf ' %s |' "${cols[@]}"
	printf '\n|---|---|'
	printf -- '---|%.0s' "${cols[@]}"
	printf '\n'
	for i in "${!pfiles[@]}"; do
		n=$((i + 1))
		in_range "$n" || continue
		printf '| %s | %s |' "$n" "$(git -C "$wt" log -1 --format=%s "${commits[$i]}")"
		for col in "${cols[@]}"; do
			r=$(awk -F'\t' -v n="$n" -v c="$col" '$1 == n && $2 == c { print $3 }' "$cells" | head -n 1)
			case $r in
			ok) s="✓" ;;
			fail) s="✗" ;;
			na) s="–" ;;
			*) s="✗ (not run)" ;;
			esac
			[ "$col" != KUnit ] || [ "$r" != ok ] ||
				s="✓ $(awk -F'\t' -v n="$n" '$1 == n && $2 == "KUnit" { print $4 }' "$cells" | cut -d' ' -f1)"
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
# The cache keeps the last whole table (PATCHES= gives part of one).
if [ "$first:$last" = "1:${#pfiles[@]}" ]; then
	mkdir -p "$BSK_CACHE"
	cp "$logdir/checks.md" "$BSK_CACHE/checks-$(basename "$wt").md"
fi
cat "$logdir/checks.md"

ok=$(awk -F'\t' '$3 == "ok" && $2 != "KUnit"' "$cells" | wc -l)
bad=$(awk -F'\t' '$3 == "fail"' "$cells" | wc -l)
# A cell that never got a result is red too.
want=$(( (last - first + 1) * ${#cols[@]} ))
got=$(wc -l <"$cells")
[ "$got" -ge "$want" ] || bad=$((bad + want - got))
printf '%s passed, %s failed\n' "$((kunit_cases + ok))" "$bad"
[ "$bad" -eq 0 ]
