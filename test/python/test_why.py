"""jobspec.flux.why's verdicts on instances written out by hand, and the shape and query
texts its carets point into (test/flux/why_test.py checks them in real instances)."""
import json

import pytest

import jobspec
from jobspec.flux import why

R = {"version": 1, "execution": {
    "R_lite": [{"rank": "0-1", "children": {"core": "0-3"}},
               {"rank": "2-3", "children": {"core": "0-3", "gpu": "0"}}],
    "nodelist": ["node[0-3]"], "properties": {"ssd": "2-3"}}}


def r_of(ranks):
    return jobspec.ResourceSet(R).filtered(ranks).to_dict() if ranks else \
        {"version": 1, "execution": {"R_lite": [], "nodelist": []}}


def instance(down="", allocated="", drain=None, queues=None, pending=(), running=(),
             scheduler="sched-simple", config=None):
    status = {"all": R, "down": r_of(down), "allocated": r_of(allocated)}
    return why.Instance(status, {"drain": drain or {}}, config or {},
                        queues or {None: {"start": True}}, list(pending), list(running),
                        scheduler)


def job(jobid=100, **fields):
    return {"id": jobid, "userid": 0, "urgency": 16, "priority": 16, "state": why.SCHED,
            "queue": None, **fields}


def text(*args, **options):
    return json.dumps(jobspec.compile(list(args) or ["true"], environ={}, **options))


def test_fits_what_is_free_is_next_in_line_with_the_jobs_ahead():
    first, me = job(1), job(2)
    v = why.explain(me, text(nodes=1), instance(pending=[first, me]))
    assert v["verdict"] == "next" and v["ahead"] == 1 and v["first_ahead"] == why.f58(1)
    alone = why.explain(first, text(nodes=1), instance(pending=[first, me]))
    assert alone["ahead"] == 0 and "waits only for the scheduler" in alone["summary"]
    # A higher priority goes first, whatever its id; held jobs are not ahead.
    urgent, held = job(9, priority=20), job(0, priority=0, urgency=0)
    v = why.explain(me, text(nodes=1), instance(pending=[urgent, held, me]))
    assert v["ahead"] == 1 and v["first_ahead"] == why.f58(9)


def test_busy_nodes_are_waiting_for_resources_held_by_the_jobs_on_them():
    running = [{"id": 7, "ranks": "2-3", "expiration": 1000.0},
               {"id": 8, "ranks": "0", "expiration": 0.0}]
    v = why.explain(job(), text(nodes=2, requires="ssd"),
                    instance(allocated="2-3", running=running))
    assert v["verdict"] == "resources" and v["nodes"] == "node[2-3]"
    assert v["held_by"] == [why.f58(7)] and v["earliest_end"] == 1000.0


def test_drained_nodes_are_waiting_for_down_nodes_with_the_reason():
    v = why.explain(job(), text(nodes=1, requires="rank:1"),
                    instance(down="1", drain={"1": {"reason": "bad fan"}}))
    assert v["verdict"] == "down" and v["nodes"] == {"node1": "drained: bad fan"}
    v = why.explain(job(), text(nodes=4), instance(down="0-1"))
    assert v["nodes"] == {"node0": "down", "node1": "down"}


def test_fluxion_refuses_a_job_asking_more_nodes_than_are_up():
    down = dict(down="1-2", drain={"1-2": {"reason": "x"}}, scheduler="fluxion")
    v = why.explain(job(), text(nodes=3), instance(**down))
    assert v["verdict"] == "never" and v["down_is_never"] and "2 are up" in v["summary"]
    # One node of the two that are up: Fluxion waits, as sched-simple does.
    assert why.explain(job(), text(nodes=1, requires="rank:1"),
                       instance(**down))["verdict"] == "down"
    assert why.explain(job(), text(nodes=3), instance(down="1-2"))["verdict"] == "down"


def test_what_fits_nothing_is_never_located_with_the_closest_nodes():
    v = why.explain(job(), text(nodes=3, requires="ssd and not rank:1"), instance())
    assert v["verdict"] == "never" and v["closest"] == "node[2-3]"
    assert v["diagnostics"][0]["code"] == "jobspec.unsatisfiable"
    texts = {(p["source"], p["text"][p["offset"]:p["offset"] + p["length"]])
             for p in v["located"]}
    assert ("--requires", "ssd") in texts and ("--requires", "not rank:1") in texts
    # Each property of a term its own span; warnings that are no failure not located.
    v = why.explain(job(), text(nodes=3, requires="ssd and foo"), instance())
    spans = {p["text"][p["offset"]:p["offset"] + p["length"]] for p in v["located"]}
    assert "foo" in spans and "ssd" in spans
    v = why.explain(job(), text(nodes=2, gpus_per_task=2), instance())
    assert v["closest"] == ""
    assert [(p["source"], p["text"][p["offset"]:p["offset"] + p["length"]])
            for p in v["located"]] == [("resources", "gpu=2")]


