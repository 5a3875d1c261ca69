"""jobspec.compat.flux: flux-core 0.88's shape and constraint parsers, replaced."""
import json
import os
import random
import re
import subprocess
import sys

import pytest

import jobspec
from jobspec.compat.flux import (
    ConstraintParser,
    ConstraintSyntaxError,
    MiniConstraintParser,
    ShapeParser,
    ShapeSyntaxError,
)

import flux_shim


def needs_flux_source(found):
    """Skips without flux-core's source, except where JOBSPEC_REQUIRE_FLUX says it must be
    there (as .ci/run does): then it fails."""
    if found is None:
        message = f"flux-core's source is not at {flux_shim.FLUX_CORE_SOURCE}"
        if os.environ.get("JOBSPEC_REQUIRE_FLUX"):
            pytest.fail(message + ", but JOBSPEC_REQUIRE_FLUX is set")
        pytest.skip(message)
    return found


@pytest.mark.parametrize(
    "path, tests",
    [
        (("t", "python", "t0045-job-shape-parser.py"), 2),
        (("t", "python", "t0027-constraint-parser.py"), 5),
    ],
)
def test_flux_core_unit_tests_pass_unchanged(path, tests):
    source = needs_flux_source(flux_shim.flux_source(*path))
    result = flux_shim.run_flux_test(source)
    problems = [f"{t}: {trace}" for t, trace in result.failures + result.errors]
    assert problems == []
    assert result.testsRun == tests


def test_shim_sees_a_failure(tmp_path):
    """The shim reports a failing flux test (so the test above can fail)."""
    test = tmp_path / "t9999-fail.py"
    test.write_text(
        "import unittest\nimport subflux\nfrom flux.shape.parser import ShapeParser\n"
        "class T(unittest.TestCase):\n"
        "    def test_x(self):\n"
        "        self.assertEqual(ShapeParser().parse('slot/node'), [])\n"
    )
    result = flux_shim.run_flux_test(str(test))
    assert result.testsRun == 1 and len(result.failures) == 1


def test_shape_parser_results_are_flux_shaped():
    p = ShapeParser()
    assert p.default_slot_label == "task" and p.range_as_dict is False
    assert p.parse("slot=4{nodelevel}/node{-x}/socket=2+/core=4+") == [
        {
            "type": "slot",
            "count": 4,
            "label": "nodelevel",
            "with": [
                {
                    "type": "node",
                    "count": 1,
                    "exclusive": False,
                    "with": [
                        {
                            "type": "socket",
                            "count": "2+",
                            "with": [{"type": "core", "count": "4+"}],
                        }
                    ],
                }
            ],
        }
    ]
    assert p.query == "slot=4{nodelevel}/node{-x}/socket=2+/core=4+"
    assert p.parse("slot=4,9,16,25/node")[0]["count"] == "4,9,16,25"
    assert p.parse("slot/node")[0]["label"] == "task"


def test_shape_parser_range_as_dict():
    p = ShapeParser()
    p.range_as_dict = True
    assert p.parse("node=3-30")[0]["count"] == {"min": 3, "max": 30, "operand": 1, "operator": "+"}
    assert list(p.parse("node=3-30")[0]["count"]) == ["min", "max", "operand", "operator"]
    assert p.parse("node=2+")[0]["count"] == {"min": 2}
    assert p.parse("node=3+:2")[0]["count"] == {
        "min": 3,
        "max": float("inf"),
        "operand": 2,
        "operator": "+",
    }
    assert p.parse("node=4,9")[0]["count"] == "4,9"


@pytest.mark.parametrize(
    "shape",
    ["slot=3-1/core", "node{x,-x}", "node{exclusive:1}", "slot=2{bla}}", "slot/", ""],
)
def test_shape_parser_raises_flux_exception_with_diagnostics(shape):
    with pytest.raises(ShapeSyntaxError) as info:
        ShapeParser().parse(shape)
    e = info.value
    assert not isinstance(e, ValueError)  # flux's class derives from Exception only
    assert e.args == (str(e),)
    assert e.diagnostics and e.diagnostics[0].severity == "error"
    assert "error[" in str(e)


