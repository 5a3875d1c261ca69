#!/usr/bin/env python3
"""`jobspec lsp` in a real editor: Neovim's built-in LSP client, set up as docs/EDITORS.md
shows (test/lsp/nvim/init.lua, which must appear in that document word for word), opens
the example files of test/lsp/data/ and shows what the server reports; the quick fixes
are chosen from Neovim's own code-action menu (vim.lsp.buf.code_action()), applied by
Neovim, and the file written and read back from disk; hover is what the floating window
of vim.lsp.buf.hover() shows, and completion the labels of the request vim.lsp.omnifunc
makes. After each session the server must have exited with status 0 (shutdown, exit) and
written nothing a sanitizer or an uncaught exception writes.

Each session is `nvim --headless` driven by test/lsp/nvim/drive.lua, which writes what
Neovim saw as JSON; each is bounded by a timeout (a hang fails, never blocks). Neovim is
required: tools/setup.sh installs it, and without it this test fails, never skips.
Neovim's state (lsp.log, shada) goes to a temporary directory; the LSP log is printed
when a session fails.

usage: nvim_test.py JOBSPEC
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(HERE, "data")
INIT = os.path.join(HERE, "nvim", "init.lua")
DRIVE = os.path.join(HERE, "nvim", "drive.lua")
JOBSPEC = None
SESSION_TIMEOUT = 60  # seconds for one Neovim session, start to quit
STEP_WAIT_MS = 10000  # the longest wait for each step inside a session

_sessions = {}


class Session:
    """One Neovim session on a copy of a test/lsp/data file: what drive.lua wrote (report),
    the file as it is on disk afterwards (text), and the LSP log (log)."""

    def __init__(self, name, fix_at=None, hover_at=None, complete_at=None):
        self.name = name
        self.original = read(os.path.join(DATA, name))
        top = tempfile.mkdtemp(prefix="jobspec-nvim-")
        try:
            work, bin_dir = os.path.join(top, "work"), os.path.join(top, "bin")
            os.mkdir(work)
            os.mkdir(bin_dir)
            # The setup runs `jobspec lsp` from PATH: the jobspec under test.
            os.symlink(os.path.abspath(JOBSPEC), os.path.join(bin_dir, "jobspec"))
            shutil.copy(os.path.join(DATA, name), work)
            out = os.path.join(top, "report.json")
            env = dict(os.environ)
            env.update({
                "PATH": bin_dir + os.pathsep + env.get("PATH", ""),
                "HOME": top,
                "XDG_CONFIG_HOME": os.path.join(top, "config"),
                "XDG_DATA_HOME": os.path.join(top, "data"),
                "XDG_STATE_HOME": os.path.join(top, "state"),
                "XDG_CACHE_HOME": os.path.join(top, "cache"),
                "JOBSPEC_NVIM_OUT": out,
                "JOBSPEC_NVIM_WAIT_MS": str(STEP_WAIT_MS),
            })
            for key, at in [("FIX", fix_at), ("HOVER", hover_at), ("COMPLETE", complete_at)]:
                env.pop("JOBSPEC_NVIM_" + key, None)
                if at:
                    env["JOBSPEC_NVIM_" + key] = "%d:%d" % at
            command = ["nvim", "--headless", "-n", "-i", "NONE", "-u", INIT,
                       "--cmd", "luafile " + DRIVE, name]
            try:
                run = subprocess.run(command, cwd=work, env=env, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     timeout=SESSION_TIMEOUT)
                self.output = run.stdout.decode("utf-8", "replace")
                self.status = run.returncode
            except subprocess.TimeoutExpired as e:
                self.output = (e.stdout or b"").decode("utf-8", "replace")
                self.status = f"killed after {SESSION_TIMEOUT} s"
            self.report = json.loads(read(out)) if os.path.exists(out) else None
            self.text = read(os.path.join(work, name))
            logs = [os.path.join(d, f) for d, _, fs in os.walk(top) for f in fs
                    if f == "lsp.log"]
            self.log = "".join(read(p) for p in logs)
        finally:
            shutil.rmtree(top, ignore_errors=True)

    def describe(self):
        """What to print when a check fails."""
        return (f"\n--- {self.name}: nvim exit {self.status}\n{self.output[-2000:]}"
                f"\n--- report\n{json.dumps(self.report, indent=1)}"
                f"\n--- file on disk\n{self.text}"
                f"\n--- lsp.log (last 3000 characters)\n{self.log[-3000:]}")


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


# Where each file's session without a fix hovers and asks for completions (LINE, COL):
# job.sh on '-t' of "#flux: -t 10m" and after "#flux: --n"; job.yaml on 'durration' and
# after "type: c"; a.shape on 'node' and after "[c".
PROBES = {"job.sh": ((3, 8), (2, 11)), "job.yaml": ((13, 24), (7, 15)),
          "a.shape": ((1, 2), (1, 10))}


def session(name, fix_at=None):
    """The session for a file, run once and kept for every test that looks at it: with
    fix_at, it applies the quick fix there; without, it hovers and completes (PROBES)."""
    key = (name, fix_at)
    if key not in _sessions:
        _sessions[key] = Session(name, fix_at, *(PROBES[name] if fix_at is None else ()))
    return _sessions[key]


class NeovimTest(unittest.TestCase):
    maxDiff = None

    def setUp(self):
        if shutil.which("nvim") is None:
            self.fail("nvim is not installed (tools/setup.sh installs Debian's neovim); "
                      "this test never skips")

    def seen(self, s, key="diagnostics"):
        """The report's diagnostics (or another key), failing with the whole story."""
        self.assertIsNotNone(s.report, "Neovim wrote no report" + s.describe())
        self.assertIsNone(s.report.get("error"), s.describe())
        self.assertEqual(s.report["timeouts"], [], "a step timed out" + s.describe())
        self.assertEqual(s.report.get("client"), "jobspec", s.describe())
        self.assertIn(key, s.report, s.describe())
        return s.report[key]

    def assert_fixed(self, s):
        """The session offered a quick fix, chose it, and Neovim applied it."""
        self.assertIsNotNone(s.report, "Neovim wrote no report" + s.describe())
        self.assertIsNotNone(s.report.get("chosen"), "no quick fix offered" + s.describe())
        self.assertTrue(s.report.get("written"), "the fix made no edit" + s.describe())

    def assert_reported(self, s, code, line, severity, col=None):
        found = [d for d in self.seen(s) if d["code"] == code and d["line"] == line and
                 d["severity"] == severity and (col is None or d["col"] == col)]
        self.assertTrue(found, f"no {severity} {code} at line {line}" +
                        (f" column {col}" if col else "") + s.describe())

    # (1) a batch script with a misspelt directive option
    def test_batch_script_directive_is_reported(self):
        s = session("job.sh")
        self.assertEqual(s.report and s.report.get("filetype"), "sh", s.describe())
        self.assert_reported(s, "directive.option", 2, "error")
        self.assertEqual(s.text, s.original, "the file changed without a fix" + s.describe())

    def test_batch_script_quick_fix(self):
        s = session("job.sh", fix_at=(2, 10))
        self.assert_fixed(s)
        self.assertEqual(s.text, s.original.replace("--nodse=2", "--nodes=2"), s.describe())
        after = self.seen(s, "diagnostics_after")
        self.assertEqual([d for d in after if d["code"] == "directive.option"], [],
                         s.describe())

    # (2) a shape file with ',' where ';' separates the children of a list
    def test_shape_comma_is_reported_under_it(self):
        s = session("a.shape")
        self.assertEqual(s.original, "node=2/[core=2,gpu=1]\n")
        self.assertTrue(any(d["line"] == 1 and d["col"] == 15 and d["severity"] == "error"
                            for d in self.seen(s)),
                        "no error under the ',' (line 1, column 15)" + s.describe())

    def test_shape_quick_fix_leaves_no_diagnostics(self):
        s = session("a.shape", fix_at=(1, 15))
        self.assert_fixed(s)
        self.assertEqual(s.text, "node=2/[core=2;gpu=1]\n", s.describe())
        self.assertEqual(self.seen(s, "diagnostics_after"), [], s.describe())

    # (3) a jobspec in YAML with a misspelt system attribute
    def test_jobspec_yaml_is_reported(self):
        s = session("job.yaml")
        self.assertEqual(s.report and s.report.get("filetype"), "yaml", s.describe())
        self.assert_reported(s, "jobspec.unknown-system-attribute", 13, "warning", col=23)

    def test_jobspec_yaml_quick_fix(self):
        s = session("job.yaml", fix_at=(13, 25))
        self.assert_fixed(s)
        self.assertEqual(s.text, s.original.replace("durration", "duration"), s.describe())
        self.assertEqual(self.seen(s, "diagnostics_after"), [], s.describe())

    # hover (the floating window vim.lsp.buf.hover() opens) and completion
    def test_hover(self):
        self.assertIn("--time-limit", self.seen(session("job.sh"), "hover"))
        self.assertIn("jobspec.unknown-system-attribute", self.seen(session("job.yaml"), "hover"))
        self.assertIn("node", self.seen(session("a.shape"), "hover"))

    def test_completion(self):
        self.assertIn("--nodes", self.seen(session("job.sh"), "completion"))
        self.assertIn("core", self.seen(session("job.yaml"), "completion"))
        self.assertIn("core", self.seen(session("a.shape"), "completion"))

    def test_server_offers_what_the_document_says(self):
        s = session("job.yaml")
        self.seen(s)
        self.assertEqual(s.report.get("capabilities"),
                         {"codeAction": True, "hover": True, "completion": True}, s.describe())

    def test_server_exits_cleanly(self):
        for name, fix_at in [("job.sh", None), ("job.sh", (2, 10)), ("a.shape", None),
                             ("a.shape", (1, 15)), ("job.yaml", None), ("job.yaml", (13, 25))]:
            s = session(name, fix_at)
            with self.subTest(file=name, fix_at=fix_at):
                self.assertIsNotNone(s.report, "Neovim wrote no report" + s.describe())
                self.assertEqual(s.report.get("exit"), {"code": 0, "signal": 0},
                                 "after shutdown and exit" + s.describe())
                for bad in ("runtime error:", "Sanitizer", "terminate called"):
                    self.assertNotIn(bad, s.log, "the server's stderr" + s.describe())

    def test_the_setup_is_the_documented_one(self):
        self.assertIn(read(INIT), read(os.path.join(SOURCE, "docs", "EDITORS.md")),
                      "test/lsp/nvim/init.lua is not in docs/EDITORS.md word for word")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n\n")[-1])
    JOBSPEC = sys.argv[1]
    unittest.main(argv=[sys.argv[0]], verbosity=2)
