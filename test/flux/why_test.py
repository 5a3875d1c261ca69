#!/usr/bin/env python3
"""`flux jobspec why` in real instances, and the scheduler doing what each verdict says
(issue 47, docs/FLUX.md "Why isn't my job running?").

usage: why_test.py FLUX JOBTAP-PLUGIN PYTHON-BUILD-DIR [FLUXION-BUILD-DIR]
       FLUXION-BUILD-DIR defaults to $JOBSPEC_FLUXION_BUILD, else the flux-sched/build
       beside the install/ of FLUX, where ../shared/reference/build-flux-sched.sh puts it
       (inside an instance: flux python why_test.py --inside SCHEDULER)

A `flux start --test-size=4` instance with fake resources (node[0-3], 4 cores each;
node[2-3] with a GPU and the property ssd) and two queues builds every verdict: a job
waiting for the ssd nodes (resources), one behind it that fits now (next), one on a
drained node (down), a held one, one blocked by a dependency, one in a stopped queue
(blocked), and one that can never run (never). `flux jobspec why --json` must say so.
Then the scheduler must do what each verdict predicts: cancelling the job that holds the
nodes starts the waiting job, undraining starts the job on the drained node, releasing
and starting the queue start theirs, and flux-core's feasibility check refuses the
"never" job and accepts the others (with Fluxion, Fluxion refuses it itself). The jobtap
plugin, loaded as docs/FLUX.md says, shows the same reasons in `flux jobs -o
'{user.jobspec_reason}'` and clears them when a job runs; with never=true (and
down-is-never=true) it and the validator (--jobspec-never) refuse at submission what can
never run, with the located reason. With sched-simple, and with Fluxion when
FLUXION-BUILD-DIR holds its modules.

Then, in the same instance, why_generated.py's random states and random jobs: 50 cases
per scheduler (JOBSPEC_WHY_CASES), from a random seed that is printed (JOBSPEC_WHY_SEED
replays one); JOBSPEC_WHY_SCHEDULERS=fluxion runs one scheduler only.

Skipped (77) without flux, unless JOBSPEC_REQUIRE_FLUX is set; Fluxion is required when
JOBSPEC_REQUIRE_FLUXION is set.
"""
import json
import os
import random
import subprocess
import sys
import tempfile
import time

CONFIG = """
[resource]
noverify = true
[[resource.config]]
hosts = "node[0-3]"
cores = "0-3"
[[resource.config]]
hosts = "node[2-3]"
gpus = "0"
properties = ["ssd"]

[queues.batch]
[queues.debug]

[policy.jobspec.defaults.system]
queue = "batch"

[ingest]
batch-count = 1
[ingest.validator]
disable = true
"""

FAILURES = []


def check(ok, what, detail=""):
    print(("ok   " if ok else "FAIL ") + what + (f"\n     {detail}" if not ok and detail else ""),
          flush=True)
    if not ok:
        FAILURES.append(what)


def sh(*args, ok=True):
    p = subprocess.run(args, capture_output=True, text=True, timeout=120)
    if ok and p.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: rc {p.returncode}: {p.stderr}")
    return p


def submit(*args):
    return sh("flux", "submit", *args).stdout.strip()


def why(*ids):
    p = sh("flux", "jobspec", "why", "--json", *ids, ok=False)
    return p.returncode, {j["id"]: j for j in json.loads(p.stdout)["jobs"]}


def started(jobid, seconds=30):
    """Whether the job is given resources within `seconds`."""
    p = sh("flux", "job", "wait-event", "-t", str(seconds), jobid, "alloc", ok=False)
    return p.returncode == 0


def feasible(jobid):
    """flux-core's feasibility validator on the job's jobspec: (accepted, its message)."""
    text = sh("flux", "job", "info", jobid, "jobspec").stdout
    p = subprocess.run(["flux", "job-validator", "--jobspec-only", "--plugins=feasibility"],
                       input=text, capture_output=True, text=True, timeout=60)
    answer = json.loads(p.stdout.strip().splitlines()[-1])
    return answer["errnum"] == 0, answer.get("errstr", "")


def reasons():
    """id -> the jobtap plugin's annotation, for every job."""
    p = sh("flux", "jobs", "-a", "-no", "{id} {user.jobspec_reason}")
    return dict((line.split(" ", 1) + [""])[:2] for line in p.stdout.splitlines())


