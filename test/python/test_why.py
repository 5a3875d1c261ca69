"""jobspec.flux.why's verdicts on instances written out by hand, and the shape and query
texts its carets point into (test/flux/why_test.py checks them in real instances)."""
import errno
import json

import pytest

import jobspec
from jobspec.flux import why

R = {"version": 1, "execution": {
    "R_lite": [{"rank": "0-1", "children": {"core": "0-3"}},
               {"rank": "2-3", "children": {"core": "0-3", "gpu": "0"}}],
    "nodelist": ["node[0-3]"], "properties": {"ssd": "2-3"}}}


def job(jobid=100, document=None, **fields):
    return {"id": jobid, "state": why.SCHED, "priority": 16, "urgency": 16, "t_submit": jobid,
            "queue": "", "dependencies": [], "jobspec": document, **fields}


def document(*args, **options):
    return jobspec.compile(list(args) or ["true"], environ={}, **options)


def instance(pending=(), running=(), drained=None, scheduler="sched-simple", config=None,
             queues=None, jobspecs=None):
    """An Instance as read_instance makes it: node[0-3] (node[2-3] with a GPU and ssd)."""
    state = {"now": 1000.0, "R": R, "drained": drained or {},
             "scheduler": {"name": scheduler}, "queues": queues or {},
             "config": config or {}, "running": list(running), "pending": list(pending)}
    owners = {j["id"]: 0 for j in pending}
    return why.Instance(state, owners, jobspecs or {j["id"]: j["jobspec"] for j in pending})


def holding(jobid, ranks, expiration):
    return {"id": jobid, "R": jobspec.ResourceSet(R).filtered(ranks).to_dict(),
            "expiration": expiration}


def verdicts(inst):
    return {v["id"]: v for v in why.forecast(inst)}


def test_a_job_that_fits_now_is_next_and_one_behind_a_blocked_head_waits_behind_it():
    # node[2-3] held until 2000; the first job needs ssd, the second fits now.
    inst = instance(pending=[job(1, document(nodes=2, requires="ssd", time_limit="1m")),
                             job(2, document(nodes=1, time_limit="1m"))],
                    running=[holding(7, "2-3", 2000.0)])
    v = verdicts(inst)
    first, second = v[why.f58(1)], v[why.f58(2)]
    # Each a pass after the end at 2000 (docs/SCHEDULERS.md: 30 ms).
    assert first["verdict"] == "waiting" and first["eta"] == pytest.approx(2000.03)
    assert first["after"] == [why.f58(7)] and first["nodes"] == "node[2-3]"
    assert second["verdict"] == "waiting" and second["waits_behind"] == [why.f58(1)]
    assert second["eta"] == pytest.approx(2000.03)
    alone = verdicts(instance(pending=[job(2, document(nodes=1, time_limit="1m"))]))
    assert alone[why.f58(2)]["verdict"] == "next" and alone[why.f58(2)]["eta"] == 1000.0


def test_a_drained_node_and_the_jobs_behind_it():
    inst = instance(pending=[job(1, document(nodes=4)), job(2, document(nodes=1))],
                    drained={"1": {"reason": "maintenance", "timestamp": 0}})
    v = verdicts(inst)
    assert v[why.f58(1)]["verdict"] == "down"
    assert v[why.f58(1)]["down_nodes"] == {"node1": "drained: maintenance"}
    assert v[why.f58(2)]["verdict"] == "down"
    assert v[why.f58(2)]["waits_behind"] == [why.f58(1)]
    assert "which waits for drained node1 (maintenance)" in v[why.f58(2)]["summary"]


