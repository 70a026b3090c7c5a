#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# coverage.sh [TREE] - line and branch coverage of the functions the suites call (FUNCS),
# UML + gcov + lcov, each gap with its reason; COVERAGE_OUT=dir.  docs/arches-coverage.md.
set -uo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

FUNCS=(
	block/bfq-iosched.c:{bfq_init_queue,bfq_update_inject_limit,bfq_update_hw_tag}
	block/elevator.c:{__elv_rqhash_del,elv_rqhash_del,elv_rqhash_add,elv_rqhash_reposition,elv_rqhash_find}
	block/blk-mq.c:{blk_mq_complete_request_remote,blk_mq_complete_need_ipi}
	block/bfq-iosched.c:{bfq_depth_updated,bfq_limit_depth}
)

command -v lcov >/dev/null || die "lcov not found (make coverage reads gcov's counts with it); run: apt-get install lcov"
tree=${1:-}
[ -n "$tree" ] || read -r _ tree _ < <("$BSK_TOP/tools/env/tree.sh") || exit 1
[ -f "$tree/block/tests/.kunitconfig" ] || die "$tree has no block/tests/.kunitconfig: the series is not applied there"
tree=$(cd "$tree" && pwd -P)
[ "$(git -C "$tree" rev-parse --show-toplevel 2>/dev/null)" = "$tree" ] ||
	die "$tree is not the top of a git work tree (make coverage changes one file there for its build and restores it with git)"
git -C "$tree" symbolic-ref -q HEAD >/dev/null ||
	die "$tree is at a detached commit (a make check running there?); run make coverage on the applied branch"
out=${COVERAGE_OUT:-$(run_dir coverage)}
mkdir -p "$out"
build=$BSK_CACHE/build/${BSK_BUILD_NAME:-$(basename "$tree")}-um-coverage

# UML's linker script drops .fini_array.*, gcov's destructors: the line is
# added for the build, restored on any exit (docs/arches-coverage.md)
lds=arch/um/include/asm/common.lds.S
[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
	die "$tree has uncommitted changes; make coverage needs a clean tree"
patched=
restore() {
	[ -z "$patched" ] || git -C "$tree" checkout -q -- "$lds"
	patched=
}
trap restore EXIT
# the suites run in a process group of their own (BSK_BG), stopped on a signal
trap 'trap - INT TERM HUP; bg_stop; exit 130' INT TERM HUP
if [ -f "$tree/$lds" ] && ! grep -q '\.fini_array\.\*' "$tree/$lds"; then
	patched=1
	sed -i 's/^\t\*(\.fini_array)$/\t*(.fini_array.*)\n&/' "$tree/$lds"
	grep -q '\.fini_array\.\*' "$tree/$lds" || die "could not add .fini_array.* to $lds"
	info "UML: .fini_array.* added to $lds for this build (gcov's destructors; restored afterwards)"
fi

[ ! -d "$build" ] || find "$build" -name '*.gcda' -delete
mkdir -p "$BSK_CACHE/runs"
kout=$(run_dir coverage-kunit) # beside the results, not promoted with them
log=$kout/kunit.sh.log
KUNIT_COVERAGE=1 ARCH=um KUNIT_OUT=$kout BSK_COUNTS=$kout/counts step "$BSK_TOP/tools/kunit.sh" "$tree" >"$log" 2>&1
rc=$?
restore
read -r kp kf ks <"$kout/counts" 2>/dev/null || kp=0 kf=1 ks=0
suites="$kp passed, $kf failed, $ks skipped"
info "the suites under UML with gcov: $suites"
[ "$rc" -eq 0 ] || die "the suites failed under UML with gcov (see $log)"
[ -n "$(find "$build/block" -name '*.gcda' -print -quit)" ] || die "UML wrote no .gcda file under $build/block: gcov did not dump at exit (see $log)"

info "lcov: capturing $build"
llog=$BSK_CACHE/runs/coverage-lcov.log
lcov -q --rc lcov_branch_coverage=1 -c -d "$build" -b "$tree" -o "$out/all.info" >"$llog" 2>&1 ||
	die "lcov -c failed (see $llog)"
mapfile -t files < <(printf '%s\n' "${FUNCS[@]}" | cut -d: -f1 | sort -u)
lcov -q --rc lcov_branch_coverage=1 -e "$out/all.info" "${files[@]/#/*/}" -o "$out/coverage.info" >>"$llog" 2>&1 ||
	die "lcov -e failed (see $llog)"
rm -f "$out/all.info"
sed -i "s#^SF:$tree/#SF:#" "$out/coverage.info"

{
	printf '# Coverage of the functions the suites call\n\n'
	# shellcheck disable=SC2016 # markdown backquotes
	printf '`make coverage` on %s: %s, UML (two CPUs where it has SMP) with gcov, %s, %s; the suites: %s.\n' \
		"$(date +%Y-%m-%d)" "$(git -C "$tree" describe --tags --always)" \
		"$(gcc -dumpfullversion 2>/dev/null | sed 's/^/gcc /')" "$(lcov --version | sed 's/.*: //')" \
		"$suites"
	printf 'Data: coverage.info (lcov, the three files). How to read it: docs/arches-coverage.md.\n\n'
} >"$out/summary.md.new"
rm -f "$kout/table.counts"
BSK_COUNTS=$kout/table.counts python3 "$BSK_TOP/tools/lib/coverage.py" "$tree" "$out/coverage.info" \
	"$BSK_TOP/kunit/coverage-exceptions" "${FUNCS[@]}" >>"$out/summary.md.new" 2>"$kout/table.err"
# no counts: python said why, in one line
read -r ok bad _ <"$kout/table.counts" 2>/dev/null || { rm -f "$out/summary.md.new"; cat "$kout/table.err" >&2; exit 1; }
mv "$out/summary.md.new" "$out/summary.md"
cat "$out/summary.md"
info "results in $out (summary.md, coverage.info; the run: $log, $llog)"
info "to commit them: make promote RUN=$out TO=results/coverage"
counts_line "$ok" "$bad" 0
[ "$bad" -eq 0 ]
