#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# send.sh - prepare the series for the list with b4, as a dry run: it
# writes one mail per patch plus the cover letter and never sends.
#
#   1. applies the series (apply.sh) and copies the branch to b4/<branch>
#      in a worktree of its own in the cache;
#   2. adds the sender's Signed-off-by (git config user.name/user.email)
#      after the existing trailers of every patch;
#   3. b4 prep -e <base tag> --force-revision N, N being the newest
#      revision in MAINTAINERS-notes' revision log;
#   4. the cover letter: patches/cover-letter, then the base version, the
#      changelog of each revision from MAINTAINERS-notes and, when revision
#      N-1 is tagged (sent/<name>-vN-1, as b4 send or b4 prep --manual-reroll
#      leave it), the range-diff of b4 prep --compare-to;
#   5. b4 prep -c (To/Cc from get_maintainer.pl), then b4 send -o SEND_OUT.
#
#   SEND_OUT=dir   where the mails go (default results/outgoing/<tag>-vN,
#                  not committed); must be empty or new
#   REV=N          revision number instead of the revision log's
#   BSK_SEND_NAME  b4 series name (default the series branch name)
#
# Mail them yourself afterwards (git send-email SEND_OUT/*, or b4 send
# from the b4/ branch), then record the revision: b4 prep --manual-reroll.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

name=$(git config user.name || true)
email=$(git config user.email || true)
{ [ -n "$name" ] && [ -n "$email" ]; } ||
	die "no git identity to sign the patches with: run git config --global user.name 'Your Name' and git config --global user.email you@example.org"
command -v b4 >/dev/null || die "b4 not found; run: apt-get install b4"
notes=$BSK_TOP/MAINTAINERS-notes
cover_src=$BSK_TOP/patches/cover-letter
[ -f "$cover_src" ] || die "no cover letter: $cover_src"

rev=${REV:-$(sed -n 's/^v\([0-9][0-9]*\) (.*/\1/p' "$notes" 2>/dev/null | sort -n | tail -n 1)}
[[ ${rev:-} =~ ^[1-9][0-9]*$ ]] ||
	die "no revision: MAINTAINERS-notes' revision log has no 'vN (date, ...)' line (or set REV=N)"

if [ -n "${SEND_OUT:-}" ] && [ -e "$SEND_OUT" ] && { [ ! -d "$SEND_OUT" ] || [ -n "$(ls -A "$SEND_OUT")" ]; }; then
	die "SEND_OUT=$SEND_OUT is not an empty directory; remove it or choose another"
fi

"$BSK_TOP/tools/apply.sh" >/dev/null
read -r repo wt base < <("$BSK_TOP/tools/tree.sh")
tag=$(basename "$wt")
sname=${BSK_SEND_NAME:-$BSK_BRANCH}
out=${SEND_OUT:-$BSK_TOP/results/outgoing/$tag-v$rev}
if [ -z "${SEND_OUT:-}" ] && [ -d "$out" ] && [ -z "$(find "$out" -mindepth 1 ! -name '*.eml')" ]; then
	rm -f "$out"/*.eml # an earlier dry run of ours, in our default place
fi

# The b4 branch is ours, in the cache: made afresh from the series branch.
swt=$BSK_CACHE/send/$tag-$sname
b4branch=b4/$sname
if [ -e "$swt" ]; then
	git -C "$repo" worktree remove --force "$swt" 2>/dev/null || rm -rf "$swt"
fi
git -C "$repo" worktree prune
git -C "$repo" worktree add -q --detach "$swt" "$BSK_BRANCH"
git -C "$swt" checkout -q -B "$b4branch"

info "signing ${base}..$BSK_BRANCH as $name <$email>"
git -C "$swt" -c commit.gpgsign=false rebase -q \
	--exec 'git commit -q --amend --no-edit --no-verify -s' "$base" >"$swt.rebase.log" 2>&1 ||
	die "adding your Signed-off-by failed (see $swt.rebase.log)"

cd "$swt"
b4 -q prep --force-revision "$rev" -e "$base" >/dev/null

# The cover letter: the repository's, the base, the changelog.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pkg=$(git -C "$swt" log -1 --format=%b "$base" | sed -n 's/^Debian package \([^ ]* [^ ,]*\).*/\1/p')
{
	cat "$cover_src"
	echo
	printf 'Base: %s%s.\n' "$base" "${pkg:+ (Debian $pkg)}"
	echo
	# Each revision's entry of the revision log, newest first.
	for ((r = rev; r >= 1; r--)); do
		awk -v r="v$r" '
			$0 ~ "^" r " \\(" { on = 1; print "Changes in " $0 ":"; next }
			on && /^$/ { on = 0 }
			on { print }' "$notes"
	done
	prev=$((rev - 1))
	if [ "$prev" -ge 1 ] && git rev-parse -q --verify "refs/tags/sent/$sname-v$prev" >/dev/null; then
		echo
		printf 'Range-diff against v%s:\n' "$prev"
		b4 prep --compare-to "v$prev" 2>/dev/null | git stripspace || true
	fi
} >"$tmp/cover"
EDITOR="cp $tmp/cover" b4 -q prep --edit-cover >/dev/null
b4 -q prep -c >/dev/null

if [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
	die "$out is not empty; remove it or set SEND_OUT to another directory"
fi
mkdir -p "$out"
# Without an SMTP server b4 picks its web endpoint, which needs patatt
# signing even for -o.  -o is a dry run: the server named here (which
# would fail) is never used.
# The role identity of the repository is not a mailbox: never Cc it.
GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=sendemail.smtpserver GIT_CONFIG_VALUE_0=/bin/false \
	GIT_CONFIG_KEY_1=b4.email-exclude GIT_CONFIG_VALUE_1="$BSK_EMAIL" \
	b4 -q send --no-sign --not-me-too -o "$out" >"$tmp/send.log" 2>&1 ||
	die "b4 send -o failed: $(tail -n 1 "$tmp/send.log")"
n=$(find "$out" -maxdepth 1 -name '*.eml' | wc -l)
info "wrote $n mails to $out (nothing was sent)"
printf '%s\n' "$out"
