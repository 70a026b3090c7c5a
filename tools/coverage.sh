#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# coverage.sh [TREE] - line and branch coverage, by the series' suites, of
# the kernel functions they call (the pure functions of the four
# heuristics, and what the fixes touch).  The suites run under UML with
# gcov (tools/kunit.sh KUNIT_COVERAGE=1: the tree's coverage_uml.config,
# two CPUs where the tree's UML has SMP); lcov (Debian's) captures the
# counts of the files the series touches.  Per function, from the lcov
# data within its lines in the source: lines executed of lines
# instrumented, branches taken of branches, the lines never run and the
# lines with a branch never taken.
#
#   COVERAGE_OUT=dir  where coverage.info (lcov, those files only) and
#                     summary.md (the table) go; default a new run
#                     directory in the cache
#
# Last line: "N passed, N failed", one check per function: passed when
# every line ran and every branch was taken, or each gap is in
# kunit/coverage-exceptions with its reason (FUNCTION, the source line,
# the reason), which the table marks and lists.  An exception that no gap
# uses any more fails too.
set -uo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

# file:function, in the order of the series.
FUNCS=(
	block/bfq-iosched.c:bfq_init_queue
	block/bfq-iosched.c:bfq_update_inject_limit
	block/bfq-iosched.c:bfq_update_hw_tag
	block/elevator.c:__elv_rqhash_del
	block/elevator.c:elv_rqhash_del
	block/elevator.c:elv_rqhash_add
	block/elevator.c:elv_rqhash_reposition
	block/elevator.c:elv_rqhash_find
	block/blk-mq.c:blk_mq_complete_request_remote
	block/blk-mq.c:blk_mq_complete_need_ipi
	block/bfq-iosched.c:bfq_depth_updated
	block/bfq-iosched.c:bfq_limit_depth
)

command -v lcov >/dev/null || die "lcov not found (make coverage reads gcov's counts with it); run: apt-get install lcov"
tree=${1:-}
if [ -z "$tree" ]; then
	read -r _ tree _ < <("$BSK_TOP/tools/env/tree.sh") || exit 1
fi
[ -f "$tree/block/tests/.kunitconfig" ] || die "$tree has no block/tests/.kunitconfig: the series is not applied there"
# kbuild records the resolved path of each source file.
tree=$(cd "$tree" && pwd -P)
[ "$(git -C "$tree" rev-parse --show-toplevel 2>/dev/null)" = "$tree" ] ||
	die "$tree is not the top of a git work tree (make coverage changes one file there for its build and restores it with git)"
git -C "$tree" symbolic-ref -q HEAD >/dev/null ||
	die "$tree is at a detached commit (a make check running there?); run make coverage on the applied branch"
out=${COVERAGE_OUT:-$(run_dir coverage)}
mkdir -p "$out"
build=$BSK_CACHE/build/${BSK_BUILD_NAME:-$(basename "$tree")}-um-coverage

# UML's linker script (arch/um/include/asm/common.lds.S, 7.3.4) gathers
# .init_array.* into .init_array but only .fini_array into .fini_array.
# gcc (7 and later) puts each object's gcov destructor, which writes its
# .gcda at exit, into .fini_array.00100: left out, libc never calls it,
# and UML writes no .gcda at all.  Where the tree has that gap, the line
# that closes it is added for the build and taken out again on any exit
# (as tools/mutate.sh does with a mutant); the series does not carry it.
lds=arch/um/include/asm/common.lds.S
[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
	die "$tree has uncommitted changes; make coverage needs a clean tree"
patched=
# shellcheck disable=SC2317 # called from the traps
restore() {
	[ -z "$patched" ] || git -C "$tree" checkout -q -- "$lds"
	patched=
}
# The suites run in a process group of their own, stopped on a signal,
# before the file is restored.
kpid=
# shellcheck disable=SC2317 # called from the trap
stop() {
	trap - INT TERM HUP
	[ -z "$kpid" ] || { kill -TERM -- "-$kpid" 2>/dev/null; wait "$kpid"; }
	restore
	exit 130
}
trap restore EXIT
trap stop INT TERM HUP
if [ -f "$tree/$lds" ] && ! grep -q '\.fini_array\.\*' "$tree/$lds"; then
	patched=1
	sed -i 's/^\t\*(\.fini_array)$/\t*(.fini_array.*)\n&/' "$tree/$lds"
	grep -q '\.fini_array\.\*' "$tree/$lds" || die "could not add .fini_array.* to $lds"
	info "UML: .fini_array.* added to $lds for this build (gcov's destructors; restored afterwards)"
fi

# Counts of this run only.
[ ! -d "$build" ] || find "$build" -name '*.gcda' -delete
mkdir -p "$BSK_CACHE/runs"
log=$BSK_CACHE/runs/coverage-kunit.log
KUNIT_COVERAGE=1 ARCH=um setsid "$BSK_TOP/tools/kunit.sh" "$tree" >"$log" 2>&1 &
kpid=$!
rc=0
wait "$kpid" || rc=$?
kpid=
restore
tail -n 1 "$log"
[ "$rc" -eq 0 ] || die "the suites failed under UML with gcov (see $log)"
n=$(find "$build/block" -name '*.gcda' | wc -l)
[ "$n" -gt 0 ] || die "UML wrote no .gcda file under $build/block: gcov did not dump at exit (see $log)"

info "lcov: capturing $build"
llog=$BSK_CACHE/runs/coverage-lcov.log
lcov -q --rc lcov_branch_coverage=1 -c -d "$build" -b "$tree" -o "$out/all.info" >"$llog" 2>&1 ||
	die "lcov -c failed (see $llog)"
mapfile -t files < <(printf '%s\n' "${FUNCS[@]}" | cut -d: -f1 | sort -u)
lcov -q --rc lcov_branch_coverage=1 -e "$out/all.info" "${files[@]/#/*/}" -o "$out/coverage.info" >>"$llog" 2>&1 ||
	die "lcov -e failed (see $llog)"
rm -f "$out/all.info"
# The paths of this machine out of the committed data.
sed -i "s#^SF:$tree/#SF:#" "$out/coverage.info"

{
	printf '# Coverage of the functions the suites call\n\n'
	# shellcheck disable=SC2016 # markdown backquotes
	printf '`make coverage` on %s: %s, UML (two CPUs where it has SMP) with gcov, %s, %s; the suites: %s.\n' \
		"$(date +%Y-%m-%d)" "$(git -C "$tree" describe --tags --always)" \
		"$(gcc -dumpfullversion 2>/dev/null | sed 's/^/gcc /')" "$(lcov --version | sed 's/.*: //')" \
		"$(tail -n 1 "$log")"
	printf 'Data: coverage.info (lcov, the three files). How to read it: docs/arches-coverage.md.\n\n'
} >"$out/summary.md.new"
rc=0
python3 "$BSK_TOP/tools/lib/coverage.py" "$tree" "$out/coverage.info" "$BSK_TOP/kunit/coverage-exceptions" \
	"${FUNCS[@]}" >>"$out/summary.md.new" || rc=$?
[ "$rc" -eq 0 ] || { rm -f "$out/summary.md.new"; exit 1; }	# python said why, in one line
mv "$out/summary.md.new" "$out/summary.md"
last=$(tail -n 1 "$out/summary.md")
sed -i '$d' "$out/summary.md"
cat "$out/summary.md"
info "results in $out (summary.md, coverage.info; the run: $log, $llog)"
info "to commit them: make promote RUN=$out TO=results/coverage"
echo "$last"
[ "$rc" -eq 0 ] && [[ $last == *" 0 failed" ]]
