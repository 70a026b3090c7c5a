#!/usr/bin/env bats
# apply.sh and refresh.sh on a fake kernel tree: clean apply, conflict
# handling, the refresh round trip, and refusals that protect user work.

bats_require_minimum_version 1.5.0

load helper

setup() {
	common_setup
	K=$BATS_TEST_TMPDIR/linux
	T=$BATS_TEST_TMPDIR/top
	fake_kernel "$K"
	fake_series "$K" "$T"
	export KERNEL=$K
}

@test "apply: series goes into a worktree branch, KERNEL untouched" {
	head=$(git -C "$K" rev-parse HEAD)
	run "$TOP/tools/apply.sh" "$T/series"
	[ "$status" -eq 0 ]
	wt=${lines[-1]}
	[ "$(git -C "$wt" rev-list --count "$head..HEAD")" -eq 2 ]
	[ "$(git -C "$wt" log -1 --format=%s)" = "block, bfq: second change" ]
	[ "$(git -C "$K" rev-parse HEAD)" = "$head" ]
	[ "$(git -C "$K" symbolic-ref --short HEAD)" = master ]
	[ -z "$(git -C "$K" status --porcelain)" ]
}

@test "apply: a patch that does not apply is named, with its file; tree left at base" {
	sed -i 's/^-line 9$/-line NINE/' "$T/patches/block-bfq-second-change.patch"
	run "$TOP/tools/apply.sh" "$T/series"
	[ "$status" -ne 0 ]
	[[ "${lines[-1]}" == *"patch block-bfq-second-change.patch does not apply"* ]]
	[[ "${lines[-1]}" == *"block/bfq-iosched.c"* ]]
	read -r _ wt base < <("$TOP/tools/env/tree.sh")
	[ "$(git -C "$wt" rev-parse HEAD)" = "$base" ]
	[ ! -d "$(git -C "$wt" rev-parse --git-dir)/rebase-apply" ]
	[ -z "$(git -C "$wt" status --porcelain)" ]
}

@test "apply: a series naming a missing patch fails before touching anything" {
	echo "no-such.patch" >>"$T/series"
	run "$TOP/tools/apply.sh" "$T/series"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"no-such.patch"*"does not exist"* ]]
	[ ! -e "$BSK_CACHE/work" ]
}

@test "apply then refresh gives byte-identical patches and series, a patch's trailing comment kept" {
	# a note after a patch's name (the reverts stage's "# blktests: T")
	sed -i '0,/\.patch$/s/\.patch$/.patch # blktests: block\/048/' "$T/series"
	grep -q '\.patch # blktests: block/048$' "$T/series"
	cp -r "$T" "$BATS_TEST_TMPDIR/orig"
	run "$TOP/tools/apply.sh" "$T/series"
	[ "$status" -eq 0 ]
	run "$TOP/tools/refresh.sh" "$T/series"
	[ "$status" -eq 0 ]
	diff -r "$BATS_TEST_TMPDIR/orig" "$T"
}

@test "apply then refresh keeps a mainline mail's note below its ---" {
	f=$T/patches/block-bfq-first-change.patch
	sed -i '0,/^---$/{/^---$/a\
A note for reviewers.\

}' "$f"
	grep -q "^A note for reviewers.$" "$f"
	cp "$f" "$BATS_TEST_TMPDIR/with-note"
	run "$TOP/tools/apply.sh" "$T/series"
	[ "$status" -eq 0 ]
	run "$TOP/tools/refresh.sh" "$T/series"
	[ "$status" -eq 0 ]
	cmp "$BATS_TEST_TMPDIR/with-note" "$f"
}

@test "refresh exports a new commit under its subject's name" {
	run "$TOP/tools/apply.sh" "$T/series"
	wt=${lines[-1]}
	echo new >"$wt/block/new.c"
	git -C "$wt" add block/new.c
	git -C "$wt" -c user.name=x -c user.email=x@x commit -q -s -m "block: third change"
	run "$TOP/tools/refresh.sh" "$T/series"
	[ "$status" -eq 0 ]
	[ "$(tail -n 1 "$T/series")" = "block-third-change.patch" ]
	[ -f "$T/patches/block-third-change.patch" ]
	[ "$(head -n 1 "$T/series")" = "# test series" ]
	# the thread markers stay before the patches they began
	[ "$(grep -A1 '^# thread' "$T/series" | grep -v '^--')" = "$(printf '%s\n' '# thread fixes: the fix' \
		block-bfq-first-change.patch '# thread for-next: the rest' block-bfq-second-change.patch)" ]
	[ -f "$T/patches/cover-letter-fixes" ]
	[ -f "$T/patches/cover-letter-for-next" ]
}

