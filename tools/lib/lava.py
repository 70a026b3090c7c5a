# SPDX-License-Identifier: GPL-2.0
"""LAVA jobs for the series' KUnit suites (tools/lava.sh, make lava).

  lava.py job RESULTS_JSON TREE NAME ARCH SMP KERNEL_URL [DEVICE_TYPE
          [BOOT_METHOD [DTB_URL [BOOT_COMMANDS]]]]
      A LAVA job definition (YAML, stdout) that boots the kernel at
      KERNEL_URL under DEVICE_TYPE (default qemu: the QEMU of kunit.py's
      qemu_configs/ARCH.py in TREE, with -smp SMP; a board: TFTP and its
      bootloader, BOOT_METHOD u-boot for arm64, ipxe for x86_64 unless
      given, its command set BOOT_COMMANDS (ramdisk), with the device
      tree at DTB_URL if given) and turns its KTAP
      output into LAVA results: one monitor per suite of RESULTS_JSON
      (kunit.py's --json of the same kernel, which gives the suites in the
      order the kernel runs them and which of their cases are
      parameterized), one LAVA test case per KUnit case, its result pass,
      fail or skip.
  lava.py kernel TREE ARCH
      The kernel image kunit.py boots for ARCH, relative to its build dir.
  lava.py schema JOB
      LAVA's schema check of JOB, as a LAVA server runs it on submission:
      nothing, or one line saying what is wrong.
  lava.py device JOB TEMPLATES
      The device configuration of a local QEMU worker for JOB: LAVA's own
      qemu.jinja2 (TEMPLATES: lava-server's device-types) rendered with the
      job's context, as a LAVA server renders it for its workers.  Needs
      LAVA's modules (tools/env/lava.sh: bin/lava-python).
  lava.py board JOB TEMPLATES
      A lab job's boot method and command set against its device type's
      template (LAVA's schema does not check them): nothing, or one line.
  lava.py replay CONSOLE RESULTS_JSON
      The results LAVA's monitors would record from a recorded CONSOLE
      (a serial log), as lava-run logs them.
  lava.py compare LAVA_LOG RESULTS_JSON
      Each KUnit case's result in lava-run's log (its JSON lines), or in
      `lavacli results --yaml JOB` of a lab's job, against
      kunit.py's for the same kernel: a line per case that differs or is
      missing on one side, then "N agree, N differ".

KTAP (Documentation/dev-tools/ktap.rst): a suite is a subtest of the top
level, its cases subtests of the suite, the parameters of a
parameterized case subtests of that case.  LAVA's monitor action sees
one result line at a time, so a leaf (a plain case, or one parameter) is
told from the summary line of a parameterized case by that case's name,
which the kunit.py results give.
"""
import json
import re
import sys

# kunit.py's statuses as LAVA results; a crash (ERROR) fails the case.
KUNIT_TO_LAVA = {"PASS": "pass", "FAIL": "fail", "SKIP": "skip", "ERROR": "fail"}


def lava_case_id(name):
    """The test case id LAVA's monitor action makes of a KTAP name."""
    return re.sub(r"\W+", "_", name.strip().lower())


def suites(results_json):
    """[(suite, [param case names], [(leaf name, kunit.py status)])]."""
    with open(results_json, encoding="utf-8") as f:
        top = json.load(f)
    out = []
    for s in top["sub_groups"]:
        leaves = [(c["name"], c["status"]) for c in s["test_cases"]]
        for g in s["sub_groups"]:
            leaves += [(c["name"], c["status"]) for c in g["test_cases"]]
        out.append((s["name"], [g["name"] for g in s["sub_groups"]], leaves))
    return out


# A printk timestamp (CONFIG_PRINTK_TIME, set by most boards' defconfigs)
# before a KTAP line, as kunit.py's parser strips it.
STAMP = r"(?:\[ *\d+\.\d+\] )?"


def leaf_pattern(param_cases):
    """A KTAP result line of a leaf, at any depth below the suite.

    'result' is SKIP for "ok N name # SKIP reason", else "ok" or "not ok";
    the summary line of a parameterized case (named in param_cases, at the
    case's depth: four spaces) is not a leaf, whatever its directive.
    """
    agg = ""
    if param_cases:
        names = "|".join(re.escape(n) for n in param_cases)
        agg = r"(?! {4}(?:not ok|ok) \d+ (?:%s)(?: #[^\r\n]*)?[ \r]*\n)" % names
    return (r"(?:\A|(?<=\n))" + STAMP + agg + r" {4,}"
            r"(?=(?:ok \d+ [^\r\n]*? # )?(?P<result>SKIP|not ok|ok))"
            r"(?:not ok|ok) \d+ (?P<test_case_id>[^\r\n]+?)(?: # [^\r\n]*)?\r*\n")


