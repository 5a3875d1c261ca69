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
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import cases
import flux_docs
import safety
from steps import OURS, Plan, expect, run_command, verdict_check

FLUX = JOBTAP = PYTHON_DIR = CONFORMANCE = None
HERE = os.path.dirname(os.path.abspath(__file__))
# The fast setup of docs/FLUX.md, less the plugin: the ingest validator off, and each job
# in a batch of its own, so that no job can fail another's.
FAST = "[ingest]\nbatch-count = 1\n\n[ingest.validator]\ndisable = true\n\n"


def jobtap_toml(path, conf=""):
    """FAST with the jobtap plugin at `path`, configured by `conf` (TOML table text)."""
    conf = f", conf = {{ {conf} }}" if conf else ""
    return FAST + f'[job-manager]\nplugins = [ {{ load = "{path}"{conf} }} ]\n'


class Checker:
    """Collects failures; prints each with its scenario and case."""

    def __init__(self):
        self.failures = 0
        self.checks = 0
        self.lock = threading.Lock()  # two scenarios run at once (main())

    def check(self, ok, scenario, what, detail=""):
        with self.lock:
            self.checks += 1
            if not ok:
                self.failures += 1
                print(f"FAIL [{scenario}] {what}\n    {detail}".rstrip(), flush=True)


