"""Why is a job not running? One verdict per pending job of a live Flux instance.

`flux jobspec why [JOBID...]` (cmd/flux-jobspec.py) and the validator's --jobspec-never
(read_resources, never) are built on this module. It reads what the scheduler sees, once for all jobs
(read_instance), then places each job's jobspec with jobspec.allocate on three views of
the resources: what is free now, what is up, and all of it. The verdicts:

  held          urgency 0 (or priority 0), or waiting for its priority
  blocked       an unmet dependency, or its queue is stopped
  next          it fits what is free now: it waits only for the scheduler, or for the jobs
                ahead of it
  resources     it fits what is up, not what is free: the nodes that would serve it, the
                jobs holding them, and the earliest end of one by its time limit
  down          it fits the instance, not what is up: the down or drained nodes it needs,
                with their drain reasons (with Fluxion, which refuses a job asking more
                nodes than are up when it considers it, such a job is never, with the
                same nodes)
  never         it fits nothing on this instance: jobspec's explanation, located in the
                jobspec, and the nodes that come closest
  unknown       jobspec cannot judge it (match.unsupported: memory, which R version 1
                does not describe)

See docs/FLUX.md ("Why isn't my job running?").
"""
import bisect
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

_PENDING_ATTRS = ["userid", "urgency", "priority", "state", "queue", "dependencies"]
_RUNNING_ATTRS = ["ranks", "expiration"]
_ALL_USERS = 0xFFFFFFFF  # FLUX_USERID_UNKNOWN: job-list's "every user"
_CURRENT = 0x2  # FLUX_JOB_LOOKUP_CURRENT: the jobspec with its updates applied


class Instance:
    """What the scheduler of a running instance sees, read once: R (all, down, allocated,
    free), drain reasons, the configuration (for queues), each queue's status, and the
    pending and running jobs of every user."""

    def __init__(self, sched_status, status, config, queues, pending, running,
                 scheduler="sched-simple"):
        #: "fluxion" when Fluxion schedules, which reads jobspecs in its dialect and
        #: refuses a job that does not fit the nodes that are up.
        self.scheduler = scheduler
        self.dialect = "fluxion" if scheduler == "fluxion" else "rfc"
        self.all = jobspec.ResourceSet(sched_status["all"])
        self.down = jobspec.ResourceSet(sched_status["down"])
        self.allocated = jobspec.ResourceSet(sched_status["allocated"])
        self.up = self.all - self.down
        self.free = self.up - self.allocated
        self.drain = _drain_reasons(status.get("drain", {}))
        self.offline = jobspec.IdSet(status.get("offline", "") or "")
        self.config = config if config.get("queues") else None
        self.queues = queues
        self.pending = pending
        self.running = running
        self.line = None  # _line's
        self.on_rank = None  # _holders': rank -> the running jobs on it


def _drain_reasons(drain):
    """rank -> (timestamp, reason) from resource.status's drain map (idset keys)."""
    out = {}
    for ranks, info in drain.items():
        for rank in jobspec.IdSet(ranks):
            out[rank] = (info.get("timestamp", 0.0), info.get("reason", ""))
    return out


def read_instance(handle):
    """The Instance of the running instance `handle` is connected to. Every request is
    sent before any answer is waited for."""
    sched = handle.rpc("resource.sched-status", nodeid=0)
    status = handle.rpc("resource.status", nodeid=0)
    config = handle.rpc("config.get", {})
    queue_list = handle.rpc("job-manager.queue-list", {})
    modules = handle.rpc("module.list")
    pending = _job_list(handle, PENDING, _PENDING_ATTRS)
    running = _job_list(handle, RUN | CLEANUP, _RUNNING_ATTRS)
    # Without queues configured, the one anonymous queue (None).
    names = queue_list.get().get("queues", []) or [None]
    statuses = {name: handle.rpc("job-manager.queue-status", {"name": name} if name else {})
                for name in names}
    queues = {name: future.get() for name, future in statuses.items()}
    names = [m.get("name", "") for m in modules.get().get("mods", [])]
    scheduler = "fluxion" if any(n.startswith("sched-fluxion") for n in names) else (
        "sched-simple" if "sched-simple" in names else "other")
    return Instance(sched.get(), status.get(), config.get(), queues, pending.get_jobs(),
                    running.get_jobs(), scheduler)


def _job_list(handle, states, attrs):
    """The request for every user's jobs in `states` (get_jobs() waits for them)."""
    import flux.job  # pylint: disable=import-outside-toplevel
    return flux.job.job_list(handle, max_entries=0, attrs=attrs, userid=_ALL_USERS,
                             states=states)


