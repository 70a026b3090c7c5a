#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The test of 'make send' (docs/sending.md) under a throwaway identity and b4 series name,
# tests/lore-stub.py standing in for lore. Needs the applied tree and b4: the gate's send stage runs it.

load ../helper
bats_require_minimum_version 1.5.0
export BSK_TOP=$TOP
# shellcheck source=../../tools/lib/common.sh
. "$TOP/tools/lib/common.sh"
# setup_file's variables, arrays included (declare -g: bats sources this file in a function)
# shellcheck source=/dev/null
[ ! -f "$BATS_FILE_TMPDIR/state" ] || . "$BATS_FILE_TMPDIR/state"
name=bsk-selftest
me="Test Sender <test.sender@example.org>"

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
am_all() { at_base && am "${td[@]/#/$tmp/v1/}"; }

cleanup() { # what the runs leave in the kernel repository
	local t
	git -C "$repo" worktree remove --force "$tmp/am" 2>/dev/null || true
	for t in "${threads[@]}"; do
		git -C "$repo" tag -l "sent/$name-$t-v1" "sent/*-$name-$t-*-v1" | xargs -r git -C "$repo" tag -d >/dev/null
		git -C "$repo" worktree remove --force "$BSK_CACHE/send/$tag-$name-$t" 2>/dev/null || true
		git -C "$repo" branch -D "b4/$name-$t" "b4/$name-$t-wip" >/dev/null 2>&1 || true
	done
}

# v1, recorded as sent (the archive then holds its mails), then v2
setup_file() {
	local b4 i id port
	b4=$("$BSK_TOP/tools/env/b4.sh")
	PATH=$(dirname "$b4"):$PATH
	read -r repo wt base < <("$BSK_TOP/tools/env/tree.sh") || { echo "no kernel base (tools/env/tree.sh)"; return 1; }
	tag=$(basename "$wt")
	tmp=$BATS_FILE_TMPDIR
	mapfile -t tp < <(series_threads "$(bsk_series)")
	mapfile -t threads < <(printf '%s\n' "${tp[@]%% *}" | uniq)
	td=() ks=() # each thread's directory in a run, its number of patches
	for i in "${!threads[@]}"; do
		td+=("$((i + 1))-${threads[i]}")
		ks+=("$(printf '%s\n' "${tp[@]}" | grep -c "^${threads[i]} ")")
	done
	n=$(git -C "$repo" rev-list --count "$base..$BSK_BRANCH")
	base_sha=$(git -C "$repo" rev-parse "$base^{commit}")
	nrep=$(find "$BSK_TOP/patches" -maxdepth 1 -type f -name 'report-*' | wc -l)
	cleanup
	mkdir -p "$tmp/lore"
	export GIT_CONFIG_GLOBAL=$tmp/gitconfig NO_PROXY=127.0.0.1 no_proxy=127.0.0.1
	git config --global user.name "Test Sender"
	git config --global user.email test.sender@example.org
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	python3 "$TOP/tests/lore-stub.py" "$port" "$tmp/lore" >"$tmp/lore.log" 2>&1 3>&- &
	lore_pid=$!
	# searches too: nothing b4 asks may reach lore
	git config --global b4.midmask "http://127.0.0.1:$port/all/%s"
	git config --global b4.searchmask "http://127.0.0.1:$port/all/?x=m&q=%s"

	send1=0
	SEND_OUT=$tmp/v1 REV=1 BSK_SEND_NAME=$name "$BSK_TOP/tools/send.sh" >"$tmp/send1.out" 2>"$tmp/send1.err" ||
		send1=$?
	git -C "$repo" worktree add -q --detach "$tmp/am" "$base"
	cp -r "$tmp/v1" "$tmp/lore/"
	reroll=0
	for i in "${!threads[@]}"; do
		id=$(header "$(cover "$tmp/v1/${td[i]}")" | sed -n 's/^Message-Id: *<\(.*\)>.*/\1/Ip')
		(cd "$BSK_CACHE/send/$tag-$name-${threads[i]}" && b4 -q prep --manual-reroll "$id") >>"$tmp/reroll.log" 2>&1 ||
			reroll=1
	done
	send2=0
	SEND_OUT=$tmp/v2 REV=2 BSK_SEND_NAME=$name "$BSK_TOP/tools/send.sh" >/dev/null 2>"$tmp/send2.err" || send2=$?
	declare -p repo base tag tmp threads td ks n base_sha nrep send1 reroll send2 |
		sed 's/^declare /declare -g /' >"$tmp/state"
}

teardown_file() {
	[ -z "${lore_pid:-}" ] || kill "$lore_pid" 2>/dev/null
	[ -z "${repo:-}" ] || cleanup
}

@test "make send wrote ${#threads[@]} threads (${threads[*]}), each a cover letter and its patches (one mail for one patch)" {
	cat "$tmp/send1.err"
	[ "$send1" -eq 0 ]
	[ "$(cat "$tmp/send1.out")" = "$tmp/v1" ]
	for i in "${!threads[@]}"; do
		k=${ks[i]}
		[ "$(mails "$tmp/v1/${td[i]}" | wc -l)" -eq $((k > 1 ? k + 1 : k)) ]
	done
}

