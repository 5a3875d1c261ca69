#!/usr/bin/env python3
"""`jobspec lsp` in Emacs's eglot: test/lsp/emacs/check.el, in `emacs --batch`, loads the
setup docs/EDITORS.md shows (test/lsp/emacs/init.el, which must appear in that document
word for word), opens a copy of an example of test/lsp/data/, prints the Flymake
diagnostics eglot shows, and with a position, applies the quick fix there
(eglot-code-actions) and saves the file, which is then read back from disk.

Each run is bounded by a timeout (a hang fails, never blocks). Emacs, eglot and yaml-mode
are required (tools/setup.sh installs Debian's emacs-nox, elpa-eglot and elpa-yaml-mode):
without them this test fails, never skips.

usage: emacs_test.py JOBSPEC
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(HERE, "data")
INIT = os.path.join(HERE, "emacs", "init.el")
CHECK = os.path.join(HERE, "emacs", "check.el")
JOBSPEC = None
TIMEOUT = 30  # seconds for one Emacs run


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


class Run:
    """check.el on a copy of a test/lsp/data file: its exit status, what it printed on
    stdout (the diagnostics, "fixed: ...") and on stderr (Emacs's messages), and the file
    as it is on disk afterwards."""

    def __init__(self, name, fix_at=None):
        self.name, self.original = name, read(os.path.join(DATA, name))
        top = tempfile.mkdtemp(prefix="jobspec-emacs-")
        try:
            work, bin_dir = os.path.join(top, "work"), os.path.join(top, "bin")
            os.mkdir(work)
            os.mkdir(bin_dir)
            # The setup runs `jobspec lsp` from PATH: the jobspec under test.
            os.symlink(os.path.abspath(JOBSPEC), os.path.join(bin_dir, "jobspec"))
            shutil.copy(os.path.join(DATA, name), work)
            env = dict(os.environ, HOME=top, PATH=bin_dir + os.pathsep + os.environ["PATH"])
            command = ["emacs", "--batch", "-l", CHECK, name] + \
                      (["%d:%d" % fix_at] if fix_at else [])
            try:
                r = subprocess.run(command, cwd=work, env=env, stdin=subprocess.DEVNULL,
                                   capture_output=True, timeout=TIMEOUT)
                self.status = r.returncode
                self.stdout = r.stdout.decode("utf-8", "replace")
                self.stderr = r.stderr.decode("utf-8", "replace")
            except subprocess.TimeoutExpired as e:
                self.status = f"killed after {TIMEOUT} s"
                self.stdout = (e.stdout or b"").decode("utf-8", "replace")
                self.stderr = (e.stderr or b"").decode("utf-8", "replace")
            self.text = read(os.path.join(work, name))
        finally:
            shutil.rmtree(top, ignore_errors=True)

    def describe(self):
        return (f"\n--- {self.name}: emacs exit {self.status}\n{self.stdout}"
                f"\n--- stderr (last 3000 characters)\n{self.stderr[-3000:]}"
                f"\n--- file on disk\n{self.text}")


class EglotTest(unittest.TestCase):
    maxDiff = None

    def setUp(self):
        if shutil.which("emacs") is None:
            self.fail("emacs is not installed (tools/setup.sh installs Debian's emacs-nox, "
                      "elpa-eglot and elpa-yaml-mode); this test never skips")

    def assert_shown(self, run, pattern):
        self.assertEqual(run.status, 0, run.describe())
        self.assertRegex(run.stdout, re.compile(pattern, re.M), run.describe())

    def test_batch_script(self):
        run = Run("job.sh")
        self.assert_shown(run, r"^2:\d+: eglot-error: .*\[directive\.option\]")
        self.assertEqual(run.text, run.original, run.describe())

    def test_batch_script_quick_fix(self):
        run = Run("job.sh", (2, 10))
        self.assert_shown(run, r"^fixed: #flux: --nodes=2$")
        self.assertEqual(run.text, run.original.replace("--nodse=2", "--nodes=2"),
                         run.describe())

    def test_shape(self):
        self.assert_shown(Run("a.shape"), r"^1:15: eglot-error: ")

    def test_shape_quick_fix(self):
        run = Run("a.shape", (1, 15))
        self.assert_shown(run, r"^fixed: node=2/\[core=2;gpu=1\]$")
        self.assertEqual(run.text, "node=2/[core=2;gpu=1]\n", run.describe())

    def test_jobspec_yaml(self):
        self.assert_shown(Run("job.yaml"),
                          r"^13:\d+: eglot-warning: .*\[jobspec\.unknown-system-attribute\]")

    def test_jobspec_yaml_quick_fix(self):
        run = Run("job.yaml", (13, 25))
        self.assert_shown(run, r"^fixed: attributes: \{system: \{duration: 60\}\}$")
        self.assertEqual(run.text, run.original.replace("durration", "duration"),
                         run.describe())

    def test_the_setup_is_the_documented_one(self):
        self.assertIn(read(INIT), read(os.path.join(SOURCE, "docs", "EDITORS.md")),
                      "test/lsp/emacs/init.el is not in docs/EDITORS.md word for word")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n\n")[-1])
    JOBSPEC = sys.argv[1]
    unittest.main(argv=[sys.argv[0]], verbosity=2)
