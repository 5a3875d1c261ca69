#!/usr/bin/env python3
"""The jobtap plugin and `flux jobspec why` under a hostile user, in a real instance
(issue 57; docs/FLUX.md, "Why isn't my job running?").

usage: hostile_test.py FLUX JOBTAP-PLUGIN PYTHON-BUILD-DIR
       (inside an instance: flux python hostile_test.py --inside JOBTAP-PLUGIN)

A `flux start --test-size=1` instance whose R has 256 nodes (node[0-255], 4 cores each;
only rank 0 has a broker, so the others are offline), sched-simple, the fast setup
(docs/FLUX.md: the ingest validator off, the jobtap plugin loaded with its reasons on).
Another user (user id 4242, its jobs signed as flux-core's "none" mechanism signs them,
which an instance owner's connection may submit) then:

  - queues 150 "stall" jobs behind a head job that waits for offline nodes: each a slot
    of 250 sibling node vertices (stall()), jobspec's costliest placement found. `flux
    ping job-manager` must stay under 50 ms at its 99th percentile while the plugin
    forecasts, and a third user's submissions must take at most 10% longer with the
    plugin's reasons on than with them off, the same jobs pending (each round's median of
    100; 6 rounds, each measuring both, in turn one first: the geometric mean of the
    median ratio of each order, as the VM drifts and stalls, and an instance slows as
    jobs pile up; a round in which the machine spent more than a quarter of a core
    outside the instance is measured again, up to 6 times: FOREIGN_CORES);
  - submits 20 of them with never=true: the same two limits;
  - submits jobs whose constraint properties hold terminal escapes (ESC, OSC, CR,
    U+202E): `flux jobspec why -A` must print none of them raw;
  - holds 1,001 jobs with reason-depth=1000: the reasons of the jobs the scheduler
    considers must stay current (a node drained changes them); with reason-depth=3 and
    exactly 3 jobs considered, each still gets its reason;
  - with reason-share=1, queues 4,000 jobs behind the head and changes one every 0.1 s:
    the forecasts must take at most about 1% of the job manager's time (the plugin's own
    count, `flux jobtap query`), not a run every quarter second;
  - queues 10,000 jobs with 8 KB jobspecs in a stopped queue: `flux jobspec why -A`
    must complete and say something of each; then with the queue started, each must
    wait behind the head, as the jobtap plugin answers (reason-depth=20000) and as why
    reads the instance itself (--read-instance): the times of each are printed.

Prints each figure measured. JOBSPEC_HOSTILE_CASES=escape,held,stall,stall-never,rest,many (or
some of them) runs those only. Skipped (77) without flux, unless JOBSPEC_REQUIRE_FLUX is set.
"""
import base64
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

NODES = 256
OTHER = 4242  # the hostile user
THIRD = 4343  # a user whose submissions must not slow down
PING_P99_MS = 50.0
#: Issue 57's goal: another user's submissions at most 10% slower with the plugin's
#: reasons on than off, the same jobs pending. Measured as the median of each round's 100
#: submissions, a round's ratio ranges 0.99-1.21 on this VM (2026-11-29); the total of the
#: 100, as measured before, ranged 0.73-1.63 with nothing changed.
SLOWDOWN = 1.10
#: The most of one core the machine may spend outside the instance during a round of the
#: slowdown measure (other processes, the hypervisor's steal); a busier round is measured
#: again, at most EXTRA_ROUNDS times. With the machine's two cores busy elsewhere, the
#: plugin's work, which runs beside the submissions on an idle machine, comes in their way:
#: with never=true the ratio measured 1.12 beside two busy loops against 1.00-1.02 idle
#: (2026-11-30). CI's 1.26 (rounds measuring the reasons second 1.23-1.75) is not explained
#: by this alone: a cost growing with the jobs pending was found and removed since (the
#: forecast written as JSON at the end of every run): see docs/PERFORMANCE.md.
FOREIGN_CORES = 0.25
EXTRA_ROUNDS = 6

FAILURES = []


def check(ok, what, detail=""):
    print(("ok   " if ok else "FAIL ") + what + (f"\n     {detail}" if not ok and detail else ""),
          flush=True)
    if not ok:
        FAILURES.append(what)