def test_shape_parser_takes_plys_arguments_only():
    ShapeParser(optimize=False, debug=False, write_tables=False, outputdir="/nonexistent")
    with pytest.raises(TypeError):
        ShapeParser(foo=1)
    with pytest.raises(TypeError):
        ShapeParser().parse(None)


def test_shape_parser_no_warnings(recwarn):
    assert ShapeParser().parse("node{colour:red}") == [{"type": "node", "count": 1, "colour": "red"}]
    assert len(recwarn) == 0


class Named(ConstraintParser):
    operator_map = {None: "name"}


class T(ConstraintParser):
    operator_map = {None: "t", "a": "op-a"}


# (parser, query, flux-core 0.88's result), results observed by running flux's parser
FLUX_RESULTS = [
    (MiniConstraintParser, "ssd and not host:foo[1-3]",
     {"and": [{"properties": ["ssd"]}, {"not": [{"hostlist": ["foo[1-3]"]}]}]}),
    (MiniConstraintParser, "a,b c", {"properties": ["a", "b", "c"]}),
    (MiniConstraintParser, "a b a", {"properties": ["a", "b", "a"]}),
    (MiniConstraintParser, "a|b c",
     {"and": [{"or": [{"properties": ["a"]}, {"properties": ["b"]}]}, {"properties": ["c"]}]}),
    (MiniConstraintParser, "not ssd -host:foo",
     {"not": [{"and": [{"properties": ["ssd"]}, {"not": [{"hostlist": ["foo"]}]}]}]}),
    (MiniConstraintParser, "a b host:foo c",
     {"and": [{"properties": ["a", "b"]}, {"hostlist": ["foo"]}, {"properties": ["c"]}]}),
    (MiniConstraintParser, "host:foo a b",
     {"and": [{"hostlist": ["foo"]}, {"properties": ["a"]}, {"properties": ["b"]}]}),
    (MiniConstraintParser, "(a|b)|c",
     {"or": [{"properties": ["a"]}, {"properties": ["b"]}, {"properties": ["c"]}]}),
    (MiniConstraintParser, "a && b || c",
     {"or": [{"properties": ["a", "b"]}, {"properties": ["c"]}]}),
    (MiniConstraintParser, "not -a", {"not": [{"not": [{"properties": ["a"]}]}]}),
    (MiniConstraintParser, "AND", {"properties": ["AND"]}),
    (Named, "(a b)(c d)",
     {"and": [{"name": ["a"]}, {"name": ["b"]}, {"and": [{"name": ["c"]}, {"name": ["d"]}]}]}),
    (Named, "x: not a", {"not": [{"x": ["a"]}]}),
    (T, "a or time:11:00am", {"or": [{"t": ["a"]}, {"time": ["11:00am"]}]}),
    (T, "a:b", {"op-a": ["b"]}),
]


@pytest.mark.parametrize("parser, query, expected", FLUX_RESULTS)
def test_constraint_results_match_flux(parser, query, expected):
    assert parser().parse(query) == expected


FLUX_ERRORS = [
    (MiniConstraintParser, "(a", "Unclosed parenthesis in position 0"),
    (MiniConstraintParser, "((a)", "Unclosed parenthesis in position 1"),
    (MiniConstraintParser, "a)",
     "Mismatched parentheses starting at position {self.lexer.last_rparens}."),
    (MiniConstraintParser, "-(a|b)", "Invalid token '(' at position 1"),
    (MiniConstraintParser, "a|", "Unexpected end of input in 'a|'"),
    (MiniConstraintParser, "'a", "Unclosed quote \"'\" at position 1"),
    (MiniConstraintParser, "host:", "Missing argument to token 'host:'"),
    (MiniConstraintParser, "a&&&b", "Invalid token '&' at position 3"),
    (MiniConstraintParser, "a/b:c", "invalid character '/' in operator 'a/b:'"),
    (ConstraintParser, "foo", 'Missing required operator in "foo"'),
    (Named, "4g,host:foo", "invalid character ',' in operator '4g,host:'"),
]


@pytest.mark.parametrize("parser, query, message", FLUX_ERRORS)
def test_constraint_errors_match_flux(parser, query, message):
    with pytest.raises(ConstraintSyntaxError) as info:
        parser().parse(query)
    assert str(info.value) == message


