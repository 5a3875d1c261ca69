#!/usr/bin/env python3
"""The Flux plugins in real Flux instances (issue 27, docs/FLUX.md).

usage: flux_test.py FLUX JOBTAP-PLUGIN PYTHON-BUILD-DIR CONFORMANCE-JOBSPEC-DIR [SCENARIO...]

For each scenario a real single-broker instance is started (`flux start`) with one of
the plugins turned on as docs/FLUX.md says; in_instance.py submits good, bad and
hostile jobs with the real `flux job submit`, `flux submit`, `flux batch` and `flux
alloc`, and this script checks what was accepted, what was rejected and the message.

Without flux-core (FLUX is "" or not there) the test is skipped (exit 77), unless
JOBSPEC_REQUIRE_FLUX is set, as .ci/run sets it: then it fails.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import cases

FLUX = JOBTAP = PYTHON_DIR = CONFORMANCE = None
HERE = os.path.dirname(os.path.abspath(__file__))
# A rejection by jobspec: "CODE at POINTER: message" (CODE like jobspec.unknown-slot).
OURS = re.compile(r"\b(jobspec|v1|limit|constraint|dependency)\.[a-z0-9-]+( at /|: )")


class Checker:
    """Collects failures; prints each with its scenario and case."""

    def __init__(self):
        self.failures = 0
        self.checks = 0

    def check(self, ok, scenario, what, detail=""):
        self.checks += 1
        if not ok:
            self.failures += 1
            print(f"FAIL [{scenario}] {what}\n    {detail}".rstrip(), flush=True)


def installed_overlay(directory):
    """flux-core's Python package as `meson install` leaves it, without touching it: a
    mirror made of links, with plugins/jobspec-rfc.py among its validator plugins. The
    flux command puts it first on Python's path (FLUX_PYTHONPATH_PREPEND)."""
    real = subprocess.run([FLUX, "python", "-c", "import flux, os; print(os.path.dirname("
                           "flux.__file__))"], capture_output=True, text=True,
                          check=True).stdout.strip()
    chain = ["job", "validator", "plugins"]

    def mirror(source, target, depth):
        os.makedirs(target)
        for entry in os.listdir(source):
            if depth < len(chain) and entry == chain[depth]:
                mirror(os.path.join(source, entry), os.path.join(target, entry), depth + 1)
            elif entry != "__pycache__":
                os.symlink(os.path.join(source, entry), os.path.join(target, entry))
    overlay = os.path.join(directory, "overlay")
    mirror(real, os.path.join(overlay, "flux"), 0)
    shim = os.path.join(HERE, "..", "..", "plugins", "jobspec-rfc.py")
    shutil.copy(shim, os.path.join(overlay, "flux", *chain, "jobspec-rfc.py"))
    return overlay


def scenario_config(name, directory):
    """The TOML a site would write for the scenario, and the environment of the instance."""
    validator = os.path.join(PYTHON_DIR, "jobspec", "flux", "validator.py")
    env = {"PYTHONPATH": PYTHON_DIR + os.pathsep + os.environ.get("PYTHONPATH", "")}
    toml = {
        # By path, as before jobspec is installed.
        "validator": f'[ingest.validator]\nplugins = ["{validator}"]\n',
        # By name, once installed: the three lines of docs/FLUX.md.
        "validator-v1": '[ingest.validator]\nplugins = ["jobspec-rfc"]\n'
                        'args = ["--jobspec-v1"]\n',
        "jobtap": '[ingest.validator]\ndisable = true\n\n[job-manager]\n'
                  f'plugins = [ {{ load = "{JOBTAP}" }} ]\n',
        "jobtap-v1": '[ingest.validator]\ndisable = true\n\n[job-manager]\n'
                     f'plugins = [ {{ load = "{JOBTAP}", conf = {{ v1 = true }} }} ]\n',
        # flux-core's own validator, which runs the CLI plugin's validate() too.
        "cli": '[ingest.validator]\nargs = ["--require-version=any"]\n',
    }[name]
    if name == "cli":
        env["FLUX_CLI_PLUGINPATH"] = os.path.join(PYTHON_DIR, "jobspec", "flux", "cli")
    if name == "validator-v1":
        env["FLUX_PYTHONPATH_PREPEND"] = installed_overlay(directory)
    with open(os.path.join(directory, "site.toml"), "w", encoding="utf-8") as f:
        f.write(toml)
    return env