def sh(*args, ok=True, timeout=300, env=None):
    p = subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=env)
    if ok and p.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: rc {p.returncode}: {p.stderr}")
    return p


def config(jobtap, options=""):
    return f"""
[resource]
noverify = true
[[resource.config]]
hosts = "node[0-{NODES - 1}]"
cores = "0-3"

[queues.batch]
[queues.parked]

[policy.jobspec.defaults.system]
queue = "batch"

[ingest]
batch-count = 1
[ingest.validator]
disable = true

[job-manager]
plugins = [ {{ load = "{jobtap}"{options} }} ]
"""


# -- jobs --------------------------------------------------------------------------------

def jobspec(resources, command=("true",), duration=60, system=None):
    attrs = {"duration": duration, "cwd": "/tmp", "queue": "batch"}
    attrs.update(system or {})
    return {"version": 1, "resources": resources,
            "tasks": [{"command": list(command), "slot": "task", "count": {"per_slot": 1}}],
            "attributes": {"system": attrs}}


def small(**system):
    return jobspec([{"type": "slot", "count": 1, "label": "task",
                     "with": [{"type": "core", "count": 1}]}], system=system)


def two_nodes(**system):
    """A job of two nodes: with one broker, it waits for the offline ranks for ever."""
    return jobspec([{"type": "node", "count": 2, "with": [
        {"type": "slot", "count": 1, "label": "task", "with": [{"type": "core", "count": 1}]}]}],
        system=system)


def stall():
    """A slot of 250 sibling node vertices of one node each: jobspec's costliest placement
    of those found (tenths of a second before the step budget and the node assignment's
    flow were reworked, 23 ms now unbounded; flux-core takes only integer counts)."""
    nodes = [{"type": "node", "count": 1,
              "with": [{"type": "core", "count": 1}]} for i in range(250)]
    return jobspec([{"type": "slot", "count": 1, "label": "task", "with": nodes}])


def signed(userid, spec):
    """J as flux-core's "none" mechanism signs it, for `userid` (RFC 42's header)."""
    header = f"version\0i1\0userid\0i{userid}\0mechanism\0snone\0".encode()
    payload = json.dumps(spec).encode()
    return (base64.b64encode(header).decode() + "." + base64.b64encode(payload).decode()
            + ".none")


class User:
    """A connection as another user (an instance owner may take another identity)."""

    def __init__(self, userid):
        import flux
        self.userid = userid
        os.environ["FLUX_HANDLE_USERID"] = str(userid)
        # FLUX_ROLE_OWNER | FLUX_ROLE_USER: job-ingest takes the "none" signature only
        # from a connection with the owner's role; the job is still the userid's.
        os.environ["FLUX_HANDLE_ROLEMASK"] = "0x3"
        try:
            self.h = flux.Flux()
        finally:
            del os.environ["FLUX_HANDLE_USERID"]
            del os.environ["FLUX_HANDLE_ROLEMASK"]

    def submit_async(self, spec, urgency=16):
        return self.h.rpc("job-ingest.submit",
                          {"J": signed(self.userid, spec), "flags": 0, "urgency": urgency})

    def submit(self, spec, urgency=16):
        """The new job's id."""
        return self.submit_async(spec, urgency).get()["id"]

    def submit_many(self, specs, urgency=16, window=256):
        """Submits them all, at most `window` at once; their ids."""
        ids, pending = [], []
        for spec in specs:
            pending.append(self.submit_async(spec, urgency))
            if len(pending) >= window:
                ids.append(pending.pop(0).get()["id"])
        ids += [f.get()["id"] for f in pending]
        return ids


def owner():
    import flux
    return flux.Flux()


# -- measures ----------------------------------------------------------------------------

def ping_p99(h, seconds):
    """`flux ping job-manager`'s round trips for `seconds`, one every 10 ms: the 99th
    percentile and the worst, in ms."""
    times = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        t = time.monotonic()
        h.rpc("job-manager.ping", {"seq": len(times), "pad": ""}).get()
        times.append((time.monotonic() - t) * 1000)
        time.sleep(0.01)
    times.sort()
    return times[int(len(times) * 0.99) - 1], times[-1], len(times)


def broker_pid():
    """The instance's broker: the nearest flux-broker among this process's ancestors."""
    pid = os.getpid()
    while pid > 1:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as f:
            text = f.read()
        if text[text.index("(") + 1:text.rindex(")")].startswith("flux-broker"):
            return pid
        pid = int(text[text.rindex(")") + 2:].split()[1])
    return None