# Pieces of queries that reach every rule of flux's lexer and grammar, and its errors.
QUERY_PIECES = [
    "a", "ssd", "host:foo[1-3]", "rank:0-3", "t:x,y", "x:", "time:11:00am", "'a b'",
    "x:'y z'", '"q"', "'a:'", "''", "'open", "é", "-", "not", "and", "or", "&", "&&", "|",
    "||", "(", ")", "not-x", "andy", "a/b:c", ":v", "a,^b", "\u00a0", "\t", "\u2000",
    "\u200a", "\u200b",
]


def random_query(rng):
    return "".join(rng.choice(QUERY_PIECES) + rng.choice(["", " ", " ", "  "])
                   for _ in range(rng.randint(1, 7)))


def flux_outcome(parser, query):
    try:
        return ("ok", parser.parse(query))
    except Exception as e:  # flux's own class, or SyntaxError from PLY
        return ("error", str(e))


def test_constraint_parser_agrees_with_flux_on_random_queries():
    """The drop-in against flux-core's own parser (PLY), on the same queries and the same
    class-level configurations: the same dict, or the same error message."""
    flux = needs_flux_source(flux_shim.flux_constraint_module())
    configurations = [
        {},
        {"operator_map": {None: "name"}},
        {"operator_map": {None: "t", "a": "op-a"}, "split_values": {"t": ","},
         "combined_terms": {"t"}},
        {"operator_map": MiniConstraintParser.operator_map,
         "split_values": MiniConstraintParser.split_values,
         "combined_terms": MiniConstraintParser.combined_terms},
    ]
    rng = random.Random(32)
    queries = [query for _, query, _ in FLUX_RESULTS + FLUX_ERRORS]
    queries += [random_query(rng) for _ in range(1500)]
    accepted = 0
    for configuration in configurations:
        theirs = type("Flux", (flux.ConstraintParser,), configuration)(write_tables=False)
        ours = type("DropIn", (ConstraintParser,), configuration)()
        for query in queries:
            # flux's lexer keeps a term ending in ':' from a failed parse into the next
            # one; flux makes a parser per use, and this starts each parse afresh too.
            theirs.lexer.pending_token = None
            expected = flux_outcome(theirs, query)
            assert flux_outcome(ours, query) == expected, query
            accepted += expected[0] == "ok"
    compared = len(configurations) * len(queries)
    assert compared / 10 < accepted < compared * 9 / 10  # both outcomes are common


@pytest.mark.parametrize("query", ["rank:a", "foo:bar", "host:foo[5-3]", "a,"])
def test_mini_parser_rejects_what_rfc31_forbids(query):
    with pytest.raises(ConstraintSyntaxError) as info:
        MiniConstraintParser().parse(query)
    assert info.value.diagnostics[0].code.startswith("constraint.")


def test_mini_parser_locates_what_rfc31_forbids():
    # Terms are checked one by one; a bad one sends the whole through the RFC 31 reader,
    # which says where in the result it is and renders it as the command line does.
    with pytest.raises(ConstraintSyntaxError) as info:
        MiniConstraintParser().parse("ssd and not host:foo[5-3]")
    (d,) = info.value.diagnostics
    assert (d.code, d.pointer) == ("constraint.value", "/and/1/not/0/hostlist/0")
    assert str(info.value).startswith("error[constraint.value]: 'foo[5-3]' is not a hostlist")


def test_mini_subclass_combining_terms_is_checked_whole():
    # Every term is valid, but an overriding combine_like_terms builds what RFC 31 forbids.
    class Bogus(MiniConstraintParser):
        def combine_like_terms(self, p1, p2):
            return {"both": [p1, p2]}

    with pytest.raises(ConstraintSyntaxError) as info:
        Bogus().parse("ssd host:foo")
    assert info.value.diagnostics[0].code == "constraint.unknown-operator"
    assert MiniConstraintParser().parse("ssd host:foo") == {
        "and": [{"properties": ["ssd"]}, {"hostlist": ["foo"]}]}