@test "refresh keeps a patch added at the end of the first thread in that thread" {
	run "$TOP/tools/apply.sh" "$T/series"
	wt=${lines[-1]}
	base=$(git -C "$wt" rev-list --max-parents=0 HEAD)
	first=$(git -C "$wt" rev-list --reverse "$base..HEAD" | head -n 1)
	second=$(git -C "$wt" rev-parse HEAD)
	git -C "$wt" reset -q --hard "$first"
	echo fix >"$wt/block/fix.c"
	git -C "$wt" add block/fix.c
	git -C "$wt" -c user.name=x -c user.email=x@x commit -q -s -m "block: another fix"
	git -C "$wt" -c user.name=x -c user.email=x@x cherry-pick "$second" >/dev/null
	run "$TOP/tools/refresh.sh" "$T/series"
	[ "$status" -eq 0 ]
	[ "$(sed 1d "$T/series")" = "$(printf '%s\n' '# thread fixes: the fix' \
		block-bfq-first-change.patch block-another-fix.patch '# thread for-next: the rest' \
		block-bfq-second-change.patch)" ]
	run ! grep -q "left the series" <<<"$output"
}

@test "lint-series: a thread without its cover letter, or in two places, is reported" {
	rm "$T/patches/cover-letter-for-next"
	echo '# thread fixes: again' >>"$T/series"
	echo block-bfq-first-change.patch >>"$T/series"
	run "$TOP/tools/gate/lint-series.sh" "$T/series"
	[ "$status" -eq 1 ]
	[[ "$output" == *"no cover letter for thread for-next"* ]]
	[[ "$output" == *"thread fixes is in two places"* ]]
}

@test "lint-series: a thread after an RFC thread is reported; common.sh counts the RFC thread's patches" {
	cat "$T/series" >"$BATS_TEST_TMPDIR/orig"
	# the fixture's second patch as an RFC thread of its own, last
	awk '/block-bfq-second-change.patch/ { print "# thread rfc: an RFC" } { print }' \
		"$BATS_TEST_TMPDIR/orig" >"$T/series"
	cp "$T/patches/cover-letter-for-next" "$T/patches/cover-letter-rfc"
	run "$TOP/tools/gate/lint-series.sh" "$T/series"
	[ "$status" -eq 0 ]
	run bash -c ". '$TOP/tools/lib/common.sh'; series_rfc_count '$T/series'"
	[ "$output" = 1 ]
	run bash -c ". '$TOP/tools/lib/common.sh'; series_rfc_count '$BATS_TEST_TMPDIR/orig'"
	[ "$output" = 0 ]
	# a thread after it
	printf '# thread later: after the RFC\nblock-bfq-first-change.patch\n' >>"$T/series"
	sed -i '0,/^block-bfq-first-change.patch$/{/^block-bfq-first-change.patch$/d}' "$T/series"
	cp "$T/patches/cover-letter-for-next" "$T/patches/cover-letter-later"
	run "$TOP/tools/gate/lint-series.sh" "$T/series"
	[ "$status" -eq 1 ]
	[[ "$output" == *"thread later comes after the RFC thread rfc"* ]]
}

@test "refresh refuses while patches/ has uncommitted edits" {
	git -C "$T" init -q
	git -C "$T" add -A
	git -C "$T" commit -q -m series
	run "$TOP/tools/apply.sh" "$T/series"
	echo "# my edit" >>"$T/patches/block-bfq-first-change.patch"
	cp "$T/patches/block-bfq-first-change.patch" "$BATS_TEST_TMPDIR/mine"
	run "$TOP/tools/refresh.sh" "$T/series"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"uncommitted edits"* ]]
	cmp "$T/patches/block-bfq-first-change.patch" "$BATS_TEST_TMPDIR/mine"
}

@test "apply refuses to drop commits that were never refreshed" {
	run "$TOP/tools/apply.sh" "$T/series"
	wt=${lines[-1]}
	git -C "$wt" -c user.name=x -c user.email=x@x commit -q --allow-empty -m "my work"
	mine=$(git -C "$wt" rev-parse HEAD)
	run "$TOP/tools/apply.sh" "$T/series"
	[ "$status" -ne 0 ]
	[[ "$output" == *"commits that are not in patches/"* ]]
	[ "$(git -C "$wt" rev-parse HEAD)" = "$mine" ]
}

@test "apply refuses a worktree with uncommitted changes" {
	run "$TOP/tools/apply.sh" "$T/series"
	wt=${lines[-1]}
	echo edit >>"$wt/block/blk-mq.c"
	run "$TOP/tools/apply.sh" "$T/series"
	[ "$status" -ne 0 ]
	[[ "$output" == *"uncommitted changes"* ]]
	grep -q edit "$wt/block/blk-mq.c"
}