def read_jobspecs(handle, ids):
    """id -> the jobspec's JSON text (as job-info holds it, updates applied), or the
    OSError of its lookup. All lookups are in flight together."""
    futures = {i: handle.rpc("job-info.lookup",
                             {"id": i, "keys": ["jobspec"], "flags": _CURRENT})
               for i in ids}
    out = {}
    for i, future in futures.items():
        try:
            value = future.get()["jobspec"]
            out[i] = value if isinstance(value, str) else json.dumps(value)
        except OSError as e:
            out[i] = e
    return out


def f58(jobid):
    """The job id in F58, its prefix "ƒ" as flux-core writes it: "f" when
    FLUX_F58_FORCE_ASCII is set or the locale is not UTF-8."""
    text = jobspec.encode_jobid(int(jobid), "f58")
    if os.environ.get("FLUX_F58_FORCE_ASCII") or not _utf8_locale():
        text = "f" + text[1:]
    return text


def _utf8_locale():
    import locale  # pylint: disable=import-outside-toplevel
    return locale.getpreferredencoding(False).lower().replace("-", "") == "utf8"


def _queue_status(instance, queue):
    return instance.queues.get(queue, instance.queues.get(None, {}))


def _line(instance):
    """The jobs the scheduler considers, in its order: in SCHED, not held, of a started
    queue; higher priority first, then submitted earlier. Made once per instance."""
    if instance.line is None:
        instance.line = sorted(
            ((-j.get("priority", 0), j["id"]) for j in instance.pending
             if j["state"] == SCHED and j.get("priority", 0) > 0
             and _queue_status(instance, j.get("queue")).get("start", True)))
    return instance.line


def _ahead(job, instance):
    """How many jobs the scheduler considers before `job`, and the first of them."""
    line = _line(instance)
    count = bisect.bisect_left(line, (-job.get("priority", 0), job["id"]))
    return count, (line[0][1] if count else None)


def _holders(ranks, instance):
    """The running jobs on any of `ranks`, and the earliest end (expiration) of one."""
    if instance.on_rank is None:
        instance.on_rank = {}
        for j in instance.running:
            for rank in jobspec.IdSet(j.get("ranks") or ""):
                instance.on_rank.setdefault(rank, []).append(j)
    holders = {j["id"]: j for rank in ranks for j in instance.on_rank.get(rank, [])}
    holders = [holders[i] for i in sorted(holders)]
    ends = [j["expiration"] for j in holders if j.get("expiration", 0) > 0]
    return holders, (min(ends) if ends else None)


def _hosts(r, ranks):
    return str(r.filtered(ranks).nodelist) if ranks else ""


def _allocate(text, r, **options):
    """jobspec.allocate without its warnings (an attribute RFC 14 does not define): they
    are not the question here, and a validator worker would log each one."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return jobspec.allocate(text, r, **options)


def _place(text, r, instance, free=None):
    return _allocate(text, r, free=free, config=instance.config, dialect=instance.dialect)


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


def never(text, r, config, dialect="rfc"):
    """The jobspec.Error saying why the jobspec `text` can never run on `r` (from
    read_resources), or None when it can, or when it cannot be judged (another error)."""
    try:
        _allocate(text, r, config=config, dialect=dialect)
    except jobspec.Error as e:
        if _first_error(e).code == "jobspec.unsatisfiable":
            return e
    return None


def _first_error(error):
    """The first diagnostic of a jobspec.Error that is not a warning: reading's warnings
    come before the error that failed the call."""
    return next((d for d in error.diagnostics if d.severity == "error"), error.diagnostics[0])


def _diagnostics(error):
    return [{"code": d.code, "severity": d.severity, "message": d.message,
             "pointer": d.pointer, **({"help": d.help} if d.help else {})}
            for d in error.diagnostics]


def _closest(text, instance):
    """The nodes that meet the job's constraints, when it has some and some do: those it
    could run on, were they bigger. "" otherwise."""
    try:
        document = json.loads(text)
        constraint = document.get("attributes", {}).get("system", {}).get("constraints")
        ranks = jobspec.match(constraint, instance.all) if constraint else None
    except (ValueError, AttributeError, jobspec.Error):
        return ""
    return _hosts(instance.all, ranks) if ranks else ""


def waiting(job, instance):
    """The verdict of a job held or blocked (a dict), or None when it waits for the
    scheduler: decided from the job's state and queue alone, without its jobspec."""
    out = {"id": f58(job["id"]), "queue": job.get("queue")}
    state = job["state"]
    if state == DEPEND:
        deps = job.get("dependencies", [])
        return {**out, "verdict": "blocked", "dependencies": deps,
                "summary": "blocked: waiting for " + (", ".join(deps) or "a dependency")}
    if state == PRIORITY:
        return {**out, "verdict": "held", "summary": "held: waiting for a priority"}
    if job.get("urgency", 16) == 0 or job.get("priority", 1) == 0:
        why = ("urgency 0 (flux job urgency ID default releases it)" if job.get("urgency") == 0
               else "priority 0 (a priority plugin holds it)")
        return {**out, "verdict": "held", "urgency": job.get("urgency"),
                "summary": "held: " + why}
    status = _queue_status(instance, job.get("queue"))
    if not status.get("start", True):
        reason = status.get("stop_reason", "")
        if status.get("blocked") == "scheduler":
            reason = "no scheduler is loaded"
        name = f"queue {job['queue']}" if job.get("queue") else "the default queue"
        return {**out, "verdict": "blocked", "queue_stopped": reason,
                "summary": f"blocked: {name} is stopped" + (f": {reason}" if reason else "")}
    return None


