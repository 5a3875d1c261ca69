"""Why is a job not running, and when will it start? The forecast of a live Flux instance.

`flux jobspec why [JOBID...]` (cmd/flux-jobspec.py) and the validator's --jobspec-never
(read_resources, never) are built on this module. It reads what the scheduler sees, once
for all jobs (read_instance): R with what is down and drained, the queues, which
scheduler is loaded and how, every pending job with its jobspec and every running job
with its R and expiration. Then jobspec.forecast runs the scheduler forward by its own
order and rules (docs/SCHEDULERS.md), the library's one implementation, which the jobtap
plugin's reasons in `flux jobs` come from too. The verdicts:

  held          urgency 0 (or priority 0), or waiting for its priority
  blocked       an unmet dependency, or its queue is stopped
  next          the scheduler's next pass starts it
  waiting       it starts later: its estimated start, on which nodes, after which jobs
                end and behind which job; or no estimate, with why (a job it waits for has
                no time limit, or it waits behind a job that never starts)
  down          it needs down or drained nodes, or waits behind a job that does
  never         it can never run on this instance: jobspec's explanation, located in the
                jobspec, and the nodes that come closest
  unknown       jobspec cannot judge it (its jobspec cannot be read, its placement is
                over budget, or the scheduler's order is not known)

See docs/FLUX.md ("Why isn't my job running?").
"""
import collections
import errno
import json
import os
import time
import warnings

import jobspec

#: Job states (RFC 21) as job-list's masks, and their names.
NEW, DEPEND, PRIORITY, SCHED, RUN, CLEANUP, INACTIVE = 1, 2, 4, 8, 16, 32, 64
PENDING = DEPEND | PRIORITY | SCHED
STATE_NAMES = {NEW: "new", DEPEND: "depend", PRIORITY: "priority", SCHED: "sched",
               RUN: "run", CLEANUP: "cleanup", INACTIVE: "inactive"}

_PENDING_ATTRS = ["userid", "urgency", "priority", "state", "queue", "dependencies", "t_submit"]
_RUNNING_ATTRS = ["expiration"]
_CURRENT = 0x2  # FLUX_JOB_LOOKUP_CURRENT: the jobspec with its updates applied
_STREAMING = 0x2  # FLUX_RPC_STREAMING
#: The jobtap plugin's service (plugins/pending_reasons.h).
FORECAST_TOPIC = "job-manager.jobspec.forecast"
#: The most job-info lookups in flight at once: what this process and job-info hold is
#: bounded, whatever the number of jobs. Thousands of futures outstanding can fail an
#: assertion in this process's reactor (libev's epoll_modify: 4,001 cancel_async in
#: flux-hostile, 2026-12-02), though 10,000 lookups at once passed its many case.
PACE = 256
_SCHEDULERS = ("sched-simple", "sched-fifo", "sched-backfill", "sched-fluxion-qmanager")


class Instance:
    """What the scheduler of a running instance sees, read once: the forecast's input
    (`state`, docs/FORMATS.md), each pending job's owner, and each jobspec looked up or
    the error of its request."""

    def __init__(self, state, owners, jobspecs):
        self.state = state
        #: "fluxion" when Fluxion schedules, which reads jobspecs in its dialect.
        self.dialect = "fluxion" if state["scheduler"]["name"].startswith(
            "sched-fluxion") else "rfc"
        self.owners = owners
        self.jobspecs = jobspecs


def _paced(ids, ask, pace):
    """id -> the payload of the request `ask(id)` sends, or its OSError. At most `pace`
    requests are in flight."""
    out, inflight = {}, collections.deque()

    def finish():
        done, future = inflight.popleft()
        try:
            out[done] = future.get()
        except OSError as e:
            out[done] = e

    for i in ids:
        if len(inflight) >= pace:
            finish()
        inflight.append((i, ask(i)))
    while inflight:
        finish()
    return out


