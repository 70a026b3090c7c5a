#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# warnlog.sh KIND CMD [ARG...] - run a compiler (KIND=cc, as kbuild's CC)
# or a checker (KIND=sparse, as kbuild's CHECK) and keep a copy of what it
# prints on stderr in $BSK_WARN_DIR/KIND/, one file per object (cc: the -o
# argument) or source file (sparse: the last argument).  Objects kbuild
# does not rebuild keep their file, so the directory always holds the
# diagnostics of the whole build, and two builds can be compared without
# rebuilding everything.  Anything else (cc-option probes, -E, linking)
# is passed through untouched.
set -u
kind=$1
shift
key=
prev=
for a in "$@"; do
	[ "$prev" != -o ] || key=$a
	prev=$a
done
[ "$kind" != sparse ] || key=${!#}
# Objects and sources of the tree only (relative to the build dir), not
# kbuild's probes of the compiler, which write to /tmp.
case $key in
/* | *.tmp* | *tmp_*) exec "$@" ;;
*.o | *.c) ;;
*) exec "$@" ;;
esac
[ -n "${BSK_WARN_DIR:-}" ] || exec "$@"
dir=$BSK_WARN_DIR/$kind
mkdir -p "$dir"
f=$dir/$(printf '%s' "$key" | tr '/' '%')
"$@" 2>"$f.tmp"
rc=$?
cat "$f.tmp" >&2
mv -f "$f.tmp" "$f"
exit "$rc"