def annotated(jobid, text, seconds=10):
    """Whether the job's annotation starts with `text` within `seconds` (the plugin
    computes reasons a moment after each change); the last annotation seen."""
    deadline = time.monotonic() + seconds
    while True:
        got = reasons().get(jobid, "").strip()
        if got.startswith(text) if text else got in ("", "-"):
            return True, got
        if time.monotonic() > deadline:
            return False, got
        time.sleep(0.1)


def refused(args, text):
    """Whether `flux submit ARGS` is refused with `text` in its message."""
    p = sh("flux", "submit", *args, ok=False)
    return p.returncode != 0 and text in p.stderr, p.stdout + p.stderr


def inside(scheduler, jobtap, validator):
    sh("flux", "queue", "start", "--all")
    sh("flux", "queue", "stop", "debug", "--message=maintenance")
    sh("flux", "resource", "drain", "1", "bad fan")
    a = submit("-N1", "--requires=ssd", "-t", "5m", "sleep", "inf")
    check(started(a), f"{scheduler}: A runs on an ssd node")
    b = submit("-N2", "--requires=ssd", "sleep", "inf")
    c = submit("-N1", "--requires=ssd", "true")
    d = submit("-N1", "--requires=rank:1", "true")
    f = submit("--urgency=0", "-n1", "true")
    g = submit(f"--dependency=afterok:{f}", "-n1", "true")
    h = submit("-q", "debug", "-n1", "true")
    e = submit("-N3", "--requires=ssd", "true")
    sh("flux", "job", "wait-event", "-t", "30", e, "priority")
    rc, v = why()
    check(rc == 1, f"{scheduler}: exit 1 while a job cannot run now", f"rc {rc}")
    # (D asks one node, of the three that are up: Fluxion too keeps it waiting.)
    expected = {b: "resources", d: "down", f: "held", g: "blocked", h: "blocked", e: "never"}
    # Fluxion backfills past B: C may already have run.
    if c in v:
        expected[c] = "next" if scheduler == "sched-simple" else v[c]["verdict"]
    for jobid, verdict in expected.items():
        got = v.get(jobid, {})
        check(got.get("verdict") == verdict, f"{scheduler}: {jobid} is {verdict}", json.dumps(got))
    expiration = json.loads(sh("flux", "jobs", "--json", a).stdout)["expiration"]
    check(v[b].get("held_by") == [a] and v[b].get("nodes") == "node[2-3]"
          and abs(v[b].get("earliest_end", 0) - expiration) < 1,
          f"{scheduler}: B waits for node[2-3], held by A, until A's time limit", json.dumps(v[b]))
    if scheduler == "sched-simple" and c in v:
        check(v[c].get("ahead") == 1 and v[c].get("first_ahead") == b,
              f"{scheduler}: C has B ahead of it", json.dumps(v[c]))
    check(v[d].get("nodes") == {"node1": "drained: bad fan"},
          f"{scheduler}: D waits for node1, drained: bad fan", json.dumps(v[d]))
    check(g in " ".join(v[g].get("dependencies", [""])) or f in " ".join(v[g].get("dependencies", [""])),
          f"{scheduler}: G waits for F", json.dumps(v[g]))
    check(v[h].get("queue_stopped") == "maintenance", f"{scheduler}: H's queue is stopped",
          json.dumps(v[h]))
    check("jobspec.unsatisfiable" in v[e]["summary"] and v[e].get("closest") == "node[2-3]"
          and {"source": "--requires", "text": "ssd", "offset": 0, "length": 3,
               "pointer": "/attributes/system/constraints"} in v[e].get("located", []),
          f"{scheduler}: E never fits, node[2-3] closest, located in --requires",
          json.dumps(v[e]))
    text = sh("flux", "jobspec", "why", e, ok=False)
    check(text.returncode == 1 and text.stdout.startswith(e) and "never on this instance"
          in text.stdout and "--requires: ssd\n" in text.stdout,
          f"{scheduler}: text output for E, with a caret", text.stdout + text.stderr)
    # The same reasons in flux jobs, from the jobtap plugin.
    shown = {b: "waiting for resources", d: "waiting for down or drained nodes: node1",
             e: "never: jobspec.unsatisfiable at /attributes/system/constraints"}
    if scheduler == "sched-simple":
        shown[c] = "next in line: fits now, 1 job ahead"
    for jobid, reason in shown.items():
        ok, got = annotated(jobid, reason)
        check(ok, f"{scheduler}: flux jobs shows {jobid}'s reason '{reason}'", got)

    # The scheduler does what the verdicts say.
    if scheduler == "sched-simple":
        # sched-simple keeps E pending; flux-core's feasibility check refuses it.
        for jobid, ok in ((e, False), (b, True), (d, True)):
            accepted, message = feasible(jobid)
            check(accepted == ok, f"{scheduler}: flux-core's feasibility check "
                  + ("accepts" if ok else "refuses") + f" {jobid}", message)
        sh("flux", "cancel", e)
    sh("flux", "cancel", a)
    check(started(b), f"{scheduler}: B starts once A is cancelled")
    ok, got = annotated(b, "")
    check(ok, f"{scheduler}: B's reason is cleared once it runs", got)
    if c in v and scheduler == "sched-simple":
        rc, now = why(c)
        check(now[c]["verdict"] == "resources" and now[c].get("held_by") == [b],
              f"{scheduler}: then C waits for B", json.dumps(now[c]))
        sh("flux", "cancel", b)
        check(started(c), f"{scheduler}: C starts once B is cancelled")
    else:
        sh("flux", "cancel", b)
    sh("flux", "resource", "undrain", "1")
    check(started(d), f"{scheduler}: D starts once node1 is undrained")
    sh("flux", "job", "urgency", f, "default")
    check(started(f) and started(g), f"{scheduler}: F starts once released, then G")
    sh("flux", "queue", "start", "debug")
    check(started(h), f"{scheduler}: H starts once its queue starts")
    sh("flux", "job", "wait-event", "-t", "30", h, "clean")
    if scheduler == "fluxion":
        # Fluxion refuses E itself once it reaches it (it has no feasibility service).
        p = sh("flux", "job", "wait-event", "-t", "30", "-f", "json", e, "exception", ok=False)
        check(p.returncode == 0 and "unsatisfiable" in p.stdout,
              f"{scheduler}: the scheduler refuses E as unsatisfiable", p.stdout + p.stderr)
    rc, v = why()
    check(rc == 0 and not v, f"{scheduler}: nothing pending, exit 0", f"rc {rc} {v}")
    rc = sh("flux", "jobspec", "why", a, ok=False)
    check(rc.returncode == 0 and "not pending: inactive" in rc.stdout,
          f"{scheduler}: a job that is not pending says so", rc.stdout)
    rc = sh("flux", "jobspec", "why", "ƒ1111111111", ok=False)
    check(rc.returncode == 1 and "unknown job id" in rc.stderr, f"{scheduler}: an unknown id",
          rc.stderr)

    # Many waiting jobs: every one gets its reason, in bounded steps.
    blocker = submit("-N1", "--requires=rank:0", "sleep", "inf")
    check(started(blocker), f"{scheduler}: a job holds node0")
    head = submit("-N4", "true")
    many = [submit("-n1", "--requires=rank:1", "true") for _ in range(120)]
    ok, got = annotated(many[-1], "next in line: fits now, 100+ jobs ahead", seconds=30)
    missing = [j for j, r in reasons().items() if j in many and not r.startswith("next")]
    check(ok and not missing, f"{scheduler}: 120 waiting jobs all get their reasons",
          f"{got}; {len(missing)} without")
    sh("flux", "cancel", blocker, head, *many)

    # "Never" at submission: the jobtap plugin with never=true, then down-is-never=true.
    never = ("-N3", "--requires=ssd", "true")
    located = "jobspec.unsatisfiable at /attributes/system/constraints: asks 3 nodes"
    sh("flux", "jobtap", "load", f"--remove={os.path.basename(jobtap)}", jobtap, "never=true")
    time.sleep(0.5)  # a job before the plugin has read the resources is accepted (FLUX.md)
    ok, out = refused(never, located)
    check(ok, f"{scheduler}: never=true refuses a job that can never run, located", out)
    sh("flux", "resource", "drain", "1", "bad fan")
    p = sh("flux", "submit", "--requires=rank:1", "true", ok=False)
    check(p.returncode == 0, f"{scheduler}: never=true accepts a job on a drained node",
          p.stderr)
    sh("flux", "jobtap", "load", f"--remove={os.path.basename(jobtap)}", jobtap,
       "down-is-never=true")
    time.sleep(0.5)
    ok, out = refused(("--requires=rank:1", "true"), "jobspec.unsatisfiable")
    check(ok, f"{scheduler}: down-is-never=true refuses a job on a drained node", out)
    p = sh("flux", "submit", "-N1", "--requires=ssd", "true", ok=False)
    check(p.returncode == 0, f"{scheduler}: down-is-never=true accepts a job that fits",
          p.stderr)
    # The validator, as job-ingest runs it.
    for args, ok in ((never, False), (("-N2", "--requires=ssd", "true"), True)):
        text = sh("flux", "submit", "--dry-run", *args).stdout
        p = subprocess.run(["flux", "job-validator", "--jobspec-only", f"--plugins={validator}",
                            "--jobspec-never"], input=text, capture_output=True, text=True,
                           timeout=60)
        answer = json.loads(p.stdout.strip().splitlines()[-1])
        check((answer["errnum"] == 0) == ok and (ok or located in answer.get("errstr", "")),
              f"{scheduler}: the validator's --jobspec-never "
              + ("accepts" if ok else "refuses") + " " + " ".join(args), json.dumps(answer))
    sh("flux", "resource", "undrain", "1")
    sh("flux", "jobtap", "load", f"--remove={os.path.basename(jobtap)}", jobtap)
    return 1 if FAILURES else 0


