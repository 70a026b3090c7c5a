#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# coverage.py TREE INFO EXCEPTIONS FILE:FUNCTION... - make coverage's table from lcov's INFO,
# each gap with its reason in EXCEPTIONS; on stderr "N passed, N failed", status 1 if any failed.
import os, re, sys
from collections import Counter
if len(sys.argv) < 5:
    sys.exit("usage: coverage.py TREE INFO EXCEPTIONS FILE:FUNCTION...")
tree, info, exc_file, funcs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
da, brda = {}, {}  # {file: Counter of line}, {file: Counter of (line, block, branch)}
for l in open(info):
    tag, _, v = l.rstrip("\n").partition(":")
    f = v.split(",")
    if tag == "SF":
        sf = v
    elif tag == "DA":
        da.setdefault(sf, Counter())[int(f[0])] += int(f[1])
    elif tag == "BRDA":
        brda.setdefault(sf, Counter())[int(f[0]), f[1], f[2]] += 0 if f[3] == "-" else int(f[3])
exc = {}
for i, l in enumerate(open(exc_file), 1):
    if l.strip() and not l.startswith("#"):
        f = l.rstrip("\n").split("\t")
        if len(f) != 3 or not all(x.strip() for x in f):
            sys.exit(f"coverage.sh: error: {exc_file}:{i}: want FUNCTION<TAB>SOURCE LINE<TAB>REASON")
        exc[f[0], f[1].strip()] = f[2]
notes = {}  # {exception used: (function's index, line, note)}
print("| function | file:lines | lines run | branches taken | not run | not taken both ways |")
print("|---|---|---|---|---|---|")
ok = bad = 0
for idx, fs in enumerate(funcs):
    path, fn = fs.split(":")
    if path not in da:
        sys.exit(f"coverage.sh: error: no coverage data for {path} in {info} (paths: {', '.join(sorted(da)) or 'none'})")
    src = open(f"{tree}/{path}").read().split("\n")
    start = next((i for i, l in enumerate(src, 1) if re.match(rf"^[A-Za-z_].*[ *]{re.escape(fn)}\(", l)
                  and not l.rstrip().endswith(";")), None)
    end = start and next((i for i, l in enumerate(src[start:], start + 1) if l == "}"), None)
    if not end:
        print(f"| {fn} | {path}: not found | | | | |")
        bad += 1
        continue
    lines = {ln: c for ln, c in da[path].items() if start <= ln <= end}
    brs = {k: t for k, t in brda.get(path, {}).items() if start <= k[0] <= end}
    gaps = [sorted(ln for ln, c in lines.items() if not c), sorted({k[0] for k, t in brs.items() if not t})]
    unexplained = False
    if (fn, "*") in exc and any(gaps):
        notes.setdefault((fn, "*"), (idx, start, f"- {fn}, every line: {exc[fn, '*']}"))
        cells = ["all†" if g else "–" for g in gaps]
    else:
        cells = []
        for g in gaps:
            marks = []
            for ln in g:
                key = (fn, src[ln - 1].strip())
                unexplained |= key not in exc
                if key in exc:
                    notes.setdefault(key, (idx, ln, f"- {fn}, line {ln}: {exc[key]}"))
                marks.append(f"{ln}†" if key in exc else str(ln))
            cells.append(", ".join(marks) or "–")
    if not lines:
        unexplained = (fn, "*") not in exc
    bad += unexplained
    ok += not unexplained
    print(f"| {fn} | {path}:{start}-{end} | {sum(1 for c in lines.values() if c)}/{len(lines)} "
          f"| {sum(1 for t in brs.values() if t)}/{len(brs)} | {cells[0]} | {cells[1]} |")
print("\nLine numbers are those of the applied tree.  A branch is one of gcov's")
print("edges of the -O2 code, so an inlined helper's edges count on the line")
print("that calls it.  † a gap with its reason (kunit/coverage-exceptions):\n")
for n in sorted(notes.values()):
    print(n[2])
for key in exc:
    if key not in notes:
        print(f"- unused exception (no such gap any more): {key[0]}: {key[1]}")
        bad += 1
# the counts as the tools give theirs: a line, and "P F S" where BSK_COUNTS names; the status
print(f"{ok} passed, {bad} failed", file=sys.stderr)
if os.environ.get("BSK_COUNTS"):
    open(os.environ["BSK_COUNTS"], "w").write(f"{ok} {bad} 0\n")
sys.exit(1 if bad else 0)