@test "apply again with nothing changed leaves the files alone" {
	run "$TOP/tools/apply.sh" "$T/series"
	[ "$status" -eq 0 ]
	wt=${lines[-1]}
	touch -d '2001-01-01' "$wt/block/bfq-iosched.c"
	run "$TOP/tools/apply.sh" "$T/series"
	[ "$status" -eq 0 ]
	[[ "$output" == *"already applied"* ]]
	[ "$(stat -c %Y "$wt/block/bfq-iosched.c")" = "$(date -d 2001-01-01 +%s)" ]
}

@test "KERNEL with an existing branch of our name: one error line" {
	git -C "$K" branch blk-sched-kunit
	run "$TOP/tools/apply.sh" "$T/series"
	[ "$status" -ne 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"branch blk-sched-kunit already exists"* ]]
}

@test "lint-series: the fixture series is consistent" {
	run "$TOP/tools/gate/lint-series.sh" "$T/series"
	[ "$status" -eq 0 ]
}

@test "lint-series: orphan, missing file and missing Signed-off-by are reported" {
	cp "$T/patches/block-bfq-first-change.patch" "$T/patches/orphan.patch"
	echo gone.patch >>"$T/series"
	sed -i '/^Signed-off-by:/d' "$T/patches/block-bfq-second-change.patch"
	run "$TOP/tools/gate/lint-series.sh" "$T/series"
	[ "$status" -ne 0 ]
	[[ "$output" == *"orphan.patch is in"*"not listed"* ]]
	[[ "$output" == *"lists gone.patch but"* ]]
	[[ "$output" == *"block-bfq-second-change.patch: no 'Signed-off-by"* ]]
}

@test "apply again after a patch changed re-applies it" {
	run "$TOP/tools/apply.sh" "$T/series"
	wt=${lines[-1]}
	sed -i 's/^Why and what\.$/Why, and then what./' "$T/patches/block-bfq-second-change.patch"
	run "$TOP/tools/apply.sh" "$T/series"
	[ "$status" -eq 0 ]
	[[ "$(git -C "$wt" log -1 --format=%B)" == *"Why, and then what."* ]]
}

@test "LTS series: refresh lists an unchanged patch by its mainline name, a changed one under <V>/ with its note kept" {
	cp -r "$T" "$BATS_TEST_TMPDIR/orig"
	cp "$T/series" "$T/series-6.12"
	run "$TOP/tools/apply.sh" "$T/series-6.12"
	[ "$status" -eq 0 ]
	wt=${lines[-1]}
	sed -i 's/^line nine$/line nine (6.12)/' "$wt/block/bfq-iosched.c"
	git -C "$wt" -c user.name="blk-sched-kunit maintainers" \
		-c user.email=maintainers@blk-sched-kunit.invalid commit -q -a --amend --no-edit
	run "$TOP/tools/refresh.sh" "$T/series-6.12"
	[ "$status" -eq 0 ]
	for f in "$BATS_TEST_TMPDIR"/orig/patches/*; do cmp "$f" "$T/patches/${f##*/}"; done
	cmp "$BATS_TEST_TMPDIR/orig/series" "$T/series"
	[ "$(grep -v '^#' "$T/series-6.12")" = "block-bfq-first-change.patch
6.12/block-bfq-second-change.patch" ]
	grep -q '^+line nine (6.12)$' "$T/patches/6.12/block-bfq-second-change.patch"
	# without a note below --- the LTS patch is refused
	run "$TOP/tools/gate/lint-series.sh" "$T/series-6.12"
	[ "$status" -ne 0 ]
	[[ "$output" == *"6.12/block-bfq-second-change.patch: no note below '---'"* ]]
	sed -i '0,/^---$/s//---\n6.12: line nine differs.\n/' "$T/patches/6.12/block-bfq-second-change.patch"
	run "$TOP/tools/gate/lint-series.sh" "$T/series-6.12"
	[ "$status" -eq 0 ]
	# the note survives apply and refresh
	cp "$T/patches/6.12/block-bfq-second-change.patch" "$BATS_TEST_TMPDIR/with-note"
	run "$TOP/tools/apply.sh" "$T/series-6.12"
	[ "$status" -eq 0 ]
	run "$TOP/tools/refresh.sh" "$T/series-6.12"
	[ "$status" -eq 0 ]
	cmp "$BATS_TEST_TMPDIR/with-note" "$T/patches/6.12/block-bfq-second-change.patch"
}

@test "LTS series: a copy of a mainline patch under <V>/ is refused" {
	mkdir -p "$T/patches/6.12"
	cp "$T/patches/block-bfq-first-change.patch" "$T/patches/6.12/"
	sed -i '0,/^---$/s//---\n6.12: a note./' "$T/patches/6.12/block-bfq-first-change.patch"
	sed 's|^block-bfq-first|6.12/block-bfq-first|' "$T/series" >"$T/series-6.12"
	run "$TOP/tools/gate/lint-series.sh" "$T/series-6.12"
	[ "$status" -ne 0 ]
	[[ "$output" == *"6.12/block-bfq-first-change.patch is the mainline patch block-bfq-first-change.patch unchanged"* ]]
}

