"""Does the scheduler do what the forecast says? A generated workload in a real instance,
the forecast taken once after every job is submitted, then each job's start compared with
its estimate (issue 58; run inside an instance by why_test.py; docs/SCHEDULERS.md).

usage: flux python forecast_reality.py SCHEDULER SEED JOBS NODES

The instance is why_test.py's: node[0-NODES-1] with 4 cores, the last two with a GPU and
the property ssd, queues batch and debug, its scheduler set up by why_test.py (SCHEDULER:
sched-simple, sched-fifo, sched-backfill, fluxion-fcfs, fluxion-easy,
fluxion-conservative). The workload, from SEED: JOBS jobs of 1-4 nodes or 1-6 tasks of 1-4
cores, some with a GPU, ssd or a rank constraint, in either queue, each with a time limit
of 2 to 12 s that it runs to (`sleep inf`), under flux-core's schedulers no two within
0.1 s; one node drained from the start, some jobs held, some depending on held ones. Then:

  - at least a third of the jobs must have an estimated start (else the workload judged
    nothing: a failure);
  - a job with an estimated start must start within TOLERANCE of it (at least 95% must;
    every miss is printed; under Fluxion's policies the share is printed, not required:
    MEASURED_ONLY), and on the nodes the forecast says when it says where. A start that
    misses its estimate but meets the forecast of the same state with every job's end
    moved later by up to RELEASE_SPREAD (a tie: two ends closer than the instance's own
    timing decided it) is printed as TIE and counted with the hits (flux-core's
    schedulers); on a busy machine (job ends lagging their limits by a median over
    SLOW_RELEASE), a start within TOLERANCE of its estimate moved later by the most any
    job it waits for ended after the forecast's end for it is printed as LATE and
    counted with the hits too, and so is one that meets, so moved, the estimate of a
    forecast with every end later by up to the run's worst lag that puts it on the
    nodes it got (the lags decided which of two ends came first);
  - a job whose verdict says it has no estimate (held, blocked, waiting for a drained node,
    behind one that is, never) must not start while that holds: held and drained stay so
    to the end, and a blocked job must not start before its dependency has ended;
  - where the scheduler annotates sched.t_estimate when the forecast is taken, the
    estimate must equal it within TOLERANCE, unless the job then started as the forecast
    said (the scheduler's estimate does not see dependencies; under MEASURED_ONLY,
    counted and printed).

Under sched-backfill, flux-core 0.88 loses track of a job it backfilled when a message
reaches it before that pass ends (docs/COMPAT.md, "Why a job waits"): the job stays in its
queue, and it is allocated again later. The workload is released while a job holds every
node, so that the scheduler has every request before it can backfill any; and an estimate
is judged only if its job started before the scheduler's queue first held a job the
instance had allocated (`sched-backfill.stats-get` against `flux jobs`, each poll) or the
scheduler allocated one again (its `log-level=debug` lines in `flux dmesg`). With fewer
than a third of the jobs judged for that reason, the script prints AGAIN and exits 3:
why_test.py runs the workload again, once.

Prints the seed (JOBSPEC_FORECAST_SEED replays it), each disagreement, and the score.
"""
import copy
import datetime
import json
import os
import random
import re
import statistics
import subprocess
import sys
import time

import flux
import flux.job

import jobspec

from jobspec.flux import why

