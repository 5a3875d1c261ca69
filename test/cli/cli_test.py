#!/usr/bin/env python3
"""CLI tests: run the built jobspec binary and check exit codes, stdout and stderr.

usage: cli_test.py PATH-TO-JOBSPEC
"""
import json
import os
import subprocess
import sys
import unittest

JOBSPEC = None


def run(*args, stdin=None, env=None):
    full_env = dict(os.environ)
    full_env.pop("NO_COLOR", None)
    if env:
        full_env.update(env)
    return subprocess.run([JOBSPEC, *args], input=stdin, capture_output=True, text=True,
                          env=full_env, timeout=60)


class Usage(unittest.TestCase):
    def test_version(self):
        for args in (["--version"], ["shape", "--version"]):
            r = run(*args)
            self.assertEqual(r.returncode, 0, args)
            self.assertRegex(r.stdout, r"^jobspec \d+\.\d+\.\d+\n$")

    def test_help(self):
        r = run("--help")
        self.assertEqual(r.returncode, 0)
        self.assertIn("shape", r.stdout)
        r = run("shape", "--help")
        self.assertEqual(r.returncode, 0)
        self.assertIn("Shape syntax", r.stdout)
        self.assertIn("--default-label", r.stdout)

    def test_misuse_exits_2(self):
        for args in ([], ["nosuch"], ["shape"], ["shape", "--format", "xml", "a"],
                     ["shape", "--bogus", "a"], ["shape", "--max-depth", "0", "a"],
                     ["shape", "a", "b"]):
            r = run(*args)
            self.assertEqual(r.returncode, 2, args)
            self.assertEqual(r.stdout, "", args)
            self.assertNotEqual(r.stderr, "", args)


class Shape(unittest.TestCase):
    def test_acceptance_range(self):
        r = run("shape", "slot=3-30/node")
        self.assertEqual(r.returncode, 0)
        self.assertEqual(r.stdout,
                         '[{"type":"slot","count":{"min":3,"max":30,"operator":"+","operand":1},'
                         '"label":"default","with":[{"type":"node","count":1}]}]\n')
        self.assertEqual(r.stderr, "")

    def test_readme_example(self):
        r = run("shape", "slot=4{nodelevel}/node{-x}/socket=2+/core=4+")
        self.assertEqual(r.returncode, 0)
        self.assertEqual(json.loads(r.stdout)[0]["label"], "nodelevel")

    def test_acceptance_caret(self):
        r = run("shape", "slot=3-1/core")
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stdout, "")
        self.assertEqual(r.stderr,
                         "error[shape.range-order]: range maximum 1 is below its minimum 3\n"
                         "  slot=3-1/core\n"
                         "       ^~~\n")

    def test_all_errors_reported(self):
        r = run("shape", "[a=0;b=3-1]")
        self.assertEqual(r.returncode, 1)
        self.assertIn("shape.count-not-positive", r.stderr)
        self.assertIn("shape.range-order", r.stderr)

    def test_diagnostics_json(self):
        r = run("shape", "--diagnostics", "json", "slot=3-1/core")
        self.assertEqual(r.returncode, 1)
        diags = json.loads(r.stderr)
        self.assertEqual(diags, [{"severity": "error", "code": "shape.range-order",
                                  "message": "range maximum 1 is below its minimum 3",
                                  "offset": 5, "length": 3, "line": 1, "column": 6}])

    def test_warnings_and_strict(self):
        r = run("shape", "node{ssd}")
        self.assertEqual(r.returncode, 0)
        self.assertEqual(json.loads(r.stdout), [{"type": "node", "count": 1, "ssd": True}])
        self.assertIn("warning[jobspec.unknown-vertex-key]", r.stderr)
        r = run("shape", "--strict", "node{ssd}")
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stdout, "")
        self.assertIn("error[jobspec.unknown-vertex-key]", r.stderr)

    def test_yaml(self):
        r = run("shape", "--format", "yaml", "slot=2/memory=4+{unit:GB}")
        self.assertEqual(r.returncode, 0)
        self.assertEqual(r.stdout, "- type: slot\n  count: 2\n  label: default\n  with:\n"
                                   "    - type: memory\n      count:\n        min: 4\n"
                                   "      unit: GB\n")

    def test_pretty(self):
        r = run("shape", "--pretty", "core=2")
        self.assertEqual(r.stdout, '[\n  {\n    "type": "core",\n    "count": 2\n  }\n]\n')

    def test_flux_core_options(self):
        r = run("shape", "--counts", "string", "--default-label", "task", "slot=2+/core")
        self.assertEqual(json.loads(r.stdout),
                         [{"type": "slot", "count": "2+", "label": "task",
                           "with": [{"type": "core", "count": 1}]}])

    def test_stdin(self):
        r = run("shape", "-", stdin="slot/core\n")
        self.assertEqual(r.returncode, 0)
        self.assertEqual(json.loads(r.stdout)[0]["with"], [{"type": "core", "count": 1}])

    def test_color(self):
        r = run("shape", "--color", "always", "a=0")
        self.assertIn("\x1b[1;31merror", r.stderr)
        r = run("shape", "--color", "never", "a=0")
        self.assertNotIn("\x1b", r.stderr)
        r = run("shape", "a=0")  # not a terminal
        self.assertNotIn("\x1b", r.stderr)


class Limits(unittest.TestCase):
    def test_deep_brackets(self):
        r = run("shape", "[" * 100000)
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[limit.depth]", r.stderr)
        self.assertLess(len(r.stderr), 2000)

    def test_deep_slashes(self):
        r = run("shape", "a/" * 50000 + "a")
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[limit.depth]", r.stderr)

    def test_depth_option(self):
        shape = "a/" * 70 + "a"
        self.assertEqual(run("shape", shape).returncode, 1)
        self.assertEqual(run("shape", "--max-depth", "100", shape).returncode, 0)

    def test_input_size(self):
        r = run("shape", "--max-input-bytes", "10", "-", stdin="core=" + "1" * 20)
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[limit.input-size]", r.stderr)

    def test_huge_number(self):
        r = run("shape", "core=" + "9" * 5000)
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[limit.integer]", r.stderr)


if __name__ == "__main__":
    JOBSPEC = sys.argv.pop(1)
    unittest.main(verbosity=1)