def test_a_method_assigned_to_the_class_after_a_parse_is_called():
    class Late(ConstraintParser):
        operator_map = {None: "t"}

    p = Late()
    assert p.parse("a b") == {"and": [{"t": ["a"]}, {"t": ["b"]}]}
    Late.combine_like_terms = lambda self, p1, p2: {"both": [p1, p2]}
    assert p.parse("a b") == {"both": [{"t": ["a"]}, {"t": ["b"]}]}
    del Late.combine_like_terms
    assert p.parse("a b") == {"and": [{"t": ["a"]}, {"t": ["b"]}]}


def test_a_query_is_a_str():
    with pytest.raises(TypeError, match="a query is a str, not bytes"):
        ConstraintParser().parse(b"a:b")


def test_class_level_configuration():
    class Split(ConstraintParser):
        operator_map = {None: "t"}
        split_values = {"t": ","}

    class Combine(ConstraintParser):
        operator_map = {None: "t"}
        combined_terms = set("t")

    assert Split().parse("t:xx,yy") == {"t": ["xx", "yy"]}
    assert Combine().parse("not (xx and yy)") == {"not": [{"t": ["xx", "yy"]}]}
    assert ConstraintParser.invalid_operator("a/b") == "/"
    assert ConstraintParser.invalid_operator("a.b+c@d-e") is None
    # The rule is C++'s, with this interpreter's letters and digits: it answers as flux's
    # regular expression does for every code point, a lone surrogate too.
    rule = re.compile(r"[^\w.+@-]")
    for cp in range(0x110000):
        c = chr(cp)
        found = rule.search(c)
        assert ConstraintParser.invalid_operator(c) == (found.group() if found else None), hex(cp)
    assert ConstraintParser.invalid_operator("ab\ud800c") == "\ud800"
    with pytest.raises(TypeError, match="expected string or bytes-like object, got 'int'"):
        ConstraintParser.invalid_operator(5)
    # MiniConstraintParser's configuration is the table jobspec's --requires reader uses.
    assert MiniConstraintParser.operator_map == {None: "properties", "host": "hostlist",
                                                 "hosts": "hostlist", "rank": "ranks"}
    assert (MiniConstraintParser.split_values, MiniConstraintParser.combined_terms) == \
        ({"properties": ","}, {"properties"})


def run_module(module, *args):
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        capture_output=True,
        text=True,
        env=dict(os.environ),
    )


def test_shape_command_line():
    done = run_module("jobspec.compat.flux.shape", "slot=4", "/node")
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout == (
        '[{"type": "slot", "count": 4, "label": "task", "with": [{"type": "node", "count": 1}]}]\n'
    )
    done = run_module("jobspec.compat.flux.shape", "-r", "-w", "-l", "x", "slot=3+:2/node")
    assert json.loads(done.stdout.replace("Infinity", "1e999")) == {
        "resources": [
            {
                "type": "slot",
                "count": {"min": 3, "max": float("inf"), "operand": 2, "operator": "+"},
                "label": "x",
                "with": [{"type": "node", "count": 1}],
            }
        ]
    }
    done = run_module("jobspec.compat.flux.shape", "slot=3-1/core")
    assert done.returncode == 1 and "error[shape.range-order]" in done.stderr
    done = run_module("jobspec.compat.flux.shape", "--bogus")
    assert done.returncode == 2 and "shape.parser: error:" in done.stderr
    assert "usage: shape.parser" in run_module("jobspec.compat.flux.shape", "--help").stdout


def test_shape_command_line_yaml():
    pytest.importorskip("yaml")
    done = run_module("jobspec.compat.flux.shape", "--yaml", "slot=2/core")
    assert done.stdout == (
        "- type: slot\n  count: 2\n  label: task\n  with:\n  - type: core\n    count: 1\n\n"
    )


def test_constraint_command_line():
    done = run_module("jobspec.compat.flux.constraint", "test:a", "test:b")
    assert done.stdout == '{"and": [{"test": ["a"]}, {"test": ["b"]}]}\n'
    done = run_module("jobspec.compat.flux.constraint", "--default-op", "properties", "a,b c")
    assert done.stdout == '{"and": [{"properties": ["a,b"]}, {"properties": ["c"]}]}\n'
    done = run_module("jobspec.compat.flux.constraint", "a")
    assert done.returncode == 1 and 'Missing required operator in "a"' in done.stderr