def installed_overlay(directory):
    """flux-core's Python package as `meson install` leaves it, without touching it: a
    mirror made of links, with the build's jobspec-rfc.py among its validator plugins. The
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
    shim = os.path.join(os.path.dirname(PYTHON_DIR), "plugins", "jobspec-rfc.py")
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
        "jobtap": jobtap_toml(JOBTAP),
        "jobtap-v1": jobtap_toml(JOBTAP, "v1 = true"),
        # A job update (flux update) into a queue whose constraint passes the plugin's
        # bound: job.validate refuses it.
        "jobtap-update": jobtap_toml(JOBTAP, "max-constraint-terms = 2") + "\n"
                         '[queues.debug]\n[queues.other]\n[queues.batch]\n'
                         'requires = ["a", "b"]\n\n'
                         '[policy.jobspec.defaults.system]\nqueue = "debug"\n',
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


def plan_for(name, directory):
    plan = Plan(directory)
    v1 = name.endswith("-v1")
    validator = os.path.join(PYTHON_DIR, "jobspec", "flux", "validator.py")
    if name == "jobtap-update":
        add_update(plan)
        return plan
    selected = cases.conformance(CONFORMANCE, v1)
    if name.startswith("jobtap"):
        selected = cases.for_jobtap(selected)
    if name == "cli":
        selected = cases.for_flux_validator(selected)
    add_conformance(plan, selected)
    if name in ("validator", "jobtap"):
        add_flood(plan, 10000, name == "jobtap")
        add_hostile(plan, name == "validator")
        safety.add_refusals(plan, name == "jobtap")
        safety.add_channel(plan)
        safety.add_contention(plan)
    if name == "validator":
        plan.add(run_command(["flux", "job-validator", f"--plugins={validator}", "--help"]),
                 expect(0, "--jobspec-v1", "--jobspec-strict", "--jobspec-max-input-bytes",
                        "--jobspec-max-vertices", "--jobspec-max-constraint-terms"))
        plan.add(run_command(["flux", "job-validator", f"--plugins={validator}",
                              "--jobspec-max-depth=0"]),
                 expect(2, "argument --jobspec-max-depth"))
        safety.add_validator_options(plan, validator)
    if name == "validator-v1":
        plan.add(run_command(["flux", "job-validator", "--list-plugins"]),
                 expect(0, "jobspec-rfc           Check jobs against RFC 14 (and RFC 25"))
    if name == "jobtap":
        plan.add(run_command(["flux", "jobtap", "load", JOBTAP, "max-depth=0"]),
                 expect(1, "flux_plugin_init failed"))
        plan.add(run_command(["flux", "dmesg"]), expect(0, "jobspec.so: max-depth:"))
        plan.add(run_command(["flux", "jobtap", "list"]), expect(0, "jobspec.so"))
        safety.add_jobtap_options(plan, JOBTAP)
        safety.add_reload_with_jobs(plan, JOBTAP)
    if name == "cli":
        add_cli(plan)
        safety.add_refusals_on_the_command_line(plan)
    return plan


def add_update(plan):
    """flux update: a change the plugin's configuration allows is made; one that would
    put the jobspec past it (a queue whose constraint has 3 terms, over the bound of 2)
    is refused by the plugin's job.validate, before flux-core's feasibility check."""
    plan.add({"run": ["flux", "submit", "--urgency=0", "-q", "debug", "true"], "as": "job"},
             expect(0, "ƒ"))
    plan.add(run_command(["flux", "update", "{job}", "queue=batch"]),
             expect(1, "limit.constraint-terms at /attributes/system/constraints"))
    plan.add(run_command(["flux", "update", "{job}", "queue=other"]), expect(0))
    plan.add(run_command(["flux", "jobs", "-no", "{queue}", "{job}"]), expect(0, "other"))


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


def run_plan(name, directory, env, plan, extra=()):
    """Runs `plan` in a new instance configured by `directory`/site.toml; checks each step.
    The results, or None when the instance did not run the plan."""
    plan_path = os.path.join(directory, "plan.json")
    results_path = os.path.join(directory, "results.json")
    with open(plan_path, "w", encoding="utf-8") as f:
        json.dump(plan.steps, f)
    start = time.monotonic()
    p = subprocess.run(
        [FLUX, "start", "-s", "1", f"-o,--config-path={directory}", *extra, "flux", "python",
         os.path.join(HERE, "in_instance.py"), plan_path, results_path],
        env=env, capture_output=True, timeout=1200)
    seconds = time.monotonic() - start
    if os.path.exists(results_path):
        with open(results_path, encoding="utf-8") as f:
            results = json.load(f)
        os.unlink(results_path)
    else:
        results = None
    CHECKER.check(p.returncode == 0 and results is not None, name, "the instance ran the plan",
                  f"rc {p.returncode}\n{p.stdout.decode()}\n{p.stderr.decode()}")
    if results is None:
        return None
    for step, check, result in zip(plan.steps, plan.checks, results):
        ok, detail = check(result)
        CHECKER.check(ok, name, " ".join(map(str, step.get("run", [step])))[-200:], detail)
    print(f"[{name}] {len(results)} steps in {seconds:.1f} s", flush=True)
    return results


def run_scenario(name):
    """One scenario of scenario_config; the verdict of each case it submitted."""
    with tempfile.TemporaryDirectory(prefix=f"jobspec-flux-{name}-") as directory:
        env = dict(os.environ)
        env.update(scenario_config(name, directory))
        plan = plan_for(name, directory)
        results = run_plan(name, directory, env, plan) or []
        return {case: results[i] for case, i in plan.cases.items() if i < len(results)}


def compare_verdicts(verdicts):
    """The validator and the jobtap plugin give every conformance, hostile and refusal
    case the same verdict, and the same line when both reject it themselves. The
    exceptions are where the job manager stands (docs/FLUX.md): it removes the
    environment before a jobtap plugin sees the job, and refuses a few jobs first."""
    validator, jobtap = verdicts.get("validator"), verdicts.get("jobtap")
    if not validator or not jobtap:
        return
    compared = 0
    for case in sorted(set(validator) & set(jobtap)):
        if os.path.basename(case) in cases.ENVIRONMENT:
            continue
        a, b = validator[case], jobtap[case]
        a_ok, b_ok = a["rc"] == 0, b["rc"] == 0
        same = a_ok == b_ok
        if same and not a_ok and OURS.search(a["stderr"]) and OURS.search(b["stderr"]):
            same = a["stderr"] == b["stderr"]
        compared += 1
        CHECKER.check(same, "validator/jobtap", f"the same verdict for {case}",
                      f"validator: {a['stderr'].strip() or 'accepted'}\n"
                      f"    jobtap:    {b['stderr'].strip() or 'accepted'}")
    print(f"[validator/jobtap] {compared} cases compared", flush=True)


def write_toml(directory, text):
    with open(os.path.join(directory, "site.toml"), "w", encoding="utf-8") as f:
        f.write(text)


def without_build_python():
    """The environment with nothing of the build tree on Python's path."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    return env


