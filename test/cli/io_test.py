#!/usr/bin/env python3
"""CLI tests for input and output a user can trust (issue 14): bounded reading, one rule
for unreadable and empty inputs, UTF-8 in and out, safe terminals, option values checked,
one JSON diagnostics document per run, usage errors that help, errors after errors.

usage: io_test.py PATH-TO-JOBSPEC PATH-TO-JOBSPEC-GRAMMAR CONFORMANCE-DIR SANITIZE
(SANITIZE is meson's b_sanitize; memory bounds are looser under a sanitizer.)
"""
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
import unittest

JOBSPEC = GRAMMAR = CONFORMANCE = None
SANITIZED = False

V1_YAML = (b"version: 1\nresources:\n  - type: slot\n    count: 1\n    label: task\n"
           b"    with:\n      - type: core\n        count: 1\n"
           b"tasks:\n  - command: [\"app\"]\n    slot: task\n    count:\n      per_slot: 1\n"
           b"attributes:\n  system:\n    duration: 0\n")


def run(*args, stdin=None, env=None, program=None):
    full_env = dict(os.environ)
    for name in ("NO_COLOR", "JOBSPEC_DIAGNOSTICS"):
        full_env.pop(name, None)
    full_env.update(env or {})
    return subprocess.run([program or JOBSPEC, *args], input=stdin, capture_output=True,
                          env=full_env, timeout=60)


def codes(stderr):
    """The codes of a JSON diagnostics document."""
    return [d["code"] for d in json.loads(stderr)]


