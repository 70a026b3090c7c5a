# SPDX-License-Identifier: GPL-2.0
# counts.py RESULTS.json TOP LTS_SERIES - tools/gate/counts.sh's checker
# (docs/gate.md, "Figures and their sources").
import functools, glob, gzip, os, re, sys
from collections import Counter
from decimal import Decimal, ROUND_HALF_UP
from kunit_results import counts, leaves

run_json, top, lts = sys.argv[1:4]
said = Counter()


def out(kind, where, fig, why):
    said[kind] += 1
    print(f"{kind:9} {where}: {fig} ({why})")


def tally(path):  # the counts of a kunit.py --json run, and its cases per suite
    if not path:
        return None
    ls = leaves(path)
    return dict(zip(("passed", "failed", "skipped"), counts(ls)), cases=len(ls), suites=Counter(n[0] for n, _ in ls))


# The runs a sentence can speak of: the first whose words it has.
runs = [("lts", r"6\.12|\bLTS\b", os.environ.get("COUNTS_LTS_JSON")),
        ("rt", r"PREEMPT_RT|KUNIT_DEBUG=rt|\bRT\b", os.environ.get("COUNTS_RT_JSON")),
        ("one-CPU UML", r"\bone CPU\b", os.environ.get("COUNTS_UML1_JSON")),
        ("uml", r"\bUML\b|\bum\b", os.environ.get("COUNTS_UML_JSON")),
        ("", "", run_json)]
# RESULTS.json is also the run its directory names (kunit.sh's <date>-v<version>-<arch>[-rt])
kind = {"lts": f"-v{lts}\\.", "rt": "-rt$", "uml": "-um$"}
runs = [(n, w, tally(j or (run_json if re.search(kind.get(n, "^$"), os.path.dirname(run_json)) else None)))
        for n, w, j in runs]
if not runs[-1][2]["cases"]:
    sys.exit(f"counts.sh: error: {run_json} holds no case")


def read(f):
    return open(f).read() if os.path.isfile(f) else ""


def lines(f):
    return [x for x in read(f).splitlines() if not x.startswith("#") and x.strip()]


def mutants(base):  # for the LTS, <version>/X.tsv replaces X.tsv
    n = 0
    for f in glob.glob(f"{top}/kunit/mutations/*.tsv"):
        g = f"{top}/kunit/mutations/{lts}/{os.path.basename(f)}"
        n += len(lines(g if base == "lts" and os.path.isfile(g) else f))
    return n


WORDS = "zero one two three four five six seven eight nine ten eleven twelve " \
    "thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty".split()
NUM = r"(?<![\w.,/=:#<@^-])(\d+(?:,\d{3})*(?:\.\d+)?)(?![\w/]|\.\d|,\d{3})"
SPELL = r"\b(" + "|".join(WORDS) + r")\b"
COUNT = re.compile(rf"(?i)(?:{NUM}|{SPELL}) ((?:(?!the |an? |of )[\w-]+ ){{0,3}}?)(passed|skipped|failed|cases|tests|mutants|patches)\b"
                   rf"|Ran {NUM} tests|passed: {NUM}")
UNIT = r" ?(%|ms|s|ns|us|µs|min|minutes|seconds|h|hours|IOPS|MB/s|MiB/s|KiB/s|MB|MiB|instructions|insns|x)(?![\w/])"
CHAIN = rf"{NUM}(?:(?: ?[-–/] ?| to | and |, )\d[\d,.]*)*{UNIT}"
MEASURED = re.compile(rf"{CHAIN}|{NUM} of \d+\b|(?<![\w.])\d+\.\d{{3,}}(?![\w.])|{NUM}")
DATED = re.compile(r"\b20\d\d-[01]\d-[0-3]\d\b|\bv\d+'s\b|\b(?:run|table|gate|figures?) of v\d+\b")
PATH = re.compile(r"[\w.][\w.+-]*(?:/[\w.+-]*)+|`series`|\bseries-[\d.]+\b|\b[\w.-]+\.(?:md|txt|json|csv|tsv|log)\b")


def sources(text, f):
    """The files and directories of the tree that TEXT names."""
    found = {}
    for m in PATH.finditer(text):
        p = m.group(0).strip("`").rstrip(".,:;)")
        for d in ["", os.path.dirname(f)] + [os.path.dirname(x) if os.path.isfile(f"{top}/{x}") else x for x in found]:
            q = os.path.normpath(os.path.join(d, p))
            if os.path.exists(f"{top}/{q}") and q not in (f, ".") and not q.startswith(".."):
                found[q] = None
                break
    return list(found)


