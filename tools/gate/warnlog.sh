#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# warnlog.sh cc|sparse CMD [ARG...] - kbuild's CC or CHECK: CMD, its stderr also kept in
# $BSK_WARN_DIR/KIND/, one file per object or source: two incremental builds compare whole.
set -u
kind=$1
shift
key='' prev=''
for a in "$@"; do
	[ "$prev" != -o ] || key=$a
	prev=$a
done
[ "$kind" != sparse ] || key=${!#}
key=${key#"${BSK_WARN_TREE:-/nonexistent}"/} # kbuild gives sparse the source's path in srctree, absolute
# the tree's objects and sources only, not kbuild's compiler probes (in /tmp)
case $key in /* | *.tmp* | *tmp_*) exec "$@" ;; *.o | *.c) ;; *) exec "$@" ;; esac
[ -n "${BSK_WARN_DIR:-}" ] || exec "$@"
dir=$BSK_WARN_DIR/$kind
mkdir -p "$dir"
f=$dir/$(printf '%s' "$key" | tr '/' '%')
"$@" 2>"$f.tmp"
rc=$?
cat "$f.tmp" >&2
mv -f "$f.tmp" "$f"
exit "$rc"
