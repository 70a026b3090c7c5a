# SPDX-License-Identifier: GPL-2.0
"""The one reader of kunit.py's --json.  A case is a leaf (a plain case, a
parameter, a suite whose init failed); PASS passed, SKIP skipped, else failed.

  kunit_results.py counts FILE   "PASSED FAILED SKIPPED"
  kunit_results.py failed FILE   each failed case: suite.case[: parameter]
  kunit_results.py skipped FILE  each skipped case, the same way
"""
import json
import sys


def leaves(path):
    """[(names, status)], names from the suite down to the leaf."""
    out = []

    def walk(g, names):
        for c in g.get("test_cases", []):
            out.append((names + (c["name"] or "(no result: crashed)",), c["status"]))
        for s in g.get("sub_groups", []):
            walk(s, names + (s["name"],))

    with open(path, encoding="utf-8") as f:
        walk(json.load(f), ())
    return out


def counts(ls):
    st = [s for _, s in ls]
    return st.count("PASS"), len(st) - st.count("PASS") - st.count("SKIP"), st.count("SKIP")


def named(ls, keep):
    return [".".join(n[:2]) + "".join(": " + p for p in n[2:]) for n, s in ls if keep(s)]


def failed(ls):
    return named(ls, lambda s: s not in ("PASS", "SKIP"))


def suites(path):
    """[(suite, [its parameterized cases], [(leaf name, status)])], in the
    order kunit.py wrote them."""
    out = {}
    for n, s in leaves(path):
        p, ls = out.setdefault(n[0], ([], []))
        if len(n) > 2 and n[1] not in p:
            p.append(n[1])
        if len(n) > 1:
            ls.append((n[-1], s))
    return [(k, p, ls) for k, (p, ls) in out.items()]


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("counts", "failed", "skipped"):
        sys.exit("usage: kunit_results.py counts|failed|skipped FILE")
    ls = leaves(sys.argv[2])
    if sys.argv[1] == "counts":
        print(*counts(ls))
    for n in named(ls, lambda s: s == "SKIP") if sys.argv[1] == "skipped" else failed(ls) if sys.argv[1] == "failed" else []:
        print(n)