NODES = 4  # main() sets it
TOLERANCE = 1.0
#: The share of estimates that must hold.
GOAL = 0.95
#: Fluxion's policies, whose starts and sched.t_estimate are measured and printed but not
#: required (docs/COMPAT.md, "Why a job waits"): jobs ending in the same second are freed
#: one at a time in an order the instance does not publish, and Fluxion's node order comes
#: from weights the forecast cannot rebuild, so `fcfs` holds every estimate on most seeds
#: but not all (3 of the 4 seeds run with one queue); the backfill policies also start a
#: reserved job a second after its reservation at times. Issue 58 records it unmet. Their
#: verdicts are required.
MEASURED_ONLY = ("fluxion-fcfs", "fluxion-easy", "fluxion-conservative")
#: How far apart two jobs' nodes come back after their time limits: the release follows
#: the limit by 14 to 78 ms in flux-core 0.88 instances (sched-backfill, seed 1599749069,
#: the `held` timeline), varying from job to job, where the forecast allows one fixed
#: pass latency (docs/SCHEDULERS.md). Where two ends closer than this decide a start,
#: which comes first is a coin the forecast cannot see. (At 0.15 s, 6 to 14 of the 18
#: estimates of seed 1374172065 had a forecast of moved ends over 1 s away; at 0.07 s,
#: none.)
RELEASE_SPREAD = 0.07
#: The most a job's release may follow its time-limit exception, at the median of a run,
#: for the run's starts to be judged: 27-42 ms on an idle machine (the dumps in
#: test/flux/dumps, 2026-11-30). In CI on 2026-11-30 (seeds 438650179 and 972800059,
#: beside other tests) it was 0.2-0.4 s, and each job of a chain started later by the
#: sum of the lags before it: sched-simple, sched-fifo and sched-backfill missed from the
#: fourth job on, the same seed run again too. The forecast models an instance that ends
#: jobs at their limits, so a run that slow judges a miss by the ends it waits for as
#: they came (LATE; in the dumps those hold to 0.04 s where the estimates were 0.47 s
#: late), and one that still misses is run again once (AGAIN). Lags that large also
#: decide margins: in CI on 2026-11-30 (seed 711087824, lags 0.18-0.38 s, twice) a job
#: the forecast backfilled on node5 until 0.01 s before the head's reservation was not
#: backfilled, and started 24 s later on node4, where some forecasts with every end up
#: to the worst lag later put it (LATE by those; the same run on an idle machine holds
#: all 17 estimates).
SLOW_RELEASE = 0.1
#: How many forecasts with moved ends judge a miss.
SAMPLES = 32
#: The schedulers that lose track of a job they backfilled when a message comes before
#: the end of the pass (flux-core 0.88's sched-backfill: a pass ends at the next request
#: or free, and the jobs it backfilled stay in its queue; docs/COMPAT.md).
LOSES_JOBS = ("sched-backfill",)
#: What each poll of the jobs reads: their starts, what lost_jobs() counts, and the
#: scheduler's estimates.
WATCHED = ["t_run", "state", "priority", "annotations"]


def sh(*args, ok=True):
    p = subprocess.run(args, capture_output=True, text=True, timeout=120)
    if ok and p.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: rc {p.returncode}: {p.stderr}")
    return p


