#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# send.sh - 'make send', a b4 dry run that never sends (docs/sending.md): a thread per "# thread NAME:"
# of the series in SEND_OUT/<i>-<thread>/, then the reports and the blktests thread; prints SEND_OUT.
#   FROM='Name <addr>'  SEND_OUT=dir  REV=N  BSK_SEND_NAME=name
set -euo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

if [ -n "${FROM:-}" ]; then
	[[ $FROM =~ ^([^\<\>]*[^\<\>[:space:]])[[:space:]]*\<([^\<\>[:space:]]+@[^\<\>[:space:]]+)\>$ ]] ||
		die "FROM='$FROM' is not 'Your Name <you@example.org>'"
	name=${BASH_REMATCH[1]}
	email=${BASH_REMATCH[2]}
else
	name=$(git config user.name || true)
	email=$(git config user.email || true)
	{ [ -n "$name" ] && [ -n "$email" ]; } ||
		die "no sender: run git config --global user.name 'Your Name'; git config --global user.email you@example.org (or set FROM='Your Name <you@example.org>')"
fi
case ${email,,} in
*.invalid | *@localhost | *.localdomain)
	die "$email is not an address the list can reach: the mails need your own as author and Signed-off-by (FROM='Your Name <you@example.org>')" ;;
esac
[ "${BASE:-mainline}" != lts ] ||
	die "series-$BSK_LTS_SERIES is not sent (MAINTAINERS-notes, \"Stable\"); make send posts the mainline series"
b4=$("$BSK_TOP/tools/env/b4.sh") || exit 1
PATH=$(dirname "$b4"):$PATH
notes=$BSK_TOP/MAINTAINERS-notes
series=$(bsk_series)

rev=${REV:-$(sed -n 's/^v\([0-9][0-9]*\) (.*/\1/p' "$notes" 2>/dev/null | sort -n | tail -n 1)}
[[ ${rev:-} =~ ^[1-9][0-9]*$ ]] ||
	die "no revision: MAINTAINERS-notes' revision log has no 'vN (date, ...)' line (or set REV=N)"

mapfile -t tp < <(series_threads "$series")
[ "${#tp[@]}" -gt 0 ] || die "$series lists no patch"
mapfile -t threads < <(printf '%s\n' "${tp[@]%% *}" | uniq)
for t in "${threads[@]}"; do
	[ -f "$BSK_TOP/patches/cover-letter-$t" ] || die "no cover letter for thread $t: patches/cover-letter-$t"
done
[ "$(printf '%s\n' "${threads[@]}" | sort | uniq -d)" = "" ] ||
	die "a thread is in two places of $series (tools/gate/lint-series.sh)"

if [ -n "${SEND_OUT:-}" ] && [ -e "$SEND_OUT" ] && { [ ! -d "$SEND_OUT" ] || [ -n "$(ls -A "$SEND_OUT")" ]; }; then
	die "SEND_OUT=$SEND_OUT is not an empty directory; remove it or choose another"
fi

"$BSK_TOP/tools/apply.sh" >/dev/null
read -r repo wt base < <("$BSK_TOP/tools/env/tree.sh")
tag=$(basename "$wt")
sname=${BSK_SEND_NAME:-$BSK_BRANCH}
out=${SEND_OUT:-$BSK_TOP/results/outgoing/$tag-v$rev}
if [ -z "${SEND_OUT:-}" ] && [ -d "$out" ] && [ -z "$(find "$out" -mindepth 1 ! -name '*.eml' ! -type d)" ]; then
	rm -rf "$out" # an earlier dry run of ours, in our default place
fi
[ -z "$(ls -A "$out" 2>/dev/null)" ] || die "$out is not empty; remove it or set SEND_OUT to another directory"

mapfile -t commits < <(git -C "$repo" rev-list --reverse "$base..$BSK_BRANCH")
[ "${#commits[@]}" -eq "${#tp[@]}" ] ||
	die "$BSK_BRANCH has ${#commits[@]} commits on $base, $series lists ${#tp[@]} patches"