@test "each patch of the ${threads[0]} thread applies to $base alone" {
	local nf=0 bad=0 m
	while IFS= read -r m; do
		nf=$((nf + 1))
		at_base
		am "$m" || bad=$((bad + 1))
	done < <(patches "$tmp/v1/${td[0]}")
	echo "$nf patches, $bad not"
	[ "$nf" -gt 0 ]
	[ "$bad" -eq 0 ]
}

@test "each thread applies to $base alone (${#threads[@]})" {
	local bad=0 d
	for d in "${td[@]}"; do
		at_base
		am "$tmp/v1/$d" || bad=$((bad + 1))
	done
	[ "$bad" -eq 0 ]
}

@test "the threads git am onto $base in order" {
	am_all
}

@test "they give the tree of the applied series, $n commits" {
	am_all
	git -C "$tmp/am" diff --quiet "$BSK_BRANCH" --
	[ "$(git -C "$tmp/am" rev-list --count "$base..HEAD")" -eq "$n" ]
}

@test "every patch is authored and signed off by the sender, not by $BSK_NAME" {
	local bad=0 c tr
	am_all
	for c in $(git -C "$tmp/am" rev-list "$base..HEAD"); do
		tr=$(git -C "$tmp/am" log -1 --format=%B "$c" | git interpret-trailers --parse)
		{ [ "$(git -C "$tmp/am" log -1 --format='%an <%ae>' "$c")" = "$me" ] &&
			[ "$(tail -n 1 <<<"$tr")" = "Signed-off-by: $me" ] &&
			! grep -q "^Signed-off-by: .*$BSK_EMAIL" <<<"$tr"; } || { echo "not: $c"; bad=$((bad + 1)); }
	done
	[ "$bad" -eq 0 ]
}

@test "no From/To/Cc header or Signed-off-by of any mail names an .invalid address" {
	local bad=0 m
	while IFS= read -r m; do
		if { header "$m" | grep -E '^(From|To|Cc):'; grep -E '^Signed-off-by:' "$m"; } | grep -i '\.invalid\b'; then
			echo "in $m"
			bad=$((bad + 1))
		fi
	done < <(find "$tmp/v1" -name '*.eml')
	[ "$bad" -eq 0 ]
}

# b4's footer has the base and no prerequisite
@test "each cover letter names the base ($tag) and no prerequisite; the RFC threads are [PATCH RFC ...]" {
	local rc=0 i c m
	for i in "${!threads[@]}"; do
		c=$(cover "$tmp/v1/${td[i]}")
		{ grep -q "^Base: $tag" "${c:-/dev/null}" && grep -q '^change-id: ' "$c" && ! grep -q '^prerequisite-' "$c"; } ||
			{ echo "${threads[i]}: no Base:, no change-id or a prerequisite: $c"; rc=1; }
		[ "$i" -eq 0 ] || grep -qx "base-commit: $base_sha" "${c:-/dev/null}" ||
			{ echo "${threads[i]}: not base-commit $base_sha"; rc=1; }
		is_rfc_thread "${threads[i]}" || continue
		while IFS= read -r m; do
			header "$m" | grep -q '^Subject: \[PATCH RFC' || { echo "${threads[i]}: not [PATCH RFC ...]: $m"; rc=1; }
		done < <(mails "$tmp/v1/${td[i]}")
	done
	[ "$rc" -eq 0 ]
}

@test "the for-next cover letter goes to linux-block and the KUnit lists" {
	local c l
	c=$(cover "$tmp/v1/2-for-next")
	for l in linux-kselftest@vger.kernel.org kunit-dev@googlegroups.com linux-block@vger.kernel.org; do
		header "${c:-/dev/null}" | grep -E '^Cc:' | grep -qF "$l"
	done
}

