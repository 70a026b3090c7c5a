# SPDX-License-Identifier: GPL-2.0
"""LAVA jobs for the series' KUnit suites (tools/lava.sh; docs/lava.md).

  job RESULTS_JSON TREE NAME ARCH SMP KERNEL_URL [DEVICE_TYPE [BOOT_METHOD
      [DTB_URL [BOOT_COMMANDS]]]]   the job (YAML) booting KERNEL_URL on QEMU
      as kunit.py does (TREE's qemu_configs) or on a board (TFTP), one monitor
      per suite of RESULTS_JSON (kunit.py --json), one LAVA case per KUnit case
  kernel TREE ARCH            the image kunit.py boots, relative to its build dir
  schema JOB                  LAVA's schema check, as on submission: nothing or a line
  device JOB TEMPLATES        the QEMU device configuration LAVA's server renders
  board JOB TEMPLATES         the job's boot method and command set against its
                              device type's template: nothing or a line
  replay CONSOLE RESULTS_JSON what LAVA's monitors record from a serial log
  compare LAVA_LOG RESULTS_JSON  lava-run's log (or lavacli results --yaml)
                              against kunit.py's, case by case

A KTAP leaf (a plain case, or one parameter) is told from the summary line of
a parameterized case by that case's name, which the kunit.py results give:
LAVA's monitor sees one line at a time.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kunit_results import suites  # noqa: E402 pylint: disable=wrong-import-position

KUNIT_TO_LAVA = {"PASS": "pass", "FAIL": "fail", "SKIP": "skip", "ERROR": "fail"}  # a crash fails
FIXUP = {"ok": "pass", "not ok": "fail", "SKIP": "skip"}  # leaf_pattern()'s 'result'
STAMP = r"(?:\[ *\d+\.\d+\] )?"  # a printk timestamp, as kunit.py strips it
# pylint: disable=import-outside-toplevel,import-error


def lava_case_id(name):
    return re.sub(r"\W+", "_", name.strip().lower())


def lava_suite(name):
    return name.replace(" ", "-").lower()


def yaml_str(s):
    return "'" + s.replace("'", "''") + "'"


def leaf_pattern(param_cases):
    """A leaf's result line at any depth below the suite; 'result' is SKIP,
    'ok' or 'not ok'.  A parameterized case's summary (4 spaces) is no leaf."""
    agg = ""
    if param_cases:
        names = "|".join(re.escape(n) for n in param_cases)
        agg = r"(?! {4}(?:not ok|ok) \d+ (?:%s)(?: #[^\r\n]*)?[ \r]*\n)" % names
    return (r"(?:\A|(?<=\n))" + STAMP + agg + r" {4,}"
            r"(?=(?:ok \d+ [^\r\n]*? # )?(?P<result>SKIP|not ok|ok))"
            r"(?:not ok|ok) \d+ (?P<test_case_id>[^\r\n]+?)(?: # [^\r\n]*)?\r*\n")


def qemu_arch(tree, arch):
    """TREE's tools/testing/kunit/qemu_configs/ARCH.py QEMU_ARCH, loaded as
    kunit.py loads it (its 'from ..qemu_config import' needs that name)."""
    import importlib.util
    sys.path.insert(0, tree + "/tools/testing/kunit")
    spec = importlib.util.spec_from_file_location(".qemu_configs/%s.py" % arch, "%s/qemu_configs/%s.py" % (sys.path[0], arch))
    config = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(config)
    return config.QEMU_ARCH


def load_yaml(path):
    import yaml
    with open(path, encoding="utf-8") as f:
        return yaml.safe_load(f)


def schema(job_file):
    import yaml
    import voluptuous
    from lava_common.schemas import validate
    try:
        validate(load_yaml(job_file), strict=True)
    except yaml.YAMLError as e:
        print("%s: not YAML: %s" % (job_file, str(e).splitlines()[0]))
        return 1
    except voluptuous.Invalid as e:
        print("%s: %s" % (job_file, e))
        return 1
    return 0


