#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""LAVA jobs for the series' KUnit suites and lava-run's results against
kunit.py's, for tools/lava.sh (commands: main(); docs/lava.md)."""
import inspect
import os
import re
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kunit_results import suites  # noqa: E402 pylint: disable=wrong-import-position

KUNIT_TO_LAVA = {"PASS": "pass", "FAIL": "fail", "SKIP": "skip", "ERROR": "fail"}  # a crash fails
STAMP = r"(?:\[ *\d+\.\d+\] )?"  # a printk timestamp, as kunit.py strips it
# pylint: disable=import-outside-toplevel,import-error


def lava_case_id(name):  # as LAVA's monitor makes a test_case_id
    return re.sub(r"\W+", "_", name.strip().lower())


def monitors(results_json):
    """A monitor per suite, from its "# Subtest:" to its result line; its pattern takes a
    KTAP leaf at any depth but a parameterized case's summary (4 spaces), told by name."""
    out = []
    for suite, params, leaves in suites(results_json):
        if not leaves:
            continue
        agg = r"(?! {4}(?:not ok|ok) \d+ (?:%s)(?: #[^\r\n]*)?[ \r]*\n)" % "|".join(map(re.escape, params))
        out.append({"name": suite,
                    "start": STAMP + re.escape("# Subtest: " + suite) + r"\r*\n",
                    "end": r"(?:\A|(?<=\n))" + STAMP + r"(?:not ok|ok) \d+ " + re.escape(suite) + r"(?: # [^\r\n]*)?\r*\n",
                    "pattern": (r"(?:\A|(?<=\n))" + STAMP + agg * bool(params) + r" {4,}"
                                r"(?=(?:ok \d+ [^\r\n]*? # )?(?P<result>SKIP|not ok|ok))"
                                r"(?:not ok|ok) \d+ (?P<test_case_id>[^\r\n]+?)(?: # [^\r\n]*)?\r*\n"),
                    "fixupdict": {"ok": "pass", "not ok": "fail", "SKIP": "skip"},
                    "expected": sorted({lava_case_id(n) for n, _ in leaves})})
    return out


def qemu_arch(tree, arch):
    """TREE's qemu_configs/ARCH.py, loaded as kunit.py does (for its 'from ..qemu_config')."""
    import importlib.util
    sys.path.insert(0, tree + "/tools/testing/kunit")
    spec = importlib.util.spec_from_file_location(".qemu_configs/%s.py" % arch, "%s/qemu_configs/%s.py" % (sys.path[0], arch))
    config = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(config)
    return config.QEMU_ARCH


def job(results_json, tree, name, arch, smp, kernel_url, device_type="qemu",
        boot_method="", dtb_url="", boot_commands=""):
    params = qemu_arch(tree, arch)
    # panic=-1: a crash reboots and ends the run (its missing cases fail) rather
    # than hang until the timeout; kunit.py adds kunit_shutdown=reboot if unset
    c = params.kernel_command_line
    cmdline = "kunit.enable=1 panic=-1 " + c + " kunit_shutdown=reboot" * ("kunit_shutdown=" not in c)
    # a monitor waits out at most the connection timeout: above kunit.py's 600 s
    j = {"device_type": device_type, "job_name": "blk-sched-kunit KUnit, " + name, "priority": "medium",
         "visibility": "public", "timeouts": {"job": {"minutes": 45}, "action": {"minutes": 30}, "connection": {"minutes": 11}}}
    if device_type == "qemu":
        # kunit.py's machine: -m 1024, no network, the arch's parameters (-machine
        # and -cpu through the template's variables), then -smp, TCG
        ctx, rest = {"arch": arch, "no_kvm": True, "no_network": True, "memory": 1024}, []
        for o in params.extra_qemu_params:  # an option and its argument, if it has one
            if o.startswith("-") or not rest:
                rest.append(o)
            elif rest[-1].lstrip("-") in ("machine", "cpu"):
                ctx[rest.pop().lstrip("-")] = o
            else:
                rest[-1] += " " + o
        j["context"] = dict(ctx, extra_options=rest + ["-smp " + smp, "-no-reboot"])
        kernel = {"image_arg": '-kernel {kernel} -append "%s"' % cmdline, "url": kernel_url}
        j["actions"] = [{"deploy": {"to": "tmpfs", "timeout": {"minutes": 5}, "images": {"kernel": kernel}}},
                        {"boot": {"method": "qemu", "media": "tmpfs", "timeout": {"minutes": 5}}}]
    else:
        # a board's bootloader loads the kernel by TFTP, no root file system (the
        # suites run at boot); board() checks the method and command set
        method = boot_method or ("u-boot" if arch == "arm64" else "ipxe")
        j["context"] = {"extra_kernel_args": " ".join(w for w in cmdline.split() if not w.startswith("console="))}
        kernel = dict({"url": kernel_url}, **{"type": "image"} if method == "u-boot" else {},
                      **{"compression": "gz"} if kernel_url.endswith(".gz") else {})
        deploy = dict({"to": "tftp", "timeout": {"minutes": 10}, "kernel": kernel}, **{"dtb": {"url": dtb_url}} if dtb_url else {})
        j["actions"] = [{"deploy": deploy},
                        {"boot": {"method": method, "commands": boot_commands or "ramdisk", "timeout": {"minutes": 10}}}]
    j["actions"].append({"test": {"timeout": {"minutes": 30}, "monitors": monitors(results_json)}})
    print("# The series' KUnit suites on %s (kunit/matrix: %s), from tools/lava.sh." % (name, smp))
    print(yaml.safe_dump(j, sort_keys=False, width=1000), end="")


