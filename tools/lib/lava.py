# SPDX-License-Identifier: GPL-2.0
"""LAVA jobs for the series' KUnit suites (tools/lava.sh, make lava).

  lava.py job RESULTS_JSON TREE NAME ARCH SMP KERNEL_URL [DEVICE_TYPE
          [BOOT_METHOD [DTB_URL]]]
      A LAVA job definition (YAML, stdout) that boots the kernel at
      KERNEL_URL under DEVICE_TYPE (default qemu: the QEMU of kunit.py's
      qemu_configs/ARCH.py in TREE, with -smp SMP; a board: TFTP and its
      bootloader, BOOT_METHOD u-boot for arm64, ipxe for x86_64 unless
      given, with the device tree at DTB_URL if given) and turns its KTAP
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
  lava.py compare LAVA_LOG RESULTS_JSON
      Each KUnit case's result in lava-run's log (its JSON lines) against
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


def leaf_pattern(param_cases):
    """A KTAP result line of a leaf, at any depth below the suite.

    'result' is SKIP for "ok N name # SKIP reason", else "ok" or "not ok";
    the summary line of a parameterized case (named in param_cases) is
    not a leaf.
    """
    agg = ""
    if param_cases:
        names = "|".join(re.escape(n) for n in param_cases)
        agg = r"(?!(?:not ok|ok) \d+ (?:%s)[ \r]*\n)" % names
    return (r"(?:\A|(?<=\n)) {4,}" + agg +
            r"(?=(?:ok \d+ [^#\r\n]*# )?(?P<result>SKIP|not ok|ok))"
            r"(?:not ok|ok) \d+ (?P<test_case_id>[^#\r\n]+?)(?: # [^\r\n]*)?\r*\n")


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
        boot_method="", dtb_url=""):
    cmdline, extra = qemu_params(tree, arch)
    cmdline = "kunit.enable=1 " + cmdline
    lines = [
        "# The series' KUnit suites on %s (kunit/matrix: %s), from tools/lava.sh." % (name, smp),
        "device_type: %s" % device_type,
        "job_name: %s" % yaml_str("blk-sched-kunit KUnit, " + name),
        "priority: medium",
        "visibility: public",
        "timeouts:",
        "  job: {minutes: 45}",
        "  action: {minutes: 30}",
        "  connection: {minutes: 2}",
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
        # run at boot).  The boot method is the device type's (u-boot
        # here; grub or depthcharge boards change 'method').
        # The console is the board's: the command line keeps only what
        # the suites need.
        cmdline = " ".join(w for w in cmdline.split() if not w.startswith("console="))
        method = boot_method or ("u-boot" if arch == "arm64" else "ipxe")
        lines += ["context:",
                  "  extra_kernel_args: %s" % yaml_str(cmdline),
                  "actions:",
                  "- deploy:",
                  "    to: tftp",
                  "    timeout: {minutes: 10}",
                  "    kernel:",
                  "      url: %s" % yaml_str(kernel_url),
                  "      type: %s" % ("image" if arch == "arm64" else "bzimage")]
        if dtb_url:
            lines += ["    dtb:", "      url: %s" % yaml_str(dtb_url)]
        lines += ["- boot:",
                  "    method: %s" % method,
                  "    commands: ramdisk",
                  "    timeout: {minutes: 10}"]
    lines += ["- test:",
              "    timeout: {minutes: 30}",
              "    monitors:"]
    for m in monitors(results_json):
        lines += ["    - name: %s" % m["name"],
                  "      start: %s" % yaml_str(m["start"]),
                  "      end: %s" % yaml_str(m["end"]),
                  "      pattern: %s" % yaml_str(m["pattern"]),
                  "      fixupdict: {%s}" % ", ".join("%s: %s" % (yaml_str(k), v) for k, v in FIXUP.items())]
    print("\n".join(lines))


# The 'result' group of leaf_pattern() as LAVA results.
FIXUP = {"ok": "pass", "not ok": "fail", "SKIP": "skip"}


def monitors(results_json):
    """One LAVA monitor per suite, in the order the kernel runs them: from
    its "# Subtest:" line to its own result line at the top level."""
    out = []
    for suite, params, _ in suites(results_json):
        out.append({"name": suite,
                    "start": "# Subtest: " + suite,
                    "end": r"\n(?:not ok|ok) \d+ " + re.escape(suite) + r"(?: # [^\r\n]*)?\r*\n",
                    "pattern": leaf_pattern(params)})
    return out


def device(job_file, templates):
    import yaml  # pylint: disable=import-outside-toplevel
    from jinja2 import FileSystemLoader  # pylint: disable=import-outside-toplevel
    from lava_common.jinja import create_device_templates_env  # pylint: disable=import-outside-toplevel,import-error
    with open(job_file, encoding="utf-8") as f:
        j = yaml.safe_load(f)
    env = create_device_templates_env(loader=FileSystemLoader([templates]))
    tmpl = env.from_string("{%% extends '%s.jinja2' %%}" % j["device_type"])
    print(tmpl.render(**j.get("context", {})))


def compare(lava_log, results_json):
    lava = {}
    with open(lava_log, encoding="utf-8") as f:
        for line in f:
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if rec.get("lvl") != "results" or not isinstance(rec.get("msg"), dict):
                continue
            m = rec["msg"]
            if m.get("definition") == "lava":
                continue
            lava.setdefault(m["definition"], []).append((m["case"], m["result"]))
    agree = differ = 0
    for suite, _, leaves in suites(results_json):
        want = sorted((lava_case_id(n), KUNIT_TO_LAVA.get(st, st)) for n, st in leaves)
        got = sorted(lava.pop(lava_case_id(suite), []))
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


def main(argv):
    if 7 <= len(argv) <= 10 and argv[0] == "job":
        job(*argv[1:])
        return 0
    if len(argv) == 3 and argv[0] == "kernel":
        print(kernel_path(argv[1], argv[2]))
        return 0
    if len(argv) == 2 and argv[0] == "schema":
        return schema(argv[1])
    if len(argv) == 3 and argv[0] == "device":
        device(argv[1], argv[2])
        return 0
    if len(argv) == 3 and argv[0] == "compare":
        return compare(argv[1], argv[2])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
