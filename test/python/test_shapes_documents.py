"""jobspec.shape, read_jobspec, validate_jobspec, compile, workflow and allocate."""
import json
import os
import pickle
import subprocess
import warnings

import pytest

import jobspec


def test_shape_compiles_to_resources():
    assert jobspec.shape("slot=2/core") == [
        {"type": "slot", "count": 2, "label": "default", "with": [{"type": "core", "count": 1}]}
    ]


def test_shape_counts_dict_and_string():
    assert jobspec.shape("slot=3-30/node")[0]["count"] == {
        "min": 3,
        "max": 30,
        "operator": "+",
        "operand": 1,
    }
    assert jobspec.shape("slot=3-30/node", counts="string")[0]["count"] == "3-30"
    assert jobspec.shape("slot=2+/node", counts="string")[0]["count"] == "2+"
    with pytest.raises(ValueError):
        jobspec.shape("slot/node", counts="list")


def test_shape_default_label():
    assert jobspec.shape("slot/node", default_label="task")[0]["label"] == "task"


def test_shape_error_carries_diagnostics_and_caret():
    with pytest.raises(jobspec.Error) as info:
        jobspec.shape("slot=3-1/core")
    e = info.value
    assert isinstance(e, ValueError)
    assert str(e) == (
        "error[shape.range-order]: range maximum 1 is below its minimum 3\n"
        "  slot=3-1/core\n"
        "       ^~~"
    )
    [d] = e.diagnostics
    assert (d.code, d.severity, d.line, d.column, d.offset, d.length) == (
        "shape.range-order",
        "error",
        1,
        6,
        5,
        3,
    )
    assert d.message == "range maximum 1 is below its minimum 3"
    assert str(d) == "error[shape.range-order]: range maximum 1 is below its minimum 3"


def test_error_pickles():
    with pytest.raises(jobspec.Error) as info:
        jobspec.shape("slot=3-1/core")
    copy = pickle.loads(pickle.dumps(info.value))
    assert str(copy) == str(info.value)
    assert copy.diagnostics == info.value.diagnostics


def test_shape_rejects_non_str():
    with pytest.raises(TypeError):
        jobspec.shape(4)


def test_shape_warning_goes_through_warnings():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = jobspec.shape("node{colour:red}")
    assert result == [{"type": "node", "count": 1, "colour": "red"}]
    [w] = caught
    assert issubclass(w.category, jobspec.JobspecWarning)
    assert w.message.code == "jobspec.unknown-vertex-key"
    assert w.message.diagnostic.severity == "warning"
    assert "warning[jobspec.unknown-vertex-key]" in str(w.message)
    assert w.filename == __file__


def test_shape_strict_turns_warnings_into_errors():
    with pytest.raises(jobspec.Error) as info:
        jobspec.shape("node{colour:red}", strict=True)
    assert info.value.diagnostics[0].code == "jobspec.unknown-vertex-key"


JOB = """\
version: 1
resources:
  - type: slot
    count: 1
    label: default
    with:
      - type: core
        count: 2
tasks:
  - command: [hostname]
    slot: default
    count: {per_slot: 1}
attributes:
  system:
    duration: 60
"""


def test_read_jobspec_yaml_json_and_dict():
    doc = jobspec.read_jobspec(JOB)
    assert doc["resources"][0]["with"] == [{"type": "core", "count": 2}]
    assert doc["tasks"][0]["command"] == ["hostname"]
    assert jobspec.read_jobspec(json.dumps(doc)) == doc
    assert jobspec.read_jobspec(doc, v1=True) == doc
    assert jobspec.read_jobspec(JOB.encode(), format="yaml") == doc


def test_read_jobspec_errors_have_pointer_and_line():
    bad = JOB.replace("slot: default", "slot: nosuch")
    with pytest.raises(jobspec.Error) as info:
        jobspec.read_jobspec(bad)
    [d] = info.value.diagnostics
    assert d.code == "jobspec.unknown-slot"
    assert d.pointer == "/tasks/0/slot"
    assert d.line == 11
    assert "slot: nosuch" in str(info.value)


def test_validate_jobspec_returns_diagnostics():
    assert jobspec.validate_jobspec(JOB) == []
    found = jobspec.validate_jobspec(JOB.replace("count: 2", "count: 0"))
    assert [d.severity for d in found] == ["error"]
    assert all(isinstance(d, jobspec.Diagnostic) for d in found)
    with pytest.raises(TypeError):
        jobspec.validate_jobspec(42)


