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
              (next, resources, down: with sched-simple, flux-core's feasibility check
              accepts J)
  resources   J does not start; once the jobs said to hold its nodes are cancelled, it does
  down        J does not start, even once every other job is cancelled; once the nodes
              are undrained, it does
  never       J does not start, even with every node free and undrained; with
              sched-simple flux-core's feasibility check refuses it too; with Fluxion, J
              needing down nodes is refused (an exception) at once

Prints each disagreement with the case, and the agreement rate; exits 1 on any but the
class docs/COMPAT.md records (Fluxion refusing, as unsatisfiable, a job said to wait for
resources), which is counted and printed apart.
"""
import json
import random
import subprocess
import sys
import time

import flux
import flux.job

import jobspec

from jobspec.flux import why

NODES = 4
#: The disagreement docs/COMPAT.md records ("Why a job waits"), counted apart.
FLUXION_REFUSED = "Fluxion refused a job waiting for resources"
STARTS = 10.0     # how long a job that should start is given
STAYS = 0.7       # how long a job that should not start is watched


def sh(*args, ok=True, stdin=None):
    p = subprocess.run(args, capture_output=True, text=True, timeout=120, input=stdin)
    if ok and p.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: rc {p.returncode}: {p.stderr}")
    return p


def random_job(rng):
    """The options of a random job, as jobspec.compile takes them (flux submit's)."""
    options = {}
    if rng.random() < 1 / 3:
        options["nodes"] = NODES + 1 if rng.random() < 0.1 else rng.randint(1, NODES)
        if rng.random() < 0.5:
            options["ntasks"] = options["nodes"]
        if rng.random() < 0.3:
            options["exclusive"] = True
    else:
        options["ntasks"] = rng.randint(1, 5)
        options["cores_per_task"] = rng.choice([1, 1, 2, 4, 5])
    if rng.random() < 0.2:
        options["gpus_per_task"] = 1
    # (host: constraints are checked against the brokers' real host names at submission)
    requires = rng.choice([None] * 6 + ["ssd", "-ssd", f"rank:{rng.randint(0, NODES - 1)}",
                                        f"rank:{rng.randint(0, 1)}-{rng.randint(2, 3)}"])
    if requires is not None:
        options["requires"] = requires
    if rng.random() < 0.3:
        options["queue"] = "debug"
    return options


def state(h, jobid):
    return flux.job.job_list_id(h, jobid, attrs=["state"]).get_job()["state"]


def allocated(h, jobid):
    return any(e.name == "alloc" for e in flux.job.event_watch(h, jobid))


def started(h, jobid, seconds):
    """Whether the job is given resources within `seconds` (a job refused with an
    exception passes through CLEANUP too: then its eventlog decides)."""
    deadline = time.monotonic() + seconds
    while True:
        now = state(h, jobid)
        if now == why.RUN:
            return True
        if now in (why.CLEANUP, why.INACTIVE):
            return allocated(h, jobid)
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)


def refused(h, jobid, seconds):
    """Whether the job ends (an exception) within `seconds` without starting."""
    deadline = time.monotonic() + seconds
    while state(h, jobid) != why.INACTIVE:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return not allocated(h, jobid)


def cancel(h, jobids):
    for jobid in jobids:
        try:
            flux.job.cancel(h, jobid)
        except OSError:
            pass  # already ended


def running(h):
    return [j["id"] for j in flux.job.job_list(h, max_entries=0, attrs=["state"],
                                               states=why.RUN).get_jobs()]


def clean(h):
    """Every job cancelled and gone, every node undrained."""
    cancel(h, [j["id"] for j in flux.job.job_list(
        h, max_entries=0, attrs=["state"], states=why.PENDING | why.RUN).get_jobs()])
    sh("flux", "resource", "undrain", "--force", "0-3")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        jobs = flux.job.job_list(h, max_entries=0, attrs=["state"],
                                 states=why.PENDING | why.RUN | why.CLEANUP).get_jobs()
        if not jobs:
            return
        time.sleep(0.05)
    raise RuntimeError("jobs did not go away")


def submit(h, options, held=False):
    """The job's id, or None when it is refused at submission."""
    document = jobspec.compile(["sleep", "inf"], environ={}, **options)
    try:
        return flux.job.submit(h, json.dumps(document), urgency=0 if held else 16)
    except OSError:
        return None