class Bounded(unittest.TestCase):
    """Endless inputs: exit 1 at once, with memory bounded."""

    def measure(self, args, feeder=None, stdin=None):
        """Runs the tool; returns (exit status, seconds, its peak RSS in MB, stderr)."""
        def limits():
            if not SANITIZED:  # a sanitizer reserves terabytes of address space
                resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        with tempfile.TemporaryFile() as err:
            start = time.monotonic()
            p = subprocess.Popen([JOBSPEC, *args], stdin=feeder.stdout if feeder else stdin,
                                 stdout=subprocess.DEVNULL, stderr=err, preexec_fn=limits)
            if feeder:
                feeder.stdout.close()
            while True:  # wait4, not wait: the rusage of this child alone
                pid, status, usage = os.wait4(p.pid, os.WNOHANG)
                if pid:
                    break
                if time.monotonic() - start > 30:
                    p.kill()
                time.sleep(0.005)
            seconds = time.monotonic() - start
            p.returncode = os.waitstatus_to_exitcode(status)
            err.seek(0)
            return p.returncode, seconds, usage.ru_maxrss / 1024, err.read().decode()

    def check(self, args, feeder=None, stdin=None, code="limit.input-size"):
        status, seconds, rss, err = self.measure(args, feeder, stdin)
        self.assertEqual(status, 1, err)
        self.assertIn(code, err)
        self.assertLess(seconds, 1.0 if not SANITIZED else 5.0)
        self.assertLess(rss, 64 if not SANITIZED else 256)

    def test_validate_dev_zero(self):
        self.check(["validate", "/dev/zero"])

    def test_id_from_yes(self):
        # id reads standard input a line at a time (issue 29): an endless stream of bad
        # lines ends after --max-diagnostics of them, an endless line at the limit.
        yes = subprocess.Popen(["yes"], stdout=subprocess.PIPE)
        try:
            self.check(["id", "-"], feeder=yes, code="limit.diagnostics")
        finally:
            yes.kill()
            yes.wait()
        with open("/dev/zero", "rb") as zero:
            self.check(["id", "-"], stdin=zero)
        with open("/dev/zero", "rb") as zero:
            self.check(["idset", "count"], stdin=zero)

    def test_sets_too_large_to_spell_out(self):
        # Issue 29: what the tools build is bounded too. R encode named 10^7 ranks after
        # this host one by one (bad_alloc under ulimit -v); 2^63 ranks grew 10 GB.
        huge = str(2**63 - 2)
        for args in (["R", "encode", "-r", "0-9999999"],
                     ["R", "encode", "-r", f"0-{huge}", "-c", f"0-{huge}"],
                     ["idset", "expand", f"0-{huge}"],
                     ["hostlist", "-e", f"n[0-{huge}]"],
                     ["hostlist", "-F", f"n[0-{huge}]", "n[0-3]"]):
            with self.subTest(args=args):
                self.check(args, code="limit.expansion")
        # With -H the same ranks cost a few ranges.
        status, seconds, rss, err = self.measure(
            ["R", "encode", "-r", f"0-{huge}", "-c", f"0-{huge}", "-H", f"n[0-{huge}]"])
        self.assertEqual((status, err), (0, ""))
        self.assertLess(rss, 64 if not SANITIZED else 256)
        r = run("--diagnostics", "json", "R", "encode", "-r", "0-9999999")
        self.assertEqual(json.loads(r.stderr)[0]["code"], "limit.expansion")
        self.assertEqual((json.loads(r.stderr)[0]["offset"], json.loads(r.stderr)[0]["length"]),
                         (0, 9))

    def test_limit_raised_past_the_memory_there_is(self):
        # Found by the abuse sweep's long mode: an endless input with the limit at 2^63-1
        # ran out of memory in bad_alloc (SIGABRT); now the read ends as the system's
        # refusal. (Under a sanitizer there is no address-space limit to meet.)
        if SANITIZED:
            self.skipTest("no address-space limit under a sanitizer")
        yes = subprocess.Popen(["yes", "[{"], stdout=subprocess.PIPE)
        try:
            status, _, _, err = self.measure(
                ["R", "remap", "--max-input-bytes", str(2**63 - 1), "-"], feeder=yes)
        finally:
            yes.kill()
            yes.wait()
        self.assertEqual(status, 2, err)
        self.assertIn("error[io.unreadable]: cannot read '<stdin>': Cannot allocate memory", err)

    def test_memory_per_input_byte(self):
        # Issue 29: a large valid document costs a bounded multiple of its size
        # (docs/PERFORMANCE.md: 12 to 18 bytes a byte; 24 allowed here, plus start-up).
        task = b'{"command":["app"],"slot":"task","count":{"per_slot":1}}'
        text = (b'{"version":1,"resources":[{"type":"slot","count":1,"label":"task",'
                b'"with":[{"type":"core","count":1}]}],"tasks":[' +
                b",".join([task] * 90_000) + b'],"attributes":{"system":{"duration":0}}}')
        with tempfile.NamedTemporaryFile(suffix=".json") as f:
            f.write(text)
            f.flush()
            status, _, rss, err = self.measure(["validate", "--max-input-bytes", "6000000",
                                                f.name])
        self.assertEqual(status, 0, err)
        if not SANITIZED:
            self.assertLess(rss, 24 * len(text) / 1e6 + 16)

    def test_shape_from_dev_zero(self):
        with open("/dev/zero", "rb") as zero:
            self.check(["shape", "-"], stdin=zero)

    def test_every_reader_stops_at_the_limit(self):
        big = b" " * 100 + b"x"
        for args in (["validate", "-"], ["R", "decode", "-"], ["constraint", "--json", "-"],
                     ["graph", "--what", "dag", "-"], ["id", "-"], ["shape", "-"],
                     ["match", "-", os.path.join(CONFORMANCE, "constraint", "r.json")]):
            with self.subTest(args=args):
                r = run(*args, "--max-input-bytes", "100", stdin=big)
                self.assertEqual(r.returncode, 1, r.stderr)
                self.assertIn(b"error[limit.input-size]: <stdin> is longer than the limit of 100",
                              r.stderr)
        r = run("shape", "-", "--max-input-bytes", "100", stdin=big, program=GRAMMAR)
        self.assertEqual(r.returncode, 1)
        self.assertIn(b"limit.input-size", r.stderr)