def run_restart():
    """An instance restarted with a stricter jobtap configuration: the job manager
    announces the jobs it restores to the plugin (job.create), which leaves them alone:
    no error is logged for them, and a held one runs when released."""
    with tempfile.TemporaryDirectory(prefix="jobspec-flux-restart-") as directory:
        state = os.path.join(directory, "state")
        os.makedirs(state)
        extra = (f"-o,-Sstatedir={state}",)
        env = dict(os.environ)
        write_toml(directory, jobtap_toml(JOBTAP))
        plan = Plan(directory)
        plan.add({"run": ["flux", "job", "submit", "--urgency=0",
                          plan.file("held.json", json.dumps(cases.small_v1()))]},
                 expect(0, "ƒ"))
        results = run_plan("restart, before", directory, env, plan, extra)
        if not results:
            return
        job = results[0]["stdout"].strip()
        write_toml(directory, jobtap_toml(JOBTAP, "max-vertices = 1"))
        plan = Plan(directory)
        plan.add(run_command(["flux", "dmesg"]),
                 expect(0, absent=("jobtap_call (id=", "jobspec.so: ")))
        plan.add(run_command(["flux", "jobs", "-no", "{state}", job]), expect(0, "SCHED"))
        plan.submit("refused after the restart", json.dumps(cases.small_v1()),
                    verdict_check("", ("reject", ["limit.vertices"])))
        plan.add(run_command(["flux", "job", "urgency", job, "16"]), expect(0))
        plan.add(run_command(["flux", "job", "wait-event", "-t", "60", job, "clean"]), expect(0))
        plan.add(run_command(["flux", "job", "eventlog", job]), expect(0, absent=("exception",)))
        run_plan("restart, after", directory, env, plan, extra)


def installed_files(build, destdir):
    """Where `meson install --destdir` put the plugins: (jobspec.so, validator.py, the CLI
    plugin's directory, flux jobspec's), under `destdir`."""
    out = subprocess.run(["meson", "introspect", "--installed", build], capture_output=True,
                         text=True, check=True).stdout
    where = {os.path.basename(k): destdir + v for k, v in json.loads(out).items()}
    return (where["jobspec.so"], where["validator.py"],
            os.path.dirname(where["jobspec_check.py"]), os.path.dirname(where["flux-jobspec.py"]))


def run_installed():
    """`meson install` into a fresh directory (DESTDIR, as a package is built), and an
    instance with all three plugins loaded from there by the paths the install reports,
    with nothing of the build tree on any path: a good job runs, a bad one is refused by
    each plugin, the CLI plugin checks a command line, and `flux jobspec why` answers."""
    build = os.path.dirname(PYTHON_DIR)
    with tempfile.TemporaryDirectory(prefix="jobspec-flux-installed-") as directory:
        destdir = os.path.join(directory, "destdir")
        p = subprocess.run(["meson", "install", "-C", build, "--destdir", destdir,
                            "--no-rebuild", "--quiet"], capture_output=True, text=True)
        CHECKER.check(p.returncode == 0, "installed", "meson install", p.stdout + p.stderr)
        if p.returncode != 0:
            return
        jobtap, validator, cli, command = installed_files(build, destdir)
        env = without_build_python()
        env["FLUX_CLI_PLUGINPATH"] = cli
        env["FLUX_EXEC_PATH"] = command
        bad = cases.small_v1()
        bad["tasks"][0]["slot"] = "nosuch"
        for plugin, toml in (
                ("jobtap", jobtap_toml(jobtap)),
                ("validator", f'[ingest.validator]\nplugins = ["{validator}"]\n')):
            write_toml(directory, toml)
            plan = Plan(directory)
            plan.add(run_command(["flux", "python", "-c", "import jobspec"]), expect(1))
            plan.add(run_command(["flux", "run", "-n1", "echo", "installed"]),
                     expect(0, "installed", absent=("WARNING",)))
            plan.submit("bad", json.dumps(bad), verdict_check("", ("reject",
                                                                   ["jobspec.unknown-slot"])))
            plan.add(run_command(["flux", "submit", "--requires=rank:4294967295", "true"]),
                     expect(1, "flux.idset-range"))
            plan.add(run_command(["flux", "jobspec", "why"]), expect(0, "no pending jobs"))
            run_plan(f"installed, {plugin}", directory, env, plan)