def outside():
    flux, jobtap, python_dir = sys.argv[1:4]
    jobtap = os.path.abspath(jobtap) if jobtap else ""
    fluxion = sys.argv[4] if len(sys.argv) > 4 else os.environ.get(
        "JOBSPEC_FLUXION_BUILD",
        os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(flux))), "flux-sched",
                     "build"))
    if not flux or not os.access(flux, os.X_OK) or not jobtap:
        print("flux-core was not found: skipped")
        return 1 if os.environ.get("JOBSPEC_REQUIRE_FLUX") else 77
    env = dict(os.environ)
    env["PYTHONPATH"] = python_dir + os.pathsep + env.get("PYTHONPATH", "")
    env["FLUX_EXEC_PATH"] = os.path.join(python_dir, "jobspec", "flux", "cmd")
    env["PATH"] = os.path.dirname(flux) + os.pathsep + env["PATH"]
    schedulers = ["sched-simple"]
    modules = [os.path.join(fluxion, "resource", "modules", "sched-fluxion-resource.so"),
               os.path.join(fluxion, "qmanager", "modules", "sched-fluxion-qmanager.so")]
    if fluxion and all(os.path.exists(m) for m in modules):
        schedulers.append("fluxion")
    elif os.environ.get("JOBSPEC_REQUIRE_FLUXION"):
        print(f"Fluxion's modules are not in '{fluxion}', but JOBSPEC_REQUIRE_FLUXION is set")
        return 1
    # JOBSPEC_WHY_SCHEDULERS=fluxion (or sched-simple) runs one only, for a long run.
    only = os.environ.get("JOBSPEC_WHY_SCHEDULERS")
    schedulers = [s for s in schedulers if not only or s in only.split(",")]
    cases = os.environ.get("JOBSPEC_WHY_CASES", "50")
    seed = os.environ.get("JOBSPEC_WHY_SEED", str(random.randrange(2**31)))
    print(f"generated cases from seed {seed} (JOBSPEC_WHY_SEED={seed} replays them)")
    status = 0
    for scheduler in schedulers:
        with tempfile.TemporaryDirectory(prefix="jobspec-why-") as directory:
            with open(os.path.join(directory, "site.toml"), "w", encoding="utf-8") as f:
                f.write(CONFIG + f'[job-manager]\nplugins = [ {{ load = "{jobtap}" }} ]\n')
            validator = os.path.join(python_dir, "jobspec", "flux", "validator.py")
            generated = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                     "why_generated.py")
            inner = ["sh", "-c", 'flux python "$0" --inside "$1" "$2" "$3" && '
                     'flux python "$4" "$1" "$5" "$6"', os.path.abspath(__file__), scheduler,
                     jobtap, validator, generated, cases, seed]
            if scheduler == "fluxion":
                inner = ["sh", "-c", "flux module remove sched-simple && flux module load "
                         f"{modules[0]} && flux module load {modules[1]} && exec \"$@\"",
                         "fluxion"] + inner
                env["LD_LIBRARY_PATH"] = os.path.join(os.path.dirname(os.path.dirname(flux)),
                                                      "lib")
            p = subprocess.run([flux, "start", "--test-size=4",
                                f"-o,--config-path={directory}"] + inner,
                               env=env, capture_output=True, text=True,
                               timeout=300 + 5 * int(cases))
            print(p.stdout, end="")
            if p.returncode != 0:
                print(p.stderr[-3000:])
                status = 1
    return status


if __name__ == "__main__":
    if len(sys.argv) > 4 and sys.argv[1] == "--inside":
        sys.exit(inside(*sys.argv[2:5]))
    sys.exit(outside())