def qemu_ops(tree, arch):
    """kunit.py's own QEMU operations for arch (TREE's qemu_configs)."""
    sys.path.insert(0, tree + "/tools/testing/kunit")
    import kunit_kernel  # pylint: disable=import-outside-toplevel,import-error
    # pylint: disable=protected-access
    return kunit_kernel._get_qemu_ops(kunit_kernel._default_qemu_config_path(arch), [], None)[1]


def qemu_params(tree, arch):
    """kunit.py's kernel command line and extra QEMU parameters for arch."""
    ops = qemu_ops(tree, arch)
    return ops._kernel_command_line, list(ops._extra_qemu_params)  # pylint: disable=protected-access


def yaml_str(s):
    """A YAML single-quoted scalar."""
    return "'" + s.replace("'", "''") + "'"


def kernel_path(tree, arch):
    """The kernel image kunit.py boots for arch, relative to its build dir."""
    return qemu_ops(tree, arch)._kernel_path  # pylint: disable=protected-access


def schema(job_file):
    """LAVA's own schema check of a job definition (what a LAVA server
    runs on submission, before any worker sees the job)."""
    import yaml  # pylint: disable=import-outside-toplevel
    import voluptuous  # pylint: disable=import-outside-toplevel
    from lava_common.schemas import validate  # pylint: disable=import-outside-toplevel,import-error
    with open(job_file, encoding="utf-8") as f:
        try:
            j = yaml.safe_load(f)
        except yaml.YAMLError as e:
            print("%s: not YAML: %s" % (job_file, str(e).splitlines()[0]))
            return 1
    try:
        validate(j, strict=True)
    except voluptuous.Invalid as e:
        print("%s: %s" % (job_file, e))
        return 1
    return 0


def job(results_json, tree, name, arch, smp, kernel_url, device_type="qemu",
        boot_method="", dtb_url="", boot_commands=""):
    cmdline, extra = qemu_params(tree, arch)
    # panic=-1: a panic reboots, and the run ends there (QEMU: -no-reboot;
    # the cases after it are missing, which the monitors' expected lists
    # turn into failures) rather than hang until the job's timeout.
    cmdline = "kunit.enable=1 panic=-1 " + cmdline
    lines = [
        "# The series' KUnit suites on %s (kunit/matrix: %s), from tools/lava.sh." % (name, smp),
        "device_type: %s" % device_type,
        "job_name: %s" % yaml_str("blk-sched-kunit KUnit, " + name),
        "priority: medium",
        "visibility: public",
        # The longest silence a monitor waits out is the connection
        # timeout: longer than kunit.py's --timeout (600 s) for a run.
        "timeouts:",
        "  job: {minutes: 45}",
        "  action: {minutes: 30}",
        "  connection: {minutes: 11}",
    ]
    if device_type == "qemu":
        # kunit.py's machine: its -m 1024, -nodefaults (no network), the
        # arch's extra parameters (-machine and -cpu through the
        # template's own variables), and the series' -smp; QEMU exits
        # when the kernel reboots at the end of the tests, as under
        # kunit.py.  TCG, as the tools run QEMU (tools/env/qemu-tcg.sh).
        ctx = {"machine": None, "cpu": None}
        rest = []
        i = 0
        while i < len(extra):
            opt = extra[i].lstrip("-")
            if opt in ctx and i + 1 < len(extra):
                ctx[opt] = extra[i + 1]
                i += 2
                continue
            if i + 1 < len(extra) and not extra[i + 1].startswith("-"):
                rest.append(extra[i] + " " + extra[i + 1])
                i += 2
            else:
                rest.append(extra[i])
                i += 1
        rest += ["-smp " + smp, "-no-reboot"]
        lines += ["context:",
                  "  arch: %s" % arch,
                  "  no_kvm: true",
                  "  no_network: true",
                  "  memory: 1024"]
        lines += ["  %s: %s" % (k, yaml_str(v)) for k, v in ctx.items() if v]
        lines += ["  extra_options:"] + ["  - %s" % yaml_str(o) for o in rest]
        lines += ["actions:",
                  "- deploy:",
                  "    to: tmpfs",
                  "    timeout: {minutes: 5}",
                  "    images:",
                  "      kernel:",
                  "        image_arg: %s" % yaml_str('-kernel {kernel} -append "%s"' % cmdline),
                  "        url: %s" % yaml_str(kernel_url),
                  "- boot:",
                  "    method: qemu",
                  "    media: tmpfs",
                  "    timeout: {minutes: 5}"]
    else:
        # A board: its bootloader loads the kernel from the worker's TFTP
        # server, with no root file system (the suites are built in and
        # run at boot).  The boot method and its command set are the
        # device type's (check_board() checks them against its template).
        cmdline = " ".join(w for w in cmdline.split() if not w.startswith("console="))
        method = boot_method or ("u-boot" if arch == "arm64" else "ipxe")
        lines += ["context:",
                  "  extra_kernel_args: %s" % yaml_str(cmdline),
                  "actions:",
                  "- deploy:",
                  "    to: tftp",
                  "    timeout: {minutes: 10}",
                  "    kernel:",
                  "      url: %s" % yaml_str(kernel_url)]
        if method == "u-boot":
            lines += ["      type: image"]
        if kernel_url.endswith(".gz"):
            lines += ["      compression: gz"]
        if dtb_url:
            lines += ["    dtb:", "      url: %s" % yaml_str(dtb_url)]
        lines += ["- boot:",
                  "    method: %s" % method,
                  "    commands: %s" % (boot_commands or "ramdisk"),
                  "    timeout: {minutes: 10}"]
    lines += ["- test:",
              "    timeout: {minutes: 30}",
              "    monitors:"]
    for m in monitors(results_json):
        lines += ["    - name: %s" % yaml_str(m["name"]),
                  "      start: %s" % yaml_str(m["start"]),
                  "      end: %s" % yaml_str(m["end"]),
                  "      pattern: %s" % yaml_str(m["pattern"]),
                  "      fixupdict: {%s}" % ", ".join("%s: %s" % (yaml_str(k), v) for k, v in FIXUP.items()),
                  "      expected:"] + ["      - %s" % yaml_str(c) for c in m["expected"]]
    print("\n".join(lines))