@test "each report in patches/ ($nrep) is a mail from the sender to the maintainers of its files, or a draft, not written" {
	local rc=0 r m h
	for r in "$BSK_TOP"/patches/report-*; do
		[ -f "$r" ] || continue
		m=$tmp/v1/${r##*/}.eml
		if [ "$(head -c 7 "$r")" = "Draft: " ]; then
			[ ! -e "$m" ] || { echo "a draft, written: $m"; rc=1; }
			continue
		fi
		h=$(header "$m" 2>/dev/null) || { echo "not written: $m"; rc=1; continue; }
		{ grep -qxF 'From: "Test Sender" <test.sender@example.org>' <<<"$h" && grep -q '^To: .*@' <<<"$h" &&
			grep -qxF "Subject: $(sed -n '1,/^$/s/^Subject: //p' "$r")" <<<"$h" &&
			[ "$(sed '1,/^$/d' "$m" | head -n 3)" = "$(sed '1,/^$/d' "$r" | head -n 3)" ]; } ||
			{ echo "not from the sender, to the maintainers, with the report's text: $m"; rc=1; }
	done
	[ "$rc" -eq 0 ]
}

@test "the blktests thread is a mail from the sender to its maintainer and linux-block, and applies to blktests" {
	local bt h src
	[ -f "$BSK_TOP/patches/blktests/series" ] || skip "no patches/blktests/series"
	bt=$(mails "$tmp/v1/blktests" | head -n 1)
	[ -n "$bt" ]
	h=$(header "$bt")
	grep -qx "From: $me" <<<"$h"
	grep -q '^To: .*@' <<<"$h"
	grep -q '^Cc: .*linux-block@vger.kernel.org' <<<"$h"
	grep -qx "Signed-off-by: $me" "$bt"
	src=$(cd "$BSK_TOP/.." && pwd)/shared/blktests
	[ -d "$src" ] || return 0
	mkdir -p "$BATS_TEST_TMPDIR/bt"
	tar -C "$src" --exclude=./.git -cf - . | tar -C "$BATS_TEST_TMPDIR/bt" -xf -
	(cd "$BATS_TEST_TMPDIR/bt" && GIT_CEILING_DIRECTORIES=$BATS_TEST_TMPDIR git apply --check "$bt")
}

@test "v1 recorded with b4 prep --manual-reroll in each thread's b4 branch" {
	cat "$tmp/reroll.log"
	[ "$reroll" -eq 0 ]
}

@test "v2 keeps each thread's change-id" {
	local i c1 id1
	cat "$tmp/send2.err"
	[ "$send2" -eq 0 ]
	for i in "${!threads[@]}"; do
		c1=$(cover "$tmp/v1/${td[i]}")
		id1=$(sed -n 's/^change-id: //p' "${c1:-/dev/null}")
		[ -n "$id1" ]
		[ "$id1" = "$(sed -n 's/^change-id: //p' "$(cover "$tmp/v2/${td[i]}")")" ]
	done
}

@test "v2's cover letters carry the v2 changelog and the range-diff against v1 (every patch '=')" {
	local rd=0 i t k c2 subj pfx log
	[ "$send2" -eq 0 ]
	for i in "${!threads[@]}"; do
		t=${threads[i]} k=${ks[i]}
		c2=$(cover "$tmp/v2/${td[i]}")
		c2=${c2:-/dev/null}
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
			[ "$(grep -cE '^ *[0-9]+: +[0-9a-f]+ = +[0-9]+: +[0-9a-f]+ ' "$c2")" -eq "$k" ]; } ||
			{ echo "$t: $c2"; rd=1; }
	done
	[ "$rd" -eq 0 ]
}

change_ids() {
	local t
	for t in "${threads[@]}"; do
		printf '%s=' "$t"
		git -C "$repo" log -1 --format=%B -F --grep='--- b4-submit-tracking ---' "b4/$name-$t" 2>/dev/null |
			sed -n 's/^ *"change-id": *"\([^"]*\)".*/\1/p' | head -n 1
	done
}

# shims of git and b4 signal send.sh's process group at the INT_AT-th call that matches INT_MATCH
@test "send.sh interrupted at $((${#threads[@]} + 2)) points (each thread's cover replay, the first b4 call, the cover edit) keeps every thread's change-id" {
	local shim=$BATS_TEST_TMPDIR/shim count=$BATS_TEST_TMPDIR/int.count p k pt rc before after points=() bad=0
	mkdir -p "$shim"
	for p in git b4; do
		cat >"$shim/$p" <<EOF
#!/bin/sh
case " $p \$* " in
*"\$INT_MATCH"*)
	n=\$((\$(cat "\$INT_COUNT" 2>/dev/null || echo 0) + 1))
	echo "\$n" >"\$INT_COUNT"
	[ "\$n" -ne "\$INT_AT" ] || { kill -INT 0; exit 130; } ;;
esac
exec $(command -v "$p") "\$@"
EOF
		chmod +x "$shim/$p"
	done
	before=$(change_ids)
	echo "change-ids: $before"
	[ -n "$before" ]
	run ! grep -q '=$' <<<"$before"
	for ((k = 1; k <= ${#threads[@]}; k++)); do points+=("cherry-pick --allow-empty:$k"); done
	points+=("b4 -q prep --force-revision:1" "b4 -q prep --edit-cover:1")
	for pt in "${points[@]}"; do
		rm -f "$count"
		rc=0
		INT_MATCH=${pt%:*} INT_AT=${pt##*:} INT_COUNT=$count PATH=$shim:$PATH \
			SEND_OUT=$BATS_TEST_TMPDIR/int-${pt##*:}-${pt%% *} REV=2 BSK_SEND_NAME=$name \
			setsid -w "$BSK_TOP/tools/send.sh" >/dev/null 2>&1 || rc=$?
		# the run must have stopped there, and changed no change-id
		{ [ "$rc" -ne 0 ] && [ "$(cat "$count" 2>/dev/null)" = "${pt##*:}" ]; } ||
			{ echo "send.sh was not interrupted at '$pt' (exit $rc)"; bad=$((bad + 1)); }
		after=$(change_ids)
		[ "$after" = "$before" ] || { echo "interrupted at '$pt': change-ids $before became $after"; bad=$((bad + 1)); }
	done
	[ "$bad" -eq 0 ]
}
