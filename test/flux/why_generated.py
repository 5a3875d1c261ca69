"""Random instance states and random jobs: does the scheduler do what `flux jobspec why`
predicts? (issue 47; run inside an instance by why_test.py, docs/COMPAT.md records the
agreement.)

usage: flux python why_generated.py SCHEDULER CASES SEED

The instance is why_test.py's: node[0-3] with 4 cores, node[2-3] with a GPU and the
property ssd, queues batch and debug. Each case drains a random set of nodes, starts up
to three random jobs that hold resources, and submits a random job J held. jobspec.flux.why
judges J as if released, on the instance as it is (the same code as `flux jobspec why`);
then J is released and the scheduler must do what the verdict says:

  next        J starts
  resources   J does not start; once the jobs said to hold its nodes are cancelled, it does
  down        J does not start, even once every other job is cancelled; once the nodes
              are undrained, it does
  never       J does not start, even with every node free and undrained; with
              sched-simple flux-core's feasibility check refuses it too; with Fluxion, J
              needing down nodes is refused (an exception) at once

Prints each disagreement with the case, and the agreement rate; exits 1 on any.
"""
import json
import random
import subprocess
import sys
import time

import flux
import flux.job

from jobspec.flux import why

NODES = 4
STARTS = 10.0     # how long a job that should start is given
STAYS = 0.7       # how long a job that should not start is watched


def sh(*args, ok=True, stdin=None):
    p = subprocess.run(args, capture_output=True, text=True, timeout=120, input=stdin)
    if ok and p.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: rc {p.returncode}: {p.stderr}")
    return p


def random_job(rng):
    """flux submit arguments of a random job."""
    args = []
    kind = rng.choice(["nodes", "cores", "cores"])
    if kind == "nodes":
        args += ["-N", str(NODES + 1 if rng.random() < 0.1 else rng.randint(1, NODES))]
        if rng.random() < 0.5:
            args += ["-n", args[1]]
        if rng.random() < 0.3:
            args += ["--exclusive"]
    else:
        args += ["-n", str(rng.randint(1, 5)), "-c", str(rng.choice([1, 1, 2, 4, 5]))]
    if rng.random() < 0.2:
        args += ["-g", "1"]
    # (host: constraints are checked against the brokers' real host names at submission)
    requires = rng.choice([None] * 6 + ["ssd", "-ssd", f"rank:{rng.randint(0, NODES - 1)}",
                                        f"rank:{rng.randint(0, 1)}-{rng.randint(2, 3)}"])
    if requires is not None:
        args += [f"--requires={requires}"]
    if rng.random() < 0.3:
        args += ["-q", "debug"]
    return args


def started(h, jobid, seconds):
    """Whether the job is given resources within `seconds` (False too if it ends first)."""
    del h
    return sh("flux", "job", "wait-event", "-t", str(seconds), str(jobid), "alloc",
              ok=False).returncode == 0


def clean(h):
    """Every job cancelled and gone, every node undrained."""
    sh("flux", "cancel", "--all", ok=False)
    sh("flux", "resource", "undrain", "--force", "0-3")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        jobs = flux.job.job_list(h, max_entries=0, attrs=["state"],
                                 states=why.PENDING | why.RUN | why.CLEANUP).get_jobs()
        if not jobs:
            return
        time.sleep(0.05)
    raise RuntimeError("jobs did not go away")


def submit(args, held=False):
    p = sh("flux", "submit", *(["--urgency=0"] if held else []), *args, "sleep", "inf",
           ok=False)
    return flux.job.JobID(p.stdout.strip()) if p.returncode == 0 else None


def feasible(jobid):
    text = sh("flux", "job", "info", str(jobid), "jobspec").stdout
    p = sh("flux", "job-validator", "--jobspec-only", "--plugins=feasibility", stdin=text,
           ok=False)
    return json.loads(p.stdout.strip().splitlines()[-1])["errnum"] == 0