class Unreadable(unittest.TestCase):
    """One rule for every command: cannot read -> io.unreadable, exit 2; empty -> io.empty, 1."""

    def test_directory_and_missing_file(self):
        with tempfile.TemporaryDirectory() as d:
            missing = os.path.join(d, "nosuch.json")
            r_json = os.path.join(CONFORMANCE, "constraint", "r.json")
            for args, after in ((["validate"], []), (["R", "decode"], []), (["R", "info"], []),
                                (["constraint", "--json"], []), (["graph", "--what", "jobspec"], []),
                                (["match"], [r_json])):
                for path in (d + "/", missing):
                    with self.subTest(args=args, path=path):
                        r = run("--diagnostics", "json", *args, path, *after)
                        self.assertEqual(r.returncode, 2, r.stderr)
                        self.assertEqual(codes(r.stderr)[0], "io.unreadable")
            r = run("shape", "--diagnostics", "json", "x", "-f", d, program=GRAMMAR)
            r = run("shape", "-f", d + "/", program=GRAMMAR)
            self.assertEqual(r.returncode, 2)
            self.assertIn(b"error[io.unreadable]: cannot read", r.stderr)

    def test_messages(self):
        with tempfile.TemporaryDirectory() as d:
            r = run("validate", d)
            self.assertEqual(r.stderr.decode(),
                             f"error[io.unreadable]: cannot read '{d}': Is a directory\n")
            r = run("R", "decode", d + "/nosuch")
            self.assertEqual(r.stderr.decode(), f"error[io.unreadable]: cannot open "
                             f"'{d}/nosuch': No such file or directory\n")

    def test_empty_input_is_an_error(self):
        for args in (["R", "decode"], ["validate", "-"], ["id", "-"], ["constraint", "--json", "-"],
                     ["shape", "-"], ["constraint", "-"]):
            with self.subTest(args=args):
                r = run(*args, stdin=b" \n")
                self.assertEqual(r.returncode, 1, r.stderr)
                self.assertEqual(r.stdout, b"")
                self.assertIn(b"error[io.empty]: <stdin> is empty", r.stderr)
        r = run("shape", "--tokens", "-", stdin=b"", program=GRAMMAR)
        self.assertEqual(r.returncode, 1)
        self.assertIn(b"error[io.empty]: <stdin> is empty", r.stderr)
        # An empty argument is the empty text, not standard input (issue 29).
        r = run("shape", "", program=GRAMMAR)
        self.assertEqual(r.returncode, 1)
        self.assertNotIn(b"<stdin>", r.stderr)
        self.assertIn(b"error[shape.syntax]: expected '[', a name or a quoted string, found end "
                      b"of input", r.stderr)


class Utf8(unittest.TestCase):
    """Nothing the tools write is invalid UTF-8 or invalid JSON."""

    def test_yaml_value_not_utf8(self):
        doc = V1_YAML.replace(b'"app"', b'"a\xffb"')
        r = run("validate", "--v1", "--emit", "json", "-", stdin=doc)
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stdout, b"")
        self.assertIn(b"error[jobspec.invalid-utf8]: the document is not valid UTF-8: byte 0xff",
                      r.stderr)
        self.assertIn(b"<stdin>:10:17", r.stderr)
        r.stderr.decode("utf-8")  # the diagnostic itself is UTF-8

    def test_command_line_values_not_utf8(self):
        for args, where in ((["--", b"a\xffb"], b"/tasks/0/command/0"),
                            (["--cwd", b"/home/\xff", "--", "app"], b"/attributes/system/cwd"),
                            (["--env", b"X=\xfe", "--", "app"], b"/attributes/system/environment/X"),
                            (["--setattr", b"user.x=\xff", "--", "app"], b"/attributes/user/x")):
            with self.subTest(args=args):
                r = run("compile", *args)
                self.assertEqual(r.returncode, 1, r.stderr)
                self.assertEqual(r.stdout, b"")
                self.assertIn(b"error[jobspec.invalid-utf8]: '" + where, r.stderr)

    def test_environment_not_utf8_is_repaired_with_a_warning(self):
        env = {"JOBSPEC_TEST_BAD": "a\udcffb"}  # os.environ's surrogateescape for 0xff
        r = run("compile", "--", "app", env=env)
        self.assertEqual(r.returncode, 0, r.stderr)
        out = r.stdout.decode("utf-8")
        self.assertEqual(json.loads(out)["attributes"]["system"]["environment"]["JOBSPEC_TEST_BAD"],
                         "a\ufffdb")
        self.assertIn(b"warning[jobspec.environment-encoding]: environment variable "
                      b"'JOBSPEC_TEST_BAD' is not valid UTF-8", r.stderr)
        r = run("compile", "--strict", "--", "app", env=env)
        self.assertEqual(r.returncode, 1)

    def test_json_escapes_what_a_terminal_would_act_on(self):
        # An option's %XX escapes are decoded (the value is kept as written, as flux does).
        r = run("dependency", "--allow-unknown-scheme", "site:x?note=a%1b%c2%85%e2%80%aeb")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(b'"note":"a\\u001b\\u0085\\u202eb"', r.stdout)