def lookups(handle, ids, key, pace=PACE):
    """id -> `key` of each job as job-info holds it (an eventlog: its lines), as JSON
    text, or the OSError of its lookup."""
    got = _paced(ids, lambda i: handle.rpc("job-info.lookup",
                                           {"id": i, "keys": [key], "flags": _CURRENT}), pace)
    return {i: v if isinstance(v, OSError) else v[key] if isinstance(v[key], str)
            else json.dumps(v[key]) for i, v in got.items()}


def held(handle, ids, key, pace=PACE):
    """id -> `key` of each active job as the job manager holds it in memory, decoded, or
    the OSError of the request: "jobspec" as the scheduler is given it (its updates
    applied, its environment left out), "R" with its updates. Three times as many a
    second as job-info's lookups, which read the KVS (docs/PERFORMANCE.md)."""
    got = _paced(ids, lambda i: handle.rpc("job-manager.getattr",
                                           {"id": i, "attrs": [key]}), pace)
    return {i: v if isinstance(v, OSError) else v.get(key) for i, v in got.items()}


def _job_list(handle, states, attrs):
    """The request for every user's jobs in `states`: jobs(future) waits for them. Asked
    without streaming, job-list answers in one message, where flux.job.job_list streams a
    message per job (10,000 jobs: 1.7 s of the Python bindings' time)."""
    return handle.rpc("job-list.list", {"max_entries": 0, "attrs": attrs, "since": 0.0,
                                        "constraint": {"and": [{"states": [states]}]}})


def jobs(future):
    """The jobs of a _job_list request."""
    return future.get()["jobs"]


def _scheduler(handle, modules):
    """The scheduler as the forecast's state names it: the loaded module (and Fluxion's
    params, asked of qmanager)."""
    names = [m.get("name", "") for m in modules]
    name = next((n for n in _SCHEDULERS if n in names),
                next((n for n in names if n.startswith("sched-")), "none"))
    scheduler = {"name": name}
    if name == "sched-fluxion-qmanager":
        try:
            scheduler["fluxion"] = handle.rpc("sched-fluxion-qmanager.params").get()
        except OSError:
            pass  # its defaults
    return scheduler


def read_instance(handle, pace=PACE):
    """The Instance of the running instance `handle` is connected to. The instance-wide
    requests are all sent before any answer is waited for; the jobs' lookups are paced."""
    sched = handle.rpc("resource.sched-status", nodeid=0)
    status = handle.rpc("resource.status", nodeid=0)
    config = handle.rpc("config.get", {})
    queue_list = handle.rpc("job-manager.queue-list", {})
    modules = handle.rpc("module.list")
    pending = _job_list(handle, PENDING, _PENDING_ATTRS)
    running = _job_list(handle, RUN | CLEANUP, _RUNNING_ATTRS)
    # Without queues configured, the one anonymous queue ("").
    names = queue_list.get().get("queues", []) or [""]
    statuses = {name: handle.rpc("job-manager.queue-status", {"name": name} if name else {})
                for name in names}
    queues = {name: future.get() for name, future in statuses.items()}
    sched, status = sched.get(), status.get()
    pending, running = jobs(pending), jobs(running)
    # A held job, or one in a stopped queue, is judged without its jobspec: it is not
    # looked up. One waiting for a dependency is, as the forecast may see it released.
    stopped = {name for name, q in queues.items() if not q.get("start", True)}
    wanted = [j for j in pending
              if (j["state"] == DEPEND or (j["state"] == SCHED and j.get("priority", 0) > 0))
              and j.get("urgency", 16) > 0 and (j.get("queue") or "") not in stopped]
    jobspecs = held(handle, (j["id"] for j in wanted), "jobspec", pace)
    allocated = held(handle, (j["id"] for j in running), "R", pace)
    now = time.time()
    down = jobspec.ResourceSet(sched["down"]).ranks
    state = {
        "now": now, "R": sched["all"], "down": str(down), "drained": status.get("drain", {}),
        "scheduler": _scheduler(handle, modules.get().get("mods", [])),
        "queues": {name: {"start": q.get("start", True),
                          "stop_reason": "no scheduler is loaded"
                          if q.get("blocked") == "scheduler" else q.get("stop_reason", "")}
                   for name, q in queues.items()},
        "config": config.get(),
        "running": [{"id": j["id"], "R": allocated[j["id"]],
                     "expiration": j.get("expiration", 0) or 0}
                    for j in running if isinstance(allocated.get(j["id"]), dict)],
        "pending": [{"id": j["id"], "state": j["state"], "priority": j.get("priority", 0),
                     "urgency": j.get("urgency", 16), "t_submit": j.get("t_submit", 0),
                     "queue": j.get("queue") or "", "dependencies": j.get("dependencies", []),
                     "jobspec": _a_dict(jobspecs.get(j["id"]))}
                    for j in pending],
    }
    return Instance(state, {j["id"]: j.get("userid") for j in pending}, jobspecs)


