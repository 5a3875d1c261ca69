#!/usr/bin/env python3
"""Fix-its, one case each: the input, the suggestion as rendered under the caret, the
diagnostics' JSON `fixes`, and the file after `jobspec --fix` (then valid, or holding only
what has no certain fix); `--fix --dry-run` prints a diff `patch` applies, and a file
`--fix` cannot read completely is never written.

usage: fix_test.py PATH-TO-JOBSPEC
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

JOBSPEC = None

BATCH_HEAD = "#!/bin/sh\n"
JOBSPEC_DOC = """version: 1
resources:
  - type: node
    count: 1
    with:
      - type: slot
        count: 1
        label: task
        with:
          - type: core
            count: 1
tasks:
  - command: [app]
    slot: task
    count:
      per_slot: 1
attributes:
  system:
    duration: 60
"""

# name, file name, text, the suggestion's lines under the caret (rendered), the text after
# --fix. Every fix-it jobspec makes has a case here.
CASES = [
    ("shape comma for semicolon", "a.shape", "node=2/[core=2,gpu=1]\n",
     "  node=2/[core=2,gpu=1]\n                ^\n                ;\n",
     "node=2/[core=2;gpu=1]\n"),
    ("shape missing slash after a count", "b.shape", "node=2core=2\n",
     "  node=2core=2\n        ^\n        /\n", "node=2/core=2\n"),
    ("shape missing slash, a blank", "c.shape", "node=2 core=2\n",
     "  node=2 core=2\n         ^\n        /\n", "node=2/core=2\n"),
    ("shape missing slash after braces", "d.shape", "node{x}core\n",
     "  node{x}core\n         ^\n         /\n", "node{x}/core\n"),
    ("directive option", "e.sh", BATCH_HEAD + "#flux: -N1 --nodse=2\nhostname\n",
     "  #flux: -N1 --nodse=2\n             ^~~~~~~\n             --nodes\n",
     BATCH_HEAD + "#flux: -N1 --nodes=2\nhostname\n"),
    # compile --batch shows a problem in a directive's option value in that value; --fix
    # finds the value in its #flux: line.
    ("directive dependency scheme", "f.sh", BATCH_HEAD + "#flux: -N1 --dependency=afterokk:1\nhostname\n",
     "  --> --dependency at /attributes/system/dependencies/0/scheme\n"
     "  afterokk:1\n  ^~~~~~~~\n  afterok\n",
     BATCH_HEAD + "#flux: -N1 --dependency=afterok:1\nhostname\n"),
    ("directive system attribute", "g.sh", BATCH_HEAD + "#flux: -N1 --setattr=system.durration=60\nhostname\n",
     "  system.durration=60\n         ^~~~~~~~~\n         duration\n",
     BATCH_HEAD + "#flux: -N1 --setattr=system.duration=60\nhostname\n"),
    ("directive constraint operator", "h.sh", BATCH_HEAD + "#flux: -N1 --requires=hostt:foo1\nhostname\n",
     "  hostt:foo1\n  ^~~~~\n  host\n",
     BATCH_HEAD + "#flux: -N1 --requires=host:foo1\nhostname\n"),
    ("jobspec system attribute", "i.yaml", JOBSPEC_DOC.replace("duration", "durration"),
     "      durration: 60\n      ^~~~~~~~~\n      duration\n", JOBSPEC_DOC),
    ("jobspec missing label", "j.yaml", JOBSPEC_DOC.replace("        label: task\n", ""),
     "fix: insert 'label: \"task\"\\x0a        ' at 6:9",
     JOBSPEC_DOC.replace("        label: task\n", "").replace(
         "      - type: slot\n", '      - label: "task"\n        type: slot\n')),
    ("jobspec count with per_slot 1 and total", "k.yaml",
     JOBSPEC_DOC.replace("per_slot: 1\n", "per_slot: 1\n      total: 4\n"),
     "fix: remove ", JOBSPEC_DOC.replace("per_slot: 1\n", "total: 4\n")),
    ("JSON jobspec: label and count", "l.json",
     '{"version":1,"resources":[{"type":"slot","count":1,"with":[{"type":"core","count":1}]}],'
     '"tasks":[{"command":["a"],"slot":"task","count":{"per_slot":1,"total":4}}],'
     '"attributes":{"system":{"durration":1}}}',
     'durration', '{"version":1,"resources":[{"label": "task", "type":"slot","count":1,'
     '"with":[{"type":"core","count":1}]}],"tasks":[{"command":["a"],"slot":"task",'
     '"count":{"total":4}}],"attributes":{"system":{"duration":1}}}'),
    ("dependency scheme in a jobspec", "m.yaml",
     JOBSPEC_DOC.replace("duration: 60\n", "duration: 60\n    dependencies:\n"
                         "      - scheme: afterokk\n        value: '1'\n"),
     "afterok\n", JOBSPEC_DOC.replace("duration: 60\n", "duration: 60\n    dependencies:\n"
                                      "      - scheme: afterok\n        value: '1'\n")),
]


def run(*args, stdin=None, cwd=None):
    env = dict(os.environ, NO_COLOR="1")
    return subprocess.run([JOBSPEC, *args], input=stdin, capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=60)


class FixIts(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="jobspec-fix-")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_each_fix_is_shown_given_and_applied(self):
        for name, file, text, shown, fixed in CASES:
            with self.subTest(name):
                path = self.write(file, text)
                # The suggestion as rendered, by the command that checks this kind.
                kind = file.rsplit(".", 1)[1]
                if kind == "shape":
                    check = ["shape", text.strip()]
                elif kind == "sh":
                    check = ["compile", "--batch", "--env-none", path]
                else:
                    check = ["validate", path]
                r = run(*check)
                self.assertIn(shown, r.stderr)
                # The same fix in JSON.
                j = run("--diagnostics", "json", *check)
                fixes = [f for d in json.loads(j.stderr) for f in d.get("fixes", [])]
                self.assertTrue(fixes, j.stderr)
                for f in fixes:
                    self.assertEqual(set(f), {"offset", "length", "line", "column",
                                              "replacement"})
                # --fix: the file as fixed, and valid now.
                r = run("--fix", path)
                self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
                self.assertIn(f"{path}:", r.stdout)
                with open(path) as f:
                    self.assertEqual(f.read(), fixed)
                again = run("fix", path)
                self.assertEqual((again.returncode, again.stdout), (0, ""), again.stderr)

    def test_dry_run_prints_a_diff_patch_applies_and_writes_nothing(self):
        name, file, text, _, fixed = CASES[4]
        path = self.write(file, text)
        r = run("fix", "--dry-run", file, cwd=self.dir)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(f"--- {file}\n+++ {file}\n@@ ", r.stdout)
        with open(path) as f:
            self.assertEqual(f.read(), text)
        diff = r.stdout[r.stdout.index("---"):]
        p = subprocess.run(["patch", "-p0"], input=diff, capture_output=True, text=True,
                           cwd=self.dir)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        with open(path) as f:
            self.assertEqual(f.read(), fixed)

    def test_errors_without_a_fix_are_said_and_the_fixes_still_made(self):
        path = self.write("x.shape", "node=2/[core=2,gpu=0]\n")
        r = run("--fix", path)
        self.assertEqual(r.returncode, 1)
        self.assertIn("replaced ',' with ';'", r.stdout)
        self.assertIn("1 error without a certain fix (the fixes above are written)", r.stdout)
        self.assertIn("shape.count-not-positive", r.stderr)
        with open(path) as f:
            self.assertEqual(f.read(), "node=2/[core=2;gpu=0]\n")

    def test_a_file_read_incompletely_is_never_written(self):
        text = CASES[0][2] + " " * 100
        path = self.write("big.shape", text)
        r = run("--fix", "--max-input-bytes", "50", path)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("limit.input-size", r.stderr)
        with open(path) as f:
            self.assertEqual(f.read(), text)

    def test_crlf_script_is_fixed_in_place(self):
        path = self.write("crlf.sh", "#!/bin/sh\r\n#flux: --nodse=2\r\nhostname\r\n")
        r = run("--fix", path)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        with open(path, newline="") as f:
            self.assertEqual(f.read(), "#!/bin/sh\r\n#flux: --nodes=2\r\nhostname\r\n")

    def test_mode_is_kept_and_standard_input_printed(self):
        path = self.write("run.sh", CASES[4][2])
        os.chmod(path, 0o750)
        self.assertEqual(run("--fix", path).returncode, 0)
        self.assertEqual(os.stat(path).st_mode & 0o777, 0o750)
        r = run("fix", "--kind", "shape", "-", stdin="node=2 core=2")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(r.stdout.endswith("node=2/core=2"), r.stdout)

    def test_kind_unknown_is_misuse(self):
        path = self.write("notes.txt", "hello\n")
        r = run("--fix", path)
        self.assertEqual(r.returncode, 2)
        self.assertIn("cannot tell what", r.stderr)


if __name__ == "__main__":
    JOBSPEC = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=1)