def test_a_job_that_cannot_be_placed_is_unknown_not_an_error():
    v = why.explain(job(), "not even json", instance())
    assert v["verdict"] == "unknown"


def test_the_stopped_default_queue_and_no_scheduler_are_said_so():
    offline = instance(queues={None: {"start": False, "blocked": "scheduler",
                                      "stop_reason": "Scheduler is offline"}})
    v = why.waiting(job(), offline)
    assert v["summary"] == "blocked: the default queue is stopped: no scheduler is loaded"


def test_held_and_blocked_come_before_any_placement():
    assert why.explain(job(urgency=0, priority=0), "not even json",
                       instance())["verdict"] == "held"
    v = why.explain(job(state=why.DEPEND, dependencies=["after-success=ƒ2"]), "", instance())
    assert v["verdict"] == "blocked" and v["dependencies"] == ["after-success=ƒ2"]
    stopped = instance(queues={"debug": {"start": False, "stop_reason": "maintenance"}})
    v = why.explain(job(queue="debug"), text(nodes=1), stopped)
    assert v["verdict"] == "blocked" and v["queue_stopped"] == "maintenance"


def test_the_queue_of_the_configuration_applies():
    config = {"queues": {"debug": {"requires": ["ssd"]}, "batch": {}}}
    v = why.explain(job(queue="debug"), text(nodes=3, queue="debug"),
                    instance(config=config))
    assert v["verdict"] == "never" and "queue 'debug'" in json.dumps(v["diagnostics"])
    assert why.explain(job(queue="batch"), text(nodes=3, queue="batch"),
                       instance(config=config))["verdict"] == "next"


def test_never_judges_only_what_jobspec_is_sure_of():
    r = jobspec.ResourceSet(R)
    assert why.never(text(nodes=5), r, None).diagnostics[0].code == "jobspec.unsatisfiable"
    assert why.never(text(nodes=4), r, None) is None
    # A warning first (an attribute RFC 14 does not define) hides nothing.
    with pytest.warns(jobspec.JobspecWarning):
        warned = text(nodes=5, setattr={"system.foo": 1})
    error = why.never(warned, r, None)
    assert error is not None and error.diagnostics[0].severity == "warning"
    v = why.explain(job(), warned, instance())
    assert v["verdict"] == "never" and "jobspec.unsatisfiable" in v["summary"]


@pytest.mark.parametrize("query", ["ssd", "ssd and not rank:1", "(a or b) and c",
                                   "host:foo[1-3] or -ssd", "a and (c or not (d and e))"])
def test_the_query_of_a_constraint_reads_back_as_it_and_its_spans_are_its_terms(query):
    constraint = jobspec.constraint(query)
    spans = {}
    written = why._query(constraint, "", spans)
    assert jobspec.constraint(written) == constraint
    for pointer, (start, end) in spans.items():
        part = constraint
        for step in pointer.split("/")[1:]:
            part = part[int(step)] if isinstance(part, list) else part[step]
        # An operator reads back as itself; a property is its name.
        assert (jobspec.constraint(written[start:end]) if isinstance(part, dict)
                else written[start:end]) == part


def test_the_shape_of_resources_names_each_vertex():
    spans = {}
    resources = [{"type": "node", "count": {"min": 2}, "exclusive": True,
                  "with": [{"type": "socket", "count": 2,
                            "with": [{"type": "core", "count": 4}]},
                           {"type": "gpu", "count": 1}]}]
    written = why._shape(resources, "/resources", spans)
    assert written == "node=2+{x}/[socket=2/core=4;gpu]"
    assert {p: written[a:b] for p, (a, b) in spans.items()} == {
        "/resources/0": written, "/resources/0/with/0": "socket=2/core=4",
        "/resources/0/with/0/with/0": "core=4", "/resources/0/with/1": "gpu"}
    assert why._nodes_asked(json.dumps({"resources": resources})) == 2
    assert why._nodes_asked(json.dumps({"resources": [{"type": "slot", "count": 3, "with": [
        {"type": "node", "count": 2}]}]})) == 6
