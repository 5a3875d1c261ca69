#!/usr/bin/env python3
"""CLI tests: run the built jobspec binary and check exit codes, stdout and stderr.

usage: cli_test.py PATH-TO-JOBSPEC CONFORMANCE-DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

JOBSPEC = None
CONFORMANCE = None


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

    def test_compile_help_has_one_usage_line(self):
        r = run("compile", "--help")
        self.assertEqual(r.returncode, 0)
        self.assertEqual(r.stdout.count("Usage:"), 1)
        self.assertIn("Usage: jobspec compile [--submit|--batch|--alloc]", r.stdout)

    def test_compile_help_lists_the_flux_options_it_reads(self):
        r = run("compile", "--batch", "--help")
        listed = r.stdout[r.stdout.index("The options of 'flux batch' that compile reads"):]
        for usage in ("-N, --nodes=VALUE", "--dump[=VALUE]", "--wrap", "--conf=VALUE"):
            self.assertIn(usage, listed)
        self.assertNotIn("--ntasks", listed)  # flux batch has --nslots instead
        self.assertIn("-n, --ntasks=VALUE", run("compile", "--help").stdout)

    def test_compile_checks_its_report_options(self):
        # As every command does; compile took any value before the abuse sweep.
        for args, message in ((["--diagnostics", "xml"], "--diagnostics: xml not in {text,json}"),
                              (["--color=sometimes"], "--color: sometimes not in "
                                                      "{auto,always,never}")):
            r = run("compile", *args, "app")
            self.assertEqual((r.returncode, r.stdout), (2, ""), args)
            self.assertIn(message, r.stderr)

    def test_serve_bind_says_the_address_is_wrong(self):
        r = run("serve", "--bind", "garbage")
        self.assertEqual(r.returncode, 2)
        self.assertIn("--bind: 'garbage' is not an IP address", r.stderr)
        self.assertNotIn("--port", r.stderr)

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

    def test_from_a_jobspec_writes_its_shape_back(self):
        # issue 59: the shape of a jobspec's resources, compiled from a shape.
        shape = "slot=4{task}/node{-x}/socket=2+/core=4+"
        job = run("compile", "--env-none", "--rlimit=-*", "--shape", shape, "app").stdout
        r = run("shape", "--from", "-", stdin=job)
        self.assertEqual((r.returncode, r.stdout, r.stderr), (0, shape + "\n", ""))
        r = run("shape", "--from", "-", "--default-label", "task", stdin=job)
        self.assertEqual(r.stdout, shape.replace("{task}", "") + "\n")
        r = run("shape", "--from", "-", "--format", "json", stdin=job)
        spans = json.loads(r.stdout)["spans"]
        self.assertIn({"pointer": "/resources/0/with/0/with/0", "offset": 22,
                       "length": len("socket=2+/core=4+")}, spans)
        # Neither or both of SHAPE and --from: a misuse; an invalid jobspec: exit 1.
        self.assertEqual(run("shape").returncode, 2)
        self.assertEqual(run("shape", "core", "--from", "-", stdin=job).returncode, 2)
        r = run("shape", "--from", "-", stdin='{"version": 1}')
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[jobspec.", r.stderr)

    def test_readme_example(self):
        r = run("shape", "slot=4{nodelevel}/node{-x}/socket=2+/core=4+")
        self.assertEqual(r.returncode, 0)
        self.assertEqual(json.loads(r.stdout)[0]["label"], "nodelevel")

    def test_json_literals_are_lower_case_at_any_depth(self):
        # docs/COMPAT.md: flux reads FALSE, Null and 1. as JSON at every level.
        r = run("shape", "a/b/node{b:FALSE,c:Null}/core{u:1.}")
        self.assertEqual(r.returncode, 0)
        node = json.loads(r.stdout)[0]["with"][0]["with"][0]
        self.assertEqual((node["b"], node["c"], node["with"][0]["u"]), ("FALSE", "Null", "1."))

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


def rfc25(name):
    return os.path.join(CONFORMANCE, "jobspec", "valid", f"v1-rfc25-{name}.yaml")


def emitted(path):
    """The canonical JSON of a valid document, through `jobspec validate --emit json`."""
    r = run("validate", "--emit", "json", path)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


class Validate(unittest.TestCase):
    def test_acceptance_v1(self):
        files = [rfc25(n) for n in ("example1", "use_case_1.1", "use_case_2.1", "use_case_2.2",
                                    "use_case_2.3", "use_case_2.4")]
        r = run("validate", "--v1", *files)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout + r.stderr, "")

    def test_acceptance_not_v1(self):
        path = os.path.join(CONFORMANCE, "jobspec", "valid", "rfc14-use_case_1.3.yaml")
        self.assertEqual(run("validate", path).returncode, 0)
        r = run("validate", "--v1", path)
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[v1.graph-shape]: slot>node>socket>core is not one of", r.stderr)
        self.assertIn("rfc14-use_case_1.3.yaml:3:5 at /resources/0", r.stderr)

    def test_fluxion_dialect(self):
        flexible = os.path.join(CONFORMANCE, "jobspec", "valid-fluxion",
                                "or-slots-sharing-a-label.yaml")
        r = run("validate", flexible)
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[jobspec.duplicate-label]", r.stderr)
        r = run("validate", "--dialect", "fluxion", flexible)
        self.assertEqual((r.returncode, r.stdout + r.stderr), (0, ""))
        r = run("validate", "--dialect", "fluxion", "-",
                stdin=open(flexible).read().replace("version: 9999", "version: 10000"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[fluxion.version]: Fluxion reads versions 1 to 9999, not 10000\n"
                      "  --> <stdin>:3:10 at /version\n", r.stderr)
        r = run("validate", "--dialect", "sched", flexible)
        self.assertEqual(r.returncode, 2)
        self.assertIn("--dialect", r.stderr)

    def test_flux_instance(self):
        doc = ("version: 1\nresources: [{type: slot, count: 1, label: a, with: [{type: core, "
               "count: 1}]}]\ntasks: [{command: [x], slot: a, count: {per_slot: 1}}]\n"
               "attributes: {system: {constraints: {ranks: ['5']}}}\n")
        self.assertEqual(run("validate", "-", stdin=doc).returncode, 0)
        self.assertEqual(run("validate", "--flux-instance", "-", stdin=doc).returncode, 0)
        self.assertEqual(run("validate", "-", "--flux-instance", stdin=doc).returncode, 0)
        self.assertEqual(run("validate", "--flux-instance=6", "-", stdin=doc).returncode, 0)
        r = run("validate", "--flux-instance=5", "-", stdin=doc)
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[flux.rank-range]: rank 5 is not one of the instance's 5 ranks "
                      "(0 to 4)\n  --> <stdin>:4:36 at /attributes/system/constraints/ranks\n",
                      r.stderr)
        r = run("validate", "--flux-instance=0", "-", stdin=doc)
        self.assertEqual(r.returncode, 2)
        self.assertIn("--flux-instance: must be a whole number of at least 1, not '0'", r.stderr)
        null = doc.replace("attributes: {system: {constraints: {ranks: ['5']}}}", "attributes:")
        self.assertEqual(run("validate", "-", stdin=null).returncode, 0)
        r = run("validate", "--flux-instance", "-", stdin=null)
        self.assertIn("error[flux.attributes-null]", r.stderr)

    def test_vertex_and_constraint_term_limits(self):
        r = run("shape", "--max-vertices", "2", "slot/node/core")
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[limit.vertices]: more than 2 resource vertices", r.stderr)
        self.assertEqual(run("shape", "--max-vertices", "3", "slot/node/core").returncode, 0)
        r = run("constraint", "--max-constraint-terms", "3", "a or b")
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[limit.constraint-terms]", r.stderr)
        self.assertEqual(run("constraint", "--max-constraint-terms", "3", "a,b").returncode, 0)
        self.assertEqual(run("validate", "--max-vertices", "0", "-", stdin="{}").returncode, 2)

    def test_caret_and_pointer(self):
        doc = "version: 1\nresources: [{type: core, count: 0}]\ntasks: []\nattributes: {}\n"
        r = run("validate", "-", stdin=doc)
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[jobspec.count-not-positive]: 'count' must be at least 1, not 0\n"
                      "  --> <stdin>:2:33 at /resources/0/count\n"
                      "  resources: [{type: core, count: 0}]\n"
                      "  " + " " * 32 + "^\n", r.stderr)
        self.assertIn("error[jobspec.empty-list]", r.stderr)

    def test_json_diagnostics(self):
        r = run("validate", "--diagnostics", "json", "-", stdin='{"version": "1"}')
        self.assertEqual(r.returncode, 1)
        diags = json.loads(r.stderr)
        self.assertIn({"severity": "error", "code": "jobspec.key-type",
                       "message": "'version' must be an integer, not a string",
                       "offset": 12, "length": 3, "line": 1, "column": 13,
                       "pointer": "/version"}, diags)

    def test_several_files_and_missing_file(self):
        good = rfc25("example1")
        r = run("validate", good, "/nonexistent.yaml", good)
        self.assertEqual(r.returncode, 2)
        self.assertIn("cannot open '/nonexistent.yaml'", r.stderr)

    def test_format_option(self):
        r = run("validate", "--format", "json", rfc25("example1"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("jobspec.json-syntax", r.stderr)

    def test_emit_yaml_round_trips(self):
        r = run("validate", "--emit", "yaml", rfc25("use_case_2.4"))
        self.assertEqual(r.returncode, 0)
        again = run("validate", "--emit", "json", "-", stdin=r.stdout)
        self.assertEqual(json.loads(again.stdout), emitted(rfc25("use_case_2.4")))


class Compile(unittest.TestCase):
    """`jobspec compile` prints what flux-core 0.88's `--dry-run` prints. The expected
    outputs in data/compile_cases.json were produced by flux itself
    (dev/reference/make_compile_cases.py), one case per behaviour of issue 16."""

    ENV = {"PATH": "/usr/bin:/bin", "TZ": "UTC", "FOO": "foo", "FOO2": "foo2", "OMP_A": "1"}

    @classmethod
    def setUpClass(cls):
        import tempfile
        cls.scratch = tempfile.mkdtemp(prefix="jobspec-compile-")
        with open(os.path.join(cls.scratch, "f.txt"), "w") as f:
            f.write("hello\n")
        os.chmod(os.path.join(cls.scratch, "f.txt"), 0o640)
        with open(os.path.join(cls.scratch, "s.sh"), "w") as f:
            f.write("#!/bin/sh\nhostname\n")
        with open(os.path.join(cls.scratch, "d.sh"), "w") as f:
            f.write(cls.DIRECTIVES)
        with open(os.path.join(cls.scratch, "bad.sh"), "w") as f:
            f.write("#!/bin/sh\n#flux: -n1\nhostname\n#flux: -N1\n")

    DIRECTIVES = ('#!/bin/sh\n#FLUX: -N2 --job-name=dir   # two nodes\n#FLUX: --env=A=1\n#FLUX:\n'
                  '#FLUX: --setattr=user.conf="""\n#FLUX: [config]\n#FLUX:   item = "foo"\n'
                  '#FLUX: """\nhostname\n')

    def test_directives_command(self):
        r = subprocess.run([JOBSPEC, "directives", "d.sh"], capture_output=True, text=True,
                           cwd=self.scratch)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(json.loads(r.stdout), [["-N2", "--job-name=dir"], ["--env=A=1"],
                                                ["--setattr=user.conf=[config]\n  item = \"foo\"\n"]])
        r = subprocess.run([JOBSPEC, "directives", "bad.sh"], capture_output=True, text=True,
                           cwd=self.scratch)
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[directive.orphan]: line 4: orphan 'flux:' detected: directives "
                      "disabled after line 2", r.stderr)
        self.assertIn("--> bad.sh:4:2", r.stderr)

    def test_value_with_a_space_that_names_an_option(self):
        # argparse (flux-core 0.88 on Python 3.11) reads a word with a space as a value
        # unless it names an option before '=' or starts with a short option.
        for value in ("--begin-time=2030-01-02 03:04:05", "-n 4", "-n=4 x"):
            r = self.jobspec("--env=-*", "-q", value, "app")
            self.assertEqual(r.returncode, 2, value)
            self.assertIn("error[usage.missing-argument]: argument -q/--queue: expected one "
                          "argument", r.stderr)
        for value in ("--nothing here", "-Z x"):
            r = self.jobspec("--env=-*", "--job-name", value, "app")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(json.loads(r.stdout)["attributes"]["system"]["job"]["name"], value)

    def test_counts_checked_in_every_spelling(self):
        # batch and alloc read their counts as integers while parsing, however the value
        # is attached: a separate word, --opt=VALUE or -nVALUE (this used to crash).
        for words in (["--add-brokers=abc"], ["--add-brokers", "abc"], ["--nslots=abc"],
                      ["-nabc"], ["-n", "abc"], ["--add-brokers=99999999999999999999999"]):
            r = self.jobspec("--batch", "--env=-*", *words, "--wrap", "true")
            self.assertEqual(r.returncode, 2, words)
            self.assertIn("error[usage.option-value]: argument ", r.stderr)
            self.assertIn(": invalid int value: '", r.stderr)
        r = self.jobspec("--batch", "--env=-*", "-N1", "--add-brokers=1_0", "--wrap", "true")
        self.assertEqual(r.returncode, 1)
        self.assertIn("--add-brokers is not supported", r.stderr)

    def test_each_problem_once_and_option_values_with_carets(self):
        # Issue 28: the jobspec is checked once, so one problem is one warning ...
        r = self.jobspec("--env-none", "--setattr=system.foo=1", "--dependency=after:1", "app")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr.count("warning[jobspec.unknown-system-attribute]"), 1)
        self.assertEqual(r.stderr.count("warning[dependency.deprecated-scheme]"), 1)
        # ... and a problem in an option's value is shown in it, with a caret.
        r = self.jobspec("--env-none", "--shape", "slot=0/core", "app")
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stderr, "error[shape.count-not-positive]: count must be at least 1\n"
                                   "  --> --resources-shape\n  slot=0/core\n       ^\n")
        r = self.jobspec("--env-none", "--requires=ssd and (", "app")
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[query.syntax]: '(' is never closed\n  --> --requires\n"
                      "  ssd and (\n          ^\n", r.stderr)
        r = self.jobspec("--diagnostics", "json", "--env-none", "--requires=ssd and (", "app")
        [d] = json.loads(r.stderr)
        self.assertEqual((d["source"], d["offset"], d["column"]), ("--requires", 8, 9))

    def test_setting_keys_nest_within_the_limit(self):
        # A -S/-o key of many parts nests as deep as it has parts: past --max-depth it is
        # limit.depth (30,000 parts used to overflow the stack), whatever the value.
        for option, key in (("-S", "user." + "a." * 30000 + "b=1"), ("-o", "a." * 70 + "b"),
                            ("-S", "user." + "a." * 40 + "b=" + "[" * 30 + "]" * 30)):
            r = self.jobspec("--env-none", option, key, "app")
            self.assertEqual(r.returncode, 1, key[:20])
            self.assertIn("error[limit.depth]: --set", r.stderr)
            self.assertIn("the key and its value nest deeper than the limit of 64", r.stderr)
        r = self.jobspec("--env-none", "--max-depth=200", "-o", "a." * 70 + "b", "app")
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_files_come_through_one_bounded_door(self):
        # Every file an option names is read within --max-input-bytes: /dev/zero ends at
        # once with limit.input-size, as every other input does (it used to read until
        # memory ran out).
        for words in (["--add-file=z=/dev/zero"], ["--env=^/dev/zero"],
                      ["-S", "^user.x=/dev/zero"], ["--resources-json=/dev/zero"]):
            r = self.jobspec("--env-none", *words, "app")
            self.assertEqual(r.returncode, 1, words)
            self.assertIn("error[limit.input-size]: ", r.stderr)
            self.assertIn("'/dev/zero' is longer than the limit of 1048576 bytes", r.stderr)
        # compile takes the limits every jobspec command takes.
        r = self.jobspec("--env-none", "--max-input-bytes=6", "--add-file=f.txt", "app")
        self.assertEqual(r.returncode, 0, r.stderr)
        r = self.jobspec("--env-none", "--max-input-bytes", "5", "--add-file=f.txt", "app")
        self.assertEqual(r.returncode, 1)
        self.assertIn("'f.txt' is longer than the limit of 5 bytes", r.stderr)
        r = self.jobspec("--env-none", "--max-input-bytes=0", "app")
        self.assertEqual(r.returncode, 2)
        r = self.jobspec("--env-none", "--add-file=.", "app")
        self.assertEqual(r.returncode, 1)
        self.assertIn("--add-file=.: [Errno 21] Is a directory: '.'", r.stderr)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch)

    def jobspec(self, *args, env=None, stdin=None):
        return subprocess.run([JOBSPEC, "compile", *args], capture_output=True, text=True,
                              env=env or self.ENV, cwd=self.scratch, input=stdin, timeout=60)

    def valid(self, text):
        check = run("validate", "-", stdin=text)
        self.assertEqual(check.returncode, 0, check.stderr)

    def test_fluxion_dialect(self):
        # What flux builds from options, Fluxion reads: the same output with the check.
        words = ["-N2", "-n4", "-g1", "--requires=ssd", "app"]
        plain = self.jobspec(*words)
        checked = self.jobspec("--dialect", "fluxion", *words)
        self.assertEqual((checked.returncode, checked.stdout), (0, plain.stdout))
        # A shape's idset count is RFC 14's, not Fluxion's: refused where the value built
        # is lowered (in Fluxion's dialect; never written out and read back), at its pointer.
        words = ["--resources-shape", "slot=1/core=2,4", "app"]
        self.assertEqual(self.jobspec(*words).returncode, 0)
        r = self.jobspec("--dialect=fluxion", *words)
        self.assertEqual((r.returncode, r.stdout), (1, ""))
        self.assertIn("error[fluxion.count]: Fluxion reads a count as an integer or a "
                      "dictionary, not the string '2,4'\n", r.stderr)
        r = subprocess.run([JOBSPEC, "--diagnostics=json", "compile", "--dialect=fluxion",
                            *words], capture_output=True, text=True, env=self.ENV,
                           cwd=self.scratch, timeout=60)
        [found] = json.loads(r.stderr)
        self.assertEqual((found["code"], found["pointer"]),
                         ("fluxion.count", "/resources/0/with/0/count"))
        r = self.jobspec("--dialect", "sched", "app")
        self.assertEqual(r.returncode, 2)
        self.assertIn("--dialect: 'sched' is not rfc or fluxion", r.stderr)

    def test_flux_outputs(self):
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data",
                            "compile_cases.json")
        with open(path, encoding="utf-8") as f:
            cases = json.load(f)
        self.assertGreaterEqual(len(cases), 50)
        for case in cases:
            with self.subTest(case["name"]):
                mode = [] if case["command"] == "run" else ["--" + case["command"]]
                r = self.jobspec(*mode, *case["arguments"])
                self.assertEqual(r.returncode, case["status"], r.stderr)
                self.assertEqual(r.stdout, case["stdout"])
                if r.returncode == 0:
                    self.valid(r.stdout)
                else:
                    self.assertRegex(r.stderr, r"error\[(usage|submit|directive)\.[a-z-]+\]")

    def test_environment_is_copied_by_default(self):
        r = self.jobspec("--rlimit=-*", "app", env={**self.ENV, "JOBSPEC_TEST_X": "v"})
        self.assertEqual(r.returncode, 0, r.stderr)
        env = json.loads(r.stdout)["attributes"]["system"]["environment"]
        self.assertEqual(env, {**self.ENV, "JOBSPEC_TEST_X": "v"})
        self.assertEqual(list(env)[-1], "JOBSPEC_TEST_X")

    def test_env_none_starts_empty_and_patterns_still_copy(self):
        r = self.jobspec("--env-none", "--env=FOO*", "--rlimit=-*", "app")
        self.assertEqual(json.loads(r.stdout)["attributes"]["system"]["environment"],
                         {"FOO": "foo", "FOO2": "foo2"})

    def test_limits_are_propagated_by_default(self):
        import resource
        r = self.jobspec("--env-none", "app")
        rlimit = json.loads(r.stdout)["attributes"]["system"]["shell"]["options"]["rlimit"]
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        self.assertEqual(rlimit["nofile"], -1 if soft == resource.RLIM_INFINITY else soft)
        self.assertNotIn("memlock", rlimit)

    def test_relative_begin_time(self):
        import time
        for text, offset in (("+1h", 3600), ("+30", 30), ("now", 0), ("in 2 hours", 7200)):
            with self.subTest(text):
                before = time.time()
                r = self.jobspec("--env-none", "--rlimit=-*", "--begin-time", text, "app")
                self.assertEqual(r.returncode, 0, r.stderr)
                dep = json.loads(r.stdout)["attributes"]["system"]["dependencies"][0]
                self.assertEqual(dep["scheme"], "begin-time")
                self.assertAlmostEqual(float(dep["value"]), before + offset, delta=3)

    def test_clock_time_is_today_in_local_time(self):
        import time
        r = self.jobspec("--env-none", "--rlimit=-*", "--begin-time", "3pm", "app")
        value = float(json.loads(r.stdout)["attributes"]["system"]["dependencies"][0]["value"])
        self.assertEqual(time.strftime("%H:%M:%S", time.gmtime(value)), "15:00:00")
        self.assertEqual(time.strftime("%Y-%m-%d", time.gmtime(value)),
                         time.strftime("%Y-%m-%d", time.gmtime()))

    def test_shape_is_an_alias_of_resources_shape(self):
        a = self.jobspec("--env-none", "--rlimit=-*", "--shape", "slot=2/core", "app")
        b = self.jobspec("--env-none", "--rlimit=-*", "--resources-shape", "slot=2/core", "app")
        self.assertEqual(a.returncode, 0, a.stderr)
        self.assertEqual(a.stdout, b.stdout)

    def test_bad_shape_points_at_it(self):
        r = self.jobspec("--env-none", "--shape", "slot=3-1/core", "app")
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[shape.range-order]", r.stderr)

    def test_every_output_validates(self):
        for args in (["-N4", "-n16", "-g1"], ["-n5", "-N4"], ["--cores=8", "-N2"], ["-N2", "-x"],
                     ["-S", "user.x=1", "-t", "1h", "--requires=foo"]):
            with self.subTest(args):
                r = self.jobspec("--env-none", *args, "app")
                self.assertEqual(r.returncode, 0, r.stderr)
                self.valid(r.stdout)

    def test_invalid_jobspec_is_refused(self):
        r = self.jobspec("--env-none", "-S", "duration=bogus", "app")
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stdout, "")

    def test_formats(self):
        r = self.jobspec("--format", "yaml", "--env-none", "-N1", "app")
        self.assertEqual(r.returncode, 0)
        self.assertTrue(r.stdout.startswith("resources:\n"), r.stdout[:40])
        self.valid(r.stdout)
        r = self.jobspec("--pretty", "--env-none", "-N1", "app")
        self.assertIn("\n    ", r.stdout)
        self.valid(r.stdout)

    def test_usage(self):
        for args in (["--bogus", "a"], ["-n"], ["--ntask=4", "a"], ["-x4", "a"]):
            with self.subTest(args):
                r = self.jobspec(*args)
                self.assertEqual(r.returncode, 2)
                self.assertEqual(r.stdout, "")
        r = self.jobspec("--help")
        self.assertEqual(r.returncode, 0)
        self.assertIn("--env-none", r.stdout)