def run_not_importable():
    """Plugins where the jobspec package cannot be imported (their files alone, as when
    jobspec was built for another Python): flux-core's own validator goes on working with
    jobspec-rfc among its plugins; jobspec-rfc, chosen, rejects every job saying why
    (never "worker unexpectedly exited"); the CLI plugin warns once and stays out of
    the way."""
    with tempfile.TemporaryDirectory(prefix="jobspec-flux-alone-") as directory:
        alone = os.path.join(directory, "alone")
        os.makedirs(os.path.join(alone, "cli"))
        source = os.path.join(PYTHON_DIR, "jobspec", "flux")
        shutil.copy(os.path.join(source, "validator.py"), alone)
        shutil.copy(os.path.join(source, "cli", "jobspec_check.py"), os.path.join(alone, "cli"))
        overlay = installed_overlay(directory)
        with open(os.path.join(HERE, "..", "..", "plugins", "jobspec-rfc.py.in"),
                  encoding="utf-8") as f:
            shim = f.read().replace("@VALIDATOR@", os.path.join(alone, "validator.py"))
        with open(os.path.join(overlay, "flux", "job", "validator", "plugins",
                               "jobspec-rfc.py"), "w", encoding="utf-8") as f:
            f.write(shim)
        env = without_build_python()
        env["FLUX_PYTHONPATH_PREPEND"] = overlay
        env["FLUX_CLI_PLUGINPATH"] = os.path.join(alone, "cli")
        good = json.dumps(cases.small_v1())
        why = "the jobspec package cannot be imported"
        write_toml(directory, "")
        plan = Plan(directory)
        plan.add(run_command(["flux", "python", "-c", "import jobspec"]), expect(1))
        plan.add(run_command(["flux", "run", "-n1", "echo", "flux-core's validator"]),
                 expect(0, "flux-core's validator", "jobspec's CLI plugin is off"))
        plan.add(run_command(["flux", "job-validator", "--list-plugins"]),
                 expect(0, "jobspec-rfc"))
        plan.add({"run": ["flux", "job-validator", "--jobspec-only", "--plugins=jobspec-rfc"],
                  "stdin": plan.file("good.json", good + "\n")},
                 expect(1, '"errnum": 22', why))
        run_plan("not importable, flux-core's validator", directory, env, plan)
        write_toml(directory, '[ingest.validator]\nplugins = ["jobspec-rfc"]\n'
                              'args = ["--jobspec-v1", "--jobspec-strict"]\n')
        plan = Plan(directory)
        plan.submit("good", good, verdict_check("", ("flux", why)))
        plan.add(run_command(["flux", "dmesg"]), expect(0, why))
        run_plan("not importable, jobspec-rfc", directory, env, plan)


def run_docs(update=False):
    """Every example of docs/FLUX.md, and the flux= examples of docs/GUIDE.md, in an
    instance set up as FLUX.md says (flux_docs.py), on jobspec as `meson install` leaves
    it in its default prefix: installed with --destdir, each /usr/local path of the pages
    standing for its place under the DESTDIR. With `update`, the pages' outputs are
    rewritten with what printed."""
    docs = os.path.join(HERE, "..", "..", "docs")
    pages = {}
    for name in ("FLUX.md", "GUIDE.md"):
        with open(os.path.join(docs, name), encoding="utf-8") as f:
            pages[name] = f.read()
    tomls = flux_docs.setups(pages["FLUX.md"])
    build = os.path.dirname(PYTHON_DIR)
    # A short DESTDIR: flux-core cuts its error messages at 127 bytes, and a path under
    # a long one would be cut where the page's is not.
    with tempfile.TemporaryDirectory(prefix="jd", dir="/tmp") as top:
        destdir = os.path.join(top, "d")
        installed = flux_docs.install(build, destdir)
        CHECKER.check(installed.ok, "docs", "meson install --destdir, prefix /usr/local",
                      installed.problem)
        if not installed.ok:
            return
        for page, text in pages.items():
            printed = {}
            for setup in sorted(flux_docs.setups(text)):
                printed.update(run_docs_setup(page, text, setup, tomls[setup], build,
                                              installed, update))
            if update:
                with open(os.path.join(docs, page), "w", encoding="utf-8") as f:
                    f.write(flux_docs.rewrite(text, printed))