@functools.cache
def numbers(x):  # those of file X, commas out, each rounded to 0-4 places
    with (gzip.open if x.endswith(".gz") else open)(x, "rt", errors="replace") as h:
        t = re.sub(r"(?<=\d),(?=\d{3})", "", h.read(4 << 20))
    return {str(Decimal(n).quantize(Decimal(1).scaleb(-d), ROUND_HALF_UP))
            for n in re.findall(r"\d+(?:\.\d+)?", t) for d in range(5)}


@functools.cache
def body(paths, f):  # the numbers of those files and directories but F
    return set().union(*(numbers(x) for p in paths for x in [f"{top}/{p}"] + glob.glob(f"{top}/{p}/**", recursive=True)
                         if os.path.isfile(x) and x != f"{top}/{f}" and not x.endswith((".png", ".xz"))))


def count(m, rest):  # KIND, N of a COUNT match; REST: its sentence from it on
    if m.group(5) or m.group(6):
        return "passed" if m.group(6) else "cases", int(m.group(5) or m.group(6))
    n = int(m.group(1).replace(",", "")) if m.group(1) else WORDS.index(m.group(2).lower())
    noun, adj = m.group(4).lower(), m.group(3)
    if noun in ("passed", "skipped", "failed", "mutants", "patches"):
        return (noun if not adj else None), n
    for k in ("skip", "fail"):  # "the four ... cases skip", not "none skipped"
        if re.search(rf"(?<!none )(?<!no ){k}", rest):
            return k + ("ped" if k == "skip" else "ed"), n
    # "three cases of bfq_async_depth", "adds three cases to": a part
    return ("cases" if not adj and not re.match(r" (of|to|in)\b", rest[len(m.group(0)):]) else None), n


def sourced(where, fig, nums, src, dated, f):  # a figure that must be in SRC
    if src:
        miss = [x for x in nums if str(Decimal(x)) not in body(tuple(src), f)]  # or a number that rounds to it
        out("WRONG" if miss else "ok", where, fig, ("not in " if miss else "in ") + ", ".join(src))
    elif dated:
        out("unchecked", where, fig, f"source: {dated.group(0)}")
    else:
        out("WRONG", where, fig, "no source named")


def check_unit(f, first, unit, ctx):  # CTX: the caption, headings and text that may name its source
    text = "\n".join(unit)
    src = sources(text + "\n" + ctx, f)
    dated = DATED.search(text + "\n" + ctx)
    sents = re.split(r"(?<=[.;])\s", re.sub(r"^\s*([-*]|\d+\.) ", "", text))
    for i, line in enumerate(unit):
        where = f"{f}:{first + i}"
        spans = []
        for m in COUNT.finditer(line):
            fig = m.group(0)
            sent = next((x for x in sents if fig in x), line)
            # the run the sentence names, else the one the unit's first names, else its context's
            run = next((r for t in (sent, sents[0], ctx) for r in runs[:-1] if re.search(r[1], t)), runs[-1])
            kind, n = count(m, sent[sent.find(fig):])
            if kind is None:
                continue
            spans.append(m.span())
            if dated:
                sourced(where, fig, [n], src, dated, f)
                continue
            if kind == "mutants":
                want, what = mutants(run[0]), "the mutation lists"
            elif kind == "patches":
                # of the LTS series: all its patches, or its own (those that differ)
                want, what = len(lines(f"{top}/series-{lts}" if run[0] == "lts" else f"{top}/series")), "the series"
                if run[0] == "lts" and n == len([x for x in lines(f"{top}/series-{lts}") if "/" in x]):
                    want = n
            elif not run[2]:
                out("unchecked", where, fig, f"source: the {run[0]} run, not given")
                continue
            else:
                want, what = run[2][kind], f"the {run[0] + ' ' if run[0] else ''}run's {kind}"
            out("ok" if n == want else "WRONG", where, fig, what if n == want else f"{what}: {want}")
        # dates, times and URLs are no measurements
        line = re.sub(r"\d{4}-\d\d-\d\d|\d\d:\d\d(:\d\d)?|\S+://\S+", lambda x: "D" * len(x.group(0)), line)
        for m in MEASURED.finditer(line):
            fig = m.group(0)
            if any(a <= m.start() < b for a, b in spans) or not measured(fig) or not re.search(r"[1-9]", fig):
                continue
            nums = [x.replace(",", "") for x in re.findall(r"\d[\d,]*(?:\.\d+)?", fig)]
            sourced(where, fig, nums[:1] if fig.endswith(" x") else nums, src, dated, f)