class JobIds(unittest.TestCase):
    def test_acceptance_words(self):
        r = run("id", "--to", "words", "6731191091817518")
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (0, "reform-remote-galileo--heart-package-academy\n", ""))

    def test_every_encoding(self):
        want = {"dec": "6731191091817518", "hex": "0x17e9fb8df16c2e",
                "dothex": "0017.e9fb.8df1.6c2e", "kvs": "job.0017.e9fb.8df1.6c2e",
                "f58": "ƒuZZybuNNy", "words": "reform-remote-galileo--heart-package-academy"}
        for encoding, text in want.items():
            with self.subTest(encoding):
                r = run("id", "--to", encoding, *want.values())
                self.assertEqual(r.stdout, (text + "\n") * len(want))
        r = run("id", "--to", "emoji", "0")
        self.assertEqual(r.stdout, "😃\n")

    def test_default_is_dec_and_stdin(self):
        r = run("id", "-", stdin="ƒuZZybuNNy\n  0x10  \n")
        self.assertEqual((r.returncode, r.stdout), (0, "6731191091817518\n16\n"))

    def test_bad_ids(self):
        r = run("id", "1", "hungry-hippo", "ƒ0", "2")
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stdout, "1\n2\n")
        self.assertIn("error[fluid.unknown-word]: not a FLUID in words encoding: "
                      "'hungry' is not a mnemonicode word\n  hungry-hippo\n  ^~~~~~\n", r.stderr)
        self.assertIn("error[fluid.character]: not a FLUID in f58 encoding", r.stderr)
        for text in ("18446744073709551616", "ƒzzzzzzzzzzzz", "ƒjpXCZedGfVR"):
            r = run("id", text)
            self.assertIn("error[fluid.overflow]", r.stderr)

    def test_ids_flux_reads_more_loosely_are_refused(self):
        # RFC 19: dothex is "each 4 hexadecimal digits"; flux reads shorter groups
        # (docs/COMPAT.md).
        for text in ("0.0.0.1", "17.e9fb.8df1.6c2e"):
            with self.subTest(text):
                r = run("id", text)
                self.assertEqual(r.returncode, 1)
                self.assertIn("error[fluid.format]", r.stderr)
        # Words are mnemonicode words only: flux ignores a tail after the id.
        r = run("id", "reform-remote-galileo--heart-package-academy-x")
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[fluid.unknown-word]", r.stderr)

    def test_misuse(self):
        self.assertEqual(run("id", "--to", "base64", "1").returncode, 2)
        self.assertEqual(run("id", "-x").returncode, 2)