def test_the_fluxion_dialect():
    two_slots = {"version": 9999, "attributes": {},
                 "resources": [{"type": "slot", "count": 1, "label": "a",
                                "with": [{"type": kind, "count": 1}]}
                               for kind in ("core", "gpu")],
                 "tasks": [{"command": ["x"], "slot": "b", "count": {"per_slot": 1}}]}
    assert [d.code for d in jobspec.validate_jobspec(two_slots)] == [
        "jobspec.duplicate-label", "jobspec.unknown-slot"]
    assert jobspec.validate_jobspec(two_slots, dialect="fluxion") == []
    assert jobspec.read_jobspec(two_slots, dialect="fluxion")["version"] == 9999
    two_slots["version"] = 10000
    with pytest.raises(jobspec.Error, match="fluxion.version"):
        jobspec.check_jobspec(two_slots, dialect="fluxion")
    with pytest.raises(ValueError, match="dialect must be 'rfc' or 'fluxion'"):
        jobspec.validate_jobspec(two_slots, dialect="sched")


def test_check_jobspec_gives_the_verdict_and_returns_warnings():
    assert jobspec.check_jobspec(JOB) == []
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing is issued: the warnings are returned
        [w] = jobspec.check_jobspec(JOB.replace("duration: 60", "duration: 60\n    fooo: 1"))
    assert isinstance(w, jobspec.JobspecWarning)
    assert w.code == "jobspec.unknown-system-attribute"
    assert w.summary.startswith("jobspec.unknown-system-attribute at /attributes/system/fooo: ")
    with pytest.raises(jobspec.Error) as info:
        jobspec.check_jobspec(JOB.replace("duration: 60", "duration: 60\n    fooo: 1"),
                              strict=True)
    assert info.value.summary == w.summary
    with pytest.raises(jobspec.Error) as info:
        jobspec.check_jobspec(JOB.replace("count: 2", "count: 0").replace("slot: default",
                                                                          "slot: x"))
    # One line of at most 159 bytes, as a Flux plugin's verdict: the errors that fit.
    assert info.value.summary == (
        "jobspec.count-not-positive at /resources/0/with/0/count: 'count' must be at least "
        "1, not 0; and 1 more")
    assert "\n" not in info.value.summary
    assert jobspec._jobspec.FLUX_VERDICT_BYTES == 159
    long_label = JOB.replace("slot: default", "slot: " + "é" * 3000)
    with pytest.raises(jobspec.Error) as info:
        jobspec.check_jobspec(long_label)
    assert info.value.summary.startswith("jobspec.unknown-slot at /tasks/0/slot: ")
    assert info.value.summary.endswith("...")
    assert len(info.value.summary.encode()) <= 159
    assert pickle.loads(pickle.dumps(info.value)).summary == info.value.summary


def test_flux_instance_refuses_what_flux_cannot_hold():
    ranks = JOB.replace("duration: 60", "duration: 60\n    constraints: {ranks: ['5']}")
    assert jobspec.check_jobspec(ranks) == []
    assert jobspec.check_jobspec(ranks, flux_instance=True) == []
    assert jobspec.check_jobspec(ranks, flux_instance=6) == []
    with pytest.raises(jobspec.Error, match="flux.rank-range"):
        jobspec.check_jobspec(ranks, flux_instance=5)
    [d] = jobspec.validate_jobspec(JOB.replace("count: 2", "count: '1,2147483648'"),
                                   flux_instance=True)
    assert d.code == "flux.count"
    assert jobspec.read_jobspec(ranks, flux_instance=8)["attributes"]["system"]["constraints"] \
        == {"ranks": ["5"]}
    with pytest.raises(ValueError, match="positive"):
        jobspec.check_jobspec(JOB, flux_instance=0)
    with pytest.raises(TypeError, match="flux_instance"):
        jobspec.check_jobspec(JOB, flux_instance="yes")