def cpu_seconds(broker):
    """(seconds the machine's CPUs were busy, seconds of them spent by the broker and the
    processes below it, their reaped children included), so far."""
    ticks = os.sysconf("SC_CLK_TCK")
    with open("/proc/stat", encoding="utf-8") as f:
        user, nice, system, _, _, irq, softirq, steal = map(int, f.readline().split()[1:9])
    parents, spent = {}, {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue  # it exited meanwhile
        parents[int(entry)] = int(fields[1])
        spent[int(entry)] = sum(int(x) for x in fields[11:15])
    own = 0
    for pid, ticks_spent in spent.items():
        p = pid
        while p > 1 and p != broker:
            p = parents.get(p, 0)
        if p == broker:
            own += ticks_spent
    return (user + nice + system + irq + softirq + steal) / ticks, own / ticks


def submissions(user, count=100):
    """The median seconds of `count` submissions one after another, and their ids: a
    median, as a VM's hiccup in one of them says nothing of the job manager."""
    took, ids = [], []
    for _ in range(count):
        t = time.monotonic()
        ids.append(user.submit(small()))
        took.append(time.monotonic() - t)
    return statistics.median(took), ids


def cancel(h, ids, window=256):
    """Cancels them (one already inactive is left alone), at most `window` requests in
    flight: this process's reactor (libev) fails an assertion with a few thousand futures
    outstanding (4,001 on 2026-12-02)."""
    import flux.job
    pending = []

    def finish(future):
        try:
            future.get()
        except OSError:
            pass

    for jobid in ids:
        pending.append(flux.job.cancel_async(h, jobid))
        if len(pending) >= window:
            finish(pending.pop(0))
    for future in pending:
        finish(future)


def purge():
    """The inactive jobs purged, once they are all inactive."""
    time.sleep(0.5)
    sh("flux", "job", "purge", "--force", "--num-limit=0", ok=False)


def reload(jobtap, *options):
    sh("flux", "jobtap", "load", f"--remove={os.path.basename(jobtap)}", jobtap, *options)


def reasons():
    p = sh("flux", "jobs", "-a", "-no", "{id} {user.jobspec_reason}")
    return dict((line.split(" ", 1) + [""])[:2] for line in p.stdout.splitlines())


# -- the cases ---------------------------------------------------------------------------

def stall_case(h, jobtap, never):
    """150 (or with never=true, 20) stall jobs from OTHER behind a blocked head."""
    label = "never=true" if never else "reasons on"
    on = ["never=true"] if never else []
    reload(jobtap, *on)
    other, third = User(OTHER), User(THIRD)
    head = owner_submit(h, two_nodes())
    count = 20 if never else 150
    rounds, base, loaded, pings = 6, [], [], []
    broker, foreign, extra = broker_pid(), [], 0

    def without_reasons():
        # The same jobs pending, the plugin's reasons off: what the plugin costs, apart
        # from what flux-core's own work costs with these jobs pending.
        reload(jobtap, *on, "reasons=false")
        took, ids = submissions(third)
        base.append(took)
        reload(jobtap, *on)
        return ids

    n = 0
    while n < rounds:
        # In turn without the reasons first and second (ABAB): an instance slows as jobs
        # pile up, which would count against whichever came second.
        kept = len(base), len(loaded), len(pings)
        began, (machine, own) = time.monotonic(), cpu_seconds(broker)
        t = time.monotonic()
        stalls = [other.submit(stall()) for _ in range(count)]
        rate = count / (time.monotonic() - t)
        ids = without_reasons() if n % 2 == 1 else []
        pings.append(ping_p99(h, 3))
        took, mine = submissions(third)
        loaded.append(took)
        ids += mine
        if n % 2 == 0:
            ids += without_reasons()
        cancel(h, ids + stalls)
        purge()
        # The cores the machine spent outside the instance meanwhile: a busy round is
        # measured again (FOREIGN_CORES).
        machine_now, own_now = cpu_seconds(broker)
        cores = max(0.0, (machine_now - machine) - (own_now - own)) / (time.monotonic() - began)
        if cores > FOREIGN_CORES and extra < EXTRA_ROUNDS:
            extra += 1
            del base[kept[0]:], loaded[kept[1]:], pings[kept[2]:]
            print(f"     {label}: round {n + 1} again: {cores:.2f} cores busy outside the "
                  "instance", flush=True)
            continue
        foreign.append(cores)
        n += 1
    p99 = max(p[0] for p in pings)
    worst = max(p[1] for p in pings)
    print(f"     {label}: {count} stall jobs at {rate:.0f} jobs/s; ping job-manager p99 "
          f"{p99:.1f} ms (worst {worst:.1f} ms, {sum(p[2] for p in pings)} pings); a third "
          f"user's submission {1000 * statistics.median(base):.1f} ms with the plugin's "
          f"reasons off, {1000 * statistics.median(loaded):.1f} ms on (medians of "
          f"{rounds} rounds of 100)", flush=True)
    check(p99 < PING_P99_MS, f"{label}: flux ping job-manager under {PING_P99_MS:.0f} ms at "
          f"p99 with {count} stall jobs", f"p99 {p99:.1f} ms")
    # Each round's two measures are next to each other in time, in turn one first and the
    # other. The median of the rounds with the reasons measured first, and of those with
    # them second, each leaves out a round the VM stalled in (CI saw one at 1.60 among five
    # at 1.00-1.06); the geometric mean of the two leaves out whichever comes second.
    ratios = [b / a for a, b in zip(base, loaded)]
    ratio = statistics.geometric_mean(
        [statistics.median(ratios[0::2]), statistics.median(ratios[1::2])])
    print(f"     {label}: the rounds' ratios {', '.join(f'{r:.2f}' for r in ratios)}; "
          f"each order's median, their geometric mean {ratio:.3f}; cores busy outside the "
          f"instance {', '.join(f'{c:.2f}' for c in foreign)} ({extra} rounds again)",
          flush=True)
    check(ratio <= SLOWDOWN,
          f"{label}: another user's submissions no more than {SLOWDOWN - 1:.0%} slower "
          "with the plugin's reasons on than off", f"ratio {ratio:.3f}")
    cancel(h, [head])
    if never:
        reload(jobtap)


def owner_submit(h, spec, urgency=16):
    import flux.job
    return flux.job.submit(h, json.dumps(spec), urgency=urgency)


def escape_case(h):
    """Terminal escapes in another user's job reach no terminal raw."""
    other = User(OTHER)
    # Behind a head that waits for offline nodes, sched-simple keeps them pending; each can
    # never run, so why explains it, with its constraint on a caret line.
    head = owner_submit(h, two_nodes())
    payloads = ["\x1b[2J", "\x1b]0;owned\x07", "a\rnext in line", "\u202eevil", "x\x9by"]
    ids = [other.submit(small(constraints={"properties": [p]})) for p in payloads]
    ids.append(other.submit(small(constraints={"properties": ["ok"]}), urgency=0))
    p = sh("flux", "jobspec", "why", "-A", ok=False)
    out = p.stdout + p.stderr
    bad = [c for c in ("\x1b", "\r", "\x9b", "\u202e", "\x07") if c in out]
    check(p.returncode in (0, 1) and not bad and all(flux_id(h, j) in out for j in ids),
          "escape payloads in another user's jobs: why -A prints none of them raw",
          f"rc {p.returncode}, raw {bad!r}: {out[-2000:]!r}")
    j = sh("flux", "jobspec", "why", "-A", "--json", ok=False)
    text = json.loads(j.stdout)
    located = {loc["text"] for x in text["jobs"] for loc in x.get("located") or []}
    # Exact in the --requires query each job is located in, where a query can hold it: the
    # query language refuses ESC (query.unwritable), and those jobs are not located there.
    held = [p for p in payloads if "\x1b" not in p]
    check(all(any(p in t for t in located) for p in held)
          and not any("\x1b" in t for t in located),
          "why -A --json keeps another user's text exact", repr(located))
    cancel(h, ids + [head])


def flux_id(h, jobid):
    import flux.job
    return flux.job.JobID(jobid).f58


def held_case(h, jobtap):
    """1,001 held jobs of another user do not turn the others' reasons off."""
    reload(jobtap, "reason-depth=1000")
    other = User(OTHER)
    held = other.submit_many([small() for _ in range(1001)], urgency=0)
    head = owner_submit(h, two_nodes())
    mine = owner_submit(h, small(constraints={"ranks": ["0"]}))
    flux_head = flux_id(h, head)
    got = wait_reason(flux_id(h, mine), "waits behind " + flux_head)
    check(got.startswith("waits behind " + flux_head),
          "1,001 held jobs: the others still get their reasons", got)
    # Exactly reason-depth jobs waiting still get reasons: the depth is a most. A job
    # submitted after the reload, so that no earlier annotation can stand for its reason.
    reload(jobtap, "reason-depth=3")
    third = owner_submit(h, small(constraints={"ranks": ["0"]}))
    got = wait_reason(flux_id(h, third), "waits behind " + flux_head)
    check(got.startswith("waits behind " + flux_head),
          "exactly reason-depth (3) jobs waiting: each still gets its reason", got)
    sh("flux", "resource", "drain", "0", "hostile test")
    got = wait_reason(flux_id(h, head), "waits for drained node0")
    check("drained" in got, "1,001 held jobs: a reason follows a drain", got)
    sh("flux", "resource", "undrain", "0")
    cancel(h, held + [head, mine, third])
    reload(jobtap)


def wait_reason(fid, text, seconds=30):
    end = time.monotonic() + seconds
    got = ""
    while time.monotonic() < end:
        got = reasons().get(fid, "")
        if text in got:
            break
        time.sleep(0.2)
    return got


def plugin_cost():
    """The jobtap plugin's forecasts so far: (runs, seconds of the job manager's time)."""
    cost = json.loads(sh("flux", "jobtap", "query", "jobspec.so").stdout)["jobspec"]["cost"]
    return cost["runs"], cost["seconds"]


def rest_case(h, jobtap):
    """With reason-share=1 and a change every 0.1 s, the forecasts of 4,000 pending jobs
    take about 1% of the job manager's time: each run is followed by a rest of 99 times
    what it took, not only the quarter second after a change."""
    reload(jobtap, "reason-share=1")
    head = owner_submit(h, two_nodes())
    t = time.monotonic()
    ids = User(OTHER).submit_many([small() for _ in range(4000)])
    submitted = time.monotonic() - t
    # Once the last change is forecast: a run after the last submission, and no other.
    runs, seconds = plugin_cost()
    while True:
        time.sleep(1)
        before = runs
        runs, seconds = plugin_cost()
        if runs == before:
            break
    began, urgency = time.monotonic(), 15
    while time.monotonic() < began + 8:
        h.rpc("job-manager.urgency", {"id": ids[-1], "urgency": urgency}).get()
        urgency = 31 - urgency
        time.sleep(0.1)
    runs_after, seconds_after = plugin_cost()
    wall = time.monotonic() - began
    share = (seconds_after - seconds) / wall
    each = (seconds_after - seconds) / max(1, runs_after - runs)
    print(f"     reason-share=1, 4,000 jobs submitted in {submitted:.1f} s, a change every "
          f"0.1 s for {wall:.1f} s: "
          f"{runs_after - runs} forecasts of {each * 1000:.1f} ms each, {share:.2%} of the "
          "job manager's time", flush=True)
    # Without the rest, one run every quarter second: at least t / (t + 0.25), which is
    # 4% and more at this machine's 10-16 ms for 4,000 jobs. A run under way as the
    # window opens or closes adds at most t / 8 s.
    check(each >= 0.005 and share <= 0.02,
          "reason-share=1: the forecasts take at most about 1% of the job manager's time",
          f"{runs_after - runs} runs of {each * 1000:.1f} ms, {share:.2%}")
    cancel(h, ids + [head])
    purge()
    reload(jobtap)


def many_case(h, jobtap):
    """10,000 pending jobs with 8 KB jobspecs: why -A completes, with them in a stopped
    queue, and again with them all considered, behind a head that waits for ever: answered
    by the jobtap plugin (reason-depth above the 10,001 jobs), and reading the instance."""
    reload(jobtap, "reason-depth=20000")
    sh("flux", "queue", "stop", "parked", "--message=parked by the test")
    head = owner_submit(h, two_nodes(queue="parked"))
    other = User(OTHER)
    pad = "x" * 8000
    t = time.monotonic()
    ids = other.submit_many([small(queue="parked", pad=pad) for _ in range(10000)])
    submitted = time.monotonic() - t
    t = time.monotonic()
    p = sh("flux", "jobspec", "why", "-A", "--json", ok=False, timeout=600)
    took = time.monotonic() - t
    answered = {}
    try:
        answered = {j["id"]: j for j in json.loads(p.stdout)["jobs"]}
    except ValueError:
        pass
    blocked = sum(1 for j in answered.values() if j["verdict"] == "blocked")
    print(f"     10,000 jobs of 8 KB submitted in {submitted:.1f} s; why -A --json "
          f"in {took:.1f} s, {len(answered)} answered", flush=True)
    check(p.returncode in (0, 1) and blocked == len(ids) + 1,
          "10,000 pending jobs of 8 KB: why -A completes, each blocked by its stopped queue",
          f"rc {p.returncode}, {len(answered)} answered, {blocked} blocked: {p.stderr[-500:]}")
    # The queue started: every job is considered. The plugin forecasts them (the first
    # answer waits for its run); read here, every jobspec is asked of the job manager.
    sh("flux", "queue", "start", "parked")
    for how, args in (("the plugin's forecast, just made", []),
                      ("the plugin's forecast, made before", []),
                      ("the instance read here", ["--read-instance"])):
        t = time.monotonic()
        p = sh("flux", "jobspec", "why", "-A", "--json", *args, ok=False, timeout=600)
        took = time.monotonic() - t
        try:
            answered = {j["id"]: j for j in json.loads(p.stdout)["jobs"]}
        except ValueError:
            answered = {}
        # Each waits behind the head, which waits for the offline nodes.
        behind = sum(1 for j in answered.values()
                     if j["verdict"] == "down" and len(j.get("waits_behind") or []) == 1)
        print(f"     the queue started, {how}: why -A --json in {took:.1f} s, "
              f"{len(answered)} answered, {behind} waiting behind the head", flush=True)
        check(p.returncode in (0, 1) and behind == 10000,
              f"10,000 pending jobs of 8 KB considered, {how}: why -A completes, each "
              "behind the head",
              f"rc {p.returncode}, {len(answered)} answered, {behind} behind: {p.stderr[-500:]}")
    import flux.job
    for jobid in ids + [head]:
        flux.job.cancel_async(h, jobid)


def inside(jobtap):
    h = owner()
    sh("flux", "queue", "start", "--all")
    cases = {"escape": lambda: escape_case(h), "held": lambda: held_case(h, jobtap),
             "stall": lambda: stall_case(h, jobtap, never=False),
             "stall-never": lambda: stall_case(h, jobtap, never=True),
             "rest": lambda: rest_case(h, jobtap), "many": lambda: many_case(h, jobtap)}
    only = os.environ.get("JOBSPEC_HOSTILE_CASES")
    for name, case in cases.items():
        if not only or name in only.split(","):
            case()
    return 1 if FAILURES else 0


def outside():
    flux, jobtap, python_dir = sys.argv[1:4]
    jobtap = os.path.abspath(jobtap) if jobtap else ""
    if not flux or not os.access(flux, os.X_OK) or not jobtap:
        print("flux-core was not found: skipped")
        return 1 if os.environ.get("JOBSPEC_REQUIRE_FLUX") else 77
    env = dict(os.environ)
    env["PYTHONPATH"] = python_dir + os.pathsep + env.get("PYTHONPATH", "")
    env["FLUX_EXEC_PATH"] = os.path.join(python_dir, "jobspec", "flux", "cmd")
    env["PATH"] = os.path.dirname(flux) + os.pathsep + env["PATH"]
    with tempfile.TemporaryDirectory(prefix="jobspec-hostile-") as directory:
        with open(os.path.join(directory, "site.toml"), "w", encoding="utf-8") as f:
            f.write(config(jobtap))
        p = subprocess.run([flux, "start", "--test-size=1", f"-o,--config-path={directory}",
                            "flux", "python", os.path.abspath(__file__), "--inside", jobtap],
                           env=env, capture_output=True, text=True, timeout=1500)
        print(p.stdout, end="")
        if p.returncode != 0:
            print(p.stderr[-3000:])
        return p.returncode


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--inside":
        sys.exit(inside(sys.argv[2]))
    sys.exit(outside())