def job(results_json, tree, name, arch, smp, kernel_url, device_type="qemu",
        boot_method="", dtb_url="", boot_commands=""):
    params = qemu_arch(tree, arch)
    extra = list(params.extra_qemu_params)
    # panic=-1: a panic reboots and the run ends (its missing cases fail)
    # rather than hang until the job's timeout
    c = params.kernel_command_line  # kunit.py adds kunit_shutdown=reboot to a line without one
    cmdline = "kunit.enable=1 panic=-1 " + c + " kunit_shutdown=reboot" * ("kunit_shutdown=" not in c)
    lines = [
        "# The series' KUnit suites on %s (kunit/matrix: %s), from tools/lava.sh." % (name, smp),
        "device_type: %s" % device_type,
        "job_name: %s" % yaml_str("blk-sched-kunit KUnit, " + name),
        "priority: medium",
        "visibility: public",
        # a monitor waits out at most the connection timeout: above kunit.py's 600 s
        "timeouts:",
        "  job: {minutes: 45}",
        "  action: {minutes: 30}",
        "  connection: {minutes: 11}",
    ]
    if device_type == "qemu":
        # kunit.py's machine (-m 1024, no network, the arch's parameters,
        # -machine and -cpu through the template's variables), -smp, TCG
        ctx, rest = {"machine": None, "cpu": None}, []
        for o in extra:  # an option and its argument, if it has one
            if o.startswith("-") or not rest:
                rest.append(o)
            elif rest[-1].lstrip("-") in ctx:
                ctx[rest.pop().lstrip("-")] = o
            else:
                rest[-1] += " " + o
        rest += ["-smp " + smp, "-no-reboot"]
        lines += ["context:", "  arch: %s" % arch, "  no_kvm: true", "  no_network: true", "  memory: 1024"]
        lines += ["  %s: %s" % (k, yaml_str(v)) for k, v in ctx.items() if v]
        lines += ["  extra_options:"] + ["  - %s" % yaml_str(o) for o in rest]
        lines += ["actions:", "- deploy:", "    to: tmpfs", "    timeout: {minutes: 5}",
                  "    images:", "      kernel:",
                  "        image_arg: %s" % yaml_str('-kernel {kernel} -append "%s"' % cmdline),
                  "        url: %s" % yaml_str(kernel_url),
                  "- boot:", "    method: qemu", "    media: tmpfs", "    timeout: {minutes: 5}"]
    else:
        # a board: its bootloader loads the kernel by TFTP, no root file
        # system (the suites run at boot); board() checks method and commands
        cmdline = " ".join(w for w in cmdline.split() if not w.startswith("console="))
        method = boot_method or ("u-boot" if arch == "arm64" else "ipxe")
        lines += ["context:", "  extra_kernel_args: %s" % yaml_str(cmdline),
                  "actions:", "- deploy:", "    to: tftp", "    timeout: {minutes: 10}",
                  "    kernel:", "      url: %s" % yaml_str(kernel_url)]
        lines += ["      type: image"] * (method == "u-boot") + ["      compression: gz"] * kernel_url.endswith(".gz")
        lines += ["    dtb:", "      url: %s" % yaml_str(dtb_url)] * bool(dtb_url)
        lines += ["- boot:", "    method: %s" % method, "    commands: %s" % (boot_commands or "ramdisk"),
                  "    timeout: {minutes: 10}"]
    lines += ["- test:", "    timeout: {minutes: 30}", "    monitors:"]
    fixup = ", ".join("%s: %s" % (yaml_str(k), v) for k, v in FIXUP.items())
    for m in monitors(results_json):
        lines += ["    - name: %s" % yaml_str(m["name"])]
        lines += ["      %s: %s" % (k, yaml_str(m[k])) for k in ("start", "end", "pattern")]
        lines += ["      fixupdict: {%s}" % fixup, "      expected:"] + ["      - %s" % yaml_str(c) for c in m["expected"]]
    print("\n".join(lines))


def monitors(results_json):
    """A monitor per suite with cases, in the kernel's order: from its
    "# Subtest:" to its own result line, every case kunit.py saw expected
    (one the kernel never reports, after a crash say, is then a 'fail')."""
    return [{"name": suite,
             "start": STAMP + re.escape("# Subtest: " + suite) + r"\r*\n",
             "end": r"(?:\A|(?<=\n))" + STAMP + r"(?:not ok|ok) \d+ " + re.escape(suite) + r"(?: # [^\r\n]*)?\r*\n",
             "pattern": leaf_pattern(params),
             "expected": sorted({lava_case_id(n) for n, _ in leaves})}
            for suite, params, leaves in suites(results_json) if leaves]