def test_document_limits():
    assert jobspec.validate_jobspec(JOB, limits={"max_input_bytes": len(JOB)}) == []
    [d] = jobspec.validate_jobspec(JOB, limits={"max_input_bytes": len(JOB) - 1})
    assert d.code == "limit.input-size"
    with pytest.raises(jobspec.Error) as info:
        jobspec.read_jobspec(JOB, limits={"max_depth": 2})
    assert info.value.diagnostics[0].code == "limit.depth"
    with pytest.raises(jobspec.Error):
        jobspec.check_jobspec(JOB, limits={"max-diagnostics": 1, "max_input_bytes": 10})
    for bad in ({"max_depth": 0}, {"max_depth": 1001}, {"max_bytes": 5},
                {"max_input_bytes": 2**64}):
        with pytest.raises(ValueError, match="limits"):
            jobspec.validate_jobspec(JOB, limits=bad)
    for bad in ({"max_depth": "3"}, {"max_depth": True}, {3: 3}, [1, 2]):
        with pytest.raises(TypeError):
            jobspec.validate_jobspec(JOB, limits=bad)


def test_v1_rules():
    node_core = {
        "version": 1,
        "resources": [{"type": "node", "count": 1, "with": [{"type": "core", "count": 1}]}],
        "tasks": [{"command": ["x"], "slot": "default", "count": {"per_slot": 1}}],
        "attributes": {"system": {"duration": 0}},
    }
    codes = {d.code for d in jobspec.validate_jobspec(node_core, v1=True)}
    assert "v1.graph-shape" in codes


