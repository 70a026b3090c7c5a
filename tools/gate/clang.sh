#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# clang.sh TREE - print the LLVM= suffix (e.g. "-19") of a Debian clang
# that meets TREE's minimum LLVM version (scripts/min-tool-version.sh llvm).
# An installed clang-N is preferred (the newest); otherwise the oldest
# clang-N Debian offers that is new enough is installed (as root) with its
# lld and llvm, or the apt-get line is printed.  Exit 2, with the reason on
# stderr, when no Debian clang meets the minimum, or when none installed
# does and there is no apt-get.
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

tree=${1:-}
[ -x "$tree/scripts/min-tool-version.sh" ] || die "usage: clang.sh KERNEL_TREE"
min=$(SRCARCH=x86 "$tree/scripts/min-tool-version.sh" llvm)

best=
newest=
for n in $(seq 30 -1 10); do
	if ! command -v "clang-$n" >/dev/null || ! command -v "ld.lld-$n" >/dev/null; then
		continue
	fi
	v=$("clang-$n" -dumpversion)
	[ -n "$newest" ] || newest="clang-$n $v"
	if ver_ge "$v" "$min"; then
		best=$n
		break
	fi
done
if [ -n "$best" ]; then
	printf -- '-%s\n' "$best"
	exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
	printf 'clang.sh: %s needs LLVM >= %s; installed here: %s, and no apt-get to install another\n' \
		"$(basename "$tree")" "$min" "${newest:-no clang-N with its ld.lld-N}" >&2
	exit 2
fi
cand=
for n in $(seq 10 30); do
	v=$(apt-cache policy "clang-$n" 2>/dev/null | sed -n 's/^  Candidate: \(.*:\)\{0,1\}\([0-9.]*\).*/\2/p')
	{ [ -n "$v" ] && [ "$v" != "(none)" ]; } || continue
	newest="clang-$n $v"
	if [ -z "$cand" ] && ver_ge "$v" "$min"; then
		cand=$n
	fi
done
if [ -z "$cand" ]; then
	printf 'clang.sh: %s needs LLVM >= %s; the newest Debian clang here is %s\n' \
		"$(basename "$tree")" "$min" "${newest:-none}" >&2
	exit 2
fi
pkgs=("clang-$cand" "lld-$cand" "llvm-$cand")
line="apt-get install -y --no-install-recommends ${pkgs[*]}"
if [ "$(id -u)" != 0 ] || [ -n "${BSK_NO_INSTALL:-}" ]; then
	die "no clang >= $min installed; run: sudo $line"
fi
info "installing ${pkgs[*]} (LLVM >= $min for $(basename "$tree"))"
DEBIAN_FRONTEND=noninteractive apt-get -q -y --no-install-recommends install "${pkgs[@]}" >/dev/null ||
	die "apt-get install failed; run: $line"
printf -- '-%s\n' "$cand"