def workload(rng, count, drained, one_queue):
    """Each job's options (as jobspec.compile takes them) and what is special about it, in
    queue batch or debug (batch only if `one_queue`). Most jobs fit the nodes that are up:
    under strict FIFO one that needs the drained node stops every job behind it, so only a
    few do, late."""
    up = [n for n in range(NODES) if n != drained]
    jobs = []
    for i in range(count):
        options = {"time_limit": f"{rng.randint(2, 12)}s"}
        late = i >= count * 0.8
        if rng.random() < 0.4:
            options["nodes"] = rng.randint(1, NODES if late and rng.random() < 0.3 else NODES - 1)
            if rng.random() < 0.3:
                options["exclusive"] = True
        else:
            options["ntasks"] = rng.randint(1, 6)
            options["cores_per_task"] = rng.choice([1, 1, 2, 4])
        if rng.random() < 0.15:
            options["gpus_per_task"] = 1
        rank = drained if late and rng.random() < 0.3 else rng.choice(up)
        requires = rng.choice([None] * 8 + ["ssd", "-ssd", f"rank:{rank}"])
        if requires is not None:
            options["requires"] = requires
        # Before the last fifth, a job fits the nodes that are up and that its constraint
        # allows (all but the drained one; without ssd, one fewer): asking more would wait
        # for the drained node, and stop every job behind it under FIFO.
        fit = {None: len(up), "-ssd": NODES - 3}.get(requires)
        if fit is not None and not late:
            if "nodes" in options:
                options["nodes"] = min(options["nodes"], fit)
            else:
                options["ntasks"] = min(options["ntasks"], fit * 4 // options["cores_per_task"])
        options["queue"] = rng.choice(["batch", "batch", "debug"])
        if one_queue:
            options["queue"] = "batch"
        kind = rng.choices(["plain", "held", "after"], [0.85, 0.07, 0.08])[0]
        # A job released by another's end reaches the scheduler during the pass that end
        # causes, after as many of its allocations as the instance's timing allows
        # (docs/COMPAT.md): no forecast can know how many. Jobs here wait for held ones.
        held = [k for k, job in enumerate(jobs) if job["kind"] == "held"]
        if kind == "after" and not held:
            kind = "plain"
        jobs.append({"options": options, "kind": kind,
                     "after": rng.choice(held) if kind == "after" else None})
    return jobs


def distinct_limits(rng, plan):
    """Each job a time limit of its own from 2 to 12 s: the k-th of `plan`'s jobs, in a
    random order, in the k-th of equal slots, at a random place in its first seven
    tenths, so that two limits are at least 0.1 s apart (30 jobs).

    Jobs allocated in one pass with the same limit end together and come back in an
    order no forecast can know (docs/COMPAT.md, seed 1763115543). Limits on an even grid
    do too, in pairs: 8.552 + 2.345 = 8.897 + 2.000 s, so a job backfilled at the first
    end would end exactly as the reservation made at the second began (seed 1599749069,
    sched-backfill). Fluxion keeps whole seconds: its plan rounds a limit up to one."""
    step = 10 / max(len(plan) - 1, 1)
    for job, k in zip(plan, rng.sample(range(len(plan)), len(plan))):
        limit = min(2 + k * step + rng.uniform(0, 0.7 * step), 12.0)
        job["options"]["time_limit"] = f"{limit:.3f}s"


def nearby(state, rng, spread=RELEASE_SPREAD):
    """`state` with each job's end later by up to `spread` seconds, at random: a running
    job's expiration, a pending job's time limit."""
    state = copy.deepcopy(state)
    for job in state["running"]:
        if job.get("expiration"):
            job["expiration"] += rng.uniform(0, spread)
    for job in state["pending"]:
        system = (job.get("jobspec") or {}).get("attributes", {}).get("system", {})
        if system.get("duration"):
            system["duration"] += rng.uniform(0, spread)
    return state


def nearby_forecasts(instance, seed, spread=RELEASE_SPREAD):
    """SAMPLES forecasts of `nearby` states: each a pair of the state and its verdicts (a
    pending job's id to its verdict)."""
    rng = random.Random(seed)
    out = []
    for _ in range(SAMPLES):
        state = nearby(instance.state, rng, spread)
        result = jobspec.forecast(state, dialect=instance.dialect)
        out.append((state, {job["id"]: v for job, v in zip(state["pending"], result["jobs"])}))
    return out


def submit(h, options, urgency=16, dependency=None):
    if dependency is not None:
        options = {**options, "dependency": f"afterany:{dependency}"}
    document = jobspec.compile(["sleep", "inf"], environ={}, **options)
    try:
        return flux.job.submit(h, json.dumps(document), urgency=urgency)
    except OSError:
        return None


def lost_jobs(h, jobs):
    """How many more jobs sched-backfill's queue holds than wait for it among `jobs` (a
    listing with each job's state and priority, just read): each one it allocated and
    lost track of. A job allocated since the listing makes the count one lower, never
    higher."""
    waiting = sum(1 for j in jobs.values()
                  if j["state"] == why.SCHED and j.get("priority", 0) > 0)
    return h.rpc("sched-backfill.stats-get").get()["pending_jobs"] - waiting


def allocated_again():
    """Each job the scheduler allocated more than once, its name (f58) to the time of the
    second: from the `alloc: ƒID: R` lines of sched-backfill's log-level=debug."""
    seen, again = set(), {}
    for line in sh("flux", "dmesg", ok=False).stdout.splitlines():
        m = re.match(r"(\S+) sched-backfill\.debug\[\d+\]: alloc: (\S+): ", line)
        if m is None:
            continue
        if m[2] in seen and m[2] not in again:
            again[m[2]] = datetime.datetime.fromisoformat(m[1].replace("Z", "+00:00")).timestamp()
        seen.add(m[2])
    return again


def listing(h, ids, attrs):
    jobs = flux.job.job_list(h, max_entries=0, attrs=attrs,
                             states=why.PENDING | why.RUN | why.CLEANUP | why.INACTIVE).get_jobs()
    return {j["id"]: j for j in jobs if j["id"] in ids}


def main():
    global NODES
    scheduler, seed, count, NODES = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), \
        int(sys.argv[4])
    rng = random.Random(seed)
    h = flux.Flux()
    sh("flux", "queue", "start", "--all")
    drained = rng.randrange(NODES - 2)  # not one of the two with a GPU and ssd
    sh("flux", "resource", "drain", str(drained), "generated")
    # Submitted held, then released together, so the scheduler sees them all at once and
    # the forecast is of the same moment as what the scheduler does.
    # Fluxion with jobs in two queues: jobs ending in the same second are freed one at a
    # time, in an order the instance does not publish, with a pass of every queue after
    # each, so another queue's job may take what the forecast gives this one; and the
    # backfill policies' reservations are made around the other queue's from its previous
    # pass, which is not published either (docs/COMPAT.md). One queue under Fluxion
    # (JOBSPEC_FORECAST_ONE_QUEUE for every scheduler).
    fluxion = scheduler.startswith("fluxion-")
    one_queue = fluxion or bool(os.environ.get("JOBSPEC_FORECAST_ONE_QUEUE"))
    plan = workload(rng, count, drained, one_queue)
    if not fluxion:
        distinct_limits(random.Random(seed + 1), plan)
    # Under a scheduler that loses jobs it backfills, a job holds every node while the
    # workload is released, so that no pass can backfill before the scheduler has every
    # request; it then ends, and the first pass after it meets no other message.
    loses = scheduler in LOSES_JOBS
    gate = None
    if loses:
        gate = submit(h, {"nodes": NODES - 1, "exclusive": True, "time_limit": "1h"})
        sh("flux", "job", "wait-event", "-t", "60", str(gate), "alloc")
    ids = []
    for job in plan:
        after = ids[job["after"]] if job["after"] is not None else None
        ids.append(submit(h, job["options"], urgency=0, dependency=after))
    held = {ids[i] for i, job in enumerate(plan) if job["kind"] == "held"}
    for jobid in ids:
        if jobid is not None and jobid not in held:
            h.rpc("job-manager.urgency", {"id": jobid, "urgency": 16}).get()
    if gate is not None:
        # Every request in the scheduler's queue and the refused ones gone from it, twice
        # in a row (within 10 s), then the gate ends.
        settled, until = 0, time.time() + 10
        while settled < 2 and time.time() < until:
            settled = settled + 1 if lost_jobs(h, listing(h, set(ids), WATCHED)) == 0 else 0
            time.sleep(0.1)
        flux.job.cancel(h, gate)
        sh("flux", "job", "wait-event", "-t", "60", str(gate), "clean")
    time.sleep(1.0)  # the scheduler's first pass, and the plugin's
    # (time asked, jobs the scheduler lost): the first at the forecast's moment
    polls = [(time.time(), lost_jobs(h, listing(h, set(ids), WATCHED)))] if loses else []
    taken = time.time()
    instance = why.read_instance(h)
    verdicts = {job["id"]: v for job, v in zip(instance.state["pending"], why.forecast(instance))}
    annotations = listing(h, set(ids), ["annotations"])
    ends = [v["eta"] for v in verdicts.values() if v["eta"] is not None]
    deadline = max(ends, default=taken) + 15
    # Watch until every job with an estimate started (or the deadline).
    waiting = {i for i in verdicts if verdicts[i]["eta"] is not None}
    starts = {}
    # Each job's sched.t_estimate as it changed (the dump's): a reservation the scheduler
    # moved or dropped between two polls shows when its plan departed from the forecast.
    estimates = {}
    while time.time() < deadline and not waiting <= set(starts):
        jobs = listing(h, set(ids), WATCHED)
        for jobid, j in jobs.items():
            if j.get("t_run"):
                starts.setdefault(jobid, j["t_run"])
            estimate = j.get("annotations", {}).get("sched", {}).get("t_estimate")
            seen = estimates.setdefault(jobid, [])
            if not seen or seen[-1][1] != estimate:
                seen.append((time.time(), estimate))
        if loses:
            polls.append((time.time(), lost_jobs(h, jobs)))
        time.sleep(0.2)
    final = listing(h, set(ids), ["t_run", "t_cleanup", "t_inactive", "state", "ranks"])
    for jobid, j in final.items():
        if j.get("t_run"):
            starts.setdefault(jobid, j["t_run"])
    # From the first sign of a lost job (the scheduler's queue longer than the jobs
    # waiting, or a job allocated again), back to the last poll without one: what
    # started before then, the scheduler decided with its queue whole.
    again = allocated_again() if loses else {}
    signs = [t for t, n in polls if n > 0] + list(again.values())
    judged_until = None
    if signs:
        judged_until = max((t for t, n in polls if n <= 0 and t < min(signs)),
                           default=float("-inf"))
        since = ("before the forecast" if judged_until == float("-inf") else
                 f"after {judged_until - taken:+.2f} s")
        print(f"LOST {scheduler}: the scheduler lost track of a job it allocated "
              f"(flux-core 0.88, docs/COMPAT.md) {since}, seen at "
              f"{min(signs) - taken:+.2f} s; allocated again: "
              f"{', '.join(f'{k} at {t - taken:+.2f} s' for k, t in again.items()) or 'none'}",
              flush=True)
    # Each job's eventlog (JSON lines): the lags of its end, the dump and a failure's
    # timeline.
    events = {i: e for i, e in why.lookups(h, list(final), "eventlog").items()
              if isinstance(e, str)}
    # Job ends that lagged their limits far beyond an idle instance's: the machine was
    # busy (another test beside this one), and every job of a chain starts later by the
    # lags before it. A miss is then judged against the ends of the jobs it waits for, as
    # they came (LATE).
    lags = release_lags(events)
    busy = bool(lags) and statistics.median(lags) > SLOW_RELEASE
    failures, hits, ties, estimated, estimates_checked, estimates_equal = [], 0, 0, 0, 0, 0
    late = 0
    unjudged = 0
    # Fluxion's plans count whole seconds, and round a moved limit up to the next one.
    near = nearby_forecasts(instance, seed + 2) if not fluxion else []
    # On a busy machine, which of two ends came first was decided by lags up to the
    # run's worst: a job may then wait for other jobs than the forecast's, on other nodes.
    shaken = nearby_forecasts(instance, seed + 3, max(lags)) if busy and not fluxion else []
    names = list(jobspec.Hostlist(",".join(instance.state["R"]["execution"]["nodelist"])))
    for jobid, v in verdicts.items():
        started = starts.get(jobid)
        story = f"{why.f58(jobid)} ({v['verdict']}: {v['summary']})"
        if v["eta"] is not None:
            when = "never" if started is None else f"{started - v['eta']:+.2f} s off"
        if v["eta"] is not None and judged_until is not None and (
                started is None or started >= judged_until):
            unjudged += 1
            print(f"UNJUDGED {scheduler}: {story}: started {when}, after the scheduler "
                  "lost a job", flush=True)
        elif v["eta"] is not None:
            estimated += 1
            if started is not None and abs(started - v["eta"]) <= TOLERANCE:
                hits += 1
            elif started is not None and any(
                    s[jobid]["eta"] is not None and abs(started - s[jobid]["eta"]) <= TOLERANCE
                    for _, s in near):
                ties += 1
                print(f"TIE {scheduler}: {story}: started {started - v['eta']:+.2f} s off, "
                      f"as a forecast with ends up to {RELEASE_SPREAD} s later says",
                      flush=True)
            elif started is not None and busy and (seen := late_start(
                    started, jobid, v, verdicts, instance.state, shaken, events,
                    {names[r] for r in jobspec.IdSet(final[jobid].get("ranks") or "")})):
                late += 1
                moved, sample = seen
                told = "" if sample is None else (
                    f" where a forecast with ends up to {max(lags):.2f} s later puts it "
                    f"({sample['summary']}),")
                print(f"LATE {scheduler}: {story}: started {started - v['eta']:+.2f} s off,"
                      f"{told} {started - moved:+.2f} s from the ends it waits for as they "
                      "came", flush=True)
            else:
                print(f"MISS {scheduler}: {story}: started {when}", flush=True)
            note = annotations.get(jobid, {}).get("annotations", {}).get("sched", {})
            if note.get("t_estimate"):
                estimates_checked += 1
                if abs(note["t_estimate"] - v["eta"]) <= TOLERANCE:
                    estimates_equal += 1
                else:
                    differs = (f"{story}: sched.t_estimate {note['t_estimate']:.1f}, "
                               f"forecast {v['eta']:.1f}")
                    # The scheduler's own estimate does not see a job released by its
                    # dependency meanwhile; the forecast does. Where the job then started
                    # as the forecast said, the scheduler was the one off.
                    right = started is not None and abs(started - v["eta"]) <= TOLERANCE
                    if scheduler in MEASURED_ONLY or right:
                        print(f"MISS {scheduler}: {differs}", flush=True)
                    else:
                        failures.append(differs)
        elif v["verdict"] in ("held", "down", "never") and started is not None:
            failures.append(f"{story}: it started, {started - taken:.1f} s after the forecast")
        elif v["verdict"] == "blocked" and started is not None:
            dep = final.get(ids[plan[ids.index(jobid)]["after"]], {}) \
                if plan[ids.index(jobid)]["after"] is not None else {}
            end = dep.get("t_cleanup") or dep.get("t_inactive")
            if end is None or started < end - TOLERANCE:
                failures.append(f"{story}: it started before its dependency ended")
    for f in failures:
        print(f"FAIL {scheduler}: {f}", flush=True)
    dump = os.environ.get("JOBSPEC_FORECAST_DUMP")
    if dump:  # the state the forecast read, and what happened, for replaying offline
        with open(os.path.join(dump, f"{scheduler}-{seed}.json"), "w", encoding="utf-8") as f:
            json.dump({"state": instance.state, "verdicts": verdicts,
                       "actual": {str(i): {"start": starts.get(i), "ranks": j.get("ranks"),
                                           "cleanup": j.get("t_cleanup"),
                                           "inactive": j.get("t_inactive"),
                                           "eventlog": events.get(i),
                                           "estimates": estimates.get(i)}
                                  for i, j in final.items()}}, f)
    score = (hits + ties + late) / estimated if estimated else 1.0
    counts = {}
    for v in verdicts.values():
        counts[v["verdict"]] = counts.get(v["verdict"], 0) + 1
    tied = "" if fluxion else f" and {ties} ties"
    tied += f" and {late} late as their waits' ends came" if busy else ""
    lost = f" ({unjudged} more after the scheduler lost a job)" if judged_until is not None else ""
    print(f"{scheduler}: seed {seed}: {hits} of {estimated} estimates within {TOLERANCE} s"
          f"{tied} ({100 * score:.0f}%){lost}, {estimates_equal} of {estimates_checked} "
          f"sched.t_estimate equal, {len(failures)} verdicts wrong; "
          f"verdicts {json.dumps(counts, sort_keys=True)}", flush=True)
    required = scheduler not in MEASURED_ONLY
    # Too few estimates to judge the forecast by (a workload mostly held, refused or
    # behind a job that waits for the drained node): a failure, not a pass.
    too_few = required and estimated + unjudged < count // 3
    if too_few:
        print(f"FAIL {scheduler}: only {estimated + unjudged} of {count} jobs have an "
              "estimate", flush=True)
    # Too few judged because the scheduler lost a job early: the workload once more
    # (why_test.py), as nothing was shown either way.
    again_run = (judged_until is not None and not failures and not too_few
                 and estimated < count // 3)
    # A busy run that still misses: once more, in case it was busier still.
    slow = required and score < GOAL and not failures and not too_few and busy
    if slow:
        print(f"SLOW {scheduler}: job ends followed their limits by a median of "
              f"{statistics.median(lags):.2f} s (idle: about 0.03 s; worst "
              f"{max(lags):.2f} s): the machine was busy", flush=True)
        again_run = True
    failed = bool(failures) or too_few or (required and score < GOAL and not again_run)
    if failed:
        # What the broker logged of errors (a scheduler's exception that stopped it), and
        # when each job held which nodes, for a failure in CI to explain itself: a chain
        # of starts late by the same seconds follows one job that held its nodes longer,
        # or two that ended together and came back in the other order (docs/COMPAT.md).
        log = sh("flux", "dmesg", ok=False).stdout.splitlines()
        for line in [l for l in log if ".err" in l or ".crit" in l or "Traceback" in l][-40:]:
            print(f"dmesg {scheduler}: {line[:300]}", flush=True)
        for line in timeline(ids, plan, final, events, taken):
            print(f"held {scheduler}: {line}", flush=True)
        # What the scheduler holds as allocated, against the jobs running: a scheduler
        # that lost track of a job's nodes shows them taken with no job on them.
        for line in sh("flux", "resource", "list", ok=False).stdout.splitlines():
            print(f"resources {scheduler}: {line}", flush=True)
        print(f"load {scheduler}: {' '.join(f'{l:.2f}' for l in os.getloadavg())}", flush=True)
    # A scheduler that stopped: a job with an estimate never started, and at the deadline
    # no job runs, though every estimated job fits the nodes that are up. flux-core 0.88's
    # sched-backfill does so when it allocates a lost job again while that job runs: it
    # then forgets the first allocation's cores, which stay taken (docs/COMPAT.md).
    running = [i for i, j in final.items() if j.get("t_run") and not j.get("t_cleanup")]
    if not running and any(i not in starts for i in waiting):
        print(f"STALLED {scheduler}: jobs with estimates wait, and none runs", flush=True)
    if again_run:
        print(f"AGAIN {scheduler}: " + (
            "its job ends lagged too far to judge the starts by" if slow else
            f"{estimated} of {count} estimates judged before the scheduler lost a job: "
            "too few to judge by"), flush=True)
        return 3
    return 1 if failed else 0


def late_start(started, jobid, verdict, verdicts, state, shaken, events, nodes):
    """A busy run's start judged by the ends as they came: (when it should have started,
    None) by `after_ends` of the forecast, else (that time, the verdict) by the first of
    the `shaken` forecasts that puts the job on `nodes`, the names of the nodes it got,
    within TOLERANCE; None if neither does."""
    moved = after_ends(verdict, verdicts, state, events)
    if abs(started - moved) <= TOLERANCE:
        return moved, None
    for other, sample in shaken:
        v = sample[jobid]
        if v["eta"] is None or v["nodes"] is None or \
                set(jobspec.Hostlist(v["nodes"])) != nodes:
            continue
        moved = after_ends(v, sample, other, events)
        if abs(started - moved) <= TOLERANCE:
            return moved, v
    return None


def after_ends(verdict, verdicts, state, events):
    """When `verdict`'s job should have started, given when the jobs it waits for
    (`after`) really ended: its estimate, later by the most any of them ended after the
    forecast's end for it (for a running job its expiration, for a pending one its
    estimate and time limit). Its estimate if none of them is known to have ended."""
    planned = {job["id"]: job["expiration"] for job in state["running"]
               if job.get("expiration")}
    for job in state["pending"]:
        eta = verdicts.get(job["id"], {}).get("eta")
        system = (job.get("jobspec") or {}).get("attributes", {}).get("system", {})
        duration = system.get("duration")
        if eta is not None and duration:
            planned[job["id"]] = eta + duration
    shifts = []
    for name in verdict.get("after", []):
        jobid = flux.job.JobID(name)
        released = last_event(events.get(jobid, ""), "release")
        if jobid in planned and released is not None:
            shifts.append(released - planned[jobid])
    return verdict["eta"] + max(shifts, default=0.0)


def event_times(log):
    """Each event's name in an eventlog (JSON lines) to the times it was posted, in order."""
    times = {}
    for event in map(json.loads, log.splitlines()):
        times.setdefault(event["name"], []).append(event["timestamp"])
    return times


def last_event(log, name):
    """The time of the last event `name` in an eventlog, or None."""
    return event_times(log).get(name, [None])[-1]


def release_lags(events):
    """For each job with a time-limit exception and a release: the seconds between."""
    lags = []
    for log in events.values():
        when = event_times(log)
        if "exception" in when and "release" in when:
            lags.append(when["release"][0] - when["exception"][0])
    return lags


def timeline(ids, plan, final, events, taken):
    """Each job that was allocated, in the order of its allocation: its limit, its nodes,
    and its events' times from the forecast's moment."""
    rows = []
    for jobid, job in zip(ids, plan):
        log = events.get(jobid)
        if log is None:
            continue
        when = {name: times[0] for name, times in event_times(log).items()}
        if "alloc" in when:
            times = ", ".join(f"{name} {when[name] - taken:+.2f}" for name in
                              ("alloc", "exception", "finish", "release") if name in when)
            rows.append((when["alloc"], f"{why.f58(jobid)} (limit {job['options']['time_limit']}"
                                        f", ranks {final[jobid].get('ranks')}): {times} s"))
    return [row for _, row in sorted(rows)]


if __name__ == "__main__":
    sys.exit(main())