def _a_dict(value):
    """A jobspec looked up, when it is one (a JSON object); else None."""
    return value if isinstance(value, dict) else None


def forecast(instance, dialect=None):
    """Each pending job's verdict (a dict, in the order the instance lists them), from
    the library's forecast, with for a job that can never run the places in its jobspec
    that fail (`located`) and the nodes that come closest (`closest`)."""
    result = jobspec.forecast(instance.state, dialect=dialect or instance.dialect,
                              ascii_ids=_ascii_ids())
    out = []
    for job, verdict in zip(instance.state["pending"], result["jobs"]):
        looked_up = instance.jobspecs.get(job["id"])
        if isinstance(looked_up, OSError):
            verdict = {**verdict, "verdict": "unknown",
                       "summary": f"its jobspec cannot be read: {looked_up}"}
        elif verdict["verdict"] == "never" and job["jobspec"] is not None:
            verdict = _explained(verdict, job["jobspec"], instance.state["R"],
                                 dialect or instance.dialect)
        out.append(verdict)
    return out


def _explained(verdict, document, r, dialect):
    """A `never` verdict with the places in its jobspec `document` that fail (`located`)
    and the nodes of R `r` that come closest (`closest`)."""
    return {**verdict, "located": _located(document, verdict["diagnostics"], dialect),
            "closest": _closest(document, r)}


def from_plugin(handle):
    """The jobtap plugin's forecast, where it is loaded with its reasons on: one request
    where reading the instance asks for each job's jobspec (docs/FLUX.md). Returns
    ([(job id, verdict as forecast() gives it)...], {job id: its owner's userid}), or
    None when the plugin gives none (not loaded, reasons off, more jobs than its
    reason-depth): the caller then reads the instance itself. The forecast is of the
    instance as it was when asked, or later; another user's job comes without its
    diagnostics."""
    try:
        rpc = handle.rpc(FORECAST_TOPIC, {"ascii_ids": _ascii_ids()}, flags=_STREAMING)
        head = rpc.get()
        rpc.reset()
        verdicts, owners = [], {}
        while True:
            try:
                part = rpc.get()
            except OSError as e:
                if e.errno == errno.ENODATA:
                    break
                raise
            rpc.reset()
            for verdict, userid in zip(part["jobs"], part["userids"]):
                jobid = jobspec.decode_jobid(verdict["id"])
                verdicts.append((jobid, verdict))
                owners[jobid] = userid
    except OSError:
        return None
    dialect = "fluxion" if head.get("scheduler", "").startswith("sched-fluxion") else "rfc"
    # Each never job's places and closest nodes, from its jobspec where the asker may read
    # it (a guest, only their own jobs').
    never = [jobid for jobid, v in verdicts if v["verdict"] == "never"]
    if never:
        r = handle.rpc("resource.sched-status", nodeid=0).get()["all"]
        documents = held(handle, never, "jobspec")
        verdicts = [(jobid, _explained(v, documents[jobid], r, dialect)
                     if isinstance(documents.get(jobid), dict) else v)
                    for jobid, v in verdicts]
    return verdicts, owners


