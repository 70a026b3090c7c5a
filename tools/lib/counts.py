# SPDX-License-Identifier: GPL-2.0
# counts.py RESULTS.json TOP LTS_SERIES - tools/gate/counts.sh's checker
# (docs/gate.md, "Figures and their sources").
import functools, glob, gzip, os, re, sys
from collections import Counter
from decimal import Decimal, ROUND_HALF_UP
from kunit_results import counts, leaves

top, lts, runs, said = "", "", [], Counter()  # main() sets them


def out(kind, where, fig, why):
    said[kind] += 1
    print(f"{kind:9} {where}: {fig} ({why})")


def tally(path):  # the counts of a kunit.py --json run, and its cases per suite
    try:
        ls = leaves(path)
    except (OSError, ValueError, LookupError, TypeError, AttributeError) as e:
        sys.exit(f"counts.sh: error: {path}: not a kunit.py --json file ({e})")
    return dict(zip(("passed", "failed", "skipped"), counts(ls)), cases=len(ls), suites=Counter(n[0] for n, _ in ls))


def choose_runs(run_json):
    """The runs a sentence can speak of, by their words, RESULTS.json last; RESULTS.json is
    also the run its directory names (kunit.sh's <date>-v<version>-<arch>[-rt])."""
    rs = [("lts", r"6\.12|\bLTS\b", "LTS", f"-v{lts}\\."), ("rt", r"PREEMPT_RT|KUNIT_DEBUG=rt|\bRT\b", "RT", "-rt$"),
          ("one-CPU UML", r"\bone CPU\b", "UML1", None), ("uml", r"\bUML\b|\bum\b", "UML", "-um$")]
    return [(n, w, p and tally(p)) for n, w, e, k in rs for p in [os.environ.get(f"COUNTS_{e}_JSON")
            or (run_json if k and re.search(k, os.path.dirname(run_json)) else None)]] + [("", "", tally(run_json))]


def read(f):
    return open(f).read() if os.path.isfile(f) else ""


def lines(f):
    return [x for x in read(f).splitlines() if not x.startswith("#") and x.strip()]


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
ITEM = r"\s*([-*]|\d+\.) "  # a list item's start
FILES = ["README.md", "MAINTAINERS-notes", "docs/*.md", "patches/cover-letter-*", "patches/report-*",  # what is read
         "patches/blktests/cover-letter", "results/**/README.md", "patches/*.patch", "patches/*/*.patch"]


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


def run_of(texts):  # the run the first of TEXTS that names one names, else RESULTS.json's
    return next((r for t in texts for r in runs[:-1] if re.search(r[1], t)), runs[-1])


def want(kind, n, run):  # RUN's or the tree's figure for KIND (None: no such run given), and what it is
    base, d = run[0], f"{top}/kunit/mutations"
    if kind == "mutants":  # for the LTS, <version>/X.tsv replaces X.tsv
        return sum(len(lines(g if base == "lts" and os.path.isfile(g) else f)) for f in glob.glob(f"{d}/*.tsv")
                   for g in [f"{d}/{lts}/{os.path.basename(f)}"]), "the mutation lists"
    if kind == "patches":  # of the LTS series: all its patches, or its own (those that differ)
        ls = lines(f"{top}/series-{lts}" if base == "lts" else f"{top}/series")
        return (n if base == "lts" and n == len([x for x in ls if "/" in x]) else len(ls)), "the series"
    return run[2] and run[2][kind], f"the {base + ' ' if base else ''}run's {kind}"


def measured(fig):  # a unit, "N of M", a ratio (3+ decimals), 4+ digits but no year
    n = fig.replace(",", "")
    return bool(not re.fullmatch(r"[\d.,]+", fig) or re.search(r"\.\d{3}", fig)
                or re.fullmatch(r"\d{4,}", n) and not 1990 <= int(n) <= 2030)


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
    src, dated = sources(text + "\n" + ctx, f), DATED.search(text + "\n" + ctx)
    sents = re.split(r"(?<=[.;])\s", re.sub(f"^{ITEM}", "", text))
    for i, line in enumerate(unit):
        where, spans = f"{f}:{first + i}", []
        for m in COUNT.finditer(line):
            fig = m.group(0)
            sent = next((x for x in sents if fig in x), line)
            kind, n = count(m, sent[sent.find(fig):])
            if kind is None:
                continue
            spans.append(m.span())
            if dated:
                sourced(where, fig, [n], src, dated, f)
                continue
            run = run_of((sent, sents[0], ctx))  # the sentence's, else the unit's first's, else its context's
            w, what = want(kind, n, run)
            if w is None:
                out("unchecked", where, fig, f"source: the {run[0]} run, not given")
            else:
                out("ok" if n == w else "WRONG", where, fig, what if n == w else f"{what}: {w}")
        # dates, times and URLs are no measurements
        line = re.sub(r"\d{4}-\d\d-\d\d|\d\d:\d\d(:\d\d)?|\S+://\S+", lambda x: "D" * len(x.group(0)), line)
        for m in MEASURED.finditer(line):
            fig = m.group(0)
            if any(a <= m.start() < b for a, b in spans) or not measured(fig) or not re.search(r"[1-9]", fig):
                continue
            nums = [x.replace(",", "") for x in re.findall(r"\d[\d,]*(?:\.\d+)?", fig)]
            sourced(where, fig, nums[:1] if fig.endswith(" x") else nums, src, dated, f)