pkg=$(git -C "$repo" log -1 --format=%b "$base" | sed -n 's/^Debian package \([^ ]* [^ ,]*\).*/\1/p')

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# git and b4 as the sender; SMTP /bin/false keeps b4 off its web endpoint
export GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$email
export GIT_CONFIG_COUNT=4 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0=$name \
	GIT_CONFIG_KEY_1=user.email GIT_CONFIG_VALUE_1=$email \
	GIT_CONFIG_KEY_2=sendemail.smtpserver GIT_CONFIG_VALUE_2=/bin/false \
	GIT_CONFIG_KEY_3=commit.gpgsign GIT_CONFIG_VALUE_3=false

i=0
for t in "${threads[@]}"; do
	i=$((i + 1))
	b4name=$sname-$t
	b4branch=b4/$b4name
	wip=$b4branch-wip
	swt=$BSK_CACHE/send/$tag-$b4name
	mine=()
	for j in "${!tp[@]}"; do [ "${tp[j]%% *}" != "$t" ] || mine+=("${commits[j]}"); done
	rfc=
	! is_rfc_thread "$t" || rfc=RFC

	# the b4 branch's cover commit holds the revisions before (change-id, sent tags)
	cover_commit=
	if git -C "$repo" rev-parse -q --verify "refs/heads/$b4branch" >/dev/null; then
		cover_commit=$(git -C "$repo" log -1 --format=%H -F --grep='--- b4-submit-tracking ---' "$b4branch")
	fi
	[ ! -e "$swt" ] || [ -z "$(git -C "$swt" status --porcelain --untracked-files=no 2>/dev/null)" ] ||
		die "$swt has uncommitted changes; commit or discard them first"
	if [ -d "$swt" ] && [ "$(git -C "$swt" rev-parse --show-toplevel 2>/dev/null)" -ef "$swt" ] &&
		[ "$(git -C "$swt" rev-parse --path-format=absolute --git-common-dir)" -ef \
			"$(git -C "$repo" rev-parse --path-format=absolute --git-common-dir)" ]; then
		# the last run's worktree, reused
		git -C "$swt" cherry-pick --quit 2>/dev/null || true
		git -C "$swt" checkout -q --detach "$base" ||
			die "checking out $base in $swt failed"
	else
		rm -rf "$swt"
		mkdir -p "$(dirname "$swt")"
		# -f: the path may still be registered, its directory gone
		git -C "$repo" worktree add -f -q --detach "$swt" "$base"
	fi
	# without a cover commit, b4 enrolls the b4 branch itself
	work=$b4branch
	[ -z "$cover_commit" ] || work=$wip
	git -C "$swt" checkout -q -B "$work"
	if [ -n "$cover_commit" ]; then
		git -C "$swt" cherry-pick --allow-empty --keep-redundant-commits "$cover_commit" >/dev/null
	else
		(cd "$swt" && b4 -q prep -e "$base" >/dev/null 2>&1) || die "b4 prep -e $base failed in $swt"
	fi

	info "thread $t: ${#mine[@]} patches as $name <$email>"
	for c in "${mine[@]}"; do
		git -C "$swt" cherry-pick "$c" >"$tmp/pick.log" 2>&1 ||
			die "cherry-pick of $(git -C "$repo" log -1 --format=%s "$c") failed: $(tail -n 1 "$tmp/pick.log")"
		git -C "$swt" log -1 --format=%B | grep -vxF "Signed-off-by: $BSK_NAME <$BSK_EMAIL>" |
			git -C "$swt" commit -q --amend --no-verify --reset-author --cleanup=whitespace -s -F - ||
			die "signing $(git -C "$repo" log -1 --format=%s "$c") failed"
	done

	cd "$swt"
	# an RFC thread has b4's own numbering unless REV= is set
	logrev=$rev
	if [ -n "$rfc" ] && [ -z "${REV:-}" ]; then
		logrev=0
	else
		b4 -q prep --force-revision "$rev" >/dev/null
	fi
	[ -z "$rfc" ] || b4 -q prep --set-prefixes "$rfc" >/dev/null ||
		die "b4 prep --set-prefixes $rfc failed in $swt"
	shown=$(b4 prep --show-info 2>&1) || die "b4 prep --show-info failed in $swt: $(tail -n 1 <<<"$shown")"
	changeid=$(sed -n 's/^change-id: //p' <<<"$shown")
	trev=$(sed -n 's/^revision: //p' <<<"$shown")
	{ [ -n "$changeid" ] && [[ $trev =~ ^[1-9][0-9]*$ ]]; } ||
		die "b4 prep --show-info in $swt names no change-id or no revision"
	# each thread applies to the base alone
	: >"$tmp/deps"
	EDITOR="cp $tmp/deps" b4 -q prep --edit-deps >/dev/null 2>&1 ||
		die "b4 prep --edit-deps failed in $swt"
	# the thread whole: only now the b4 branch moves to it
	if [ "$work" = "$wip" ]; then
		git checkout -q -B "$b4branch"
		git branch -q -D "$wip"
	fi
	# a change-id other than the one recorded: the b4 branch was lost
	recorded=$(awk -F' *[|] *' -v t="$t" '$2 == t && $3 ~ /^[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]-/ { print $3 }' "$notes")
	if [ -z "${BSK_SEND_NAME:-}" ] && [ -n "$recorded" ] && [ "$recorded" != "$changeid" ]; then
		info "warning: thread $t has change-id $changeid, MAINTAINERS-notes recorded $recorded: b4 and the archive will not link this revision to the last (restore b4/$b4name and its sent/ tags from where it was sent)"
	fi
	cl=$BSK_TOP/patches/cover-letter-$t
	{
		# The text; its To:/Cc: trailers go last, after the changelog.
		grep -vE '^(To|Cc): ' "$cl" | git stripspace
		echo
		printf 'Base: %s%s.\n' "$base" "${pkg:+ (Debian $pkg)}"
		# each revision's changelog, newest first, down to v2 (the thread's part)
		for ((r = logrev; r >= 2; r--)); do
			awk -v r="v$r" -v t="$t" '
				$0 ~ "^" r " \\(" { on = 1; head = $0; sub(/, base .*\)$/, ")", head); n = 0; next }
				on && /^$/ { exit }
				on { l[++n] = $0; if ($0 ~ /^  [a-z0-9-]+:$/) split_ = 1 }
				END {
					if (!on) exit
					out = ""; keep = !split_
					for (k = 1; k <= n; k++) {
						if (l[k] ~ /^  [a-z0-9-]+:$/) { keep = (l[k] == "  " t ":"); continue }
						if (keep) out = out l[k] "\n"
					}
					if (out != "") printf "\nChanges in %s:\n%s", head, out
				}' "$notes"
		done
		# b4 finds the last revision's sent/ tag, or fails: no range-diff then
		if [ "$trev" -gt 1 ] && rd=$(b4 prep --compare-to "v$((trev - 1))" 2>/dev/null); then
			printf '\nRange-diff against v%s:\n' "$((trev - 1))"
			git stripspace <<<"$rd"
		fi
		if grep -qE '^(To|Cc): ' "$cl"; then
			echo
			grep -E '^(To|Cc): ' "$cl"
		fi
	} >"$tmp/cover"
	EDITOR="cp $tmp/cover" b4 -q prep --edit-cover >/dev/null
	b4 -q prep -c >/dev/null

	tout=$out/$i-$t
	mkdir -p "$tout"
	b4 -q send --no-sign --not-me-too -o "$tout" >"$tmp/send.log" 2>&1 ||
		die "b4 send -o failed for thread $t: $(tail -n 1 "$tmp/send.log")"
	cd - >/dev/null
	info "thread $t: $(find "$tout" -maxdepth 1 -name '*.eml' | wc -l) mails in $tout, change-id $changeid (nothing was sent)"
