#!/usr/bin/env python3
"""Golden-output tests for jobspec-grammar and the pictures jobspec draws.

usage: golden_test.py JOBSPEC-GRAMMAR JOBSPEC SOURCE-ROOT [--update]

Each case in test/golden/cases (run with jobspec-grammar) and test/golden/jobspec (run
with jobspec) is NAME.args (the arguments, one per line), NAME.out (the expected stdout,
byte for byte), and optionally NAME.in (standard input), NAME.err (the expected stderr)
and NAME.status (the expected exit status, 0 when absent). --update rewrites .out, .err
and .status from what the tool prints now: review the diff before committing it.
"""
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import unittest

GRAMMAR = JOBSPEC = ROOT = None
UPDATE = False


def run(tool, args, stdin=None):
    env = dict(os.environ, NO_COLOR="1")
    return subprocess.run([tool, *args], input=stdin, capture_output=True, env=env,
                          timeout=120)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


class Golden(unittest.TestCase):
    def test_cases(self):
        self.check_cases("cases", GRAMMAR)

    def test_jobspec_cases(self):
        self.check_cases("jobspec", JOBSPEC)

    def check_cases(self, folder, tool):
        cases = sorted(glob.glob(os.path.join(ROOT, "test/golden", folder, "*.args")))
        self.assertGreater(len(cases), 0)
        for args_path in cases:
            base = args_path[: -len(".args")]
            with self.subTest(case=os.path.basename(base)):
                args = read(args_path).decode().split("\n")[:-1]
                stdin = read(base + ".in") if os.path.exists(base + ".in") else None
                r = run(tool, args, stdin)
                if UPDATE:
                    write(base + ".out", r.stdout)
                    for ext, data, empty in ((".err", r.stderr, b""),
                                             (".status", b"%d\n" % r.returncode, b"0\n")):
                        if data != empty:
                            write(base + ext, data)
                        elif os.path.exists(base + ext):
                            os.remove(base + ext)
                    continue
                self.assertEqual(r.stdout, read(base + ".out"))
                err = base + ".err"
                self.assertEqual(r.stderr.decode(),
                                 read(err).decode() if os.path.exists(err) else "")
                status = base + ".status"
                self.assertEqual(r.returncode,
                                 int(read(status)) if os.path.exists(status) else 0)


class Readme(unittest.TestCase):
    def test_documented_output(self):
        """Every `$ jobspec-grammar ...` console example in the README prints what it shows."""
        text = read(os.path.join(ROOT, "README.md")).decode()
        examples = re.findall(r"```console\n\$ (?:build/tools/)?(jobspec-grammar [^\n]*)\n(.*?)```", text,
                              re.DOTALL)
        self.assertGreaterEqual(len(examples), 2)
        for command, expected in examples:
            with self.subTest(command=command):
                r = run(GRAMMAR, shlex.split(command)[1:])
                self.assertEqual(r.returncode, 0)
                self.assertEqual(r.stdout.decode(), expected)


class SameErrorsAsJobspec(unittest.TestCase):
    CASES = [
        ("shape", ["slot=2{a/core", "slot/[core;;gpu]", "slot=0/core", "node/core=2-1",
                   "slot{x}/core=99999999999999999999", "slot/core{color:red}"]),
        ("dependency", ["afterok:nope", "string:x?type=sideways&scope=user", "bogus:1",
                        "after:f1"]),
        ("constraint", ["a and or b", "(a", "host:foo[1-", "bogus:x"]),
    ]

    def test_same_stderr_and_status(self):
        for grammar, texts in self.CASES:
            for text in texts:
                with self.subTest(grammar=grammar, text=text):
                    ours = run(GRAMMAR, [grammar, "--", text])
                    theirs = run(JOBSPEC, [grammar, "--", text])
                    self.assertEqual(ours.stderr.decode(), theirs.stderr.decode())
                    self.assertEqual(ours.returncode, theirs.returncode)
        r = run(GRAMMAR, ["shape", "--diagnostics", "json", "slot=0/core"])
        self.assertIn(b'"code":"shape.count-not-positive"', r.stderr.replace(b" ", b""))