def replay(console, results_json):
    """LAVA's monitor loop: each waits for its start, then takes the earliest
    of its end and a case (the end on a tie), consuming the console.  Where
    the console stops (LAVA's timeout) the cases not seen fail, and so do
    the suites after.  Lines as lava-run logs its results."""
    pos, lines, stopped = 0, [], False
    for m in monitors(results_json):
        st = None if stopped else re.compile(m["start"], re.DOTALL).search(console, pos)
        got = set()
        if st:
            pos = st.end()
            end, case = re.compile(m["end"], re.DOTALL), re.compile(m["pattern"], re.DOTALL)
            while True:
                e, c = end.search(console, pos), case.search(console, pos)
                if e and (not c or e.start() <= c.start()):
                    pos = e.end()
                    break
                if not c:
                    stopped = True
                    break
                cid = lava_case_id(c.group("test_case_id"))
                lines.append((m["name"], cid, FIXUP[c.group("result")] if cid in m["expected"] else "fail"))
                got.add(cid)
                pos = c.end()
        else:
            stopped = True
        lines += [(m["name"], cid, "fail") for cid in m["expected"] if cid not in got]
    return [json.dumps({"lvl": "results", "msg": {"definition": lava_suite(s), "case": c, "result": r}})
            for s, c, r in lines]


def render(device_type, templates, context):
    """The device configuration as LAVA's server renders it (lava_common's Jinja2)."""
    from jinja2 import FileSystemLoader
    from lava_common.jinja import create_device_templates_env
    env = create_device_templates_env(loader=FileSystemLoader([templates]))
    return env.from_string("{%% extends '%s.jinja2' %%}" % device_type).render(**context)


def device(job_file, templates):
    j = load_yaml(job_file)
    print(render(j["device_type"], templates, j.get("context", {})))


def board(job_file, templates):
    import yaml
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
        print("%s: device type %s has no '%s' command set for %s (LAVA_BOOT_COMMANDS: %s)" %
              (job_file, dt, boot["commands"], boot["method"], ", ".join(sorted(k for k in sets if k != "parameters"))))
        return 1
    return 0


def lava_results(path):
    """{suite: [(case, result)]} from lava-run's log or lavacli results --yaml;
    LAVA's own results (suite 'lava') are not cases."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    out = []
    for line in text.splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict) and rec.get("lvl") == "results" and isinstance(rec.get("msg"), dict):
            out.append((rec["msg"].get("definition"), rec["msg"].get("case"), rec["msg"].get("result")))
    if not out and text.lstrip()[:1] in ("-", "["):
        import yaml
        out = [(r.get("suite"), r.get("name"), r.get("result")) for r in yaml.safe_load(text) or []]
    res = {}
    for d, c, r in out:
        if d and d != "lava":
            res.setdefault(d, []).append((c, r))
    return res


def compare(lava_log, results_json):
    lava = lava_results(lava_log)
    agree = differ = 0
    for suite, _, leaves in suites(results_json):
        rest = sorted(lava.pop(lava_suite(suite), []))
        for w in sorted((lava_case_id(n), KUNIT_TO_LAVA.get(st, st)) for n, st in leaves):
            if w in rest:
                rest.remove(w)
                agree += 1
                continue
            differ += 1
            other = [x for x in rest if x[0] == w[0]]
            print("%s.%s: kunit.py %s, LAVA %s" % (suite, w[0], w[1], other[0][1] if other else "no result"))
            if other:
                rest.remove(other[0])
        for c, r in rest:
            differ += 1
            print("%s.%s: LAVA %s, kunit.py no result" % (suite, c, r))
    for d, cases in lava.items():
        for c, r in cases:
            differ += 1
            print("%s.%s: LAVA %s, not a suite kunit.py ran" % (d, c, r))
    print("%d agree, %d differ" % (agree, differ))
    return 1 if differ or not agree else 0


def main(argv):
    def console(path):  # a serial log as the wire had it: \r kept, bad bytes replaced
        with open(path, encoding="utf-8", errors="replace", newline="") as f:
            return f.read()
    cmds = {
        "job": (7, 11, lambda a: job(*a)),
        "kernel": (3, 3, lambda a: print(qemu_arch(*a).kernel_path)),
        "schema": (2, 2, lambda a: schema(*a)),
        "device": (3, 3, lambda a: device(*a)),
        "board": (3, 3, lambda a: board(*a)),
        "replay": (3, 3, lambda a: print("\n".join(replay(console(a[0]), a[1])))),
        "compare": (3, 3, lambda a: compare(*a)),
    }
    if argv and argv[0] in cmds and cmds[argv[0]][0] <= len(argv) <= cmds[argv[0]][1]:
        return cmds[argv[0]][2](argv[1:]) or 0
    sys.stderr.write("usage: lava.py %s ... (see the top of tools/lib/lava.py)\n" % "|".join(cmds))
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