def test_a_job_that_can_never_run_is_located_in_its_shape_and_query():
    v = verdicts(instance(pending=[job(1, document(nodes=3, requires="ssd and not rank:1"))]))
    never = v[why.f58(1)]
    assert never["verdict"] == "never" and never["closest"] == "node[2-3]"
    assert "jobspec.unsatisfiable" in never["summary"]
    assert ("--requires", "ssd and not rank:1") in [(p["source"], p["text"])
                                                   for p in never["located"]]
    gpus = verdicts(instance(pending=[job(1, document(nodes=2, gpus_per_task=2))]))
    assert [(p["source"], p["text"][p["offset"]:p["offset"] + p["length"]])
            for p in gpus[why.f58(1)]["located"]] == [("resources", "gpu=2")]


def test_under_fluxion_a_job_is_located_in_the_shape_fluxion_reads():
    # Two slots with one label: Fluxion's alternatives, which RFC 14 refuses. The shape is
    # read as Fluxion reads the jobspec.
    fluxion = document(nodes=5)
    slot = fluxion["resources"][0]["with"][0]
    fluxion["resources"][0]["with"].append({**slot, "with": [{"type": "core", "count": 2}]})
    v = verdicts(instance(pending=[job(1, fluxion)], scheduler="sched-fluxion-qmanager"))
    assert v[why.f58(1)]["verdict"] == "never"
    assert [(p["source"], p["text"]) for p in v[why.f58(1)]["located"]] == \
        [("resources", "node=5{x}/[slot{task}/core;slot{task}/core=2]")]


def test_a_jobspec_that_cannot_be_read_is_unknown_not_an_error():
    inst = instance(pending=[job(1, None)], jobspecs={1: OSError("lookup failed")})
    assert verdicts(inst)[why.f58(1)]["verdict"] == "unknown"
    assert "lookup failed" in verdicts(inst)[why.f58(1)]["summary"]


def test_the_stopped_default_queue_and_no_scheduler_are_said_so():
    offline = instance(pending=[job(1, document(nodes=1))],
                       queues={"": {"start": False, "stop_reason": "no scheduler is loaded"}})
    v = verdicts(offline)[why.f58(1)]
    assert v["verdict"] == "blocked"
    assert v["summary"] == "blocked: the default queue is stopped: no scheduler is loaded"


def test_held_and_blocked_come_before_any_placement():
    inst = instance(pending=[job(1, None, urgency=0, priority=0),
                             job(2, None, state=why.DEPEND, dependencies=["after-success=ƒ2"]),
                             job(3, document(nodes=1), queue="debug")],
                    queues={"debug": {"start": False, "stop_reason": "maintenance"}},
                    jobspecs={1: None, 2: None, 3: None})
    v = verdicts(inst)
    assert v[why.f58(1)]["verdict"] == "held"
    assert v[why.f58(2)]["verdict"] == "blocked"
    assert "after-success=ƒ2" in v[why.f58(2)]["summary"]
    assert v[why.f58(3)]["verdict"] == "blocked"
    assert v[why.f58(3)]["summary"] == "blocked: queue debug is stopped: maintenance"


def test_the_queue_of_the_configuration_applies():
    config = {"queues": {"debug": {"requires": ["ssd"]}, "batch": {}}}
    v = verdicts(instance(pending=[job(1, document(nodes=3, queue="debug"), queue="debug"),
                                   job(2, document(nodes=3, queue="batch"), queue="batch")],
                          config=config))
    assert v[why.f58(1)]["verdict"] == "never"
    assert "queue 'debug'" in json.dumps(v[why.f58(1)]["diagnostics"])
    assert v[why.f58(2)]["verdict"] == "next"


def test_another_users_text_is_escaped_in_the_summary_and_exact_in_json():
    # A drain reason with an escape, a carriage return and a bidi override.
    payload = "\x1b[2J\rnext in line\u202e"
    v = verdicts(instance(pending=[job(1, document(nodes=4))],
                          drained={"1": {"reason": payload, "timestamp": 0}}))[why.f58(1)]
    assert "\x1b" not in v["summary"] and "\r" not in v["summary"]
    assert "\u202e" not in v["summary"]
    assert v["down_nodes"] == {"node1": "drained: " + payload}