class NeverCrashes(unittest.TestCase):
    VIEWS = ["--tokens", "--tree", "--ast", "--ranges", "--dot", "--trace", "--ambiguities",
             "--sll"]

    def inputs(self, grammar):
        """Empty, not UTF-8, nesting at the depth limit and past it, and too big."""
        nest = {"shape": (b"a/", b"b", b""), "constraint": (b"(", b"a", b")"),
                "dependency": (b"", b"a:b", b"")}[grammar]
        yield b""
        yield b"\xff\xfe"
        for depth in (64, 65, 100000):
            yield nest[0] * depth + nest[1] + nest[2] * depth
        yield b"x" * ((1 << 20) + 1)

    def test_limits_and_garbage(self):
        for grammar in ("shape", "dependency", "constraint"):
            for data in self.inputs(grammar):
                with self.subTest(grammar=grammar, size=len(data)):
                    r = run(GRAMMAR, [grammar, *self.VIEWS, "-"], stdin=data)
                    self.assertIn(r.returncode, (0, 1), r.stderr[-400:])

    def test_depth_limit_is_the_one_jobspec_has(self):
        ok = b"a/" * 64 + b"b"
        self.assertEqual(run(GRAMMAR, ["shape", "--tree", "-"], stdin=ok).returncode, 0)
        over = b"a/" * 65 + b"b"
        r = run(GRAMMAR, ["shape", "--tree", "-"], stdin=over)
        self.assertEqual(r.returncode, 1)
        self.assertIn(b"error[limit.depth]", r.stderr)
        r = run(GRAMMAR, ["shape", "--max-depth", "65", "--tree", "-"], stdin=over)
        self.assertEqual(r.returncode, 0)

    def test_usage(self):
        self.assertEqual(run(GRAMMAR, ["yaml", "x"]).returncode, 2)
        self.assertEqual(run(GRAMMAR, ["constraint", "--ir", "a"]).returncode, 2)
        self.assertEqual(run(GRAMMAR, ["shape", "-f", "/nonexistent"]).returncode, 2)
        r = run(GRAMMAR, ["--version"])
        self.assertRegex(r.stdout.decode(), r"^jobspec-grammar \d+\.\d+\.\d+\n$")
        r = run(GRAMMAR, ["--help"])
        self.assertIn(b"--tokens", r.stdout)
        self.assertIn(b"Exit status", r.stdout)

    def test_file_and_stdin_read_the_same(self):
        path = os.path.join(ROOT, "test/conformance/shape/valid/use_case_2.4.shape")
        shape = [line for line in read(path).decode().splitlines()
                 if not line.startswith("#")][0]
        by_arg = run(GRAMMAR, ["shape", "--tree", shape])
        by_stdin = run(GRAMMAR, ["shape", "--tree"], stdin=(shape + "\n").encode())
        self.assertEqual(by_arg.stdout, by_stdin.stdout)
        self.assertEqual(by_arg.returncode, 0)


def use_case_shapes():
    for path in sorted(glob.glob(os.path.join(ROOT, "test/conformance/shape/valid/use_case_*.shape"))):
        lines = [l for l in read(path).decode().splitlines() if l and not l.startswith("#")]
        yield os.path.basename(path), lines[0]


@unittest.skipUnless(shutil.which("dot"), "graphviz (dot) is not installed")
class Pictures(unittest.TestCase):
    def assert_renders(self, dot_text):
        r = subprocess.run(["dot", "-Tsvg"], input=dot_text, capture_output=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr, b"")
        self.assertIn(b"<svg", r.stdout)

    def test_every_rfc46_use_case(self):
        shapes = list(use_case_shapes())
        self.assertGreaterEqual(len(shapes), 15)
        for name, shape in shapes:
            with self.subTest(use_case=name):
                r = run(JOBSPEC, ["graph", "--what", "shape", shape])
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertIn(b"subgraph cluster_", r.stdout)
                self.assert_renders(r.stdout)
                r = run(GRAMMAR, ["shape", "--dot", shape])
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assert_renders(r.stdout)

    def test_every_rfc14_use_case_jobspec(self):
        files = sorted(glob.glob(os.path.join(ROOT, "test/conformance/jobspec/valid/rfc14-*.yaml")))
        self.assertGreaterEqual(len(files), 17)
        for path in files:
            with self.subTest(file=os.path.basename(path)):
                r = run(JOBSPEC, ["graph", "--what", "jobspec", path])
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertIn(b"shape=note", r.stdout)
                self.assert_renders(r.stdout)

    def test_labels_counts_and_marks(self):
        r = run(JOBSPEC, ["graph", "--what", "shape", "node=2+{x}/slot=3-30{s}/core"])
        self.assertEqual(r.returncode, 0)
        self.assertIn('label="node ×2+\\nexclusive", style="rounded,bold"'.encode(), r.stdout)
        self.assertIn('label="slot s ×3-30"'.encode(), r.stdout)
        self.assertIn(b"lhead=cluster_", r.stdout)

    def test_svg_file(self):
        out = os.path.join(os.environ.get("TMPDIR", "/tmp"), "jobspec-golden-%d.svg" % os.getpid())
        try:
            r = run(JOBSPEC, ["graph", "--what", "shape", "--svg", out, "slot=2/core"])
            self.assertEqual((r.returncode, r.stdout), (0, b""))
            self.assertIn(b"<svg", read(out))
            r = run(GRAMMAR, ["shape", "--svg", out, "slot=2/core"])
            self.assertEqual(r.returncode, 0)
            self.assertIn(b"<svg", read(out))
        finally:
            if os.path.exists(out):
                os.remove(out)

    def test_svg_without_graphviz(self):
        env = dict(os.environ, PATH="/nonexistent")
        r = subprocess.run([JOBSPEC, "graph", "--what", "shape", "--svg", "/tmp/x.svg",
                            "slot/core"], capture_output=True, env=env, timeout=60)
        self.assertEqual(r.returncode, 2)
        self.assertIn(b"'dot' is not installed", r.stderr)


if __name__ == "__main__":
    if "--update" in sys.argv:
        sys.argv.remove("--update")
        UPDATE = True
    GRAMMAR, JOBSPEC, ROOT = (os.path.abspath(p) for p in sys.argv[1:4])
    del sys.argv[1:4]
    unittest.main(verbosity=1)