# The 'result' group of leaf_pattern() as LAVA results.
FIXUP = {"ok": "pass", "not ok": "fail", "SKIP": "skip"}


def lava_suite(name):
    """The test suite name LAVA's monitor action makes of a monitor's name."""
    return name.replace(" ", "-").lower()


def monitors(results_json):
    """One LAVA monitor per suite, in the order the kernel runs them: from
    its "# Subtest:" line to its own result line at the top level, with
    every case kunit.py saw as expected (a case the kernel never reports,
    after a crash say, is then a LAVA 'fail').  A suite without cases
    (its init failed: no "# Subtest:" line) gets none."""
    out = []
    for suite, params, leaves in suites(results_json):
        if not leaves:
            continue
        out.append({"name": suite,
                    "start": STAMP + re.escape("# Subtest: " + suite) + r"\r*\n",
                    "end": r"(?:\A|(?<=\n))" + STAMP + r"(?:not ok|ok) \d+ " + re.escape(suite) +
                           r"(?: # [^\r\n]*)?\r*\n",
                    "pattern": leaf_pattern(params),
                    "expected": sorted({lava_case_id(n) for n, _ in leaves})})
    return out


def replay(console, results_json):
    """What LAVA's monitor action records from a console: each monitor
    waits for its start, then takes the earliest of its end and a case
    (the end first on a tie), consuming the console as it goes.  Where
    the console stops (a crash: LAVA's timeout), the suite's expected
    cases not seen are failures, and so are those of the suites after it
    (LAVA's cleanup of monitors that never ran).  Lines as lava-run logs
    its results, for compare()."""
    pos = 0
    lines = []
    stopped = False

    def res(m, cid, r):
        lines.append(json.dumps({"lvl": "results", "msg": {
            "definition": lava_suite(m["name"]), "case": cid, "result": r}}))

    for m in monitors(results_json):
        st = None if stopped else re.compile(m["start"], re.DOTALL).search(console, pos)
        if not st:
            stopped = True
            for cid in m["expected"]:
                res(m, cid, "fail")
            continue
        pos = st.end()
        end = re.compile(m["end"], re.DOTALL)
        case = re.compile(m["pattern"], re.DOTALL)
        seen = set()
        while True:
            e, c = end.search(console, pos), case.search(console, pos)
            if e and (not c or e.start() <= c.start()):
                pos = e.end()
                break
            if not c:
                stopped = True
                break
            cid = lava_case_id(c.group("test_case_id"))
            r = FIXUP[c.group("result")]
            if cid not in m["expected"] and r != "fail":
                r = "fail"
            seen.add(cid)
            res(m, cid, r)
            pos = c.end()
        for cid in m["expected"]:
            if cid not in seen:
                res(m, cid, "fail")
    return lines


def render(device_type, templates, context):
    """A device configuration from LAVA's device-type template, as a LAVA
    server renders it for its workers (lava_common's own Jinja2 setup)."""
    from jinja2 import FileSystemLoader  # pylint: disable=import-outside-toplevel
    from lava_common.jinja import create_device_templates_env  # pylint: disable=import-outside-toplevel,import-error
    env = create_device_templates_env(loader=FileSystemLoader([templates]))
    return env.from_string("{%% extends '%s.jinja2' %%}" % device_type).render(**context)