def units(f, text):
    """(first line, lines, context: caption and headings) of each paragraph, list item and table row."""
    head, cap, u, first, fence, thead, diff = {}, "", [], 0, False, "", False
    md, ls = f.endswith(".md"), text.splitlines() + [""]
    for i, l in enumerate(ls, 1):
        if md and l.lstrip().startswith("```"):
            fence, l = not fence, ""
        if fence:
            continue
        # a diff quoted in a mail is code, not claims
        diff = not md and (l.startswith("diff --git ") or diff and re.match(r"([ +\-@\\]|index |$)", l))
        l, nxt = "" if diff else l, ls[i] if i < len(ls) else ""
        h = re.match(r"(#+) ", l) if md else None
        underline = re.fullmatch(r"(---+|===+)", nxt) and l.strip() and not u
        if re.fullmatch(r"(---+|===+)", l) and not u:
            continue
        if h or underline or re.match(r"v\d+ \(", l):
            lvl = len(h.group(1)) if h else 1 if nxt.startswith("=") else 2 if underline else 3
            head, cap, thead = {k: v for k, v in head.items() if k < lvl} | {lvl: l}, "", ""
            continue
        item = re.match(rf"{ITEM}|\|", l)
        if (not l.strip() or item) and u:
            thead = (thead or u[0]) if u[0].startswith("|") else ""  # a table's header row
            if not (md and re.match(r"( {4}|\t)", u[0]) and not re.match(ITEM, u[0])):  # indented: code
                yield first, u, "\n".join([cap, thead] + list(head.values()))
            if not u[0].startswith("|") and not re.match(ITEM, u[0]):
                cap = "\n".join(u) if u[-1].rstrip().endswith(":") or nxt.startswith("|") or item else ""
            u = []
        if l.strip():
            first, u = (first if u else i), u + [l]
        elif cap and not (nxt.startswith("|") or re.match(ITEM, nxt)):
            cap = ""


def check_reference(run):  # the suites table of docs/reference.md, row by row, against RUN
    tab = read(f"{top}/docs/reference.md").split("## The suites", 1)[-1].split("\n## ", 1)[0]
    for s, n in list(run["suites"].items()) + [("all", run["cases"])]:
        m = re.search(rf"^\| `?{s}`? \|.*\| (\d+) \|$", tab, re.M)
        out("ok" if m and int(m.group(1)) == n else "WRONG", "docs/reference.md",
            f"{s} {m.group(1) if m else '(none)'}", f"the run's: {n}")
    for s in re.findall(r"^\| `(\w+)` \|", tab, re.M):
        if s not in run["suites"]:
            out("WRONG", "docs/reference.md", s, "the run has no such suite")


def threads():  # each patch's thread: the last "# thread NAME:" line above it in its series
    thread = {}
    for sf in (f"{top}/series", f"{top}/series-{lts}"):
        cur = None
        for l in read(sf).splitlines():
            cur = m.group(1) if (m := re.match(r"# thread ([\w-]+):", l)) else cur
            if not l.startswith("#") and l.strip():
                thread[os.path.normpath(f"patches/{l.split('#')[0].strip()}")] = cur
    return thread


def mail(f, text, thread):
    """A patch's message above "---" less its headers, their number of lines, and the text that
    may name its sources: its notes below "---" and its thread's cover letter."""
    head, _, notes = text.partition("\n---\n")
    skip = head[:head.find("\n\n")].count("\n") + 2
    cl = "patches/blktests/cover-letter" if "blktests/" in f else f"patches/cover-letter-{thread.get(f)}"
    return "\n".join(head.splitlines()[skip:]), skip, notes.split("\ndiff --git", 1)[0] + "\n" + read(f"{top}/{cl}")


def main(argv):
    global top, lts, runs
    if len(argv) != 4 or not os.path.isdir(argv[2]):
        sys.exit(f"counts.sh: error: usage: counts.py RESULTS.json TOP LTS_SERIES (TOP a directory)")
    run_json, top, lts = argv[1:]
    runs = choose_runs(run_json)
    if not runs[-1][2]["cases"]:
        sys.exit(f"counts.sh: error: {run_json} holds no case")
    check_reference(runs[-1][2])
    thread = threads()
    for f in FILES[:2] + sorted(os.path.relpath(x, top) for g in FILES[2:] for x in glob.glob(f"{top}/{g}", recursive=True)):
        text, skip, extra = mail(f, read(f"{top}/{f}"), thread) if f.endswith(".patch") else (read(f"{top}/{f}"), 0, "")
        dirs = [f.rsplit("/", 1)[0]] if f.startswith("results/") else []  # results/X/README.md names results/X
        for first, u, ctx in units(f, text):
            check_unit(f, first + skip, u, "\n".join([ctx, extra] + dirs))
    return 1 if said["WRONG"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