class Plan:
    """Steps for in_instance.py, each with the check to make of its result."""

    def __init__(self, directory):
        self.directory = directory
        self.steps = []
        self.checks = []

    def file(self, name, data):
        safe = re.sub(r"[^\w.-]", "_", name)
        path = os.path.join(self.directory, f"{len(self.steps)}-{safe}")
        with open(path, "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode())
        return path

    def add(self, step, check):
        self.steps.append(step)
        self.checks.append(check)

    def submit(self, name, data, check):
        """`flux job submit` of a jobspec (held, so that nothing runs)."""
        path = self.file(name, data)
        self.add({"run": ["flux", "job", "submit", "--urgency=0", path]}, check)


def verdict_check(name, verdict):
    """The check of a submission's result for a verdict of cases.py."""
    def check(r):
        out = r["stderr"].strip()
        kind = verdict[0]
        if kind == "accept":
            accepted = r["rc"] == 0 and r["stdout"].strip().startswith("ƒ")
            return accepted, f"expected accepted: {out}"
        if kind == "not-ours":
            return r["rc"] == 0 or not OURS.search(out), f"jobspec rejected a valid job: {out}"
        if r["rc"] == 0:
            return False, f"expected rejected, but accepted as {r['stdout'].strip()}"
        if kind == "reject":
            # Every listed code, or jobspec's first errors and the count of those that did
            # not fit on the line (flux passes on 159 bytes from a jobtap plugin).
            missing = [c for c in verdict[1] if c not in out]
            ok = not missing or (OURS.search(out) and re.search(r"; and \d+ more$", out))
            return bool(ok) and "\x1b" not in out, f"rejected without {missing}: {out}"
        if kind == "flux":
            return verdict[1] in out, f"expected flux's {verdict[1]!r}: {out}"
        if kind == "rejected":
            return True, ""

        raise ValueError(kind)
    return check


def add_conformance(plan, selected):
    for name, text, verdict in selected:
        if verdict[0] == "skip":
            continue
        plan.submit(name, text, verdict_check(name, verdict))


def add_hostile(plan, validator):
    hostile = (cases.for_validator if validator else cases.for_jobtap)(cases.hostile())
    for name, data, verdict in hostile:
        plan.submit(name, data, verdict_check(name, verdict))
    good = json.dumps(cases.small_v1())
    # Everything still answers afterwards, the plugin included.
    plan.submit("a good job after the hostile ones", good, verdict_check("good", ("accept",)))
    bad = cases.small_v1()
    bad["tasks"][0]["slot"] = "nosuch"
    plan.submit("a bad job after the hostile ones", json.dumps(bad),
                verdict_check("bad", ("reject", ["jobspec.unknown-slot"])))
    plan.add({"run": ["flux", "ping", "--count=1", "job-manager"]},
             lambda r: (r["rc"] == 0, f"job-manager does not answer: {r['stderr']}"))


def measure_flood(plan, label, jobspec, count, code, judge):
    """Submits `jobspec` 1,000 times (a warm-up), then `count` times, each rejected with
    `code`; judge(growth in KiB) checks how much the broker's resident set grew."""
    path = plan.file(label, json.dumps(jobspec))
    plan.add({"flood": path, "count": 1000}, lambda r: (r["rejected"] == 1000, f"warm-up: {r}"))
    before = {}
    plan.add({"rss": True}, lambda r: (before.update(r) or True, ""))
    plan.add({"flood": path, "count": count},
             lambda r: (r["rejected"] == count and all(code in e for e in r["errors"]),
                        f"{label}: {r}"))

    def grew(r):
        growth = r["kib"] - before["kib"]
        print(f"    {label}: broker resident set {before['kib']} -> {r['kib']} KiB after "
              f"{count} rejections ({growth:+d} KiB); validator workers {before['validators']}"
              f" -> {r['validators']} KiB", flush=True)
        ok, detail = judge(growth)
        # A validator worker that kept something per job would grow by megabytes.
        workers = r["validators"] - before["validators"]
        if workers > 1024:
            return False, f"the validator workers grew by {workers} KiB"
        return ok, detail
    plan.add({"rss": True}, grew)


def add_flood(plan, count, jobtap):
    """Nothing is kept per rejected job. Through the validator, a rejected job never
    reaches the job manager, and the broker may grow by at most 4 MiB; through the
    jobtap plugin, flux-core keeps about 5 KiB per rejected job in the broker itself
    (its KVS content), so the plugin's rejections are compared with flux-core's own:
    the plugin removed, validate-duration rejecting a duration that is a string."""
    bad = cases.small_v1()
    bad["tasks"][0]["slot"] = "nosuch"
    if not jobtap:
        measure_flood(plan, "jobspec-rfc", bad, count, "jobspec.unknown-slot",
                      lambda g: (g <= 4096, f"grew by {g} KiB (bound 4096)"))
        return
    baseline = {}
    flux_bad = cases.small_v1()
    flux_bad["attributes"]["system"]["duration"] = "1h"
    plan.add(run_command(["flux", "jobtap", "remove", "jobspec.so"]), expect(0))
    measure_flood(plan, "flux-core alone", flux_bad, count, "failed to unpack duration",
                  lambda g: (baseline.update(kib=g) or True, ""))
    plan.add(run_command(["flux", "jobtap", "load", JOBTAP]), expect(0))
    measure_flood(plan, "jobspec.so", bad, count, "jobspec.unknown-slot",
                  lambda g: (g <= baseline["kib"] * 1.25 + 4096,
                             f"grew by {g} KiB, flux-core alone by {baseline['kib']} KiB"))


def run_command(args, env=None):
    return {"run": args, "env": env or {}}


def expect(rc, *texts, absent=()):
    def check(r):
        out = r["stdout"] + r["stderr"]
        ok = r["rc"] == rc and all(t in out for t in texts) and not any(t in out for t in absent)
        return ok, f"rc {r['rc']} (expected {rc}), output:\n{out}"
    return check


def plan_for(name, directory):
    plan = Plan(directory)
    v1 = name.endswith("-v1")
    selected = cases.conformance(CONFORMANCE, v1)
    if name.startswith("jobtap"):
        selected = cases.for_jobtap(selected)
    if name == "cli":
        selected = cases.for_flux_validator(selected)
    add_conformance(plan, selected)
    if name in ("validator", "jobtap"):
        add_flood(plan, 10000, name == "jobtap")
        add_hostile(plan, name == "validator")
    if name == "validator":
        validator = os.path.join(PYTHON_DIR, "jobspec", "flux", "validator.py")
        plan.add(run_command(["flux", "job-validator", f"--plugins={validator}", "--help"]),
                 expect(0, "--jobspec-v1", "--jobspec-strict", "--jobspec-max-input-bytes"))
        plan.add(run_command(["flux", "job-validator", f"--plugins={validator}",
                              "--jobspec-max-depth=0"]),
                 expect(2, "argument --jobspec-max-depth"))
        # flux job-validator on its own, as a site tries it out: the options reach the plugin.
        good = plan.file("good.json", json.dumps(cases.small_v1()) + "\n")
        plan.add({"run": ["flux", "job-validator", "--jobspec-only", f"--plugins={validator}",
                          "--jobspec-max-input-bytes=100"], "stdin": good},
                 expect(1, '"errnum": 22', "limit.input-size: document is 250 bytes long, more "
                        "than the limit of 100"))
        plan.add({"run": ["flux", "job-validator", "--jobspec-only", f"--plugins={validator}",
                          "--jobspec-strict"], "stdin": good}, expect(0, '"errnum": 0'))
        # A task slot that names no label: RFC 14 refuses it, the Fluxion dialect does not.
        other = plan.file("other-slot.json", json.dumps(unlabelled_task()) + "\n")
        plan.add({"run": ["flux", "job-validator", "--jobspec-only", f"--plugins={validator}"],
                  "stdin": other}, expect(1, '"errnum": 22', "jobspec.unknown-slot"))
        plan.add({"run": ["flux", "job-validator", "--jobspec-only", f"--plugins={validator}",
                          "--jobspec-dialect=fluxion"], "stdin": other},
                 expect(0, '"errnum": 0'))
    if name == "validator-v1":
        plan.add(run_command(["flux", "job-validator", "--list-plugins"]),
                 expect(0, "jobspec-rfc           Check jobs against RFC 14 (and RFC 25"))
    if name == "jobtap":
        plan.add(run_command(["flux", "jobtap", "load", JOBTAP, "max-depth=0"]),
                 expect(1, "flux_plugin_init failed"))
        plan.add(run_command(["flux", "dmesg"]), expect(0, "jobspec.so: max-depth:"))
        plan.add(run_command(["flux", "jobtap", "list"]), expect(0, "jobspec.so"))
        # Reloaded with v1=true from the command line: a canonical, non-V1 job is refused.
        plan.add(run_command(["flux", "jobtap", "load", "--remove=jobspec.so", JOBTAP,
                              "v1=true"]), expect(0))
        two_tasks = cases.small_v1()
        two_tasks["tasks"].append(two_tasks["tasks"][0])
        plan.submit("two tasks", json.dumps(two_tasks), verdict_check("", ("reject", ["v1.tasks"])))
        plan.add(run_command(["flux", "jobtap", "load", "--remove=jobspec.so", JOBTAP,
                              "max-input-bytes=100"]), expect(0))
        plan.submit("over the limit", json.dumps(cases.small_v1()),
                    verdict_check("", ("reject", ["limit.input-size"])))
        plan.add(run_command(["flux", "jobtap", "load", "--remove=jobspec.so", JOBTAP]),
                 expect(0))
        plan.submit("unlabelled task, rfc", json.dumps(unlabelled_task()),
                    verdict_check("", ("reject", ["jobspec.unknown-slot"])))
        plan.add(run_command(["flux", "jobtap", "load", "--remove=jobspec.so", JOBTAP,
                              "dialect=fluxion"]), expect(0))
        plan.submit("unlabelled task, fluxion", json.dumps(unlabelled_task()),
                    verdict_check("", ("accept",)))
    if name == "cli":
        add_cli(plan)
    return plan


def unlabelled_task():
    """A V1 jobspec whose task names a slot no vertex is labelled with."""
    job = cases.small_v1()
    job["tasks"][0]["slot"] = "other"
    return job


def add_cli(plan):
    """What a user sees on the terminal from flux run/submit/batch/alloc with the plugin."""
    plan.add(run_command(["flux", "submit", "--dry-run", "--requires=ssd and (", "true"]),
             expect(1, "--requires: error[query.syntax]: '(' is never closed\n  ssd and (\n"
                       "          ^\n"))
    plan.add(run_command(["flux", "submit", "--dry-run", "--resources-shape=slot=0/core",
                          "true"]),
             expect(1, "--resources-shape: error[shape.count-not-positive]",
                    "  slot=0/core\n       ^\n"))
    plan.add(run_command(["flux", "run", "--dry-run", "--dependency=afterok:", "true"]),
             expect(1, "--dependency: error[dependency."))
    plan.add(run_command(["flux", "submit", "--dry-run", "--setattr=system.duration=-1",
                          "true"]),
             expect(1, "jobspec.attribute-value at /attributes/system/duration"))
    plan.add(run_command(["flux", "submit", "--dry-run", "--setattr=system.fooo=1", "true"]),
             expect(0, "WARNING: jobspec.unknown-system-attribute at /attributes/system/fooo"))
    plan.add(run_command(["flux", "submit", "--dry-run", "--jobspec-strict",
                          "--setattr=system.fooo=1", "true"]),
             expect(1, "ERROR: jobspec.unknown-system-attribute"))
    plan.add(run_command(["flux", "submit", "--dry-run", "--jobspec-v1", "-N2", "-n2",
                          "--resources-shape=slot=2/node/core", "true"]),
             expect(1, "v1.graph-shape at /resources/0"))
    plan.add(run_command(["flux", "batch", "--dry-run", "--requires=host:", "--wrap", "true"]),
             expect(1, "--requires: error["))
    plan.add(run_command(["flux", "alloc", "--dry-run", "--requires=ssd and (", "true"]),
             expect(1, "--requires: error[query.syntax]"))
    plan.add(run_command(["flux", "submit", "--list-plugins"]),
             expect(0, "JobspecCheck", "--jobspec-v1"))
    # A good job really runs, through the plugin on both sides.
    plan.add(run_command(["flux", "run", "-n1", "echo", "ran"]), expect(0, "ran"))


def run_scenario(name, checker):
    with tempfile.TemporaryDirectory(prefix=f"jobspec-flux-{name}-") as directory:
        env = dict(os.environ)
        env.update(scenario_config(name, directory))
        plan = plan_for(name, directory)
        plan_path = os.path.join(directory, "plan.json")
        results_path = os.path.join(directory, "results.json")
        with open(plan_path, "w", encoding="utf-8") as f:
            json.dump(plan.steps, f)
        start = time.monotonic()
        p = subprocess.run(
            [FLUX, "start", "-s", "1", f"-o,--config-path={directory}", "flux", "python",
             os.path.join(HERE, "in_instance.py"), plan_path, results_path],
            env=env, capture_output=True, timeout=1200)
        seconds = time.monotonic() - start
        if p.returncode != 0 or not os.path.exists(results_path):
            checker.check(False, name, "the instance ran the plan",
                          f"rc {p.returncode}\n{p.stdout.decode()}\n{p.stderr.decode()}")
            return
        with open(results_path, encoding="utf-8") as f:
            results = json.load(f)
        for step, check, result in zip(plan.steps, plan.checks, results):
            ok, detail = check(result)
            checker.check(ok, name, " ".join(map(str, step.get("run", [step])))[-200:], detail)
        print(f"[{name}] {len(results)} steps in {seconds:.1f} s", flush=True)


def main():
    global FLUX, JOBTAP, PYTHON_DIR, CONFORMANCE
    FLUX, JOBTAP, PYTHON_DIR, CONFORMANCE = sys.argv[1:5]
    required = bool(os.environ.get("JOBSPEC_REQUIRE_FLUX"))
    if not FLUX or not os.access(FLUX, os.X_OK) or not JOBTAP:
        print("flux-core (with its development files) was not found: skipped"
              + (", but JOBSPEC_REQUIRE_FLUX is set" if required else ""))
        return 1 if required else 77
    os.environ["PATH"] = os.path.dirname(FLUX) + os.pathsep + os.environ["PATH"]
    checker = Checker()
    for name in sys.argv[5:] or ["validator", "validator-v1", "jobtap", "jobtap-v1", "cli"]:
        run_scenario(name, checker)
    print(f"{checker.checks - checker.failures} of {checker.checks} checks passed")
    return 1 if checker.failures else 0


if __name__ == "__main__":
    sys.exit(main())