def explain(job, text, instance):
    """The verdict (a dict) for one pending job of `instance` whose jobspec is `text`.
    Never raises: what goes wrong placing it is the verdict "unknown"."""
    verdict = waiting(job, instance)
    if verdict is not None:
        return verdict
    out = {"id": f58(job["id"]), "queue": job.get("queue")}
    try:
        return _placed(out, job, _without_environment(text), instance)
    except Exception as e:  # pylint: disable=broad-except
        return {**out, "verdict": "unknown", "summary": f"cannot tell: {e}"}


def _without_environment(text):
    """The jobspec without attributes.system.environment, which matching never reads:
    placing is cheaper, and a large environment no limit of the input."""
    try:
        document = json.loads(text)
        document["attributes"]["system"].pop("environment", None)
        return json.dumps(document)
    except (ValueError, KeyError, TypeError, AttributeError):
        return text


def _placed(out, job, text, instance):
    """explain's verdict for a job that waits for the scheduler."""
    try:
        _place(text, instance.all, instance, free=instance.free)
        ahead, first = _ahead(job, instance)
        summary = "next in line: it fits what is free now"
        if ahead:
            summary += f"; {ahead} job{'s' if ahead != 1 else ''} ahead of it"
            summary += " (first " + f58(first) + ")"
        else:
            summary += "; it waits only for the scheduler"
        return {**out, "verdict": "next", "ahead": ahead,
                **({"first_ahead": f58(first)} if ahead else {}), "summary": summary}
    except jobspec.Error as e:
        if _first_error(e).code == "jobspec.unsatisfiable":
            return _never(out, e, text, instance)
        if _first_error(e).code != "match.pending":
            # What jobspec cannot judge (match.unsupported: memory in R version 1).
            return {**out, "verdict": "unknown", "diagnostics": _diagnostics(e),
                    "summary": "cannot tell: " + e.summary}
    try:
        alloc = _place(text, instance.up, instance)
        holders, end = _holders(alloc.ranks, instance)
        nodes = str(alloc.nodelist)
        summary = f"waiting for resources: it would run on {nodes}"
        if holders:
            summary += ", held by " + ", ".join(f58(h["id"]) for h in holders[:5])
            if len(holders) > 5:
                summary += f" and {len(holders) - 5} more"
        if end is not None:
            summary += "; the first ends by " + time.strftime("%Y-%m-%dT%H:%M:%S",
                                                             time.localtime(end))
        return {**out, "verdict": "resources", "nodes": nodes,
                "held_by": [f58(h["id"]) for h in holders], "earliest_end": end,
                "summary": summary}
    except jobspec.Error:
        pass
    alloc = _place(text, instance.all, instance)
    needed = alloc.ranks - instance.up.ranks
    nodes = {}
    for rank in needed:
        host = _hosts(instance.all, jobspec.IdSet(str(rank)))
        if rank in instance.drain:
            nodes[host] = "drained: " + (instance.drain[rank][1] or "no reason given")
        else:
            nodes[host] = "offline" if rank in instance.offline else "down"
    listed = ", ".join(f"{h} ({why})" for h, why in nodes.items())
    asked = _nodes_asked(text)
    if instance.scheduler == "fluxion" and asked > len(instance.up):
        # Fluxion refuses a job that asks more nodes than are up, as unsatisfiable, when
        # it considers it (docs/COMPAT.md).
        return {**out, "verdict": "never", "nodes": nodes, "down_is_never": True,
                "summary": f"never while these nodes are down or drained: {listed} "
                f"(it asks {asked} nodes; {len(instance.up)} are up, and Fluxion refuses "
                "a job that asks more nodes than are up)"}
    return {**out, "verdict": "down", "nodes": nodes,
            "summary": f"waiting for down or drained nodes: {listed}"}


def _nodes_asked(text):
    """How many nodes the jobspec asks in all: each node vertex's least count times its
    enclosing vertices'."""
    def least(count):
        return count.get("min", 1) if isinstance(count, dict) else count

    def walk(vertices, times):
        total = 0
        for v in vertices if isinstance(vertices, list) else []:
            n = times * least(v.get("count", 1))
            total += n if v.get("type") == "node" else 0
            total += walk(v.get("with", []), n)
        return total
    try:
        return walk(json.loads(text).get("resources", []), 1)
    except (ValueError, AttributeError, TypeError):
        return 0