done

# The reports: plain mails, not patches (b4 sends series only).
for r in "$BSK_TOP"/patches/report-*; do
	[ -f "$r" ] || continue
	rn=${r##*/}
	if [ "$(head -c 7 "$r")" = "Draft: " ]; then
		info "report $rn: a draft, not written ($(head -n 1 "$r" | cut -c8-))"
		continue
	fi
	subj=$(sed -n '1,/^$/s/^Subject: //p' "$r")
	read -r -a files <<<"$(sed -n '1,/^$/s/^Files: //p' "$r")"
	{ [ -n "$subj" ] && [ "${#files[@]}" -gt 0 ] && [ "$(sed -n '1,/^$/p' "$r" | grep -c '^Subject: ')" -eq 1 ] &&
		[ "$(sed -n '1,/^$/p' "$r" | grep -c '^Files: ')" -eq 1 ] && grep -q '^$' "$r"; } ||
		die "$r: must begin with one 'Subject: ...' line, one 'Files: ...' line and a blank line"
	for f in "${files[@]}"; do
		[ -e "$wt/$f" ] || die "$r: Files: $f is not in $wt"
	done
	gm=$(cd "$wt" && perl scripts/get_maintainer.pl --no-git --no-git-fallback -f "${files[@]}") ||
		die "$r: get_maintainer.pl failed for ${files[*]}"
	to=$({ grep -E '\((maintainer|supporter):' <<<"$gm" || true; } | sed 's/ ([^()]*)$//' | paste -sd, | sed 's/,/, /g')
	cc=$({ grep -vE '\((maintainer|supporter):' <<<"$gm" || true; } | sed 's/ ([^()]*)$//' | paste -sd, | sed 's/,/, /g')
	[ -n "$to" ] || die "$r: get_maintainer.pl names no maintainer for ${files[*]}"
	! grep -q '@[A-Z][A-Z_0-9]*@' "$r" ||
		die "$r: a placeholder ($(grep -o '@[A-Z][A-Z_0-9]*@' "$r" | head -n 1)) is left in the text"
	{
		printf 'From: "%s" <%s>\n' "${name//\"/}" "$email"
		printf 'To: %s\n' "$to"
		[ -z "$cc" ] || printf 'Cc: %s\n' "$cc"
		printf 'Subject: %s\n' "$subj"
		printf 'MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit\n\n'
		sed '1,/^$/d' "$r"
		printf '%s\n' "$name"
	} >"$out/$rn.eml"
	info "report $rn: $out/$rn.eml, To: $to (nothing was sent)"
done
# the blktests thread: one patch, its cover letter below "---"
bts=$BSK_TOP/patches/blktests/series
if [ -f "$bts" ]; then
	bc=$BSK_TOP/patches/blktests/cover-letter
	[ -f "$bc" ] || die "$bc is missing"
	to=$(sed -n 's/^To: //p' "$bc" | paste -sd, | sed 's/,/, /g')
	cc=$(sed -n 's/^Cc: //p' "$bc" | paste -sd, | sed 's/,/, /g')
	[ -n "$to" ] || die "$bc ends with no To: line"
	sed '/^\(To\|Cc\): /d' "$bc" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' >"$tmp/btcover"
	mapfile -t bps < <(series_patches "$bts")
	[ "${#bps[@]}" -eq 1 ] || die "$bts: make send writes a blktests thread of one patch (it lists ${#bps[@]})"
	bo=$out/blktests
	mkdir -p "$bo"
	awk -v me="$name <$email>" -v role="$BSK_NAME <$BSK_EMAIL>" -v rname="$BSK_NAME" -v sname="$name" \
		-v to="$to" -v cc="$cc" -v cover="$tmp/btcover" '
		NR == 1 && /^From [0-9a-f]+ / { next }
		!hdr && $0 == "From: " role { print "From: " me; print "To: " to; if (cc != "") print "Cc: " cc; next }
		!hdr && /^$/ { hdr = 1 }
		$0 == "Signed-off-by: " role { print "Signed-off-by: " me; next }
		/^\+# Copyright \(C\) [0-9]+ / && index($0, rname) { sub(rname, sname) }
		$0 == "---" && !done { print; while ((getline l < cover) > 0) print l; print ""; done = 1; next }
		{ print }' "$BSK_TOP/patches/blktests/${bps[0]}" >"$bo/0001-${bps[0]%.patch}.eml"
	info "thread blktests: 1 mail in $bo, To: $to (nothing was sent)"
fi
printf '%s\n' "$out"