def cli_compile(arguments, environment):
    """What `jobspec compile ARGUMENTS` prints, run with exactly `environment`."""
    done = subprocess.run([os.environ["JOBSPEC"], "compile", *arguments], env=environment,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


@pytest.mark.parametrize("arguments, keywords", [
    (["-N2", "-n4", "-c2", "-t", "5m", "--env=-*", "--env=A=1", "-S", "system.queue=debug",
      "--setattr=user.n=3", "--cwd=/tmp", "hostname"],
     dict(nodes=2, ntasks=4, cores_per_task=2, time_limit="5m", env=["-*", "A=1"],
          setattr={"system.queue": "debug", "user.n": 3}, cwd="/tmp")),
    (["--resources-shape=slot=2/core", "--requires=ssd", "--requires=-host:a",
      "--dependency=afterok:ƒ2", "--begin-time=+1h", "-x", "true"],
     dict(resources_shape="slot=2/core", requires=["ssd", "-host:a"],
          dependency="afterok:ƒ2", begin_time="+1h", exclusive=True)),
    (["--submit", "-n2", "-g1", "--job-name=j", "--output=out", "-o", "cpu-affinity=off",
      "app", "-c", "4"],
     dict(kind="submit", ntasks=2, gpus_per_task=1, job_name="j", output="out",
          setopt={"cpu-affinity": "off"})),
])
def test_compile_is_jobspec_compile(arguments, keywords):
    environment = {"PATH": "/usr/bin", "HOME": "/root", "X": "1"}
    command = arguments[arguments.index("app"):] if "app" in arguments else arguments[-1:]
    got = jobspec.compile(command, environ=environment, **keywords)
    expected = cli_compile(arguments, environment)
    # begin-time is computed from the clock: equal within the seconds between the two runs.
    for doc in (got, expected):
        for d in doc["attributes"]["system"].get("dependencies", []):
            if d["scheme"] == "begin-time":
                d["value"] = round(float(d["value"]) / 100)
    assert got == expected


def test_compile_takes_values_typed():
    # setattr and setopt values are set as the values they are, not as text read again:
    # a str stays a str where flux's command line would read "1" as a number.
    got = jobspec.compile(["app"], environ={}, setattr={"user.s": "1", "user.l": [1, {"a": None}]},
                          setopt={"x": "2", "y": 2})
    assert got["attributes"]["user"] == {"s": "1", "l": [1, {"a": None}]}
    options = got["attributes"]["system"]["shell"]["options"]
    assert (options["x"], options["y"]) == ("2", 2)
    assert cli_compile(["-S", "user.s=1", "app"], {})["attributes"]["user"] == {"s": 1}
    # A typed attribute is lowered by its type, at its pointer.
    with pytest.raises(jobspec.Error) as info:
        jobspec.compile(["app"], environ={}, setattr={"system.duration": "5"})
    [d] = info.value.diagnostics
    assert (d.code, d.pointer) == ("jobspec.key-type", "/attributes/system/duration")
    # Options by name: an unknown one is refused as flux's parser refuses it.
    with pytest.raises(jobspec.Error) as info:
        jobspec.compile(["app"], nodse=2)
    assert info.value.diagnostics[0].code == "usage.unknown-option"
    # The command is the command, even when it looks like an option.
    assert jobspec.compile(["-x", "y"], environ={})["tasks"][0]["command"] == ["-x", "y"]


def test_compile_batch_script(tmp_path):
    script = tmp_path / "job.sh"
    script.write_text("#!/bin/sh\n#flux: -N2\n#flux: --queue=debug -t 10\nhostname\n")
    environment = {"PATH": "/usr/bin"}
    got = jobspec.compile([str(script)], kind="batch", time_limit="20", environ=environment)
    assert got == cli_compile(["--batch", "-t", "20", str(script)], environment)
    system = got["attributes"]["system"]
    assert system["queue"] == "debug" and system["duration"] == 1200.0
    from_text = jobspec.compile(["job.sh"], kind="batch", script=script.read_text(),
                                time_limit="20", environ=environment)
    assert from_text["resources"] == got["resources"]


def test_compile_errors():
    with pytest.raises(jobspec.Error) as info:
        jobspec.compile(["x"], bogus_option=1)
    assert info.value.diagnostics[0].code == "usage.unknown-option"
    with pytest.raises(jobspec.Error) as info:
        jobspec.compile(["x"], resources_shape="slot=0/core")
    [d] = info.value.diagnostics
    assert (d.code, d.source, d.offset, d.column) == ("shape.count-not-positive",
                                                      "--resources-shape", 5, 6)
    assert "  --> --resources-shape\n  slot=0/core\n       ^" in str(info.value)
    with pytest.raises(jobspec.Error) as info:
        jobspec.compile(["x"], requires="ssd and (")
    [d] = info.value.diagnostics
    assert (d.source, d.offset) == ("--requires", 8)
    # In Fluxion's dialect, what its reader refuses in the jobspec built is an error.
    assert jobspec.compile(["x"], resources_shape="slot=1/core=2,4")["version"] == 1
    with pytest.raises(jobspec.Error) as info:
        jobspec.compile(["x"], resources_shape="slot=1/core=2,4", dialect="fluxion")
    assert [d.code for d in info.value.diagnostics] == ["fluxion.count"]
    # Files that options name are read within the limits (/dev/zero used to exhaust memory).
    with pytest.raises(jobspec.Error) as info:
        jobspec.compile(["x"], add_file="z=/dev/zero")
    assert info.value.diagnostics[0].code == "limit.input-size"
    # One problem, one warning: the jobspec is checked once.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        jobspec.compile(["x"], env_none=True, setattr={"system.fooo": 1}, dependency="after:1")
    assert sorted(w.message.code for w in caught) == ["dependency.deprecated-scheme",
                                                      "jobspec.unknown-system-attribute"]
    with pytest.raises(jobspec.Error) as info:
        jobspec.compile(["x"], time_limit="soon")
    assert info.value.diagnostics[0].code == "submit.value"
    with pytest.raises(jobspec.Error) as info:
        jobspec.compile(["job.sh"], kind="batch", script="#!/bin/sh\n#flux: --bogus\n")
    assert info.value.diagnostics[0].code == "directive.option"
    assert info.value.diagnostics[0].line == 2
    with pytest.raises(ValueError):
        jobspec.compile(["x"], kind="srun")


def test_parse_duration():
    assert jobspec.parse_duration("1.5h") == 5400
    with pytest.raises(ValueError):
        jobspec.parse_duration("1x")


def test_workflow():
    jobs = [
        {"name": "a", "id": "ƒ2"},
        {"name": "b", "dependencies": ["afterok:ƒ2"]},
    ]
    result = jobspec.workflow(jobs)
    assert result["order"] == ["a", "b"]
    assert result["edges"][0]["from"] == "a"


def test_allocate(r_text):
    doc = jobspec.compile(["x"], nodes=2)
    got = jobspec.allocate(doc, r_text)
    assert isinstance(got, jobspec.ResourceSet)
    assert str(got.ranks) == "0-1"
    with pytest.raises(jobspec.Error):
        jobspec.allocate(jobspec.compile(["x"], nodes=9), r_text)


def test_allocate_free_and_queue(r_text, tmp_path):
    # Any canonical jobspec: a slot of two whole nodes.
    doc = {"version": 1,
           "resources": [{"type": "slot", "count": 1, "label": "task", "with": [
               {"type": "node", "count": 2, "with": [{"type": "core", "count": 1}]}]}],
           "tasks": [{"command": ["app"], "slot": "task", "count": {"per_slot": 1}}],
           "attributes": {"system": {"duration": 0}}}
    whole = jobspec.allocate(doc, r_text)
    assert whole.nslots == 1 and len(whole.ranks) == 2
    # Nothing free: pending, not unsatisfiable.
    nothing = jobspec.ResourceSet(r_text) - jobspec.ResourceSet(r_text)
    with pytest.raises(jobspec.Error) as waiting:
        jobspec.allocate(doc, r_text, free=nothing)
    assert waiting.value.diagnostics[0].code == "match.pending"
    # A queue that requires a property no node has.
    conf = tmp_path / "queues.toml"
    conf.write_text('[queues.gold]\nrequires = ["gold"]\n')
    with pytest.raises(jobspec.Error) as refused:
        jobspec.allocate(doc, r_text, config=conf, queue="gold")
    codes = [d.code for d in refused.value.diagnostics]
    assert codes == ["jobspec.unsatisfiable", "match.constraint"]
    assert "as queue 'gold' requires" in refused.value.diagnostics[1].message
    # Without queue=, the jobspec's own system.queue.
    doc["attributes"]["system"]["queue"] = "gold"
    with pytest.raises(jobspec.Error) as own:
        jobspec.allocate(doc, r_text, config=conf)
    assert "as queue 'gold' requires" in own.value.diagnostics[1].message
    with pytest.raises(jobspec.Error) as unknown:
        jobspec.allocate(doc, r_text, config=conf, queue="lead")
    assert unknown.value.diagnostics[0].code == "match.queue"


def test_allocate_fluxion_xor_slots():
    # Four gpus a node, or 16 cores: the first that fits wins, as in Fluxion.
    job = {"version": 9999,
           "resources": [{"type": "node", "count": 1, "with": [
               {"type": "xor_slot", "count": 1, "label": "g",
                "with": [{"type": "core", "count": 1}, {"type": "gpu", "count": 4}]},
               {"type": "xor_slot", "count": 1, "label": "c",
                "with": [{"type": "core", "count": 16}]}]}],
           "tasks": [{"command": ["app"], "slot": "default", "count": {"per_slot": 1}}],
           "attributes": {"system": {"duration": 60}}}
    cores_only = ('{"version":1,"execution":{"R_lite":[{"rank":"0","children":{"core":"0-15"}}],'
                  '"nodelist":["n0"]}}')
    assert jobspec.allocate(job, cores_only, dialect="fluxion").summary() == "rank0/core[0-15]"
    with pytest.raises(jobspec.Error) as refused:
        jobspec.allocate(job, cores_only)
    # RFC 14: a task names a labelled slot, and "default" is none.
    assert refused.value.diagnostics[0].code == "jobspec.unknown-slot"


def test_explain():
    assert "range" in jobspec.explain("shape.range-order")
    assert jobspec.explain("no.such-code") is None


def test_parse_config(tmp_path):
    # flux R parse-config: a directory's *.toml files merged in name order, as flux-core does.
    (tmp_path / "resource.toml").write_text(
        '[[resource.config]]\nhosts = "foo[0-2]"\ncores = "0-1"\n'
        '[[resource.config]]\nhosts = "foo0"\nproperties = ["login"]\n')
    (tmp_path / "notes.txt").write_text("not configuration")
    r = jobspec.parse_config(tmp_path)
    assert (r.summary(), str(r.nodelist)) == ("rank[0-2]/core[0-1]", "foo[0-2]")
    assert str(r.properties["login"]) == "0"
    # resource.path names R; resource.scheduling a JSON object for its scheduling key.
    (tmp_path / "r.json").write_text(str(jobspec.ResourceSet(
        '{"version":1,"execution":{"R_lite":[{"rank":"0-1","children":{"core":"0-3"}}],'
        '"nodelist":["n[0-1]"]}}')))
    (tmp_path / "s.json").write_text('{"writer": "TreePool"}')
    (tmp_path / "path.toml").write_text(
        f'[resource]\npath = "{tmp_path}/r.json"\nscheduling = "{tmp_path}/s.json"\n')
    r = jobspec.parse_config(tmp_path / "path.toml")
    assert r.summary() == "rank[0-1]/core[0-3]"
    # Each problem is located in its file.
    (tmp_path / "bad.toml").write_text('[[resource.config]]\nhosts = "foo0"\ncores = "0-"\n')
    with pytest.raises(jobspec.Error) as bad:
        jobspec.parse_config(tmp_path / "bad.toml")
    assert bad.value.diagnostics[0].code == "R.idset"
    assert f"{tmp_path}/bad.toml:3:9" in str(bad.value)
    with pytest.raises(OSError):
        jobspec.parse_config(tmp_path / "absent.toml")


def test_allocate_fluxion_or_slots():
    # Two slots of 4 cores, or of 2 cores and a gpu, on one node: any mix of the two.
    job = {"version": 9999,
           "resources": [{"type": "node", "count": 1, "with": [
               {"type": "slot", "count": 2, "label": "t", "with": [{"type": "core", "count": 4}]},
               {"type": "slot", "count": 2, "label": "t",
                "with": [{"type": "core", "count": 2}, {"type": "gpu", "count": 1}]}]}],
           "tasks": [{"command": ["app"], "slot": "t", "count": {"per_slot": 1}}],
           "attributes": {"system": {"duration": 60}}}
    six_cores_a_gpu = ('{"version":1,"execution":{"R_lite":[{"rank":"0","children":'
                       '{"core":"0-5","gpu":"0"}}],"nodelist":["n0"]}}')
    got = jobspec.allocate(job, six_cores_a_gpu, dialect="fluxion")
    assert got.summary() == "rank0/core[0-5],gpu0"
    with pytest.raises(jobspec.Error) as refused:
        jobspec.allocate(job, '{"version":1,"execution":{"R_lite":[{"rank":"0","children":'
                              '{"core":"0-4"}}],"nodelist":["n0"]}}', dialect="fluxion")
    assert refused.value.diagnostics[0].code == "jobspec.unsatisfiable"
    assert "2 task slots of 4 cores or of 2 cores and 1 gpu" in refused.value.diagnostics[0].message


FLUXION_GRAPH = {"graph": {
    "nodes": [{"id": "0", "metadata": {"type": "cluster", "paths": {"containment": "/c0"}}}]
    + [{"id": str(1 + 4 * n), "metadata": {"type": "node", "rank": n, "name": f"n{n}",
                                           "paths": {"containment": f"/c0/n{n}"}}}
       for n in range(2)]
    + [{"id": str(2 + 4 * n + c), "metadata": {"type": "core", "id": c,
                                               "paths": {"containment": f"/c0/n{n}/core{c}"}}}
       for n in range(2) for c in range(3)],
    "edges": [{"source": "0", "target": str(1 + 4 * n)} for n in range(2)]
    + [{"source": str(1 + 4 * n), "target": str(2 + 4 * n + c)}
       for n in range(2) for c in range(3)]}}


def test_allocate_on_fluxions_graph():
    # Fluxion's resource graph (JGF) wherever R goes: placed as Fluxion's traverser places
    # the job, the allocation R with the graph of what it took.
    job = {"version": 9999,
           "resources": [{"type": "slot", "count": 2, "label": "t", "with": [
               {"type": "node", "count": 1, "with": [{"type": "core", "count": 3}]}]}],
           "tasks": [{"command": ["app"], "slot": "t", "count": {"per_slot": 1}}],
           "attributes": {"system": {"duration": 60}}}
    got = jobspec.allocate(job, json.dumps(FLUXION_GRAPH), dialect="fluxion")
    assert got.summary() == "rank[0-1]/core[0-2]"
    graph = json.loads(str(got))["scheduling"]["graph"]
    assert sorted(v["metadata"]["type"] for v in graph["nodes"] if v["metadata"]["exclusive"]) \
        == ["core"] * 6 + ["node"] * 2
    job["resources"][0]["count"] = 3
    with pytest.raises(jobspec.Error) as refused:
        jobspec.allocate(job, FLUXION_GRAPH, dialect="fluxion")
    assert refused.value.diagnostics[0].code == "jobspec.unsatisfiable"
