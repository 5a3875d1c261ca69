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
'{user.jobspec_reason}'` and clears them when a job runs, and its own state (`flux jobtap
query`), forecast through Python's door, gives its verdicts and estimates (one
implementation); with never=true (and
down-is-never=true) it and the validator (--jobspec-never) refuse at submission what can
never run, with the located reason. With sched-simple, and with Fluxion when
FLUXION-BUILD-DIR holds its modules.

Then forecast_reality.py's generated workload, in an instance of each scheduler and
policy (sched-simple, sched-fifo, sched-backfill, Fluxion's fcfs, easy and conservative):
30 jobs (JOBSPEC_FORECAST_JOBS) from a random seed that is printed
(JOBSPEC_FORECAST_SEED replays it), each start against its estimate (Fluxion's three at
once, flux-core's each alone); JOBSPEC_FORECAST_SCHEDULERS=fluxion-easy runs those only.

Skipped (77) without flux, unless JOBSPEC_REQUIRE_FLUX is set; Fluxion is required when
JOBSPEC_REQUIRE_FLUXION is set.
"""
import contextlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time

def config(nodes):
    """node[0-N-1] with 4 cores, the last two with a GPU and the property ssd; queues batch
    (the default) and debug; the fast setup's ingest."""
    return f"""
[resource]
noverify = true
[[resource.config]]
hosts = "node[0-{nodes - 1}]"
cores = "0-3"
[[resource.config]]
hosts = "node[{nodes - 2}-{nodes - 1}]"
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


def why(*args):
    p = sh("flux", "jobspec", "why", "--json", *args, ok=False)
    return p.returncode, {j["id"]: j for j in json.loads(p.stdout)["jobs"]}


def plugin_answers(jobs, other):
    """Whether `flux jobspec why` is answered by the jobtap plugin (one request, the
    default) with the verdicts `jobs` (id -> verdict) as why gives them reading the
    instance itself, and a guest (FLUX_ROLE_USER) gets job `other`, another user's, with
    its verdict but without its diagnostics: (ok, what differs)."""
    import flux  # pylint: disable=import-outside-toplevel
    import flux.job  # pylint: disable=import-outside-toplevel
    from jobspec.flux import why as why_py  # pylint: disable=import-outside-toplevel
    got = why_py.from_plugin(flux.Flux())
    if got is None or {why_py.f58(i) for i, _ in got[0]} != set(jobs):
        return False, f"the plugin answered {got}"
    _, direct = why("--read-instance")
    if direct != jobs:
        return False, f"the plugin's {jobs} / read here {direct}"
    os.environ["FLUX_HANDLE_USERID"] = str(os.getuid() + 1)
    os.environ["FLUX_HANDLE_ROLEMASK"] = "0x2"
    try:
        guest = flux.Flux()
    finally:
        del os.environ["FLUX_HANDLE_USERID"]
        del os.environ["FLUX_HANDLE_ROLEMASK"]
    seen = dict(why_py.from_plugin(guest)[0]).get(flux.job.JobID(other))
    owner = jobs[other]
    if seen is None or seen["verdict"] != owner["verdict"] or seen["diagnostics"] \
            or "located" in seen or not owner["diagnostics"]:
        return False, f"the guest got {seen}"
    return True, ""


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


def same_forecast(tries=10):
    """One implementation: the instance state the jobtap plugin keeps (flux jobtap query),
    forecast through Python's door as why.py forecasts, at the moment of the plugin's last
    forecast, gives the plugin's verdicts and estimates (the state must not have changed
    since: tried again while it has)."""
    import jobspec  # pylint: disable=import-outside-toplevel
    got = ""
    for _ in range(tries):
        query = json.loads(sh("flux", "jobtap", "query", "jobspec.so").stdout)["jobspec"]
        state, plugin = query["instance"], query["forecast"]
        if state is not None and plugin is not None:
            state["now"] = plugin["now"]
            ours = jobspec.forecast(state)
            mine = {j["id"]: (j["verdict"], j["eta"]) for j in plugin["jobs"]}
            theirs = {j["id"]: (j["verdict"], j["eta"]) for j in ours["jobs"]}
            if mine == theirs and mine:
                return True, ""
            got = f"plugin {mine} / forecast {theirs}"
        time.sleep(0.5)
    return False, got


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
    # B waits for A; C fits now but the scheduler's order puts it behind B, which takes
    # both ssd nodes for ever when A ends (sched-simple keeps C waiting; Fluxion refuses
    # a job whose constraints allow only nodes held for ever); D needs drained node1; E
    # can never run.
    fluxion = scheduler.startswith("fluxion")
    expected = {b: "waiting", c: "never" if fluxion else "waiting", d: "down", f: "held",
                g: "blocked", h: "blocked", e: "never"}
    for jobid, verdict in expected.items():
        got = v.get(jobid, {})
        check(got.get("verdict") == verdict, f"{scheduler}: {jobid} is {verdict}", json.dumps(got))
    expiration = json.loads(sh("flux", "jobs", "--json", a).stdout)["expiration"]
    check(v[b].get("after") == [a] and v[b].get("nodes") == "node[2-3]"
          and abs((v[b].get("eta") or 0) - expiration) < 1,
          f"{scheduler}: B starts on node[2-3] when A ends, by its time limit", json.dumps(v[b]))
    if fluxion:
        check(v[c].get("eta") is None and v[c].get("no_estimate") == "never"
              and v[c].get("after") == [b] and b in v[c]["summary"],
              f"{scheduler}: C is refused once B, which has no time limit, holds the ssd nodes",
              json.dumps(v[c]))
    else:
        check(v[c].get("eta") is None and v[c].get("no_estimate") == "unending"
              and v[c].get("after") == [b],
              f"{scheduler}: C waits for B, which has no time limit: no estimate",
              json.dumps(v[c]))
    check(v[d].get("down_nodes") == {"node1": "drained: bad fan"},
          f"{scheduler}: D waits for node1, drained: bad fan", json.dumps(v[d]))
    check(f in v[g]["summary"], f"{scheduler}: G waits for F", json.dumps(v[g]))
    check(v[h]["summary"] == "blocked: queue debug is stopped: maintenance",
          f"{scheduler}: H's queue is stopped", json.dumps(v[h]))
    check("jobspec.unsatisfiable" in v[e]["summary"] and v[e].get("closest") == "node[2-3]"
          and {"source": "--requires", "text": "ssd", "offset": 0, "length": 3,
               "pointer": "/attributes/system/constraints"} in v[e].get("located", []),
          f"{scheduler}: E never fits, node[2-3] closest, located in --requires",
          json.dumps(v[e]))
    text = sh("flux", "jobspec", "why", e, ok=False)
    check(text.returncode == 1 and text.stdout.startswith(e) and "never on this instance"
          in text.stdout and "--requires: ssd\n" in text.stdout,
          f"{scheduler}: text output for E, with a caret", text.stdout + text.stderr)
    # The same forecast in flux jobs, from the jobtap plugin: its reasons and estimates.
    shown = {b: "starts by ",
             c: f"never: refused while {b}" if fluxion else f"waits for {b} (no time limit)",
             d: "waits for drained node1 (bad fan)",
             e: "never: jobspec.unsatisfiable at /attributes/system/constraints"}
    for jobid, reason in shown.items():
        ok, got = annotated(jobid, reason)
        check(ok, f"{scheduler}: flux jobs shows {jobid}'s reason '{reason}'", got)
    etas = json.loads(sh("flux", "jobs", "--json", b).stdout)
    eta = etas.get("annotations", {}).get("user", {}).get("jobspec_eta")
    check(eta is not None and abs(eta - v[b]["eta"]) < 1,
          f"{scheduler}: the plugin's estimate for B is why's", json.dumps(etas.get("annotations")))
    ok, got = same_forecast()
    check(ok, f"{scheduler}: the plugin's state, forecast by why's door, gives the plugin's "
          "verdicts and estimates", got)
    ok, got = plugin_answers(v, e)
    check(ok, f"{scheduler}: why is answered by the plugin as by reading the instance, and "
          "a guest gets another user's job without its diagnostics", got)

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
    if fluxion:
        p = sh("flux", "job", "wait-event", "-t", "30", "-f", "json", c, "exception", ok=False)
        check(p.returncode == 0 and "unsatisfiable" in p.stdout,
              f"{scheduler}: the scheduler refuses C once B runs", p.stdout + p.stderr)
        sh("flux", "cancel", b)
    else:
        check(not started(c, 0.5), f"{scheduler}: C does not start while B runs")
        sh("flux", "cancel", b)
        check(started(c), f"{scheduler}: C starts once B is cancelled")
    sh("flux", "resource", "undrain", "1")
    check(started(d), f"{scheduler}: D starts once node1 is undrained")
    sh("flux", "job", "urgency", f, "default")
    check(started(f) and started(g), f"{scheduler}: F starts once released, then G")
    sh("flux", "queue", "start", "debug")
    check(started(h), f"{scheduler}: H starts once its queue starts")
    sh("flux", "job", "wait-event", "-t", "30", h, "clean")
    if fluxion:
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

    # Many waiting jobs: every one gets its reason, in bounded steps, behind the head.
    blocker = submit("-N1", "--requires=rank:0", "sleep", "inf")
    check(started(blocker), f"{scheduler}: a job holds node0")
    head = submit("-N4", "true")
    many = [submit("-n1", "--requires=rank:1", "true") for _ in range(120)]
    # The plugin publishes a forecast's reasons a slice at a time, in its own order.
    deadline = time.monotonic() + 30
    while True:
        shown = reasons()
        missing = {j: shown.get(j, "") for j in many
                   if not shown.get(j, "").startswith(f"waits behind {head}")}
        if not missing or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    check(not missing, f"{scheduler}: 120 waiting jobs all get their reasons",
          f"{len(missing)} without: {json.dumps(dict(list(missing.items())[:3]))}")
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
    modules = [os.path.join(fluxion, "resource", "modules", "sched-fluxion-resource.so"),
               os.path.join(fluxion, "qmanager", "modules", "sched-fluxion-qmanager.so")]
    # Each scheduler in an instance of its own: the verdicts built by hand (inside()) with
    # sched-simple and Fluxion's default policy, then the generated workload
    # (forecast_reality.py) with every scheduler and policy.
    schedulers = ["sched-simple", "sched-fifo", "sched-backfill"]
    if fluxion and all(os.path.exists(m) for m in modules):
        schedulers += ["fluxion-fcfs", "fluxion-easy", "fluxion-conservative"]
    elif os.environ.get("JOBSPEC_REQUIRE_FLUXION"):
        print(f"Fluxion's modules are not in '{fluxion}', but JOBSPEC_REQUIRE_FLUXION is set")
        return 1
    # JOBSPEC_FORECAST_SCHEDULERS=fluxion-easy (or a list) runs those only, for long runs.
    only = os.environ.get("JOBSPEC_FORECAST_SCHEDULERS")
    schedulers = [s for s in schedulers if not only or s in only.split(",")]
    jobs = os.environ.get("JOBSPEC_FORECAST_JOBS", "30")
    seed = os.environ.get("JOBSPEC_FORECAST_SEED", str(random.randrange(2**31)))
    print(f"generated workloads from seed {seed} (JOBSPEC_FORECAST_SEED={seed} replays them)")
    reality = os.path.join(os.path.dirname(os.path.abspath(__file__)), "forecast_reality.py")
    validator = os.path.join(python_dir, "jobspec", "flux", "validator.py")
    # The verdicts built by hand with sched-simple and Fluxion's default policy, on
    # node[0-3]; then each scheduler's generated workload, on 4 to 8 nodes (from the seed).
    # Each group runs at once, in instances of its own: the by-hand runs wait for events
    # with bounds, and each workload mostly waits for its jobs' time limits and polls
    # job-list five times a second, so three together save four minutes of CI. flux-core's
    # schedulers and Fluxion's policies go in groups of their own.
    groups = [[(s, "by-hand") for s in schedulers if s in ("sched-simple", "fluxion-fcfs")],
              [(s, "reality") for s in schedulers if not s.startswith("fluxion-")],
              [(s, "reality") for s in schedulers if s.startswith("fluxion-")]]
    runs = [group for group in groups if group]
    nodes = 4 + int(seed) % 5
    env["LD_LIBRARY_PATH"] = os.path.join(os.path.dirname(os.path.dirname(flux)), "lib")

    def start(scheduler, kind, directory):
        size = 4 if kind == "by-hand" else nodes
        with open(os.path.join(directory, "site.toml"), "w", encoding="utf-8") as f:
            f.write(config(size) + f'[job-manager]\nplugins = [ {{ load = "{jobtap}" }} ]\n')
        if kind == "by-hand":
            inner = ["flux", "python", os.path.abspath(__file__), "--inside", scheduler,
                     jobtap, validator]
        else:
            inner = ["flux", "python", reality, scheduler, seed, jobs, str(size)]
        setup = []
        if scheduler == "sched-fifo":
            setup = [f"flux module load {scheduler}"]
        elif scheduler == "sched-backfill":
            # Its debug lines name each allocation: forecast_reality.py finds a job it
            # allocates twice in them.
            setup = [f"flux module load {scheduler} log-level=debug"]
        elif scheduler.startswith("fluxion-"):
            policy = scheduler.split("-", 1)[1]
            setup = [f"flux module load {modules[0]}",
                     f"flux module load {modules[1]} queue-policy={policy}"]
        if setup:
            inner = ["sh", "-c", " && ".join(["flux module remove sched-simple"] + setup)
                     + ' && exec "$@"', scheduler] + inner
        return subprocess.Popen([flux, "start", f"--test-size={size}",
                                 f"-o,--config-path={directory}"] + inner,
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)

    status, again = 0, []
    for group in runs:
        with contextlib.ExitStack() as stack:
            started = [start(scheduler, kind, stack.enter_context(
                tempfile.TemporaryDirectory(prefix="jobspec-why-")))
                for scheduler, kind in group]
            for (scheduler, kind), p in zip(group, started):
                try:
                    out, err = p.communicate(timeout=600)
                except subprocess.TimeoutExpired:
                    p.kill()
                    out, err = p.communicate()
                    err += "\ntimed out after 600 s"
                print(out, end="")
                if p.returncode == 0:
                    continue
                print(err[-3000:])
                # Too little could be judged (forecast_reality.py, AGAIN): the scheduler
                # lost a job early, or the machine was too busy for jobs to end at their
                # limits. Its workload once more, in a new instance; a second time fails.
                if f"AGAIN {scheduler}:" in out and (scheduler, kind) not in again:
                    print(f"{scheduler}: too little to judge; the workload again, once")
                    again.append((scheduler, kind))
                    runs.append([(scheduler, kind)])
                else:
                    status = 1
    return status


if __name__ == "__main__":
    if len(sys.argv) > 4 and sys.argv[1] == "--inside":
        sys.exit(inside(*sys.argv[2:5]))
    sys.exit(outside())
