#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# clang.sh TREE - the LLVM= suffix (-N) of a Debian clang that meets TREE's
# minimum LLVM, installed (root) if none installed does.  None to be had
# here: the reason on stdout, status 1 (as a stage's requires).
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

tree=${1:-}
[ -x "$tree/scripts/min-tool-version.sh" ] || die "usage: clang.sh KERNEL_TREE"
min=$(SRCARCH=x86 "$tree/scripts/min-tool-version.sh" llvm)

newest=
for n in $(seq 30 -1 10); do
	{ command -v "clang-$n" && command -v "ld.lld-$n"; } >/dev/null || continue
	v=$("clang-$n" -dumpversion)
	[ -n "$newest" ] || newest="clang-$n $v"
	! ver_ge "$v" "$min" || { printf -- '-%s\n' "$n"; exit 0; }
done

if ! command -v apt-get >/dev/null 2>&1; then
	printf '%s needs LLVM >= %s; installed here: %s, and no apt-get to install another\n' \
		"$(basename "$tree")" "$min" "${newest:-no clang-N with its ld.lld-N}"
	exit 1
fi
cand=
for n in $(seq 10 30); do
	v=$(apt-cache policy "clang-$n" 2>/dev/null | sed -n 's/^  Candidate: \(.*:\)\{0,1\}\([0-9.]*\).*/\2/p')
	{ [ -n "$v" ] && [ "$v" != "(none)" ]; } || continue
	newest="clang-$n $v"
	[ -n "$cand" ] || ! ver_ge "$v" "$min" || cand=$n
done
if [ -z "$cand" ]; then
	printf '%s needs LLVM >= %s; the newest Debian clang here is %s\n' \
		"$(basename "$tree")" "$min" "${newest:-none}"
	exit 1
fi
pkgs=("clang-$cand" "lld-$cand" "llvm-$cand")
line="apt-get install -y --no-install-recommends ${pkgs[*]}"
{ [ "$(id -u)" = 0 ] && [ -z "${BSK_NO_INSTALL:-}" ]; } || die "no clang >= $min installed; run: sudo $line"
info "installing ${pkgs[*]} (LLVM >= $min for $(basename "$tree"))"
DEBIAN_FRONTEND=noninteractive apt-get -q -y --no-install-recommends install "${pkgs[@]}" >/dev/null ||
	die "apt-get install failed; run: $line"
printf -- '-%s\n' "$cand"