class Terminal(unittest.TestCase):
    """Control and bidirectional characters shown visibly, carets aligned by width."""

    def test_escape_sequence_in_a_shape(self):
        r = run("shape", "slot=2/\x1b]0;PWNED\x07core")
        self.assertEqual(r.returncode, 1)
        self.assertNotIn(b"\x1b", r.stderr)
        self.assertNotIn(b"\x07", r.stderr)
        self.assertEqual(r.stderr.decode().splitlines()[:3], [
            "error[shape.unexpected-character]: unexpected control character U+001B",
            "  slot=2/\\x1b]0;PWNED\\x07core",
            "         ^~~~"])

    def test_bidirectional_override(self):
        r = run("shape", "slot=2{a\u202eb}/core=0")
        self.assertEqual(r.returncode, 1)
        self.assertNotIn("\u202e".encode(), r.stderr)
        self.assertIn(b"  slot=2{a<U+202E>b}/core=0\n"
                      b"                          ^\n", r.stderr)

    def test_caret_under_wide_characters(self):
        r = run("shape", "slot=2{\u30e9\u30d9\u30eb}/core=0")
        self.assertEqual(r.stderr.decode().splitlines()[1:3],
                         ["  slot=2{\u30e9\u30d9\u30eb}/core=0", "                      ^"])
        r = run("shape", "slot=2{\U0001F600}/core=0")
        self.assertEqual(r.stderr.decode().splitlines()[1:3],
                         ["  slot=2{\U0001F600}/core=0", "                  ^"])

    def test_yaml_values_shown_visibly(self):
        doc = V1_YAML.replace(b"label: task", b'label: "t\\e]0;x\\a"')
        r = run("validate", "-", stdin=doc)
        self.assertEqual(r.returncode, 1)
        self.assertNotIn(b"\x1b", r.stderr)
        self.assertIn(b"task slot 'task' is not the label of any slot", r.stderr)

    def test_file_names_shown_visibly(self):
        r = run("validate", "/nonexistent/\x1b[31mred")
        self.assertNotIn(b"\x1b", r.stderr)
        self.assertIn(b"\\x1b[31mred", r.stderr)


