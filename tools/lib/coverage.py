#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# coverage.py TREE INFO EXCEPTIONS FILE:FUNCTION... - the table of 'make
# coverage' (tools/coverage.sh): per function, its lines and branches in
# lcov's INFO, each gap with its reason from EXCEPTIONS.  Last line: "N
# passed, N failed"; a malformed input is one error line.
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