def feasible(h, jobid):
    text = why.read_jobspecs(h, [jobid])[jobid]
    p = sh("flux", "job-validator", "--jobspec-only", "--plugins=feasibility", stdin=text,
           ok=False)
    return json.loads(p.stdout.strip().splitlines()[-1])["errnum"] == 0


def verdict_of(h, jobid):
    """why's verdict for the held job as if it were released."""
    instance = why.read_instance(h)
    job = next(j for j in instance.pending if j["id"] == jobid)
    job = {**job, "urgency": 16, "priority": 16, "state": why.SCHED}
    instance.pending = [job if j["id"] == job["id"] else j for j in instance.pending]
    return why.explain(job, why.read_jobspecs(h, [jobid])[jobid], instance)


def check_case(h, scheduler, rng):
    """One random case: (the verdict, whether the scheduler agreed, what happened)."""
    drained = [n for n in range(NODES) if rng.random() < 0.2]
    if drained:
        sh("flux", "resource", "drain", ",".join(map(str, drained)), "generated")
    for _ in range(rng.randint(0, 3)):
        holder = submit(h, random_job(rng))
        if holder is not None and not started(h, holder, 1.0):
            cancel(h, [holder])
    options = random_job(rng)
    j = submit(h, options, held=True)
    if j is None:
        return None, True, f"refused at submission: {options}"
    while state(h, j) != why.SCHED:
        time.sleep(0.01)
    verdict = verdict_of(h, j)
    v = verdict["verdict"]
    story = f"{options} drained={drained}: {verdict['summary']}"
    if scheduler == "sched-simple" and v in ("next", "resources", "down") \
            and not feasible(h, j):
        return v, False, story + "; flux-core's feasibility check refuses it"
    h.rpc("job-manager.urgency", {"id": j, "urgency": 16}).get()
    if v == "next":
        return v, started(h, j, STARTS), story
    if v == "resources":
        if started(h, j, STAYS):
            return v, False, story + "; it started at once"
        cancel(h, [flux.job.JobID(x) for x in verdict["held_by"]])
        if started(h, j, STARTS):
            return v, True, story
        if scheduler == "fluxion" and state(h, j) == why.INACTIVE:
            # A docs/COMPAT.md class: Fluxion refused, as unsatisfiable, a job that fits
            # the instance, when it did not fit what was free.
            return v, FLUXION_REFUSED, story
        return v, False, story + "; it did not start once its holders ended"
    if v == "down":
        cancel(h, running(h))
        if started(h, j, STAYS):
            return v, False, story + "; it started without its down nodes"
        sh("flux", "resource", "undrain", ",".join(map(str, drained)))
        return v, started(h, j, STARTS), story + "; it did not start once undrained"
    if v == "never" and verdict.get("down_is_never"):
        # Fluxion: refused once it considers the job, the nodes being still down.
        return v, refused(h, j, STARTS), story + "; it was not refused"
    if v == "never":
        ok = scheduler != "sched-simple" or not feasible(h, j)
        cancel(h, running(h))
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
    counts, disagreements, recorded = {}, [], 0
    for case in range(cases):
        clean(h)
        verdict, agreed, story = check_case(h, scheduler, rng)
        counts[verdict] = counts.get(verdict, 0) + 1
        if agreed == FLUXION_REFUSED:
            recorded += 1
            print(f"COMPAT {scheduler}: case {case}: {FLUXION_REFUSED}: {story}", flush=True)
        elif not agreed:
            disagreements.append(f"case {case} (seed {seed}): {story}")
            print(f"FAIL {scheduler}: case {case}: {story}", flush=True)
    clean(h)
    judged = cases - counts.get(None, 0)
    agreed = judged - len(disagreements) - recorded
    print(f"{scheduler}: {agreed} of {judged} generated cases agree "
          f"({100.0 * agreed / max(judged, 1):.1f}%), {recorded} in the COMPAT class, "
          f"{len(disagreements)} unexplained; seed {seed}; verdicts "
          + json.dumps({str(k): n for k, n in sorted(counts.items(), key=str)}), flush=True)
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