def load_yaml(path):
    with open(path, encoding="utf-8") as f:
        return yaml.safe_load(f)


def schema(job_file):
    """LAVA's schema check, as a server's on submission: nothing, or a line (stderr)."""
    import voluptuous
    from lava_common.schemas import validate
    try:
        validate(load_yaml(job_file), strict=True)
    except (yaml.YAMLError, voluptuous.Invalid) as e:
        sys.exit("%s: %s%s" % (job_file, "not YAML: " * isinstance(e, yaml.YAMLError), str(e).splitlines()[0]))


def render(j, templates):
    """The job's device configuration as LAVA's server renders it."""
    from jinja2 import FileSystemLoader
    from lava_common.jinja import create_device_templates_env
    env = create_device_templates_env(loader=FileSystemLoader([templates]))
    return env.from_string("{%% extends '%s.jinja2' %%}" % j["device_type"]).render(**j.get("context", {}))


def board(job_file, templates):
    """The job's boot method and command set against its device type's."""
    j = load_yaml(job_file)
    dt, boot = j["device_type"], j["actions"][1]["boot"]
    try:
        methods = yaml.safe_load(render(j, templates))["actions"]["boot"]["methods"]
    except Exception as e:  # pylint: disable=broad-except
        sys.exit("%s: no LAVA device type '%s' here (%s)" % (job_file, dt, str(e).splitlines()[0]))
    if boot["method"] not in methods:
        sys.exit("%s: device type %s boots with %s, not %s (LAVA_BOOT_METHOD)" %
                 (job_file, dt, ", ".join(sorted(methods)), boot["method"]))
    sets = methods[boot["method"]]
    if isinstance(sets, dict) and sets and boot["commands"] not in sets:
        sys.exit("%s: device type %s has no '%s' command set for %s (LAVA_BOOT_COMMANDS: %s)" %
                 (job_file, dt, boot["commands"], boot["method"], ", ".join(sorted(k for k in sets if k != "parameters"))))


def lava_results(path):
    """{suite: {case: [result]}} from lava-run's log or lavacli results --yaml;
    LAVA's own results (suite 'lava') are not cases."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    recs = [yaml.safe_load(ln)["msg"] for ln in text.splitlines() if '"lvl": "results"' in ln]
    recs = [(m["definition"], m["case"], m["result"]) for m in recs]
    if not recs and text.lstrip()[:1] in "-[":
        recs = [(r["suite"], r["name"], r["result"]) for r in yaml.safe_load(text) or []]
    res = {}
    for d, c, r in recs:
        if d != "lava":
            res.setdefault(d, {}).setdefault(c, []).append(r)
    return res


def compare(lava_log, results_json):
    """Each case's LAVA result against kunit.py's; a case missing on one side differs."""
    lava, agree, differ = lava_results(lava_log), 0, []
    for suite, _, leaves in suites(results_json):
        got = lava.pop(suite.replace(" ", "-").lower(), {})  # as LAVA names a monitor's results
        for c, want in sorted((lava_case_id(n), KUNIT_TO_LAVA.get(st, st)) for n, st in leaves):
            r = got[c].pop(0) if got.get(c) else "no result"
            agree += r == want
            differ += ["%s.%s: kunit.py %s, LAVA %s" % (suite, c, want, r)] * (r != want)
        differ += ["%s.%s: LAVA %s, kunit.py no result" % (suite, c, r) for c, rs in sorted(got.items()) for r in rs]
    differ += ["%s.%s: LAVA %s, not a suite kunit.py ran" % (d, c, r) for d, cs in lava.items() for c, rs in cs.items() for r in rs]
    print("\n".join(differ + ["%d agree, %d differ" % (agree, len(differ))]))
    return 1 if differ or not agree else 0


def main(argv):
    cmds = {"job": job, "kernel": lambda tree, arch: print(qemu_arch(tree, arch).kernel_path),  # relative to the build
            "schema": schema, "device": lambda job_file, templates: print(render(load_yaml(job_file), templates)),
            "board": board, "compare": compare}
    try:
        inspect.signature(cmds[argv[0]]).bind(*argv[1:])
    except (IndexError, KeyError, TypeError):
        sys.exit("\n".join("usage: lava.py %s %s" % (k, " ".join(map(str, inspect.signature(f).parameters.values())).upper())
                           for k, f in cmds.items()))
    return cmds[argv[0]](*argv[1:]) or 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