class OptionValues(unittest.TestCase):
    def test_counts_below_one_and_overflow_name_the_option(self):
        # As flux run says it (exit status 1); -n 0 and -c 0 mean "not given" there.
        for args, message in ((["-n", "-1"], "task count must be a integer >= 1"),
                              (["-N", "0"], "node count must be an integer >= 1 (if set)"),
                              (["-g", "-2"], "gpus per task must be an integer >= 0"),
                              (["-n", "18446744073709551616"],
                               "--ntasks: invalid int value '18446744073709551616'"),
                              (["-N", "x"], "--nodes: invalid int value 'x'")):
            with self.subTest(args=args):
                r = run("compile", *args, "--", "app")
                self.assertEqual(r.returncode, 1, r.stderr)
                self.assertEqual(r.stdout, b"")
                self.assertIn(message.encode(), r.stderr)

    def test_readable_ranges(self):
        r = run("shape", "--max-input-bytes", "0", "x")
        self.assertEqual(r.returncode, 2)
        self.assertEqual(r.stderr.decode().splitlines()[0], "jobspec shape: --max-input-bytes: "
                         "must be a whole number of at least 1, not '0'")
        r = run("shape", "--max-depth", "1001", "x")
        self.assertIn(b"must be a whole number from 1 to 1000, not '1001'", r.stderr)

    def test_random_option_sets_pass_validate_v1(self):
        """Property: whatever compile prints for a random set of options is a valid V1 jobspec."""
        rng = random.Random(14)
        printed = 0
        for _ in range(150):
            args = []
            if rng.random() < 0.6:
                args += ["-N", str(rng.randint(1, 8))]
            if rng.random() < 0.8:
                args += ["-n", str(rng.randint(1, 64))]
            if rng.random() < 0.4:
                args += ["-c", str(rng.randint(1, 16))]
            if rng.random() < 0.3:
                args += ["-g", str(rng.randint(0, 4))]
            if rng.random() < 0.2:
                args += ["-x"]
            if rng.random() < 0.3:
                args += ["-t", rng.choice(["30", "90s", "5m", "1.5h", "2d", "0"])]
            if rng.random() < 0.3:
                args += ["--env", rng.choice(["A=1", "B=x y", "C=ƒ"])]
            if rng.random() < 0.3:
                args += ["--setattr", rng.choice(["user.a=1", "system.queue=debug", "user.x=[1,2]"])]
            if rng.random() < 0.2:
                args += ["--dependency", rng.choice(["afterok:ƒ2oLkTLb", "singleton"])]
            if rng.random() < 0.2:
                args += ["--requires", rng.choice(["ssd", "host:n[1-4] or rank:0"])]
            if rng.random() < 0.2:
                args += ["--begin-time", "2030-01-01T00:00:00Z"]
            r = run("compile", "--cwd", "/tmp", *args, "--", "app", "arg")
            self.assertIn(r.returncode, (0, 1), (args, r.stderr))
            if r.returncode != 0:
                continue
            printed += 1
            v = run("validate", "--v1", "-", stdin=r.stdout)
            self.assertEqual(v.returncode, 0, (args, r.stdout, v.stderr))
            self.assertEqual(v.stderr, b"", args)
        self.assertGreater(printed, 100)


class Warnings(unittest.TestCase):
    def test_a_shape_warning_is_reported_once_by_compile(self):
        r = run("compile", "--shape", "node{colour:red}/slot/core", "--cwd", "/x", "--", "app")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr.count(b"jobspec.unknown-vertex-key"), 1)

    def test_env_name_copies_and_repairs_like_env_all(self):
        r = run("compile", "--env", "JOBSPEC_TEST_BAD", "--", "app",
                env={"JOBSPEC_TEST_BAD": "caf\udce9"})
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("caf\ufffd", json.loads(r.stdout)["attributes"]["system"]["environment"]
                      ["JOBSPEC_TEST_BAD"])
        self.assertIn(b"warning[jobspec.environment-encoding]", r.stderr)