def test_never_judges_only_what_jobspec_is_sure_of():
    r = jobspec.ResourceSet(R)
    text = lambda **o: json.dumps(document(**o))  # noqa: E731
    assert why.never(text(nodes=5), r, None).diagnostics[0].code == "jobspec.unsatisfiable"
    assert why.never(text(nodes=4), r, None) is None
    # A warning first (an attribute RFC 14 does not define) hides nothing.
    with pytest.warns(jobspec.JobspecWarning):
        warned = text(nodes=5, setattr={"system.foo": 1})
    error = why.never(warned, r, None)
    assert error is not None and error.diagnostics[0].severity == "warning"


class _Answers:
    """A request's answers, as flux's RPC gives them: get() each in turn (an OSError is
    raised), reset() to the next."""

    def __init__(self, answers):
        self.answers = list(answers)

    def get(self):
        answer = self.answers[0]
        if isinstance(answer, OSError):
            raise answer
        return answer

    def reset(self):
        self.answers.pop(0)


class _Handle:
    """A handle whose requests get the answers given by topic (a list, for a stream)."""

    def __init__(self, **by_topic):
        self.by_topic, self.asked = by_topic, []

    def rpc(self, topic, payload=None, nodeid=None, flags=0):
        self.asked.append((topic, payload, flags))
        answers = self.by_topic[topic]
        return _Answers(answers(payload) if callable(answers) else answers)


def test_the_plugins_forecast_is_read_as_a_stream_and_a_never_job_located():
    never = document(nodes=3, requires="ssd and not rank:1")
    verdicts_ = why.forecast(instance(pending=[job(1, document(nodes=1)), job(2, never)]))
    head = {"now": 1000.0, "scheduler": "sched-simple"}
    bare = [{k: v for k, v in verdict.items() if k not in ("located", "closest")}
            for verdict in verdicts_]
    handle = _Handle(**{
        why.FORECAST_TOPIC: [head, {"jobs": bare[:1], "userids": [5]},
                             {"jobs": bare[1:], "userids": [6]}, OSError(errno.ENODATA, "")],
        "resource.sched-status": [{"all": R}],
        "job-manager.getattr": lambda payload: [{"jobspec": never}],
    })
    got, owners = why.from_plugin(handle)
    assert [jobid for jobid, _ in got] == [1, 2] and owners == {1: 5, 2: 6}
    # The never job's places and closest nodes, as reading the instance gives them.
    assert [v for _, v in got] == verdicts_
    assert handle.asked[0] == (why.FORECAST_TOPIC, {"ascii_ids": why._ascii_ids()}, 2)
    assert ("job-manager.getattr", {"id": 2, "attrs": ["jobspec"]}, 0) in handle.asked


def test_without_the_plugins_forecast_the_instance_is_read():
    for refused in (errno.ENOSYS, errno.EOVERFLOW, errno.EAGAIN):
        assert why.from_plugin(_Handle(**{why.FORECAST_TOPIC: [OSError(refused, "")]})) is None


def test_lookups_are_paced_and_each_failure_kept_with_its_job():
    """At most `pace` requests in flight: a request counts from rpc() until its answer is
    taken; every job is answered, a failed lookup as its OSError."""
    outstanding, most = set(), [0]

    class Handle:
        def rpc(self, topic, payload=None, nodeid=None, flags=0):
            jobid = payload["id"]
            outstanding.add(jobid)
            most[0] = max(most[0], len(outstanding))

            class Future:
                def get(self):
                    outstanding.discard(jobid)
                    if jobid % 7 == 0:
                        raise OSError(errno.ENOENT, "no such job")
                    return {"jobspec": f'{{"id": {jobid}}}'}
            return Future()

    got = why.lookups(Handle(), list(range(1, 101)), "jobspec", pace=4)
    assert most[0] == 4 and not outstanding
    assert sorted(got) == list(range(1, 101))
    assert isinstance(got[14], OSError) and got[15] == '{"id": 15}'