class Dependencies(unittest.TestCase):
    def test_acceptance(self):
        r = run("dependency", "string:foo?type=out;scope=user")
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (0, '[{"scheme":"string","value":"foo","type":"out","scope":"user"}]\n', ""))

    def test_several(self):
        r = run("dependency", "afterok:ƒ2oLkTLb", "singleton", "begin-time:10")
        self.assertEqual(json.loads(r.stdout), [
            {"scheme": "afterok", "value": "ƒ2oLkTLb"}, {"scheme": "singleton", "value": ""},
            {"scheme": "begin-time", "value": "10"}])

    def test_option_values_are_numbers_as_in_flux(self):
        # issue 33: flux-core writes 1 and 1.5; `dependency` and `compile --dependency`
        # now agree with it and with each other.
        r = run("dependency", "--allow-unknown-scheme", "afterok:1234?a=1", "x-y:-1?a=1.5&b=x")
        self.assertEqual(json.loads(r.stdout), [
            {"scheme": "afterok", "value": "1234", "a": 1},
            {"scheme": "x-y", "value": "-1", "a": 1.5, "b": "x"}])
        job = json.loads(run("compile", "--dependency=afterok:1234?a=1",
                             "--dependency=x-y:-1?a=1.5&b=x", "app").stdout)
        self.assertEqual(job["attributes"]["system"]["dependencies"], json.loads(r.stdout))

    def test_errors(self):
        r = run("dependency", "afterok:1", "aftrok:1")
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stdout, "")
        self.assertEqual(r.stderr, "error[dependency.unknown-scheme]: unknown scheme 'aftrok'\n"
                                   "  aftrok:1\n  ^~~~~~\n  afterok\n"
                                   "  help: did you mean 'afterok'?\n")
        r = run("dependency", "--allow-unknown-scheme", "site:x")
        self.assertEqual(json.loads(r.stdout), [{"scheme": "site", "value": "x"}])

    def test_deprecated_after(self):
        r = run("dependency", "after:1")
        self.assertEqual(r.returncode, 0)
        self.assertIn("warning[dependency.deprecated-scheme]", r.stderr)
        self.assertEqual(run("dependency", "--strict", "after:1").returncode, 1)

    def test_compile(self):
        r = run("compile", "--dependency", "afterok:ƒ2oLkTLb", "--dependency",
                "string:x?type=in&scope=user", "--begin-time", "2026-11-22T10:00:00Z", "--", "a")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(json.loads(r.stdout)["attributes"]["system"]["dependencies"], [
            {"scheme": "afterok", "value": "ƒ2oLkTLb"},
            {"scheme": "string", "value": "x", "type": "in", "scope": "user"},
            {"scheme": "begin-time", "value": "1795341600.0"}])
        self.assertEqual(run("validate", "--v1", "-", stdin=r.stdout).returncode, 0)
        r = run("compile", "--", "a")
        self.assertNotIn("dependencies", json.loads(r.stdout)["attributes"]["system"])
        self.assertEqual(run("compile", "--begin-time", "someday", "--", "a").returncode, 1)

    def test_validate_checks_dependencies(self):
        doc = ('{"version": 1, "resources": [{"type": "slot", "count": 1, "label": "s", '
               '"with": [{"type": "core", "count": 1}]}], "tasks": [{"command": ["a"], '
               '"slot": "s", "count": {"per_slot": 1}}], "attributes": {"system": '
               '{"dependencies": [{"scheme": "string", "value": "x", "type": "sideways", '
               '"scope": "user"}]}}}')
        r = run("validate", "--diagnostics", "json", "-", stdin=doc)
        self.assertEqual(r.returncode, 1)
        at = doc.index('"sideways"')
        self.assertIn({"severity": "error", "code": "dependency.type",
                       "message": "type 'sideways' is not one of in|out|inout",
                       "pointer": "/attributes/system/dependencies/0/type",
                       "offset": at, "length": 10, "line": 1, "column": at + 1},
                      json.loads(r.stderr))

    def test_graph_dag(self):
        path = os.path.join(CONFORMANCE, "dependency", "workflow", "rfc26-example-3-fan-out.yaml")
        r = run("graph", "--what", "dag", path)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(json.loads(r.stdout)["order"], ["A", "B1", "B2", "B3", "C"])
        r = run("graph", "--what", "dag", "--format", "dot", path)
        self.assertTrue(r.stdout.startswith("digraph workflow {"))
        self.assertIn('"B3" -> "C" [label="string:B"];', r.stdout)
        if shutil.which("dot"):
            svg = subprocess.run(["dot", "-Tsvg"], input=r.stdout, capture_output=True, text=True)
            self.assertEqual(svg.returncode, 0, svg.stderr)
        r = run("graph", "--what", "dag", "-", stdin="- {name: a, id: '1', dependencies: ['afterok:2']}\n"
                                                  "- {name: b, id: '2', dependencies: ['afterok:1']}\n")
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[dependency.cycle]", r.stderr)


