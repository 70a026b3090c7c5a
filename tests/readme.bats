#!/usr/bin/env bats
# The make commands README.md and docs/ give a reader: each names a target
# of the Makefile, and each `make check` among them has arguments the gate
# accepts (check.sh stops after its argument check: CHECK_ARGS_ONLY=1).

load helper
bats_require_minimum_version 1.5.0

setup() {
	common_setup
}

# commands FILE...: every make command, one per line: `make ...` in the
# text, and command lines that start with make (comments cut).
commands() {
	python3 - "$@" <<'PY'
import re, shlex, sys
for f in sys.argv[1:]:
    for line in open(f):
        found = re.findall(r"`(make(?: [^`]*)?)`", line)
        m = re.match(r"^\s*(make(?:\s.*)?)$", line.rstrip("\n"))
        if m and not found:
            found = [m.group(1).split(" #")[0]]
        for c in found:
            print(f"{f.rsplit('/', 1)[-1]}\t{' '.join(shlex.split(c.replace('~', '/home/u')))}")
PY
}

targets() {
	sed -n 's/^\.PHONY: //p' "$TOP/Makefile"
}

@test "readme: every make command in README and docs/ names a target of the Makefile" {
	local t bad=
	t=" $(targets) "
	while IFS=$'\t' read -r f c; do
		set -f
		# shellcheck disable=SC2086 # the command's words
		set -- $c
		set +f
		shift
		while [ $# -gt 0 ] && [[ $1 == *=* ]]; do shift; done
		[ $# -gt 0 ] || continue # make VAR=...: the default target
		[ "$1" != headers_install ] || continue # the kernel's (docs/blktests.md)
		[[ $t == *" $1 "* ]] || bad+="$f: $c; "
	done < <(commands "$TOP/README.md" "$TOP"/docs/*.md)
	[ -z "$bad" ] || { echo "no such target: $bad"; false; }
}

@test "readme: every make check command in README and docs/ has arguments the gate accepts" {
	local n=0 f c
	while IFS=$'\t' read -r f c; do
		[[ $c == "make check"* ]] || continue
		[[ $c == *STAGES=* || $c == *PATCHES=* || $c == *BASE=* ]] || continue
		n=$((n + 1))
		# the words after "make check" as the environment of check.sh
		run env -i PATH="$PATH" HOME="$HOME" BSK_CACHE="$BSK_CACHE" CHECK_ARGS_ONLY=1 \
			bash -c 'eval "export $1"; exec "$2"' _ "${c#make check}" "$TOP/tools/check.sh"
		[ "$status" -eq 0 ] || { echo "$f: $c: $output"; false; }
	done < <(commands "$TOP/README.md" "$TOP"/docs/*.md)
	[ "$n" -gt 0 ]
}

@test "readme: a make check command the gate refuses is caught" {
	CHECK_ARGS_ONLY=1 STAGES="patches nfc" PATCHES=6 run ! "$TOP/tools/check.sh"
	[[ "$output" == *"PATCHES=6 needs BASE=mainline or BASE=lts"* ]]
	CHECK_ARGS_ONLY=1 BASE=mainline STAGES="patches nfc" PATCHES=6 run "$TOP/tools/check.sh"
	[[ "$output" == *"arguments ok: STAGES=patches nfc PATCHES=6"* ]]
}

@test "readme: the git am command of README's first screen lists every patch of series, in order" {
	local line cmd
	line=$(grep -m1 '^git am \$(sed ' "$TOP/README.md")
	[ -n "$line" ]
	# the command's $(...) with the repository where README says /path/to
	cmd=${line#git am \$(}
	cmd=${cmd%)}
	cmd=${cmd//\/path\/to\/blk-sched-kunit/$TOP}
	run bash -c "$cmd"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq "$(sed 's/[[:space:]]*#.*//' "$TOP/series" | grep -c .)" ]
	for f in "${lines[@]}"; do
		[ -f "$f" ] || { echo "no such patch: $f"; false; }
	done
	[ "$(printf '%s\n' "${lines[@]##*/}")" = "$(sed 's/[[:space:]]*#.*//' "$TOP/series" | grep .)" ]
}

@test "readme: make help prints every target README's table names" {
	local t
	run make -s -C "$TOP" help
	[ "$status" -eq 0 ]
	for t in check send mutate bench stress blktests s3-trace arches coverage apply refresh kunit test-tools; do
		[[ "$output" == *"make $t"* || "$output" == *" $t "* || "$output" == *"| $t"* ]] || { echo "help lacks $t"; false; }
	done
}

@test "readme: README.md is at most 200 lines; the rest is in docs/ by task" {
	[ "$(wc -l <"$TOP/README.md")" -le 200 ]
}