def f58(jobid):
    """The job id in F58, its prefix "ƒ" as flux-core writes it: "f" when
    FLUX_F58_FORCE_ASCII is set or the locale is not UTF-8."""
    return jobspec.encode_jobid(int(jobid), "f58plain" if _ascii_ids() else "f58")


def _ascii_ids():
    return bool(os.environ.get("FLUX_F58_FORCE_ASCII")) or not _utf8_locale()


def _utf8_locale():
    import locale  # pylint: disable=import-outside-toplevel
    return locale.getpreferredencoding(False).lower().replace("-", "") == "utf8"


def _allocate(text, r, **options):
    """jobspec.allocate without its warnings (an attribute RFC 14 does not define): they
    are not the question here, and a validator worker would log each one."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return jobspec.allocate(text, r, **options)


def read_resources(handle, down_is_never=False):
    """What a job must fit to be able to run on the instance: all of its R (what is up,
    with down_is_never), and its configuration when it has queues (else None)."""
    sched = handle.rpc("resource.sched-status", nodeid=0)
    config = handle.rpc("config.get", {}).get()
    status = sched.get()
    r = jobspec.ResourceSet(status["all"])
    if down_is_never:
        r = r - jobspec.ResourceSet(status["down"])
    return r, (config if config.get("queues") else None)


def never(text, r, config, dialect="rfc", max_steps=None):
    """The jobspec.Error saying why the jobspec `text` can never run on `r` (from
    read_resources), or None when it can, or when it cannot be judged (another error, or
    a placement over `max_steps`)."""
    try:
        _allocate(text, r, config=config, dialect=dialect, max_steps=max_steps)
    except jobspec.Error as e:
        if _first_error(e).code == "jobspec.unsatisfiable":
            return e
    return None


def _first_error(error):
    """The first diagnostic of a jobspec.Error that is not a warning: reading's warnings
    come before the error that failed the call."""
    return next((d for d in error.diagnostics if d.severity == "error"), error.diagnostics[0])


def _closest(document, r):
    """The nodes of R `r` (JSON) that meet the job's constraints, when it has some and some
    do: those it could run on, were they bigger. "" otherwise."""
    try:
        constraint = document.get("attributes", {}).get("system", {}).get("constraints")
        r = jobspec.ResourceSet(r)
        ranks = jobspec.match(constraint, r) if constraint else None
    except (ValueError, AttributeError, jobspec.Error):
        return ""
    return str(r.filtered(ranks).nodelist) if ranks else ""


def _located(document, diagnostics, dialect="rfc"):
    """Where the failing requirements are, in the shape and --requires query the jobspec
    reads as, in the scheduler's dialect (flux's label "task" left out): [{"source",
    "text", "offset", "length"}],
    one per diagnostic that points into the resources or the constraints (the most
    precise span its pointer has)."""
    sources = {}
    constraints = "/attributes/system/constraints"
    try:
        constraint = document.get("attributes", {}).get("system", {}).get("constraints")
        if constraint is not None:
            sources["--requires"] = (constraints, *jobspec.query_of(
                constraint, spans=True, pointer=constraints))
    except (AttributeError, jobspec.Error):
        pass
    try:
        sources["resources"] = ("/resources", *jobspec.shape_of(
            document, default_label="task", dialect=dialect, spans=True))
    except (TypeError, ValueError, jobspec.Error):
        pass
    out = []
    for d in diagnostics:
        if d["severity"] != "error" and d["code"] != "match.constraint":
            continue
        for name, (root, text, spans) in sources.items():
            pointer = d.get("pointer") or ""
            while pointer.startswith(root) and pointer not in spans:
                pointer = pointer.rsplit("/", 1)[0]
            if pointer in spans:
                start, end = spans[pointer]
                place = {"source": name, "text": text, "offset": start,
                         "length": end - start, "pointer": d.get("pointer")}
                if place not in out:
                    out.append(place)
    return out