_TERMS = {"properties": "properties", "hostlist": "host", "ranks": "rank"}


def _shifted(spans, by, into):
    into.update({k: (a + by, b + by) for k, (a, b) in spans.items()})


def _query(constraint, pointer, spans, nested=False):
    """An RFC 31 constraint written as the --requires query that reads as it, recording
    the span of each operator's text by its JSON pointer in `spans`."""
    if not (isinstance(constraint, dict) and len(constraint) == 1):
        text = json.dumps(constraint)
    else:
        (op, values), = constraint.items()
        values = values if isinstance(values, list) else [values]
        if op in ("and", "or"):
            text, inner = "", {}
            for i, child in enumerate(values):
                text += f" {op} " if i else ""
                part = {}
                piece = _query(child, f"{pointer}/{op}/{i}", part, True)
                _shifted(part, len(text), inner)
                text += piece
            grouped = nested and len(values) > 1
            _shifted(inner, 1 if grouped else 0, spans)
            text = f"({text})" if grouped else (text or ("all" if op == "and" else "none"))
        elif op == "not":
            inner = {}
            text = "not " + (_query(values[0], f"{pointer}/not/0", inner, True)
                             if values else "all")
            _shifted(inner, 4, spans)
        elif op == "properties" and all(isinstance(v, str) and v.isidentifier()
                                        and v not in ("and", "or", "not") for v in values):
            grouped = nested and len(values) > 1
            text = "(" if grouped else ""
            for i, value in enumerate(values):
                text += " and " if i else ""
                spans[f"{pointer}/properties/{i}"] = (len(text), len(text) + len(value))
                text += value
            text += ")" if grouped else ""
        else:
            text = f"{_TERMS.get(op, op)}:" + ",".join(map(str, values))
    spans[pointer] = (0, len(text))
    return text


def _count(count):
    if isinstance(count, dict):
        low, high = count.get("min", 1), count.get("max")
        return f"{low}-{high}" if high is not None else f"{low}+"
    return str(count)


def _shape(vertices, pointer, spans):
    """Resource vertices written as an RFC 46 shape, recording each vertex's span."""
    texts = []
    offset = 1 if len(vertices) > 1 else 0
    for i, v in enumerate(vertices):
        here = f"{pointer}/{i}"
        text = str(v.get("type", "?"))
        if v.get("count", 1) != 1:
            text += "=" + _count(v["count"])
        if v.get("exclusive"):
            text += "{x}"
        start = offset + sum(len(t) + 1 for t in texts)
        if v.get("with"):
            inner = {}
            text += "/"
            below = _shape(v["with"], here + "/with", inner)
            _shifted(inner, start + len(text), spans)
            text += below
        spans[here] = (start, start + len(text))
        texts.append(text)
    return "[" + ";".join(texts) + "]" if len(texts) > 1 else "".join(texts)


def _located(document, diagnostics):
    """Where the failing requirements are, in the shape and --requires query the jobspec
    reads as: [{"source", "text", "offset", "length"}], one per diagnostic that points
    into the resources or the constraints (the most precise span its pointer has)."""
    sources = {"--requires": ("/attributes/system/constraints", {}),
               "resources": ("/resources", {})}
    texts = {}
    try:
        constraint = document.get("attributes", {}).get("system", {}).get("constraints")
        if constraint is not None:
            texts["--requires"] = _query(constraint, "/attributes/system/constraints",
                                         sources["--requires"][1])
        texts["resources"] = _shape(document.get("resources", []), "/resources",
                                    sources["resources"][1])
    except (AttributeError, TypeError, ValueError):
        return []
    out = []
    for d in diagnostics:
        if d["severity"] != "error" and d["code"] != "match.constraint":
            continue
        for name, (root, spans) in sources.items():
            pointer = d["pointer"]
            while name in texts and pointer.startswith(root) and pointer not in spans:
                pointer = pointer.rsplit("/", 1)[0]
            if name in texts and pointer in spans:
                start, end = spans[pointer]
                place = {"source": name, "text": texts[name], "offset": start,
                         "length": end - start, "pointer": d["pointer"]}
                if place not in out:
                    out.append(place)
    return out


def _never(out, error, text, instance):
    first = _first_error(error)
    where = f" at {first.pointer}" if first.pointer else ""
    closest = _closest(text, instance)
    summary = f"never on this instance: {first.code}{where}: {first.message}"
    if closest:
        summary += f"; closest: {closest}"
    diagnostics = _diagnostics(error)
    try:
        located = _located(json.loads(text), diagnostics)
    except ValueError:
        located = []
    return {**out, "verdict": "never", "diagnostics": diagnostics, "located": located,
            "closest": closest, "summary": summary}