def load_yaml(path):
    import yaml  # pylint: disable=import-outside-toplevel
    with open(path, encoding="utf-8") as f:
        return yaml.safe_load(f)


def device(job_file, templates):
    j = load_yaml(job_file)
    print(render(j["device_type"], templates, j.get("context", {})))


def check_board(job_file, templates):
    """A lab job's boot method and command set against its device type's
    template (what a worker checks once a board is assigned: LAVA's schema
    does not).  Nothing, or one line."""
    import yaml  # pylint: disable=import-outside-toplevel
    j = load_yaml(job_file)
    dt = j["device_type"]
    try:
        dev = yaml.safe_load(render(dt, templates, j.get("context", {})))
    except Exception as e:  # pylint: disable=broad-except
        print("%s: no LAVA device type '%s' here (%s)" % (job_file, dt, str(e).splitlines()[0]))
        return 1
    boot = [a["boot"] for a in j["actions"] if "boot" in a][0]
    methods = (dev.get("actions", {}).get("boot", {}) or {}).get("methods", {}) or {}
    if boot["method"] not in methods:
        print("%s: device type %s boots with %s, not %s (LAVA_BOOT_METHOD)" %
              (job_file, dt, ", ".join(sorted(methods)), boot["method"]))
        return 1
    sets = methods[boot["method"]] or {}
    if isinstance(sets, dict) and "commands" in boot and sets and boot["commands"] not in sets:
        names = sorted(k for k in sets if k != "parameters")
        print("%s: device type %s has no '%s' command set for %s (LAVA_BOOT_COMMANDS: %s)" %
              (job_file, dt, boot["commands"], boot["method"], ", ".join(names)))
        return 1
    return 0


def lava_results(path):
    """[(suite, case, result)] from lava-run's log (JSON lines) or from
    `lavacli results --yaml JOB` (a lab's job)."""
    out = []
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for line in text.splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict) and rec.get("lvl") == "results" and isinstance(rec.get("msg"), dict):
            m = rec["msg"]
            out.append((m.get("definition"), m.get("case"), m.get("result")))
    if not out and text.lstrip()[:1] in ("-", "["):
        # lavacli results --yaml (or --json): the server's test cases
        import yaml  # pylint: disable=import-outside-toplevel
        for r in yaml.safe_load(text) or []:
            out.append((r.get("suite"), r.get("name"), r.get("result")))
    # LAVA's own results (the job, its actions) are not cases.
    return [(d, c, r) for d, c, r in out if d and d != "lava"]


def compare(lava_log, results_json):
    lava = {}
    for d, c, r in lava_results(lava_log):
        lava.setdefault(d, []).append((c, r))
    agree = differ = 0
    for suite, _, leaves in suites(results_json):
        want = sorted((lava_case_id(n), KUNIT_TO_LAVA.get(st, st)) for n, st in leaves)
        got = sorted(lava.pop(lava_suite(suite), []))
        rest = list(got)
        for w in want:
            if w in rest:
                rest.remove(w)
                agree += 1
                continue
            differ += 1
            other = [r for c, r in rest if c == w[0]]
            print("%s.%s: kunit.py %s, LAVA %s" % (suite, w[0], w[1], other[0] if other else "no result"))
            if other:
                rest.remove((w[0], other[0]))
        for c, r in rest:
            differ += 1
            print("%s.%s: LAVA %s, kunit.py no result" % (suite, c, r))
    for d, cases in lava.items():
        for c, r in cases:
            differ += 1
            print("%s.%s: LAVA %s, not a suite kunit.py ran" % (d, c, r))
    print("%d agree, %d differ" % (agree, differ))
    return 1 if differ or not agree else 0


def read_console(path):
    """A serial log as the wire had it: its \\r kept, bad bytes replaced."""
    with open(path, encoding="utf-8", errors="replace", newline="") as f:
        return f.read()


def main(argv):
    cmds = {
        "job": (7, 11, lambda a: job(*a) or 0),
        "kernel": (3, 3, lambda a: print(kernel_path(*a)) or 0),
        "schema": (2, 2, lambda a: schema(*a)),
        "device": (3, 3, lambda a: device(*a) or 0),
        "board": (3, 3, lambda a: check_board(*a)),
        "replay": (3, 3, lambda a: print("\n".join(replay(read_console(a[0]), a[1]))) or 0),
        "compare": (3, 3, lambda a: compare(*a)),
    }
    if argv and argv[0] in cmds and cmds[argv[0]][0] <= len(argv) <= cmds[argv[0]][1]:
        return cmds[argv[0]][2](argv[1:])
    sys.stderr.write("usage: lava.py %s ... (see the top of tools/lib/lava.py)\n" % "|".join(cmds))
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
