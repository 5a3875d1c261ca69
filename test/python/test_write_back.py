"""jobspec.shape_of and jobspec.query_of: resources and constraints written back as the
shape and the query that compile to them, with the span of each part (issue 59)."""
import json

import pytest

import jobspec


def walk(value, pointer, root):
    for step in pointer[len(root):].split("/")[1:]:
        value = value[int(step)] if isinstance(value, list) else value[step]
    return value


@pytest.mark.parametrize("query", ["ssd", "ssd and not rank:1", "(a or b) and c",
                                   "host:foo[1-3] or -ssd", "a and (c or not (d and e))",
                                   "'a b' and 'not' or ^slow or host:'a:b'"])
def test_the_query_of_a_constraint_reads_back_as_it_and_its_spans_are_its_terms(query):
    constraint = jobspec.constraint(query)
    written, spans = jobspec.query_of(constraint, spans=True, pointer="/c")
    assert jobspec.constraint(written) == constraint
    assert spans["/c"] == (0, len(written))
    for pointer, (start, end) in spans.items():
        part = walk(constraint, pointer, "/c")
        # An operator reads back as itself; a property is its name.
        assert (jobspec.constraint(written[start:end]) if isinstance(part, dict)
                else written[start:end].strip("'")) == part


def test_a_constraint_no_query_says_is_refused_where_it_is():
    for constraint, pointer in (({"and": []}, ""), ({"or": [{"ranks": []}]}, "/or/0"),
                                ({"not": [{"or": []}]}, "/not/0"),
                                ({"properties": ["a", "b,c"]}, "/properties/1"),
                                ({"properties": ["a\x1b[2J"]}, "/properties/0")):
        with pytest.raises(jobspec.Error) as e:
            jobspec.query_of(constraint)
        assert [(d.code, d.pointer) for d in e.value.diagnostics] == \
            [("query.unwritable", pointer)]


def test_another_users_text_is_kept_exact_for_whoever_shows_it_to_escape():
    for name in ("a\rnext in line", "\u202eevil", "x\x9by", "tab\there"):
        written = jobspec.query_of({"properties": [name]})
        assert name in written
        assert jobspec.constraint(written) == {"properties": [name]}


def test_several_hosts_or_ranks_are_any_of_them():
    constraint = {"and": [{"ranks": ["0", "2-3"]}, {"hostlist": ["a", "b[1-2]"]}]}
    assert jobspec.query_of(constraint) == "(rank:0 or rank:2-3) and (host:a or host:b[1-2])"
    # A property with a ':' is written after its operator, as flux reads it.
    assert jobspec.query_of({"properties": ["x:y", "z"]}) == "properties:x:y and z"


def first_label(resources):
    for vertex in resources:
        label = vertex.get("label") if vertex["type"] == "slot" else \
            first_label(vertex.get("with", []))
        if label is not None:
            return label
    return None


def document(resources):
    return {"version": 1, "resources": resources,
            "tasks": [{"command": ["true"], "slot": first_label(resources),
                       "count": {"per_slot": 1}}],
            "attributes": {"system": {"duration": 0}}}


def test_the_shape_of_resources_names_each_vertex():
    resources = [{"type": "node", "count": {"min": 2}, "exclusive": True,
                  "with": [{"type": "slot", "count": 1, "label": "task",
                            "with": [{"type": "socket", "count": 2,
                                      "with": [{"type": "core", "count": 4}]},
                                     {"type": "gpu", "count": 1}]}]}]
    written, spans = jobspec.shape_of(document(resources), default_label="task", spans=True)
    assert written == "node=2+{x}/slot/[socket=2/core=4;gpu]"
    assert {p: written[a:b] for p, (a, b) in spans.items()} == {
        "/resources/0": written, "/resources/0/with/0": "slot/[socket=2/core=4;gpu]",
        "/resources/0/with/0/with/0": "socket=2/core=4",
        "/resources/0/with/0/with/0/with/0": "core=4",
        "/resources/0/with/0/with/1": "gpu"}
    # The label is written unless it is the default one.
    assert jobspec.shape_of(document(resources)).startswith("node=2+{x}/slot{task}/")
    assert jobspec.shape(jobspec.shape_of(document(resources)))[0]["with"][0]["label"] == "task"


@pytest.mark.filterwarnings("ignore::jobspec.JobspecWarning")  # its keys foo and bar
def test_the_shape_of_what_a_shape_says_compiles_back_to_it():
    for shape in ("slot=4{nodelevel}/node{-x}/socket=2+/core=4+",
                  "[cluster/slot=2{ib}/node/[memory=4{unit:GB};ib10g];"
                  "switch/slot=2{bicore}/node/core=2]",
                  'node=1,2,3/slot{a,x,foo:"a b",bar:{x:1,y:[true,null,"true",2.5]}}/core=2+:1',
                  'Slot=2/"SLOT"/"x"=1-9:2:*{"x":1,"+y",-z}',
                  'slot{"é ñ\\u0007"}/core{"unit":"\\u202e"}'):
        # As the document reads them: its count "1-3" is a range, where the shape's
        # idset 1,2,3 is written "1-3" in JSON too.
        resources = jobspec.read_jobspec(document(jobspec.shape(shape)))["resources"]
        written = jobspec.shape_of(document(resources), default_label="default")
        assert jobspec.shape(written) == resources, written
        # Another user's text is never written raw to a terminal.
        assert "\x07" not in written and "\u202e" not in written


def test_what_no_shape_says_is_refused_where_it_is():
    big = document([{"type": "slot", "count": 1, "label": "task",
                     "with": [{"type": "core", "count": 1, "size": 2 ** 64 - 1}]}])
    with pytest.raises(jobspec.Error) as e:
        jobspec.shape_of(json.dumps(big))
    assert [(d.code, d.pointer) for d in e.value.diagnostics] == \
        [("shape.unwritable", "/resources/0/with/0/size")]
    # An invalid jobspec is refused as read_jobspec refuses it.
    with pytest.raises(jobspec.Error) as e:
        jobspec.shape_of({"version": 1})
    assert e.value.diagnostics[0].code.startswith("jobspec.")