@test "apply: a run stopped in the middle of git am is started again from the base, not taken for user commits" {
	run "$TOP/tools/apply.sh" "$T/series"
	[ "$status" -eq 0 ]
	wt=${lines[-1]}
	gitdir=$(git -C "$wt" rev-parse --absolute-git-dir)
	# as a killed run leaves it: the first patch in, the marker still there
	git -C "$wt" reset -q --hard HEAD~1
	: >"$gitdir/bsk-applying"
	run "$TOP/tools/apply.sh" "$T/series"
	[ "$status" -eq 0 ]
	[[ "$output" == *"an earlier apply in $wt was interrupted; starting again from"* ]]
	[ "$(git -C "$wt" log -1 --format=%s)" = "block, bfq: second change" ]
	[ ! -e "$gitdir/bsk-applying" ]
	# without the marker the same state is refused (it could be the user's)
	git -C "$wt" reset -q --hard HEAD~1
	run "$TOP/tools/apply.sh" "$T/series"
	[ "$status" -ne 0 ]
	[[ "$output" == *"has commits that are not in patches/"* ]]
}

# README's "Change a patch and retest" block, run as printed in a clone of
# the fake series: the edit comment becomes an amended commit, and
# `make kunit` is not this test's (no kernel to build).
@test "README's edit loop runs twice as printed, each round exported" {
	cp "$TOP/Makefile" "$T/"
	ln -s "$TOP/tools" "$T/tools"
	git -C "$T" init -q && git -C "$T" add -A && git -C "$T" commit -q -m series
	loop=$(sed -n '/^## Change a patch and retest/,/^## /p' "$TOP/README.md" | sed -n '/^```sh$/,/^```$/p' | sed '1d;$d')
	[[ $loop == *"make refresh && git diff patches/"* ]]
	# the worktree of KERNEL= instead of the Debian base's
	read -r _ wt _ < <("$TOP/tools/env/tree.sh")
	loop=${loop//\~\/.cache\/blk-sched-kunit\/work\/v7.3.4/$wt}
	loop=${loop//make kunit/true}
	for n in 3 4; do
		edit="sed -i 's/^line $n\$/line $n edited/' block/bfq-iosched.c && git commit -qa --amend --no-edit"
		run env BSK_TOP="$T" bash -ec "cd '$T'; $(awk -v e="$edit" '/^# edit/ { $0 = e } 1' <<<"$loop")"
		[ "$status" -eq 0 ] || { echo "round $n: $output"; false; }
		grep -q "^+line $n edited" "$T/patches/block-bfq-second-change.patch"
	done
	grep -q '^+line 3 edited' "$T/patches/block-bfq-second-change.patch"
	# an edit of the user's own is still refused, and kept
	echo "# mine" >>"$T/patches/block-bfq-first-change.patch"
	BSK_TOP=$T run ! "$TOP/tools/refresh.sh" "$T/series"
	[[ "$output" == *"uncommitted edits refresh did not write (patches/block-bfq-first-change.patch)"* ]]
	tail -n 1 "$T/patches/block-bfq-first-change.patch" | grep -qx '# mine'
}

@test "make clean takes out of KERNEL= what the tools added, keeps b4's change-ids, and refuses to lose work" {
	before=$(git -C "$K" for-each-ref --format='%(refname)')
	run "$TOP/tools/apply.sh" "$T/series"
	wt=${lines[-1]}
	git -C "$K" branch -q b4/blk-sched-kunit-for-next
	git -C "$K" branch -q b4/blk-sched-kunit-for-next-wip
	git -C "$K" tag sent/blk-sched-kunit-for-next-v1
	# unexported work in the worktree: nothing is removed
	git -C "$wt" commit -q --allow-empty -m "my work"
	run ! "$TOP/tools/clean.sh"
	[[ "$output" == *"has commits that are not in patches/"* ]]
	[ -d "$wt" ]
	git -C "$wt" reset -q --hard HEAD~1
	run "$TOP/tools/clean.sh"
	[ "$status" -eq 0 ]
	[ ! -e "$wt" ]
	[ "$(git -C "$K" worktree list | wc -l)" -eq 1 ]
	[ "$(git -C "$K" for-each-ref --format='%(refname)' | grep -vx -F "$before")" = "$(printf 'refs/heads/b4/blk-sched-kunit-for-next\nrefs/tags/sent/blk-sched-kunit-for-next-v1')" ]
	[[ "$output" == *"kept (change-ids and what was sent, for b4's next revision): b4/blk-sched-kunit-for-next sent/blk-sched-kunit-for-next-v1"* ]]
}