def verdict_of(h, jobid):
    """why's verdict for the held job as if it were released."""
    instance = why.read_instance(h)
    job = next(j for j in instance.pending if j["id"] == int(jobid))
    job = {**job, "urgency": 16, "priority": 16, "state": why.SCHED}
    instance.line = None
    instance.pending = [job if j["id"] == job["id"] else j for j in instance.pending]
    text = why.read_jobspecs(h, [int(jobid)])[int(jobid)]
    return why.explain(job, text, instance)


def check_case(h, scheduler, rng):
    """One random case: (the verdict, whether the scheduler agreed, what happened)."""
    drained = [n for n in range(NODES) if rng.random() < 0.2]
    if drained:
        sh("flux", "resource", "drain", ",".join(map(str, drained)), "generated")
    for _ in range(rng.randint(0, 3)):
        holder = submit(random_job(rng))
        if holder is not None and not started(h, holder, 1.0):
            sh("flux", "cancel", str(holder), ok=False)
    args = random_job(rng)
    j = submit(args, held=True)
    if j is None:
        return None, True, f"refused at submission: {args}"
    sh("flux", "job", "wait-event", "-t", "30", str(j), "priority")
    verdict = verdict_of(h, j)
    v = verdict["verdict"]
    story = f"{args} drained={drained}: {verdict['summary']}"
    sh("flux", "job", "urgency", str(j), "default")
    if v == "next":
        return v, started(h, j, STARTS), story
    if v == "resources":
        if started(h, j, STAYS):
            return v, False, story + "; it started at once"
        for holder in verdict["held_by"]:
            sh("flux", "cancel", holder, ok=False)
        return v, started(h, j, STARTS), story + "; it did not start once its holders ended"
    if v == "down":
        others = [str(x["id"]) for x in flux.job.job_list(
            h, max_entries=0, attrs=["state"], states=why.RUN).get_jobs()]
        for other in others:
            sh("flux", "cancel", other, ok=False)
        if started(h, j, STAYS):
            return v, False, story + "; it started without its down nodes"
        sh("flux", "resource", "undrain", ",".join(map(str, drained)))
        return v, started(h, j, STARTS), story + "; it did not start once undrained"
    if v == "never" and verdict.get("down_is_never"):
        # Fluxion: refused once it considers the job, the nodes being still down.
        p = sh("flux", "job", "wait-event", "-t", str(STARTS), str(j), "exception", ok=False)
        return v, p.returncode == 0, story + "; it was not refused"
    if v == "never":
        ok = scheduler != "sched-simple" or not feasible(j)
        others = [str(x["id"]) for x in flux.job.job_list(
            h, max_entries=0, attrs=["state"], states=why.RUN).get_jobs()]
        for other in others:
            sh("flux", "cancel", other, ok=False)
        if drained:
            sh("flux", "resource", "undrain", ",".join(map(str, drained)))
        if started(h, j, STAYS):
            return v, False, story + "; it started"
        return v, ok, story + ("" if ok else "; flux-core's feasibility check accepts it")
    return v, True, story  # held, blocked, unknown: not this check's question


def main():
    scheduler, cases, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    h = flux.Flux()
    sh("flux", "queue", "start", "--all")
    counts, disagreements = {}, []
    for case in range(cases):
        clean(h)
        verdict, agreed, story = check_case(h, scheduler, rng)
        counts[verdict] = counts.get(verdict, 0) + 1
        if not agreed:
            disagreements.append(f"case {case} (seed {seed}): {story}")
            print(f"FAIL {scheduler}: case {case}: {story}", flush=True)
    clean(h)
    judged = cases - counts.get(None, 0)
    agreed = judged - len(disagreements)
    print(f"{scheduler}: {agreed} of {judged} generated cases agree "
          f"({100.0 * agreed / max(judged, 1):.1f}%), seed {seed}; verdicts "
          + json.dumps({str(k): n for k, n in sorted(counts.items(), key=str)}), flush=True)
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