class DiagnosticsJson(unittest.TestCase):
    """One JSON document on stderr per run, naming the file, covering every kind of error."""

    def test_several_files(self):
        good = os.path.join(CONFORMANCE, "jobspec", "valid", "rfc14-example1.yaml")
        with tempfile.NamedTemporaryFile(suffix=".yaml") as bad:
            bad.write(b"version: 2\n")
            bad.flush()
            r = run("validate", "--diagnostics", "json", good, bad.name, "/nonexistent.yaml")
            self.assertEqual(r.returncode, 2)
            diags = json.loads(r.stderr)
            self.assertEqual({d["file"] for d in diags}, {bad.name, "/nonexistent.yaml"})
            self.assertEqual(diags[-1]["code"], "io.unreadable")

    def test_every_kind_of_error_is_json(self):
        cases = [
            (["shap", "x"], 2, "usage.unknown-command"),
            (["compile", "--bogus", "-n1", "--", "app"], 2, "usage.unknown-option"),
            (["compile", "-t", "5x", "--", "app"], 1, "submit.value"),
            (["compile", "-N", "0", "--", "app"], 1, "submit.layout"),
            (["shape"], 2, "usage.missing-argument"),
            (["shape", "a", "b"], 2, "usage.extra-argument"),
            (["validate", "/nonexistent"], 2, "io.unreadable"),
            (["shape", "slot=0/core"], 1, "shape.count-not-positive"),
            (["shape", "--max-depth", "1", "a/b/c"], 1, "limit.depth"),
        ]
        for args, status, code in cases:
            for flag in (["--diagnostics", "json"], None):
                with self.subTest(args=args, flag=flag):
                    env = None if flag else {"JOBSPEC_DIAGNOSTICS": "json"}
                    full = args[:1] + (flag or []) + args[1:] if flag else args
                    r = run(*full, env=env)
                    self.assertEqual(r.returncode, status, r.stderr)
                    self.assertIn(code, codes(r.stderr))

    def test_verify_failure_is_a_diagnostic(self):
        small = run("R", "encode", "-r", "0", "-c", "0").stdout
        large = run("R", "encode", "-r", "0", "-c", "0-3").stdout
        with tempfile.TemporaryDirectory() as d:
            a, b = os.path.join(d, "a.json"), os.path.join(d, "b.json")
            # what the rank should have, then what was found (fewer cores)
            open(a, "wb").write(large)
            open(b, "wb").write(small)
            r = run("R", "verify", "--diagnostics", "json", a, b)
        self.assertEqual(r.returncode, 1)
        self.assertEqual(len(json.loads(r.stderr)), 1)

    def test_success_prints_an_empty_array(self):
        r = run("shape", "--diagnostics", "json", "slot/core")
        self.assertEqual(r.returncode, 0)
        self.assertEqual(r.stderr, b"[]\n")

    def test_grammar_uses_the_same_option(self):
        r = run("shape", "--diagnostics", "json", "slot=0/core", program=GRAMMAR)
        self.assertEqual(r.returncode, 1)
        self.assertIn("shape.count-not-positive", codes(r.stderr))


class Usage(unittest.TestCase):
    def test_unknown_command_suggests(self):
        r = run("shap", "x")
        self.assertEqual(r.returncode, 2)
        self.assertEqual(r.stderr.decode().splitlines()[0],
                         "jobspec: unknown command 'shap'; did you mean 'shape'?")
        r = run("R", "decod")
        self.assertEqual(r.stderr.decode().splitlines()[0],
                         "jobspec R: unknown command 'decod'; did you mean 'decode'?")

    def test_unknown_option_is_named(self):
        r = run("compile", "--bogus", "-n1", "--", "app")
        self.assertEqual(r.returncode, 2)
        self.assertEqual(r.stderr.decode().splitlines()[0],
                         "error[usage.unknown-option]: unrecognized arguments: --bogus")
        r = run("shape", "--strcit", "x")
        self.assertEqual(r.stderr.decode().splitlines()[0],
                         "jobspec shape: unknown option '--strcit'; did you mean '--strict'?")


class ErrorsAfterErrors(unittest.TestCase):
    def test_range_error_and_syntax_error(self):
        r = run("shape", "--diagnostics", "json", "slot=3-1/[core;=]")
        self.assertEqual(r.returncode, 1)
        self.assertEqual(codes(r.stderr)[:2], ["shape.range-order", "shape.syntax"])
        self.assertEqual(json.loads(r.stderr)[0]["column"], 6)

    def test_no_cascade_after_a_bad_rank(self):
        r = run("R", "decode", "-", stdin=b'{"version": 1, "execution": {"R_lite": [{"rank": "x", '
                b'"children": {"core": "0"}}], "nodelist": ["n0"]}}')
        self.assertEqual(r.returncode, 1)
        self.assertIn(b"R.idset", r.stderr)
        self.assertNotIn(b"R.nodelist-count", r.stderr)


if __name__ == "__main__":
    JOBSPEC, GRAMMAR, CONFORMANCE = sys.argv[1:4]
    SANITIZED = len(sys.argv) > 4 and sys.argv[4] not in ("", "none")
    unittest.main(argv=[sys.argv[0]], verbosity=1)
