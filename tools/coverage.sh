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
#                     summary.md (the table) go; default results/coverage
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
	block/blk-mq.c:blk_mq_cpus_share_cache
	block/blk-mq.c:blk_mq_cpus_equal_capacity
	block/blk-mq.c:blk_mq_cpu_online
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
out=${COVERAGE_OUT:-$BSK_TOP/results/coverage}
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
python3 - "$tree" "$out/coverage.info" "$BSK_TOP/kunit/coverage-exceptions" "${FUNCS[@]}" >>"$out/summary.md.new" <<'PY'
import re, sys
tree, info, exc_file, funcs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
da, brda = {}, {}
sf = None
for l in open(info):
    l = l.rstrip("\n")
    if l.startswith("SF:"):
        sf = l[3:]
    elif l.startswith("DA:"):
        ln, c = l[3:].split(",")[:2]
        d = da.setdefault(sf, {})
        d[int(ln)] = d.get(int(ln), 0) + int(c)
    elif l.startswith("BRDA:"):
        ln, blk, br, t = l[5:].split(",")
        d = brda.setdefault(sf, {})
        key = (int(ln), blk, br)
        d[key] = d.get(key, 0) + (0 if t == "-" else int(t))
exc = {}
for i, l in enumerate(open(exc_file), 1):
    if l.strip() and not l.startswith("#"):
        fields = l.rstrip("\n").split("\t")
        if len(fields) != 3 or not all(f.strip() for f in fields):
            sys.exit(f"coverage.sh: error: {exc_file}:{i}: want FUNCTION<TAB>SOURCE LINE<TAB>REASON")
        exc[(fields[0], fields[1].strip())] = fields[2]
used = set()
print("| function | file:lines | lines run | branches taken | not run | not taken both ways |")
print("|---|---|---|---|---|---|")
ok = bad = 0
notes = []
for fs in funcs:
    path, fn = fs.split(":")
    if path not in da:
        sys.exit(f"coverage.sh: error: no coverage data for {path} in {info} (paths: {', '.join(sorted(da)) or 'none'})")
    src = open(f"{tree}/{path}").read().split("\n")
    start = end = None
    for i, l in enumerate(src, 1):
        if start is None and re.match(rf"^[A-Za-z_].*[ *]{re.escape(fn)}\(", l) and not l.rstrip().endswith(";"):
            start = i
        elif start is not None and l == "}":
            end = i
            break
    if start is None or end is None:
        print(f"| {fn} | {path}: not found | | | | |")
        bad += 1
        continue
    lines = {ln: c for ln, c in da.get(path, {}).items() if start <= ln <= end}
    brs = {k: t for k, t in brda.get(path, {}).items() if start <= k[0] <= end}
    unrun = sorted(ln for ln, c in lines.items() if c == 0)
    half = sorted({k[0] for k, t in brs.items() if t == 0})
    taken = sum(1 for t in brs.values() if t > 0)

    def mark(ln):
        for key in ((fn, src[ln - 1].strip()), (fn, "*")):
            if key in exc:
                used.add(key)
                if key not in [n[2] for n in notes]:
                    notes.append((funcs.index(fs), ln, key,
                                  f"- {fn}, {'every line' if key[1] == '*' else 'line ' + str(ln)}: {exc[key]}"))
                return f"{ln}†", True
        return str(ln), False

    cells, unexplained = [], False
    if (fn, "*") in exc and (unrun or half):
        mark(start)
        unrun, half = ([f"all{chr(8224)}"] if unrun else []), ([f"all{chr(8224)}"] if half else [])
    for xs in (unrun, half):
        if xs and isinstance(xs[0], str):
            cells.append(xs[0])
            continue
        out = []
        for ln in xs:
            t, e = mark(ln)
            out.append(t)
            unexplained |= not e
        cells.append(", ".join(out) if out else "–")
    if not lines:
        unexplained = (fn, "*") not in exc
    if unexplained:
        bad += 1
    else:
        ok += 1
    print(f"| {fn} | {path}:{start}-{end} | {sum(1 for c in lines.values() if c)}/{len(lines)} "
          f"| {taken}/{len(brs)} | {cells[0]} | {cells[1]} |")
print()
print("Line numbers are those of the applied tree.  A branch is one of gcov's")
print("edges of the -O2 code, so an inlined helper's edges count on the line")
print("that calls it.  † a gap with its reason (kunit/coverage-exceptions):")
print()
for n in sorted(notes):
    print(n[3])
for key in exc:
    if key not in used:
        print(f"- unused exception (no such gap any more): {key[0]}: {key[1]}")
        bad += 1
print(f"{ok} passed, {bad} failed")
PY
rc=$?
[ "$rc" -eq 0 ] || { rm -f "$out/summary.md.new"; exit 1; }	# python said why, in one line
mv "$out/summary.md.new" "$out/summary.md"
last=$(tail -n 1 "$out/summary.md")
sed -i '$d' "$out/summary.md"
cat "$out/summary.md"
info "results in $out (summary.md, coverage.info; the run: $log, $llog)"
echo "$last"
[ "$rc" -eq 0 ] && [[ $last == *" 0 failed" ]]
