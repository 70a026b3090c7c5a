#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# sendcheck.sh - the test of 'make send' (docs/sending.md) under a throwaway
# identity and b4 series name, tools/lib/lore-stub.py standing in for lore.
set -uo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

b4=$("$BSK_TOP/tools/env/b4.sh") || exit 1
PATH=$(dirname "$b4"):$PATH
read -r repo wt base < <("$BSK_TOP/tools/env/tree.sh") || die "no kernel base"
tag=$(basename "$wt")
tmp=$(mktemp -d)
name=bsk-selftest
mapfile -t tp < <(series_threads "$(bsk_series)")
mapfile -t threads < <(printf '%s\n' "${tp[@]%% *}" | uniq)
td=() ks=() # each thread's directory in a run, its number of patches
for i in "${!threads[@]}"; do
	td+=("$((i + 1))-${threads[i]}")
	ks+=("$(printf '%s\n' "${tp[@]}" | grep -c "^${threads[i]} ")")
done
lore_pid=
cleanup() {
	local t
	[ -z "$lore_pid" ] || kill "$lore_pid" 2>/dev/null
	git -C "$repo" worktree remove --force "$tmp/am" 2>/dev/null
	for t in "${threads[@]}"; do
		git -C "$repo" tag -l "sent/$name-$t-v1" "sent/*-$name-$t-*-v1" | xargs -r git -C "$repo" tag -d >/dev/null 2>&1
		git -C "$repo" worktree remove --force "$BSK_CACHE/send/$tag-$name-$t" 2>/dev/null
		git -C "$repo" branch -D "b4/$name-$t" "b4/$name-$t-wip" >/dev/null 2>&1
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
cleanup
mkdir -p "$tmp/lore"
export GIT_CONFIG_GLOBAL=$tmp/gitconfig NO_PROXY=127.0.0.1 no_proxy=127.0.0.1
git config --global user.name "Test Sender"
git config --global user.email test.sender@example.org
me="Test Sender <test.sender@example.org>"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 "$BSK_TOP/tools/lib/lore-stub.py" "$port" "$tmp/lore" >"$tmp/lore.log" 2>&1 &
lore_pid=$!
# searches too: nothing b4 asks may reach lore
git config --global b4.midmask "http://127.0.0.1:$port/all/%s"
git config --global b4.searchmask "http://127.0.0.1:$port/all/?x=m&q=%s"
n=$(git -C "$repo" rev-list --count "$base..$BSK_BRANCH")

mails() { find "$1" -name '*.eml' 2>/dev/null | sort; } # DIR: cover first
cover() { mails "$1" | head -n 1; }
# a thread of one patch is one mail (b4 puts the cover letter below its "---")
patches() { mails "$1" | sed '1{$!d}'; }
header() {
	awk '/^$/ { exit } /^[ \t]/ { h = h $0; next } { if (h != "") print h; h = $0 } END { print h }' "$1"
}
am() { # MAIL|DIR...: the mails (a thread's patches for a DIR) onto $tmp/am's checkout, aborted on failure
	local ms=() d
	for d in "$@"; do
		if [ -d "$d" ]; then mapfile -t -O "${#ms[@]}" ms < <(patches "$d"); else ms+=("$d"); fi
	done
	[ "${#ms[@]}" -gt 0 ] && bsk_git -C "$tmp/am" am -q "${ms[@]}" >"$tmp/am.log" 2>&1 && return
	cat "$tmp/am.log"
	git -C "$tmp/am" am --abort 2>/dev/null
	return 1
}
at_base() { git -C "$tmp/am" checkout -q --detach "$base"; }

# 1. The threads.
out=$(SEND_OUT=$tmp/v1 REV=1 BSK_SEND_NAME=$name "$BSK_TOP/tools/send.sh" 2>"$tmp/send1.err")
rc=$?
[ "$rc" -eq 0 ] || cat "$tmp/send1.err"
[ "$out" = "$tmp/v1" ] || rc=1
for i in "${!threads[@]}"; do
	k=${ks[i]}
	[ "$(mails "$tmp/v1/${td[i]}" | wc -l)" -eq $((k > 1 ? k + 1 : k)) ] || rc=1
done
result "make send wrote ${#threads[@]} threads (${threads[*]}), each a cover letter and its patches (one mail for one patch)" "$rc"

# 2. git am: each fix alone, each thread alone, then the threads in order.
git -C "$repo" worktree add -q --detach "$tmp/am" "$base"
bad=0
nf=0
while IFS= read -r m; do
	nf=$((nf + 1))
	at_base
	am "$m" || bad=$((bad + 1))
done < <(patches "$tmp/v1/${td[0]}")
result "each patch of the ${threads[0]} thread applies to $base alone ($nf, $bad not)" "$([ "$nf" -gt 0 ] && [ "$bad" -eq 0 ]; echo $?)"
bad=0
for d in "${td[@]}"; do
	at_base
	am "$tmp/v1/$d" || bad=$((bad + 1))
done
result "each thread applies to $base alone (${#threads[@]}, $bad not)" "$bad"
at_base
am "${td[@]/#/$tmp/v1/}"
result "the threads git am onto $base in order" $?
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

# 4. The cover letters: b4's footer has the base and no prerequisite.
rc=0
base_sha=$(git -C "$repo" rev-parse "$base^{commit}")
for i in "${!threads[@]}"; do
	c=$(cover "$tmp/v1/${td[i]}")
	{ grep -q "^Base: $tag" "${c:-/dev/null}" && grep -q '^change-id: ' "$c" && ! grep -q '^prerequisite-' "$c"; } || rc=1
	[ "$i" -eq 0 ] || grep -qx "base-commit: $base_sha" "${c:-/dev/null}" || rc=1
	is_rfc_thread "${threads[i]}" || continue
	while IFS= read -r m; do
		header "$m" | grep -q '^Subject: \[PATCH RFC' ||
			{ info "${threads[i]}: not [PATCH RFC ...]: $m"; rc=1; }
	done < <(mails "$tmp/v1/${td[i]}")
done
result "each cover letter names the base ($tag) and no prerequisite; the RFC threads are [PATCH RFC ...]" "$rc"
c=$(cover "$tmp/v1/2-for-next")
rc=0
for l in linux-kselftest@vger.kernel.org kunit-dev@googlegroups.com linux-block@vger.kernel.org; do
	header "${c:-/dev/null}" | grep -E '^Cc:' | grep -qF "$l" || rc=1
done
result "the for-next cover letter goes to linux-block and the KUnit lists" "$rc"

# 4b. The reports (patches/report-*): plain mails from the sender, or drafts not written.
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
	h=$(header "$m" 2>/dev/null) || { rc=1; continue; }
	{ grep -qxF 'From: "Test Sender" <test.sender@example.org>' <<<"$h" && grep -q '^To: .*@' <<<"$h" &&
		grep -qxF "Subject: $(sed -n '1,/^$/s/^Subject: //p' "$r")" <<<"$h" &&
		[ "$(sed '1,/^$/d' "$m" | head -n 3)" = "$(sed '1,/^$/d' "$r" | head -n 3)" ]; } || rc=1
done
result "each report in patches/ ($nrep) is a mail from the sender to the maintainers of its files, or a draft, not written" "$rc"
if [ -f "$BSK_TOP/patches/blktests/series" ]; then
	rc=1
	bt=$(mails "$tmp/v1/blktests" | head -n 1)
	src=$(cd "$BSK_TOP/.." && pwd)/shared/blktests
	if [ -n "$bt" ]; then
		h=$(header "$bt")
		grep -qx "From: $me" <<<"$h" && grep -q '^To: .*@' <<<"$h" &&
			grep -q '^Cc: .*linux-block@vger.kernel.org' <<<"$h" && grep -qx "Signed-off-by: $me" "$bt" && rc=0
		if [ -d "$src" ]; then
			mkdir -p "$tmp/bt"
			tar -C "$src" --exclude=./.git -cf - . | tar -C "$tmp/bt" -xf -
			(cd "$tmp/bt" && GIT_CEILING_DIRECTORIES=$tmp git apply --check "$bt") || rc=1
		fi
	fi
	result "the blktests thread is a mail from the sender to its maintainer and linux-block, and applies to blktests" "$rc"
fi

# 5. v1 recorded as sent (the archive now holds its mails), then v2.
cp -r "$tmp/v1" "$tmp/lore/"
rc=0
for i in "${!threads[@]}"; do
	id=$(header "$(cover "$tmp/v1/${td[i]}")" | sed -n 's/^Message-Id: *<\(.*\)>.*/\1/Ip')
	(cd "$BSK_CACHE/send/$tag-$name-${threads[i]}" && b4 -q prep --manual-reroll "$id") >"$tmp/reroll.log" 2>&1 ||
		{ cat "$tmp/reroll.log"; rc=1; }
done
result "v1 recorded with b4 prep --manual-reroll in each thread's b4 branch" "$rc"
SEND_OUT=$tmp/v2 REV=2 BSK_SEND_NAME=$name "$BSK_TOP/tools/send.sh" >/dev/null 2>"$tmp/send2.err"
rc=$?
[ "$rc" -eq 0 ] || cat "$tmp/send2.err"
same=$rc
rd=$rc
for i in "${!threads[@]}"; do
	t=${threads[i]} k=${ks[i]}
	c1=$(cover "$tmp/v1/${td[i]}")
	c2=$(cover "$tmp/v2/${td[i]}")
	c2=${c2:-/dev/null}
	id1=$(sed -n 's/^change-id: //p' "${c1:-/dev/null}")
	{ [ -n "$id1" ] && [ "$id1" = "$(sed -n 's/^change-id: //p' "$c2")" ]; } || same=1
	subj="0/$k"
	[ "$k" -gt 1 ] || subj=
	pfx=PATCH
	! is_rfc_thread "$t" || pfx="PATCH RFC"
	# a changelog where the revision log's v2 entry has one for the thread
	log=$(awk -v t="$t" '/^v2 \(/ { on = 1; next } on && /^$/ { exit }
		on && /^  [a-z0-9-]+:$/ { split_ = 1; if ($0 == "  " t ":") mine = 1 }
		END { if (on && (mine || !split_)) print 1 }' "$BSK_TOP/MAINTAINERS-notes")
	{ grep -q "^Subject: \[$pfx v2${subj:+ $subj}\]" "$c2" &&
		{ [ -z "$log" ] || grep -q '^Changes in v2 (' "$c2"; } &&
		grep -q '^Range-diff against v1:' "$c2" &&
		[ "$(grep -cE '^ *[0-9]+: +[0-9a-f]+ = +[0-9]+: +[0-9a-f]+ ' "$c2")" -eq "$k" ]; } || rd=1
done
result "v2 keeps each thread's change-id" "$same"
result "v2's cover letters carry the v2 changelog and the range-diff against v1 (every patch '=')" "$rd"

# 6. Interrupted runs: shims of git and b4 signal send.sh's process group
# at the INT_AT-th call that matches INT_MATCH.
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
	cat >"$tmp/shim/$p" <<EOF2
#!/bin/sh
case " $p \$* " in
*"\$INT_MATCH"*)
	n=\$((\$(cat "\$INT_COUNT" 2>/dev/null || echo 0) + 1))
	echo "\$n" >"\$INT_COUNT"
	[ "\$n" -ne "\$INT_AT" ] || { kill -INT 0; exit 130; } ;;
esac
exec $(command -v "$p") "\$@"
EOF2
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
	{ [ "$rc" -ne 0 ] && [ "$(cat "$tmp/int.count" 2>/dev/null)" = "${pt##*:}" ]; } ||
		{ info "send.sh was not interrupted at '$pt' (exit $rc)"; bad=$((bad + 1)); }
	after=$(change_ids)
	[ "$after" = "$before" ] || { info "interrupted at '$pt': change-ids $before became $after"; bad=$((bad + 1)); }
done
result "send.sh interrupted at ${#points[@]} points (each thread's cover replay, the first b4 call, the cover edit) keeps every thread's change-id" \
	"$([ -n "$before" ] && ! grep -q '=$' <<<"$before" && [ "$bad" -eq 0 ]; echo $?)"

results_end
