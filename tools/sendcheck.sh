#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# sendcheck.sh - the test of 'make send' that 'make check' runs.  Under a
# throwaway git identity (GIT_CONFIG_GLOBAL in a temporary directory):
#
#   1. send.sh writes one mail per patch plus a cover letter;
#   2. the mails git am cleanly onto the base, in order, give the tree of
#      the applied series, and each patch ends with the sender's
#      Signed-off-by after the repository's;
#   3. the cover letter names the base version and has a changelog, and
#      no mail is addressed to the repository's role identity;
#   4. with revision 1 tagged as b4 tags a sent revision (here: the series
#      without its last patch), revision 2's cover letter carries the
#      range-diff of b4 prep --compare-to v1;
#
# (Without a git identity send.sh stops with one line: tests/submit.bats.)
# Last line: "N passed, N failed".
set -uo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

passed=0
failed=0
ok() {
	if [ "$2" -eq 0 ]; then
		passed=$((passed + 1))
		printf 'PASS  %s\n' "$1"
	else
		failed=$((failed + 1))
		printf 'FAIL  %s\n' "$1"
	fi
}

read -r repo wt base < <("$BSK_TOP/tools/tree.sh" 2>/dev/null) || die "no kernel base"
tmp=$(mktemp -d)
name=bsk-selftest
cleanup() {
	git -C "$repo" worktree remove --force "$tmp/am" 2>/dev/null
	git -C "$repo" tag -d "sent/$name-v1" >/dev/null 2>&1
	git -C "$repo" worktree remove --force "$BSK_CACHE/send/$(basename "$wt")-$name" 2>/dev/null
	git -C "$repo" branch -D "b4/$name" >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
export GIT_CONFIG_GLOBAL=$tmp/gitconfig
git config --global user.name "Test Sender"
git config --global user.email sender@example.invalid
me="Test Sender <sender@example.invalid>"
n=$(git -C "$repo" rev-list --count "$base..$BSK_BRANCH")

# 1. the mails
out=$(SEND_OUT=$tmp/v1 BSK_SEND_NAME=$name "$BSK_TOP/tools/send.sh" 2>"$tmp/send1.err")
rc=$?
[ "$rc" -eq 0 ] || cat "$tmp/send1.err"
mapfile -t mails < <(find "$tmp/v1" -name '*.eml' 2>/dev/null | sort)
ok "make send wrote $((n + 1)) mails (${#mails[@]}) into SEND_OUT" \
	"$([ "$rc" -eq 0 ] && [ "$out" = "$tmp/v1" ] && [ "${#mails[@]}" -eq $((n + 1)) ]; echo $?)"
cover=${mails[0]:-/dev/null}

# 2. git am onto the base
git -C "$repo" worktree add -q --detach "$tmp/am" "$base"
rc=1
if [ "${#mails[@]}" -gt 1 ]; then
	bsk_git -C "$tmp/am" am -q "${mails[@]:1}" >"$tmp/am.log" 2>&1 && rc=0
	[ "$rc" -eq 0 ] || { cat "$tmp/am.log"; git -C "$tmp/am" am --abort 2>/dev/null; }
fi
ok "the mails git am cleanly onto $base, in order" "$rc"
rc=0
git -C "$tmp/am" diff --quiet "$BSK_BRANCH" -- || rc=1
[ "$(git -C "$tmp/am" rev-list --count "$base..HEAD")" -eq "$n" ] || rc=1
ok "git am gives the tree of the applied series, $n commits" "$rc"
bad=0
for c in $(git -C "$tmp/am" rev-list "$base..HEAD"); do
	tr=$(git -C "$tmp/am" log -1 --format=%B "$c" | git interpret-trailers --parse)
	{ [ "$(tail -n 1 <<<"$tr")" = "Signed-off-by: $me" ] &&
		grep -qxF "Signed-off-by: $BSK_NAME <$BSK_EMAIL>" <<<"$tr"; } || bad=$((bad + 1))
done
ok "every patch ends with the sender's Signed-off-by after the repository's ($bad without)" "$bad"

# 3. the cover letter
tag=$(basename "$wt")
rc=0
grep -q "^Base: $tag" "$cover" || rc=1
grep -q '^Changes in v1 (' "$cover" || rc=1
ok "the cover letter names the base ($tag) and has the changelog" "$rc"
rc=0
for m in "${mails[@]}"; do
	# The mail's header, continuation lines unfolded.
	awk '/^$/ { exit } /^[ \t]/ { h = h $0; next } { if (h != "") print h; h = $0 } END { print h }' "$m" |
		grep -E '^(To|Cc):' | grep -qF "$BSK_EMAIL" && rc=1
done
ok "no mail is addressed to $BSK_EMAIL" "$rc"

# 4. a previous revision: v1 without the last patch, tagged as b4 does.
printf 'v1\n\nbase-commit: %s\nchange-id: bsk-selftest\n' "$(git -C "$repo" rev-parse "$base")" |
	bsk_git -C "$repo" tag -a -F - "sent/$name-v1" "$BSK_BRANCH~1"
SEND_OUT=$tmp/v2 REV=2 BSK_SEND_NAME=$name "$BSK_TOP/tools/send.sh" >/dev/null 2>"$tmp/send2.err"
rc=$?
[ "$rc" -eq 0 ] || cat "$tmp/send2.err"
cover2=$(find "$tmp/v2" -name '0000-*.eml' 2>/dev/null | head -n 1)
last=$(git -C "$repo" log -1 --format=%s "$BSK_BRANCH")
if [ "$rc" -eq 0 ] && grep -q '^Range-diff against v1:' "${cover2:-/dev/null}" &&
	grep -E "^ *-: +-+ > +$n: +[0-9a-f]+ " "$cover2" | grep -qF "${last:0:40}"; then
	rc=0
else
	rc=1
fi
ok "v2's cover letter has b4 prep --compare-to v1's range-diff (patch $n new)" "$rc"

printf '%s passed, %s failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
