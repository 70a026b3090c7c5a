# SPDX-License-Identifier: GPL-2.0
DESCRIPTION="same object code for patches that claim no functional change"

run() {
	local wt=$1 L=$4 c subj rc last commits
	mapfile -t commits < <(git -C "$wt" rev-list --reverse "$2..HEAD")
	for c in "${commits[@]}"; do
		git -C "$wt" log -1 --format=%B "$c" | grep -qi 'no functional change' || continue
		subj=$(git -C "$wt" log -1 --format=%s "$c")
		step tools/gate/objcheck.sh "$wt" "$c^" "$c" >"$L/nfc-$c.log" 2>&1
		rc=$?
		cat "$L/nfc-$c.log"
		result "same object code (tiny, bench, distro configs): $subj ($BASE)" "$rc"
	done
	# The tests' own cost: full pass only (LTS shares the suites), up to the RFC (which changes code).
	[ "$CHECK_LIGHT" = 0 ] || return 0
	last=${commits[${#commits[@]} - 1 - $(series_rfc_count "$3")]}
	for c in "${commits[@]}"; do
		[ -n "$(git -C "$wt" diff-tree --no-commit-id --name-only -r --diff-filter=A "$c" -- block/tests)" ] || continue
		NFC_CONFIGS="tiny distro" NFC_KUNIT="m y" step tools/gate/objcheck.sh "$wt" "$c^" "$last" \
			>"$L/nfc-tests.log" 2>&1
		rc=$?
		cat "$L/nfc-tests.log"
		result "the tests change no object code with CONFIG_KUNIT=m, nor =y with the tests off (tiny, distro configs; $BASE)" "$rc"
		break
	done
}