def run_docs_setup(page, text, setup, toml, build, installed, update):
    """The examples of one setup of one page: {Example: what it printed}."""
    with tempfile.TemporaryDirectory(prefix=f"jobspec-flux-docs-{setup}-") as directory:
        work = os.path.join(directory, "work")
        os.makedirs(work)
        os.symlink(build, os.path.join(work, "build"))
        write_toml(directory, installed.local(toml))
        env = without_build_python()
        env["PATH"] = os.path.join(build, "tools") + os.pathsep + env["PATH"]
        env["NO_COLOR"] = "1"
        # What Debian's Python and the page's set-up give an instance: the package found
        # in /usr/local, and flux jobspec on FLUX_EXEC_PATH (FLUX.md, "Installing").
        env["PYTHONPATH"] = installed.python
        env["FLUX_EXEC_PATH"] = installed.command
        if setup == "cli":
            # The page's own line exports it; each line here is a shell of its own.
            env["FLUX_CLI_PLUGINPATH"] = os.path.join(installed.python, "jobspec", "flux", "cli")
        plan = Plan(directory)
        runs = flux_docs.sessions(text, setup)
        for example in runs:
            step = {"run": ["sh", "-c", installed.local(example.command)], "cwd": work,
                    "merge": True}
            if flux_docs.eventual(example) and not update:
                step.update({"until": example.output, "seconds": 10})
            plan.add(step,
                     (lambda r: (True, "")) if update else
                     (lambda r, e=example: flux_docs.check(e, installed.shown(r))))
        results = run_plan(f"docs/{page}, {setup}", directory, env, plan) or []
        return dict(zip(runs, (installed.shown(r)["stdout"] for r in results)))


SCENARIOS = ["validator", "validator-v1", "jobtap", "jobtap-v1", "jobtap-update", "cli",
             "restart", "installed", "not-importable", "docs"]
CHECKER = None


def main():
    global FLUX, JOBTAP, PYTHON_DIR, CONFORMANCE, CHECKER
    FLUX, JOBTAP, PYTHON_DIR, CONFORMANCE = sys.argv[1:5]
    required = bool(os.environ.get("JOBSPEC_REQUIRE_FLUX"))
    if not FLUX or not os.access(FLUX, os.X_OK) or not JOBTAP:
        print("flux-core (with its development files) was not found: skipped"
              + (", but JOBSPEC_REQUIRE_FLUX is set" if required else ""))
        return 1 if required else 77
    os.environ["PATH"] = os.path.dirname(FLUX) + os.pathsep + os.environ["PATH"]
    CHECKER = Checker()
    runs = {"restart": run_restart, "installed": run_installed,
            "not-importable": run_not_importable, "docs": run_docs,
            "update-docs": lambda: run_docs(update=True)}
    # Two scenarios at a time, each its own instance in its own directory: an instance
    # spends half its time waiting (flux-plugins used 212 core-seconds of 372 alone), and
    # no check times one.
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        names = sys.argv[5:] or SCENARIOS
        done = {name: pool.submit(runs.get(name, lambda name=name: run_scenario(name)))
                for name in names}
        verdicts = {name: f.result() for name, f in done.items() if name not in runs}
    compare_verdicts(verdicts)
    print(f"{CHECKER.checks - CHECKER.failures} of {CHECKER.checks} checks passed")
    return 1 if CHECKER.failures else 0


if __name__ == "__main__":
    sys.exit(main())