class ResourceSets(unittest.TestCase):
    def encode(self, *args):
        r = run("R", "encode", *args)
        self.assertEqual(r.returncode, 0, r.stderr)
        return r.stdout

    def test_acceptance_round_trip(self):
        r = self.encode("-r", "0-3", "-c", "0-47", "-g", "0-7", "-H", "node[186-189]")
        self.assertEqual(json.loads(r), {"version": 1, "execution": {
            "R_lite": [{"rank": "0-3", "children": {"core": "0-47", "gpu": "0-7"}}],
            "nodelist": ["node[186-189]"], "starttime": 0.0, "expiration": 0.0}})
        back = run("R", "decode", "-", stdin=r)
        self.assertEqual((back.returncode, back.stdout), (0, r))
        short = run("R", "decode", "--short", "-", stdin=r)
        self.assertEqual(short.stdout, "rank[0-3]/core[0-47],gpu[0-7]\n")

    def test_rfc20_example(self):
        path = os.path.join(CONFORMANCE, "R", "valid", "rfc20-example1.json")
        r = run("R", "decode", "--short", path)
        self.assertEqual(r.stdout, "rank[19-22]/core[0-47],gpu[0-7]\n")
        r = run("R", "info", path)
        self.assertIn("4 ranks, 192 cores, 32 gpus on node[186-189]", r.stdout)
        for what, want in (("node", "4"), ("core", "192"), ("gpu", "32")):
            self.assertEqual(run("R", "decode", "--count", what, path).stdout, want + "\n")
        self.assertEqual(run("R", "decode", "--nodelist", path).stdout, "node[186-189]\n")
        self.assertEqual(run("R", "decode", "--ranks", path).stdout, "19-22\n")
        r = run("R", "decode", "--include", "node[187-188]", "--short", path)
        self.assertEqual(r.stdout, "rank[20-21]/core[0-47],gpu[0-7]\n")
        r = run("R", "decode", "--exclude", "19", "--count", "node", path)
        self.assertEqual(r.stdout, "3\n")

    def test_several_documents_on_stdin(self):
        a = self.encode("-r", "0-1", "-c", "0-3", "-H", "n[0-1]")
        b = self.encode("-r", "2-3", "-c", "0-7", "-g", "0", "-H", "n[2-3]")
        u = run("R", "append", stdin=a + b)
        self.assertEqual(u.returncode, 0, u.stderr)
        self.assertEqual(run("R", "decode", "--short", stdin=u.stdout).stdout,
                         "rank[0-1]/core[0-3] rank[2-3]/core[0-7],gpu0\n")
        self.assertEqual(run("R", "decode", "--short", stdin=a + b).stdout,
                         "rank[0-1]/core[0-3] rank[2-3]/core[0-7],gpu0\n")
        overlap = run("R", "append", stdin=a + a)
        self.assertEqual(overlap.returncode, 1)
        self.assertIn("error[R.overlap]", overlap.stderr)
        c = self.encode("-r", "1-2", "-c", "2-3", "-H", "n[1-2]")
        self.assertEqual(run("R", "intersect", stdin=u.stdout + c).stdout, c)
        diff = run("R", "diff", stdin=u.stdout + c)
        self.assertEqual(run("R", "decode", "--short", stdin=diff.stdout).stdout,
                         "rank0/core[0-3] rank1/core[0-1] rank2/core[0-1,4-7],gpu0 "
                         "rank3/core[0-7],gpu0\n")
        found = run("R", "encode", "-r", "1", "-c", "0-7", "-H", "n1").stdout
        self.assertEqual(run("R", "verify", stdin=u.stdout + found).returncode, 0)
        fewer = run("R", "encode", "-r", "1", "-c", "0-1", "-H", "n1").stdout
        miss = run("R", "verify", stdin=u.stdout + fewer)
        self.assertEqual(miss.returncode, 1)
        self.assertIn("error[R.verify]", miss.stderr)

    def test_remap_rerank_set_property(self):
        r = self.encode("-r", "10-12", "-c", "0", "-H", "x[1-3]", "-p", "ssd:11")
        remapped = run("R", "remap", stdin=r)
        self.assertEqual(run("R", "decode", "--ranks", stdin=remapped.stdout).stdout, "0-2\n")
        self.assertEqual(json.loads(remapped.stdout)["execution"]["properties"], {"ssd": "1"})
        reranked = run("R", "rerank", "x[3,2,1]", stdin=r)
        self.assertEqual(json.loads(reranked.stdout)["execution"]["nodelist"], ["x[3,2,1]"])
        self.assertEqual(json.loads(reranked.stdout)["execution"]["properties"], {"ssd": "1"})
        self.assertEqual(run("R", "rerank", "y[1-3]", stdin=r).returncode, 1)
        withprop = run("R", "set-property", "gpu:10-11", stdin=r)
        self.assertEqual(json.loads(withprop.stdout)["execution"]["properties"],
                         {"gpu": "10-11", "ssd": "11"})
        self.assertEqual(run("R", "set-property", "bad|name:10", stdin=r).returncode, 1)
        only = run("R", "decode", "--properties", "gpu,ssd", "--ranks", stdin=withprop.stdout)
        self.assertEqual(only.stdout, "11\n")

    def test_invalid_and_misuse(self):
        r = run("R", "decode", "-", stdin='{"version": 1, "execution": {"R_lite": [{"rank": "0-3", '
                                           '"children": {"core": "0"}}], "nodelist": ["n[0-4]"]}}')
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[R.nodelist-count]: nodelist names 5 hosts, but R_lite has 4 ranks", r.stderr)
        self.assertIn("at /execution/nodelist", r.stderr)
        self.assertEqual(run("R", "decode", "-", stdin="{").returncode, 1)
        self.assertEqual(run("R", "encode", "-r", "0-3", "-H", "n[0-1]").returncode, 1)
        self.assertEqual(run("R", "encode", "-r", "x").returncode, 2)
        self.assertEqual(run("R").returncode, 2)
        r = run("R", "decode", "--max-input-bytes", "5", "-", stdin='{"version": 1}')
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[limit.input-size]: <stdin> is longer than the limit of 5 bytes", r.stderr)

    def test_parse_config(self):
        import tempfile
        d = tempfile.mkdtemp(prefix="jobspec-config-")
        self.addCleanup(shutil.rmtree, d)
        conf = os.path.join(d, "conf.d")
        os.mkdir(conf)

        def write(name, text):
            with open(os.path.join(d, name), "w") as f:
                f.write(text)

        # flux-core's t0026 example: three entries, the third only a property.
        write("conf.d/resource.toml", '[[resource.config]]\nhosts = "foo[0-2]"\ncores = "0-1"\n'
              '[[resource.config]]\nhosts = "foo2"\ngpus = "0"\n'
              '[[resource.config]]\nhosts = "foo0"\nproperties = ["login"]\n')
        write("conf.d/access.toml", "[access]\nallow-guest-user = true\n")
        write("conf.d/notes.txt", "not a config file")
        r = run("R", "parse-config", conf)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(json.loads(r.stdout)["execution"], {
            "R_lite": [{"rank": "0-1", "children": {"core": "0-1"}},
                       {"rank": "2", "children": {"core": "0-1", "gpu": "0"}}],
            "nodelist": ["foo[0-2]"], "properties": {"login": "0"},
            "starttime": 0.0, "expiration": 0.0})
        # Files merge in name order: z.toml's resource.config replaces resource.toml's.
        write("conf.d/z.toml", '[[resource.config]]\nhosts = "bar"\ncores = "0"\n')
        self.assertEqual(run("R", "decode", "-s", stdin=run("R", "parse-config", conf).stdout).stdout,
                         "rank0/core0\n")
        # resource.path names R; resource.scheduling a JSON object for its scheduling key.
        write("r.json", run("R", "encode", "-r", "0-1", "-c", "0-3", "-H", "n[0-1]").stdout)
        write("sched.json", '{"writer": "TreePool"}')
        write("path.toml", f'[resource]\npath = "{d}/r.json"\nscheduling = "{d}/sched.json"\n')
        r = json.loads(run("R", "parse-config", os.path.join(d, "path.toml")).stdout)
        self.assertEqual((r["execution"]["nodelist"], r["scheduling"]), (["n[0-1]"], {"writer": "TreePool"}))
        # It is read as R's own scheduling key is: TreePool's entries are checked (RFC 49),
        # and located in the scheduling file.
        write("sched.json", '{"writer": "TreePool", "children": [{"ranks": "1-", "topo": {}}]}')
        r = run("R", "parse-config", os.path.join(d, "path.toml"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[R.idset]: ranks '1-' is not an idset", r.stderr)
        self.assertIn(f"--> {d}/sched.json at /scheduling/children/0/ranks", r.stderr)
        write("sched.json", '{"writer": "TreePool", "children": [{"ranks": "1", "topo": {}}]}')
        r = json.loads(run("R", "parse-config", os.path.join(d, "path.toml")).stdout)
        self.assertEqual(r["scheduling"]["children"], [{"ranks": "1", "topo": {}}])
        # Each problem is located in its file, exit 1; a path that is not there, exit 2.
        write("bad.toml", '[[resource.config]]\nhosts = "foo0"\ncores = "0-"\n')
        r = run("R", "parse-config", os.path.join(d, "bad.toml"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[R.idset]: cores '0-' is not an idset", r.stderr)
        self.assertIn(f"--> {d}/bad.toml:3:9 at /resource/config/0/cores", r.stderr)
        write("syntax.toml", "[[resource.config]\n")
        r = run("R", "parse-config", os.path.join(d, "syntax.toml"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[R.config-syntax]: invalid TOML", r.stderr)
        self.assertEqual(run("R", "parse-config", os.path.join(d, "absent")).returncode, 2)
        self.assertEqual(run("R", "parse-config").returncode, 2)


class Sets(unittest.TestCase):
    def test_idset(self):
        self.assertEqual(run("idset", "expand", "0-3,7").stdout, "0\n1\n2\n3\n7\n")
        self.assertEqual(run("idset", "encode", "7,3,1,2,2", "9").stdout, "1-3,7,9\n")
        self.assertEqual(run("idset", "encode", "[7,3,1]").stdout, "1,3,7\n")
        self.assertEqual(run("idset", "count", "0-4294967295").stdout, "4294967296\n")
        # flux-core's idsets refuse 2^31 to 2^32-1 and wrap from 2^32 (docs/COMPAT.md).
        self.assertEqual(run("idset", "expand", "2147483648,4294967297").stdout,
                         "2147483648\n4294967297\n")
        self.assertEqual(run("idset", "union", "0-3", "2-8").stdout, "0-8\n")
        self.assertEqual(run("idset", "intersect", "0-3", "2-8").stdout, "2-3\n")
        self.assertEqual(run("idset", "diff", "0-15", "4-7").stdout, "0-3,8-15\n")
        r = run("idset", "count", "3,1")
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[idset.order]", r.stderr)
        self.assertIn("  3,1\n    ^\n", r.stderr)
        self.assertEqual(run("idset", "shuffle", "1").returncode, 2)

    def test_idset_encode_takes_brackets_once_around_the_whole_set(self):
        # RFC 22: one pair of brackets around the whole set, as [[1,2]] was refused.
        for text, column in (("[[1]]", 1), ("1,[3],2", 2), ("[[1-3]]", 1), ("[[1,2]]", 1),
                             ("1]", 1)):
            with self.subTest(text):
                r = run("idset", "encode", text)
                self.assertEqual(r.returncode, 1)
                self.assertIn("error[idset.syntax]: unexpected", r.stderr)
                self.assertIn(f"  {text}\n  {' ' * column}^\n", r.stderr)
        self.assertEqual(run("idset", "encode", "[3,1-2]").stdout, "1-3\n")

    def test_idset_reads_standard_input_without_idsets(self):
        # Issue 29: like every command, idset reads standard input when given nothing, one
        # idset a line, and a bad line is named by its number.
        self.assertEqual(run("idset", "count", stdin="0-3\n").stdout, "4\n")
        self.assertEqual(run("idset", "union", stdin="0-3\n5\n2-4\n").stdout, "0-5\n")
        self.assertEqual(run("idset", "diff", stdin="0-9\n2-3\n5\n").stdout, "0-1,4,6-9\n")
        r = run("idset", "union", stdin="0-3\n3,1\n")
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[idset.order]", r.stderr)
        self.assertIn("--> <stdin>:2:3", r.stderr)
        r = run("idset", "count", stdin="")
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[io.empty]: <stdin> is empty", r.stderr)

    def test_id_reads_a_stream_of_lines(self):
        # Issue 29: a `flux jobs`-sized list is a stream, each line within the limit, and a
        # problem is reported at its own line (it was line 1, column 1).
        ids = "".join(f"{1000 + i}\n" for i in range(130000))
        r = run("id", "-t", "dec", stdin=ids)
        self.assertEqual(r.returncode, 0, r.stderr[:200])
        self.assertEqual(r.stdout, ids)
        r = run("id", stdin="1\nx\n3\n")
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stdout, "1\n3\n")
        self.assertIn("--> <stdin>:2:1\n  x\n  ^\n", r.stderr)
        r = run("--diagnostics", "json", "id", stdin="1\nx\n3\n")
        [d] = json.loads(r.stderr)
        self.assertEqual((d["line"], d["column"]), (2, 1))
        # A stream of bad lines makes a diagnostic each: at most 100000 of them, not
        # gigabytes (the abuse sweep's long mode asked for 2^63-1 over 50 MB of lines).
        r = run("id", "--max-diagnostics", "9223372036854775807", stdin="x\n")
        self.assertEqual(r.returncode, 2)
        self.assertIn("--max-diagnostics", r.stderr)
        self.assertIn("100000", r.stderr)
        r = run("id", "--max-diagnostics", "100000", stdin="x\n" * 100001)
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stderr.count("error[fluid."), 100000)
        self.assertIn("limit.diagnostics", r.stderr)
        r = run("id", "--max-input-bytes", "4", stdin="1\n123456\n")
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[limit.input-size]: <stdin> is longer than the limit of 4 bytes on "
                      "line 2", r.stderr)

    def test_hostlist(self):
        self.assertEqual(run("hostlist", "-e", "-d", "\\n", "foo[0-2]-eth2").stdout,
                         "foo0-eth2\nfoo1-eth2\nfoo2-eth2\n")
        self.assertEqual(run("hostlist", "node1", "node2", "node3", "node7").stdout,
                         "node[1-3,7]\n")
        self.assertEqual(run("hostlist", "-c", "node[0-99999]").stdout, "100000\n")
        self.assertEqual(run("hostlist", "-n", "5", "node[0-15]").stdout, "node5\n")
        self.assertEqual(run("hostlist", "-F", "node7", "node[4-15]").stdout, "3\n")
        self.assertEqual(run("hostlist", "-F", "x", "node[4-15]").returncode, 1)
        # flux ignores an empty -F and prints the list.
        self.assertEqual(run("hostlist", "-F", "", "node[4-15]").stdout, "node[4-15]\n")
        self.assertEqual(run("hostlist", "-S", "b,a[3,1,2]").stdout, "a[1-3],b\n")
        self.assertEqual(run("hostlist", "-u", "n[1-3],n2").stdout, "n[1-3]\n")
        self.assertEqual(run("hostlist", "-u", "n[1-3]", "n[3-5]").stdout, "n[1-5]\n")
        self.assertEqual(run("hostlist", "-i", "n[1-3]", "n[3-5]").stdout, "n3\n")
        self.assertEqual(run("hostlist", "-m", "node[0-15]", "node[4-7]").stdout,
                         "node[0-3,8-15]\n")
        r = run("hostlist", "-c", "foo[1-")
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[hostlist.syntax]", r.stderr)
        self.assertEqual(run("hostlist", "-n", "x", "a").returncode, 2)

    def test_host_numbers_go_to_2_64_minus_1(self):
        # RFC 29 sets no bound; flux-core's hosts are numbered with 64 bits.
        top = "18446744073709551615"
        self.assertEqual(run("hostlist", "f[9223372036854775808]").stdout,
                         "f9223372036854775808\n")
        self.assertEqual(run("hostlist", f"f18446744073709551614,f{top}").stdout,
                         f"f[18446744073709551614-{top}]\n")
        self.assertEqual(run("hostlist", "-c", f"f[1-{top}]").stdout, f"{top}\n")
        self.assertEqual(run("hostlist", "-m", f"f[{top}]", f"f{top}").stdout, "")
        # Above, flux renames the host or loses it (docs/COMPAT.md); jobspec refuses a
        # bracketed number and keeps a bare name whole, as any name without a number.
        r = run("hostlist", "f[18446744073709551616]")
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[hostlist.overflow]", r.stderr)
        self.assertEqual(run("hostlist", "-c", "f18446744073709551616").stdout, "1\n")
        # 0 to 2^64-1 is 2^64 hosts: flux counts 0 and prints nothing.
        r = run("hostlist", "-c", f"f[0-{top}]")
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[hostlist.overflow]: range '0-18446744073709551615' holds 2^64",
                      r.stderr)

    def test_bracketed_arguments_reach_the_command_whole(self):
        # CLI11 alone would read "[1-3]" as a list holding "1-3".
        self.assertEqual(run("hostlist", "-e", "[1-3]").stdout, "1 2 3\n")
        self.assertEqual(run("idset", "count", "[1-3,7]").stdout, "4\n")
        r = run("shape", "--diagnostics", "[x]", "core")
        self.assertEqual(r.returncode, 2)
        # Handed to the list positional at once, past options and their values.
        self.assertEqual(run("hostlist", "-m", "[1-5]", "-d", ",", "3", "-e", "[4]").stdout,
                         "1,2,5\n")

    def test_list_positionals_keep_their_order_around_options(self):
        self.assertEqual(run("hostlist", "-d", ",", "-e", "n1", "n2", "n3").stdout, "n1,n2,n3\n")
        self.assertEqual(run("hostlist", "n3", "--delimiter=,", "-e", "n1", "-n", "-1", "n2").stdout,
                         "n2\n")
        self.assertEqual(run("hostlist", "-m", "n7", "n[1-5]", "n3").stdout, "n7\n")
        self.assertEqual(run("idset", "union", "5", "--diagnostics", "json", "1", "3").stdout,
                         "1,3,5\n")
        # What only CLI11 can read the way it always did: "--", a negative number, a
        # cluster of flags.
        self.assertEqual(run("hostlist", "n1", "--", "-x").stdout, "n1,-x\n")
        self.assertEqual(run("hostlist", "-ec", "n1").returncode, 2)
        self.assertEqual(run("hostlist", "-n", "-1", "n1", "n2").stdout, "n2\n")

    def test_a_flag_before_the_command_does_not_take_it_as_its_value(self):
        self.assertEqual(run("--strict", "hostlist", "n1").stdout, "n1\n")
        self.assertEqual(run("--strict", "idset", "union", "1", "2").stdout, "1-2\n")
        r = run("--strict", "hostlst", "n1")
        self.assertIn("unknown command 'hostlst'; did you mean 'hostlist'?", r.stderr)


class Constraints(unittest.TestCase):
    R = None

    def setUp(self):
        self.r = os.path.join(CONFORMANCE, "constraint", "r.json")

    def test_acceptance(self):
        r = run("constraint", "ssd and not host:foo[1-3]")
        self.assertEqual((r.returncode, r.stdout, r.stderr), (0,
            '{"and":[{"properties":["ssd"]},{"not":[{"hostlist":["foo[1-3]"]}]}]}\n', ""))

    def test_query_from_standard_input(self):
        r = run("constraint", "-", stdin="ssd and not host:foo[1-3]\n")
        self.assertEqual((r.returncode, r.stdout), (0,
            '{"and":[{"properties":["ssd"]},{"not":[{"hostlist":["foo[1-3]"]}]}]}\n'))

    def test_query_writes_a_constraint_back(self):
        # issue 59: the --requires query of an RFC 31 object; where none says it, exit 1.
        r = run("constraint", "--json", "-", "--query",
                stdin='{"or":[{"and":[{"properties":["ssd","gpu"]},{"ranks":["0-3"]}]},'
                      '{"not":[{"hostlist":["foo[1-3]"]}]}]}')
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (0, "ssd and gpu and rank:0-3 or not host:foo[1-3]\n", ""))
        r = run("constraint", "--json", "-", "--query", stdin='{"not":[{"and":[]}]}')
        self.assertEqual((r.returncode, r.stdout), (1, ""))
        self.assertIn("error[query.unwritable]", r.stderr)
        self.assertEqual(run("constraint", "--query", "--match", self.r, "ssd").returncode, 2)
        # Another user's escape reaches no terminal raw: a query has no escapes of its own.
        r = run("constraint", "--json", "-", "--query",
                stdin='{"properties":["a\\rb","\\u202eb"]}')
        self.assertEqual((r.returncode, r.stdout), (0, "'a\\x0db' and <U+202E>b\n"))
        r = run("constraint", "--json", "-", "--query", stdin='{"properties":["\\u001b[2J"]}')
        self.assertEqual((r.returncode, r.stdout), (1, ""))
        self.assertIn("error[query.unwritable]", r.stderr)
        self.assertNotIn("\x1b", r.stderr)

    def test_leading_dash_after_double_dash(self):
        r = run("constraint", "--", "-ssd")
        self.assertEqual(r.stdout, '{"not":[{"properties":["ssd"]}]}\n')

    def test_default_operator(self):
        r = run("constraint", "--default-operator", "name", "(a|-b)&c")
        self.assertEqual(json.loads(r.stdout), {"and": [{"or": [{"name": ["a"]}, {"not": [{"name": ["b"]}]}]},
                                                        {"name": ["c"]}]})

    def test_errors(self):
        r = run("constraint", "hots:x")
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stderr, "error[query.unknown-operator]: unknown constraint operator 'hots'\n"
                                   "  hots:x\n  ^~~~\n  hosts\n"
                                   "  help: did you mean 'hosts'?\n")
        self.assertEqual(run("constraint", "--", "-(a|b)").returncode, 1)
        self.assertEqual(run("constraint").returncode, 2)

    def test_json(self):
        r = run("constraint", "--json", "-", stdin='{"or": [{"properties": ["a"]}, {}]}')
        self.assertEqual(r.stdout, '{"or":[{"properties":["a"]},{}]}\n')
        r = run("constraint", "--json", "-", stdin='{"nodes": ["a"]}')
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[constraint.unknown-operator]", r.stderr)
        self.assertIn("at /nodes", r.stderr)

    def test_match(self):
        r = run("constraint", "--match", self.r, "ssd and not host:foo[1-3]")
        self.assertEqual(json.loads(r.stdout), {"ranks": "0,8-11", "hosts": "foo0,bar[0-3]", "count": 5})
        r = run("constraint", "--match", self.r, "--short", "ssd and not host:foo[1-3]")
        self.assertEqual(r.stdout, "5 of 16 targets: rank 0,8-11 (foo0,bar[0-3])\n")
        r = run("constraint", "--match", self.r, "--short", "nosuch")
        self.assertEqual(r.stdout, "0 of 16 targets: rank none\n")
        # A jobspec on standard input is named <stdin>, as everywhere else.
        r = run("match", "-", self.r, stdin="version: 9\n")
        self.assertEqual(r.returncode, 1)
        self.assertIn("--> <stdin>:1:1", r.stderr)

    def test_quoted_terms_as_in_flux(self):
        # issue 33: a quoted term is still operator:operand, as flux-core reads it.
        r = run("constraint", "--default-operator", "name", "--", '"t:p@1"')
        self.assertEqual((r.returncode, r.stdout), (0, '{"t":["p@1"]}\n'))
        r = run("constraint", "--", '"t:p@1"')
        self.assertIn("error[query.unknown-operator]: unknown constraint operator 't'", r.stderr)
        for dialect in ([], ["--default-operator", "name"]):
            r = run("constraint", *dialect, "--", '":b"')
            self.assertEqual(r.returncode, 1)
            self.assertIn("error[query.syntax]: expected an operator before ':'", r.stderr)
            # flux: invalid character in operator (in --requires, no such operator either)
            r = run("constraint", *dialect, "--", "'a/b:a b'")
            self.assertEqual(r.returncode, 1)
            self.assertIn("operator 'a/b'", r.stderr)
            # an empty hostlist is no hostlist
            r = run("constraint", *dialect, "--", "host:''")
            self.assertEqual((r.returncode, r.stdout), (1, ""))
            self.assertIn("error[query.syntax]: '' is empty: an operand needs a character\n"
                          "  host:''\n       ^~\n", r.stderr)

    def test_compile_requires_and_match(self):
        job = run("compile", "-N2", "-n4", "-g1", "--requires", "ssd and not host:foo[1-3]", "--", "app")
        self.assertEqual(job.returncode, 0, job.stderr)
        self.assertEqual(json.loads(job.stdout)["attributes"]["system"]["constraints"],
                         {"and": [{"properties": ["ssd"]}, {"not": [{"hostlist": ["foo[1-3]"]}]}]})
        self.assertEqual(run("validate", "--v1", "-", stdin=job.stdout).returncode, 0)
        r = run("match", "-", self.r, stdin=job.stdout)
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[jobspec.unsatisfiable]: asks 2 nodes with 2 cores and 2 gpus each: of "
                      "the 16 nodes, 5 match the constraints, 1 of those has 2 gpus\n"
                      "  --> <stdin> at /resources/0/with/0/with/1\n", r.stderr)
        self.assertIn("warning[match.constraint]: foo[4-7],bar[4-7] (8 nodes) lack property ssd\n"
                      "  --> <stdin> at /attributes/system/constraints/and/0\n", r.stderr)
        job = run("compile", "-N2", "-n4", "-g1", "--requires", "ssd", "--", "app")
        r = run("match", "-", self.r, stdin=job.stdout)
        self.assertEqual(r.returncode, 0, r.stderr)
        alloc = json.loads(r.stdout)["execution"]
        self.assertEqual(alloc["R_lite"], [{"rank": "0-1", "children": {"core": "0-1", "gpu": "0-1"}}])
        self.assertEqual((alloc["nodelist"], alloc["nslots"]), (["foo[0-1]"], 4))
        bad = run("compile", "--requires", "hots:x", "--", "a")
        self.assertEqual(bad.returncode, 1)
        self.assertIn("error[query.unknown-operator]", bad.stderr)

    def test_match_fluxion_xor_slots(self):
        # Two choices: 4 gpus a node, or 32 cores; the first that fits wins (Fluxion's order).
        job = """version: 9999
resources:
  - type: node
    count: 2
    with:
      - type: xor_slot
        count: 1
        label: gpus
        with: [{type: core, count: 2}, {type: gpu, count: 4}]
      - type: xor_slot
        count: 2
        label: cores
        with: [{type: core, count: 16}]
tasks: [{command: [app], slot: default, count: {per_slot: 1}}]
attributes: {system: {duration: 60}}
"""
        def r(cores, gpus):
            return run("R", "encode", "-r", "0-1", "-c", cores, "-g", gpus, "-H", "n[0-1]").stdout

        def match(r_text, *options):
            d = self.enterContext(tempfile.TemporaryDirectory())
            with open(os.path.join(d, "r.json"), "w") as f:
                f.write(r_text)
            return run("match", *options, "-", os.path.join(d, "r.json"), stdin=job)

        alloc = json.loads(match(r("0-7", "0-3"), "--dialect", "fluxion").stdout)["execution"]
        self.assertEqual((alloc["R_lite"], alloc["nslots"]),
                         ([{"rank": "0-1", "children": {"core": "0-1", "gpu": "0-3"}}], 2))
        alloc = json.loads(match(r("0-35", "0-1"), "--dialect", "fluxion").stdout)["execution"]
        self.assertEqual((alloc["R_lite"], alloc["nslots"]),
                         ([{"rank": "0-1", "children": {"core": "0-31"}}], 4))
        none = match(r("0-7", ""), "--dialect", "fluxion")
        self.assertEqual(none.returncode, 1)
        self.assertIn("xor_slot choice 1 of 2: asks 2 nodes with 2 cores and 4 gpus each: of the "
                      "2 nodes, 0 have 4 gpus", none.stderr)
        self.assertIn("xor_slot choice 2 of 2: asks 2 nodes with 32 cores each: of the 2 nodes, "
                      "0 have 32 cores", none.stderr)
        # Fluxion needs no label on an xor_slot: the task runs in the choice that fits.
        job = job.replace("        label: gpus\n", "").replace("        label: cores\n", "")
        self.assertEqual(json.loads(match(r("0-35", "0-1"), "--dialect", "fluxion").stdout)
                         ["execution"]["nslots"], 4)
        # RFC 14's reading: no slot is labelled as the task's slot.
        self.assertIn("error[jobspec.unknown-slot]", match(r("0-7", "0-3")).stderr)

    def test_match_what_r_cannot_describe(self):
        # A socket holds what it holds: placed, with a warning that R cannot show it.
        path = os.path.join(CONFORMANCE, "jobspec", "valid", "rfc14-use_case_1.3.yaml")
        r = run("match", path, self.r)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("warning[match.unchecked]: R version 1 does not describe a 'socket'", r.stderr)
        alloc = json.loads(r.stdout)["execution"]
        self.assertEqual((alloc["R_lite"], alloc["nslots"]),
                         ([{"rank": "0-3", "children": {"core": "0-7"}}], 4))
        # Memory cannot be placed at all.
        job = ("version: 1\nresources: [{type: node, count: 1, with: [{type: memory, count: 4},"
               " {type: slot, count: 1, label: t, with: [{type: core, count: 1}]}]}]\n"
               "tasks: [{command: [app], slot: t, count: {per_slot: 1}}]\n"
               "attributes: {system: {duration: 0}}\n")
        r = run("match", "-", self.r, stdin=job)
        self.assertEqual((r.returncode, r.stdout), (1, ""))
        self.assertIn("error[match.unsupported]: R version 1 describes nodes, cores and gpus: a "
                      "'memory' cannot be placed", r.stderr)

    def test_match_queue_named_or_the_jobspecs_or_the_default(self):
        queues = os.path.join(CONFORMANCE, "..", "..", "examples", "queues.toml")
        def nodes(*compile_options, queue=()):
            job = run("compile", *compile_options, "-N1", "--", "app").stdout
            r = run("match", "--config", queues, *queue, "-", self.r, stdin=job)
            self.assertEqual(r.returncode, 0, r.stderr)
            return json.loads(r.stdout)["execution"]["nodelist"]
        self.assertEqual(nodes(), ["bar0"])  # the default queue, batch: the bar nodes
        self.assertEqual(nodes("-q", "debug"), ["foo0"])  # the jobspec's: ssd required
        self.assertEqual(nodes("-q", "debug", queue=("--queue", "batch")), ["bar0"])

    def test_match_free_pending_or_now(self):
        free = os.path.join(CONFORMANCE, "..", "..", "examples", "free.json")
        job = run("compile", "-N3", "-g2", "--", "app").stdout
        r = run("match", "--free", free, "-", self.r, stdin=job)
        self.assertEqual((r.returncode, r.stdout), (1, ""))
        self.assertIn("error[match.pending]: fits, but not what is free now; it asks 3 nodes with "
                      "1 core and 2 gpus each, whole: of the 12 nodes with something free, 2 have "
                      "2 free gpus\n", r.stderr)
        # Never fits at all: unsatisfiable, whatever is free.
        job = run("compile", "-N9", "-g2", "--", "app").stdout
        r = run("match", "--free", free, "-", self.r, stdin=job)
        self.assertIn("error[jobspec.unsatisfiable]: asks 9 nodes with 1 core and 2 gpus each, "
                      "whole: of the 16 nodes, 8 have 2 gpus", r.stderr)
        # Fits now: placed on what is free, not on what is allocated.
        job = run("compile", "-N3", "-n24", "--", "app").stdout
        r = run("match", "--free", free, "-", self.r, stdin=job)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(json.loads(r.stdout)["execution"]["R_lite"],
                         [{"rank": "0-1", "children": {"core": "0-7"}},
                          {"rank": "2", "children": {"core": "8-15"}}])


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
    JOBSPEC = os.path.abspath(sys.argv.pop(1))
    CONFORMANCE = sys.argv.pop(1)
    unittest.main(verbosity=1)
