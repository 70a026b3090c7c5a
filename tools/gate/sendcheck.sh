#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# sendcheck.sh - the test of 'make send' that 'make check' runs.  Under a
# throwaway git identity (GIT_CONFIG_GLOBAL in a temporary directory) and
# b4 series name, so that nothing of the user's b4 branches is touched:
#
#   1. send.sh writes one thread per "# thread" section of the series,
#      each with a cover letter and one mail per patch;
#   2. each thread git am onto the base alone, each fix alone too, and
#      the threads in order give the tree of the applied series;
#   3. every patch is from the sender and signed off by the sender, and
#      no From/To/Cc header or Signed-off-by names an .invalid address
#      (the placeholder identity of patches/ is gone);
#   4. the cover letters name the base and no prerequisite (no thread
#      needs another); an RFC thread's (rfc, rfc-NAME) mails carry the RFC
#      prefix, and the for-next one Cc:s the KUnit lists; each report of
#      patches/ is a mail from the sender to its maintainers;
#   5. v1 recorded as sent (b4 prep --manual-reroll, as after sending),
#      a second run as v2 keeps each thread's change-id and its cover
#      letter carries the v2 changelog and b4 prep --compare-to v1's
#      range-diff;
#   6. send.sh interrupted (SIGINT to its process group, as ^C sends) just
#      before it replays each thread's cover commit, at its first b4 call
#      and after the b4 branch has moved: every thread's b4 branch keeps
#      its change-id.
#
# b4 asks the archive for what it does not find locally: a stand-in on
# 127.0.0.1 (tools/lib/lore-stub.py, b4.midmask) serves the mails of
# this test's runs as lore would once they were sent, so that nothing
# leaves the machine.
#
# (Bad input to send.sh: tests/submit.bats.)  Last line: "N passed, N failed, N skipped".
set -uo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

# the b4 that send.sh runs (0.13 or later), for this test's own calls
b4=$("$BSK_TOP/tools/env/b4.sh") || exit 1
PATH=$(dirname "$b4"):$PATH
# tree.sh says why when there is no base
read -r repo wt base < <("$BSK_TOP/tools/env/tree.sh") || die "no kernel base"
tag=$(basename "$wt")
tmp=$(mktemp -d)
name=bsk-selftest
mapfile -t tp < <(series_threads "$(bsk_series)")
threads=()
for l in "${tp[@]}"; do
	case " ${threads[*]} " in *" ${l%% *} "*) ;; *) threads+=("${l%% *}") ;; esac