def measured(fig):
    """Whether FIG is a measurement: a unit, "N of M", a ratio (3+ decimals), 4+ digits but no year."""
    if not re.fullmatch(r"[\d.,]+", fig) or re.search(r"\.\d{3}", fig):
        return True
    n = fig.replace(",", "")
    return re.fullmatch(r"\d{4,}", n) is not None and not 1990 <= int(n) <= 2030


def units(f, text):
    """(first line, lines, context: caption and headings) of each paragraph, list item and table row."""
    head, cap, u, first, fence, thead, diff = {}, "", [], 0, False, "", False
    md = f.endswith(".md")
    ls = text.splitlines()
    for i, l in enumerate(ls + [""], 1):
        if md and l.lstrip().startswith("```"):
            fence = not fence
            l = ""
        if fence:
            continue
        # a diff quoted in a mail is code, not claims
        diff = not md and (l.startswith("diff --git ") or diff and re.match(r"([ +\-@\\]|index |$)", l))
        if diff:
            l = ""
        nxt = ls[i] if i < len(ls) else ""
        h = re.match(r"(#+) ", l) if md else None
        underline = re.fullmatch(r"(---+|===+)", nxt) and l.strip() and not u
        if re.fullmatch(r"(---+|===+)", l) and not u:
            continue
        if h or underline or re.match(r"v\d+ \(", l):
            lvl = len(h.group(1)) if h else 1 if nxt.startswith("=") else 2 if underline else 3
            head = {k: v for k, v in head.items() if k < lvl}
            head[lvl] = l
            cap = thead = ""
            continue
        item = re.match(r"\s*([-*]|\d+\.) |\|", l)
        if (not l.strip() or item) and u:
            thead = (thead or u[0]) if u[0].startswith("|") else ""  # a table's header row
            if not (md and re.match(r"( {4}|\t)", u[0]) and not re.match(r"\s*([-*]|\d+\.) ", u[0])):
                yield first, u, "\n".join([cap, thead] + list(head.values()))
            if not u[0].startswith("|") and not re.match(r"\s*([-*]|\d+\.) ", u[0]):
                cap = "\n".join(u) if u[-1].rstrip().endswith(":") or nxt.startswith("|") or item else ""
            u = []
        if l.strip():
            first = first if u else i
            u.append(l)
        elif cap and not (nxt.startswith("|") or re.match(r"\s*([-*]|\d+\.) ", nxt)):
            cap = ""


# The suites table of docs/reference.md, row by row.
tab = read(f"{top}/docs/reference.md").split("## The suites", 1)[-1].split("\n## ", 1)[0]
main = runs[-1][2]
for s, n in list(main["suites"].items()) + [("all", main["cases"])]:
    m = re.search(rf"^\| `?{s}`? \|.*\| (\d+) \|$", tab, re.M)
    out("ok" if m and int(m.group(1)) == n else "WRONG", "docs/reference.md",
        f"{s} {m.group(1) if m else '(none)'}", f"the run's: {n}")
for s in re.findall(r"^\| `(\w+)` \|", tab, re.M):
    if s not in main["suites"]:
        out("WRONG", "docs/reference.md", s, "the run has no such suite")

# Mails: a patch's message, above its first "---"; its notes below and its
# thread's cover letter may name the sources.
thread = {}
for sf in (f"{top}/series", f"{top}/series-{lts}"):
    cur = None
    for l in read(sf).splitlines():
        m = re.match(r"# thread ([\w-]+):", l)
        cur = m.group(1) if m else cur
        if not l.startswith("#") and l.strip():
            thread[os.path.normpath(f"patches/{l.split('#')[0].strip()}")] = cur
files = ["README.md", "MAINTAINERS-notes"] + sorted(
    os.path.relpath(x, top) for g in ["docs/*.md", "patches/cover-letter-*", "patches/report-*",
                                      "patches/blktests/cover-letter", "results/**/README.md",
                                      "patches/*.patch", "patches/*/*.patch"]
    for x in glob.glob(f"{top}/{g}", recursive=True))
for f in files:
    text, extra, skip = read(f"{top}/{f}"), "", 0
    if f.endswith(".patch"):
        head, _, notes = text.partition("\n---\n")
        skip = head[:head.find("\n\n")].count("\n") + 2  # the mail's headers
        cl = "patches/blktests/cover-letter" if "blktests/" in f else f"patches/cover-letter-{thread.get(f)}"
        extra = notes.split("\ndiff --git", 1)[0] + "\n" + read(f"{top}/{cl}")
        text = "\n".join(head.splitlines()[skip:])
    dirs = [f.rsplit("/", 1)[0]] if f.startswith("results/") else []
    for first, u, ctx in units(f, text):
        check_unit(f, first + skip, u, ctx + "\n" + extra + "\n" + "\n".join(dirs))
sys.exit(1 if said["WRONG"] else 0)