done
lore_pid=
cleanup() {
	local t
	[ -z "$lore_pid" ] || kill "$lore_pid" 2>/dev/null
	git -C "$repo" worktree remove --force "$tmp/am" 2>/dev/null
	for t in "${threads[@]}"; do
		git -C "$repo" tag -d "sent/$name-$t-v1" >/dev/null 2>&1
		# b4 0.13 and later name the tag after the change-id
		git -C "$repo" tag -l "sent/*-$name-$t-*-v1" | xargs -r git -C "$repo" tag -d >/dev/null 2>&1
		git -C "$repo" worktree remove --force "$BSK_CACHE/send/$tag-$name-$t" 2>/dev/null
		git -C "$repo" branch -D "b4/$name-$t" "b4/$name-$t-wip" >/dev/null 2>&1
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
cleanup
mkdir -p "$tmp/lore"
export GIT_CONFIG_GLOBAL=$tmp/gitconfig
git config --global user.name "Test Sender"
git config --global user.email test.sender@example.org
me="Test Sender <test.sender@example.org>"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 "$BSK_TOP/tools/lib/lore-stub.py" "$port" "$tmp/lore" >"$tmp/lore.log" 2>&1 &
lore_pid=$!
git config --global b4.midmask "http://127.0.0.1:$port/all/%s"
git config --global b4.searchmask "http://127.0.0.1:$port/all/?x=m&q=%s"
export NO_PROXY=127.0.0.1 no_proxy=127.0.0.1
n=$(git -C "$repo" rev-list --count "$base..$BSK_BRANCH")

# The mails of thread number $2 ($1) in run directory $3, cover first.  A
# thread of one patch is one mail: b4 puts its cover letter below the
# patch's "---", so that mail is both.
thread_mails() {
	find "$3/$2-$1" -name '*.eml' 2>/dev/null | sort
}
thread_patches() {
	local m
	mapfile -t m < <(thread_mails "$@")
	if [ "${#m[@]}" -eq 1 ]; then
		printf '%s\n' "${m[0]}"
	elif [ "${#m[@]}" -gt 1 ]; then
		printf '%s\n' "${m[@]:1}"
	fi
}
# A mail's header, continuation lines unfolded.
header() {
	awk '/^$/ { exit } /^[ \t]/ { h = h $0; next } { if (h != "") print h; h = $0 } END { print h }' "$1"
}

# 1. The threads.
out=$(SEND_OUT=$tmp/v1 REV=1 BSK_SEND_NAME=$name "$BSK_TOP/tools/send.sh" 2>"$tmp/send1.err")
rc=$?
[ "$rc" -eq 0 ] || cat "$tmp/send1.err"
bad=0
i=0
for t in "${threads[@]}"; do
	i=$((i + 1))
	k=$(printf '%s\n' "${tp[@]}" | grep -c "^$t ")
	[ "$(thread_mails "$t" "$i" "$tmp/v1" | wc -l)" -eq $((k > 1 ? k + 1 : k)) ] || bad=1
done
result "make send wrote ${#threads[@]} threads (${threads[*]}), each a cover letter and its patches (one mail for one patch)" \
	"$([ "$rc" -eq 0 ] && [ "$out" = "$tmp/v1" ] && [ "$bad" -eq 0 ]; echo $?)"

# 2. git am: each thread onto the base alone, each fix alone, then the
# threads in order.
git -C "$repo" worktree add -q --detach "$tmp/am" "$base"
mapfile -t fixes < <(thread_patches "${threads[0]}" 1 "$tmp/v1")
bad=0
for m in "${fixes[@]}"; do
	git -C "$tmp/am" checkout -q --detach "$base"
	bsk_git -C "$tmp/am" am -q "$m" >"$tmp/am.log" 2>&1 || {
		bad=$((bad + 1))
		git -C "$tmp/am" am --abort 2>/dev/null
	}
done
result "each patch of the ${threads[0]} thread applies to $base alone (${#fixes[@]}, $bad not)" \
	"$([ "${#fixes[@]}" -gt 0 ] && [ "$bad" -eq 0 ]; echo $?)"
bad=0
i=0
for t in "${threads[@]}"; do
	i=$((i + 1))
	mapfile -t ms < <(thread_patches "$t" "$i" "$tmp/v1")
	git -C "$tmp/am" checkout -q --detach "$base"
	if [ "${#ms[@]}" -eq 0 ] || ! bsk_git -C "$tmp/am" am -q "${ms[@]}" >"$tmp/am.log" 2>&1; then
		cat "$tmp/am.log"
		git -C "$tmp/am" am --abort 2>/dev/null
		bad=$((bad + 1))
	fi
done
result "each thread applies to $base alone (${#threads[@]}, $bad not)" "$bad"
git -C "$tmp/am" checkout -q --detach "$base"
rc=0
i=0
for t in "${threads[@]}"; do
	i=$((i + 1))
	mapfile -t ms < <(thread_patches "$t" "$i" "$tmp/v1")
	if [ "${#ms[@]}" -eq 0 ] || ! bsk_git -C "$tmp/am" am -q "${ms[@]}" >"$tmp/am.log" 2>&1; then
		cat "$tmp/am.log"
		git -C "$tmp/am" am --abort 2>/dev/null
		rc=1
		break
	fi
done
result "the threads git am onto $base in order" "$rc"
rc=0
git -C "$tmp/am" diff --quiet "$BSK_BRANCH" -- || rc=1
[ "$(git -C "$tmp/am" rev-list --count "$base..HEAD")" -eq "$n" ] || rc=1
result "they give the tree of the applied series, $n commits" "$rc"

# 3. The sender, and no role address.
bad=0
for c in $(git -C "$tmp/am" rev-list "$base..HEAD"); do
	tr=$(git -C "$tmp/am" log -1 --format=%B "$c" | git interpret-trailers --parse)
	{ [ "$(git -C "$tmp/am" log -1 --format='%an <%ae>' "$c")" = "$me" ] &&
		[ "$(tail -n 1 <<<"$tr")" = "Signed-off-by: $me" ] &&
		! grep -q "^Signed-off-by: .*$BSK_EMAIL" <<<"$tr"; } || bad=$((bad + 1))
done
result "every patch is authored and signed off by the sender, not by $BSK_NAME ($bad not)" "$bad"
bad=0
while IFS= read -r m; do
	{ header "$m" | grep -E '^(From|To|Cc):'; grep -E '^Signed-off-by:' "$m"; } |
		grep -qi '\.invalid\b' && bad=$((bad + 1))
done < <(find "$tmp/v1" -name '*.eml')
result "no From/To/Cc header or Signed-off-by of any mail names an .invalid address ($bad do)" "$bad"

# 4. The cover letters.
rc=0
i=0
want=()
base_sha=$(git -C "$repo" rev-parse "$base^{commit}")
for t in "${threads[@]}"; do
	i=$((i + 1))
	c=$(thread_mails "$t" "$i" "$tmp/v1" | head -n 1)
	grep -q "^Base: $tag" "$c" || rc=1
	# b4's footer: no prerequisite, and the base
	! grep -q '^prerequisite-' "$c" || rc=1
	[ "$i" -eq 1 ] || grep -qx "base-commit: $base_sha" "$c" || rc=1
	want+=("$(sed -n 's/^change-id: //p' "$c"):v1")
done
result "each cover letter names the base ($tag) and no prerequisite" \
	"$([ "${#want[@]}" -eq "${#threads[@]}" ] && [ "$rc" -eq 0 ]; echo $?)"
# An RFC thread: every mail's subject says RFC, and its patches apply to
# the base alone, together.
i=0
for t in "${threads[@]}"; do
	i=$((i + 1))
	is_rfc_thread "$t" || continue
	rc=0
	while IFS= read -r m; do
		header "$m" | grep -q '^Subject: \[PATCH RFC' || rc=1
	done < <(thread_mails "$t" "$i" "$tmp/v1")
	mapfile -t ms < <(thread_patches "$t" "$i" "$tmp/v1")
	git -C "$tmp/am" checkout -q --detach "$base"
	{ [ "${#ms[@]}" -gt 0 ] && bsk_git -C "$tmp/am" am -q "${ms[@]}" >"$tmp/am.log" 2>&1; } || {
		git -C "$tmp/am" am --abort 2>/dev/null
		rc=1
	}
	result "the $t thread is [PATCH RFC ...] and applies to $base alone (${#ms[@]} patches)" "$rc"
done
c=$(thread_mails for-next 2 "$tmp/v1" | head -n 1)
rc=0
for l in linux-kselftest@vger.kernel.org kunit-dev@googlegroups.com linux-block@vger.kernel.org; do
	header "${c:-/dev/null}" | grep -E '^Cc:' | grep -qF "$l" || rc=1
done
result "the for-next cover letter goes to linux-block and the KUnit lists" "$rc"

# 4b. The reports (patches/report-*): plain mails from the sender.
rc=0
nrep=0
for r in "$BSK_TOP"/patches/report-*; do
	[ -f "$r" ] || continue
	nrep=$((nrep + 1))
	m=$tmp/v1/${r##*/}.eml
	if [ "$(head -c 7 "$r")" = "Draft: " ]; then
		[ ! -e "$m" ] || rc=1
		continue
	fi
	[ -f "$m" ] || { rc=1; continue; }
	h=$(header "$m")
	{ grep -qxF 'From: "Test Sender" <test.sender@example.org>' <<<"$h" && grep -q '^To: .*@' <<<"$h" &&
		grep -qxF "Subject: $(sed -n '1,/^$/s/^Subject: //p' "$r")" <<<"$h" &&
		[ "$(sed '1,/^$/d' "$m" | head -n 3)" = "$(sed '1,/^$/d' "$r" | head -n 3)" ]; } || rc=1
done
result "each report in patches/ ($nrep) is a mail from the sender to the maintainers of its files, or a draft, not written" "$rc"
# The blktests thread: from the sender, to blktests' maintainer and
# linux-block, and it applies to the blktests tree.
if [ -f "$BSK_TOP/patches/blktests/series" ]; then
	rc=0
	bt=$(find "$tmp/v1/blktests" -name '*.eml' 2>/dev/null | head -n 1)
	src=$(cd "$BSK_TOP/.." && pwd)/shared/blktests
	if [ -z "$bt" ]; then
		rc=1
	else
		h=$(header "$bt")
		grep -qx "From: $me" <<<"$h" && grep -q '^To: .*@' <<<"$h" &&
			grep -q '^Cc: .*linux-block@vger.kernel.org' <<<"$h" &&
			grep -qx "Signed-off-by: $me" "$bt" || rc=1
		if [ -d "$src" ]; then
			mkdir -p "$tmp/bt"
			tar -C "$src" --exclude=./.git -cf - . | tar -C "$tmp/bt" -xf -
			(cd "$tmp/bt" && GIT_CEILING_DIRECTORIES=$tmp git apply --check "$bt") || rc=1
		fi
	fi
	result "the blktests thread is a mail from the sender to its maintainer and linux-block, and applies to blktests" "$rc"
fi

# 5. v1 recorded as sent, then v2: the archive now holds v1's mails.
cp -r "$tmp/v1" "$tmp/lore/"
rc=0
i=0
for t in "${threads[@]}"; do
	i=$((i + 1))
	c=$(thread_mails "$t" "$i" "$tmp/v1" | head -n 1)
	id=$(header "$c" | sed -n 's/^Message-Id: *<\(.*\)>.*/\1/Ip')
	(cd "$BSK_CACHE/send/$tag-$name-$t" && b4 -q prep --manual-reroll "$id") >"$tmp/reroll.log" 2>&1 || {
		cat "$tmp/reroll.log"
		rc=1
	}
done
result "v1 recorded with b4 prep --manual-reroll in each thread's b4 branch" "$rc"
SEND_OUT=$tmp/v2 REV=2 BSK_SEND_NAME=$name "$BSK_TOP/tools/send.sh" >/dev/null 2>"$tmp/send2.err"
rc=$?
[ "$rc" -eq 0 ] || cat "$tmp/send2.err"
same=0
rd=0
i=0
for t in "${threads[@]}"; do
	i=$((i + 1))
	k=$(printf '%s\n' "${tp[@]}" | grep -c "^$t ")
	c1=$(thread_mails "$t" "$i" "$tmp/v1" | head -n 1)
	c2=$(thread_mails "$t" "$i" "$tmp/v2" | head -n 1)
	id1=$(sed -n 's/^change-id: //p' "${c1:-/dev/null}")
	id2=$(sed -n 's/^change-id: //p' "${c2:-/dev/null}")
	{ [ -n "$id1" ] && [ "$id1" = "$id2" ]; } || same=1
	subj="0/$k"
	[ "$k" -gt 1 ] || subj=
	pfx=PATCH
	! is_rfc_thread "$t" || pfx="PATCH RFC"
	# a changelog where the revision log's v2 entry has one for the thread
	# (its "  <thread>:" part, or an entry not split by thread)
	log=$(awk -v t="$t" '/^v2 \(/ { on = 1; next } on && /^$/ { exit }
		on && /^  [a-z0-9-]+:$/ { split_ = 1; if ($0 == "  " t ":") mine = 1 }
		END { if (on && (mine || !split_)) print 1 }' "$BSK_TOP/MAINTAINERS-notes")
	{ grep -q "^Subject: \[$pfx v2${subj:+ $subj}\]" "${c2:-/dev/null}" &&
		{ [ -z "$log" ] || grep -q '^Changes in v2 (' "$c2"; } &&
		grep -q '^Range-diff against v1:' "$c2" &&
		[ "$(grep -cE '^ *[0-9]+: +[0-9a-f]+ = +[0-9]+: +[0-9a-f]+ ' "$c2")" -eq "$k" ]; } || rd=1
done
result "v2 keeps each thread's change-id" "$([ "$rc" -eq 0 ] && [ "$same" -eq 0 ]; echo $?)"
result "v2's cover letters carry the v2 changelog and the range-diff against v1 (every patch '=')" "$([ "$rc" -eq 0 ] && [ "$rd" -eq 0 ]; echo $?)"

# 6. Interrupted runs.  Shims of git and b4 first in PATH run the real
# program, but the N-th call that matches INT_MATCH signals the run's
# process group instead (send.sh runs in a session of its own).
change_ids() {
	local t
	for t in "${threads[@]}"; do
		printf '%s=' "$t"
		git -C "$repo" log -1 --format=%B -F --grep='--- b4-submit-tracking ---' "b4/$name-$t" 2>/dev/null |
			sed -n 's/^ *"change-id": *"\([^"]*\)".*/\1/p' | head -n 1
	done
}
mkdir -p "$tmp/shim"
for p in git b4; do
	real=$(command -v "$p")
	cat >"$tmp/shim/$p" <<EOF
#!/bin/sh
case " $p \$* " in
*"\$INT_MATCH"*)
	n=\$((\$(cat "\$INT_COUNT" 2>/dev/null || echo 0) + 1))
	echo "\$n" >"\$INT_COUNT"
	if [ "\$n" -eq "\$INT_AT" ]; then
		kill -INT 0
		exit 130
	fi ;;
esac
exec $real "\$@"
EOF
	chmod +x "$tmp/shim/$p"
done
before=$(change_ids)
points=()
for ((k = 1; k <= ${#threads[@]}; k++)); do points+=("cherry-pick --allow-empty:$k"); done
points+=("b4 -q prep --force-revision:1" "b4 -q prep --edit-cover:1")
bad=0
for pt in "${points[@]}"; do
	rm -f "$tmp/int.count"
	INT_MATCH=${pt%:*} INT_AT=${pt##*:} INT_COUNT=$tmp/int.count PATH=$tmp/shim:$PATH \
		SEND_OUT=$tmp/int-${pt##*:}-${pt%% *} REV=2 BSK_SEND_NAME=$name \
		setsid -w "$BSK_TOP/tools/send.sh" >/dev/null 2>&1
	rc=$?
	# the run must have stopped there, and changed no change-id
	{ [ "$rc" -ne 0 ] && [ "$(cat "$tmp/int.count" 2>/dev/null)" = "${pt##*:}" ]; } || {
		info "send.sh was not interrupted at '$pt' (exit $rc)"
		bad=$((bad + 1))
	}
	after=$(change_ids)
	[ "$after" = "$before" ] || {
		info "interrupted at '$pt': change-ids $before became $after"
		bad=$((bad + 1))
	}
done
result "send.sh interrupted at ${#points[@]} points (each thread's cover replay, the first b4 call, the cover edit) keeps every thread's change-id" \
	"$([ -n "$before" ] && ! grep -q '=$' <<<"$before" && [ "$bad" -eq 0 ]; echo $?)"

results_end
