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
import stat
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
     "f.sh:2:25 at /attributes/system/dependencies/0/scheme\n"
     "  #flux: -N1 --dependency=afterokk:1\n" + " " * 26 + "^~~~~~~~\n" + " " * 26 + "afterok\n",
     BATCH_HEAD + "#flux: -N1 --dependency=afterok:1\nhostname\n"),
    ("directive system attribute", "g.sh", BATCH_HEAD + "#flux: -N1 --setattr=system.durration=60\nhostname\n",
     "g.sh:2:29 at /attributes/system/durration\n"
     "  #flux: -N1 --setattr=system.durration=60\n" + " " * 30 + "^~~~~~~~~\n"
     + " " * 30 + "duration\n",
     BATCH_HEAD + "#flux: -N1 --setattr=system.duration=60\nhostname\n"),
    ("directive constraint operator", "h.sh", BATCH_HEAD + "#flux: -N1 --requires=hostt:foo1\nhostname\n",
     "h.sh:2:23\n  #flux: -N1 --requires=hostt:foo1\n" + " " * 24 + "^~~~~\n"
     + " " * 24 + "host\n",
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
    # A value read from a directive is placed through where each of its bytes was read
    # (escaped blanks; the same text in another option's value before it).
    ("directive value written with escapes", "n.sh",
     BATCH_HEAD + "#flux: -N1 --job-name=hostt:foo1\n#flux: --requires=hostt:foo1\\ and\\ ssd\n"
     "hostname\n",
     "n.sh:3:19\n  #flux: --requires=hostt:foo1\\ and\\ ssd\n" + " " * 20 + "^~~~~\n"
     + " " * 20 + "host\n",
     BATCH_HEAD + "#flux: -N1 --job-name=hostt:foo1\n#flux: --requires=host:foo1\\ and\\ ssd\n"
     "hostname\n"),
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

    def test_no_label_fix_with_two_unlabelled_slots(self):
        # Which of them the task means is not certain: no label is offered, not a wrong one.
        slot = '{"type":"slot","count":1,"with":[{"type":"core","count":1}]}'
        text = ('{"version":1,"resources":[{"type":"node","count":1,"with":[' + slot + ","
                + slot + ']}],"tasks":[{"command":["a"],"slot":"task","count":{"per_slot":1}}],'
                '"attributes":{"system":{"duration":1}}}')
        path = self.write("two.json", text)
        r = run("--diagnostics", "json", "validate", path)
        self.assertEqual(r.returncode, 1)
        found = json.loads(r.stderr)
        self.assertIn("jobspec.slot-label-missing", [d["code"] for d in found])
        self.assertEqual([d for d in found if d.get("fixes")], [])

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

    def test_a_value_with_no_place_goes_on_the_options_first_value(self):
        # The second --requires is a line flux quotes again (paired triple quotes on
        # it): its bytes have no place in the script, so the query's problem goes on the
        # option's first value, without a fix; compile --batch keeps it in the query.
        quoted = "'" * 3 + "hostt:x" + "'" * 3 + '"' * 3
        text = (BATCH_HEAD + "#flux: -N1\n#flux: --requires=ssd\n#flux: --requires=" + '"' * 3
                + "\n#flux: " + quoted + "\nhostname\n")
        path = self.write("p.sh", text)
        r = run("fix", "--dry-run", path)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("p.sh:3:19\n  #flux: --requires=ssd\n" + " " * 20 + "^~~\n"
                      "  help: did you mean 'host'?", r.stderr)
        r = run("compile", "--batch", "--env-none", path)
        self.assertIn("  --> --requires\n  ssd hostt:x\n      ^~~~~\n", r.stderr)

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


def as_user(uid, gid, *args):
    """`jobspec ARGS` run as another user (setpriv, from util-linux), the test being root."""
    return subprocess.run(["setpriv", f"--reuid={uid}", f"--regid={gid}", "--clear-groups",
                           JOBSPEC, *args], capture_output=True, text=True,
                          env=dict(os.environ, NO_COLOR="1"), timeout=60)


class SafeWrites(unittest.TestCase):
    """`jobspec fix` writes only the file it was given: through a new file of its own made
    beside it (mkstemp), never through a name that already exists; what is not a regular
    file of one link, or not writable, is refused with a clear error and left as it was."""

    BROKEN = CASES[4][2]   # a batch script with a misspelt directive option
    FIXED = CASES[4][4]

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="jobspec-fix-")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def path(self, name):
        return os.path.join(self.dir, name)

    def write(self, name, text, mode=None):
        with open(self.path(name), "w") as f:
            f.write(text)
        if mode is not None:
            os.chmod(self.path(name), mode)
        return self.path(name)

    def read(self, name):
        with open(self.path(name)) as f:
            return f.read()

    def assert_refused(self, r, *words):
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        for word in words:
            self.assertIn(word, r.stderr)

    def test_a_planted_link_at_any_fixed_name_is_not_written_through(self):
        # Another user plants a link to the victim's file where a fixed temporary name
        # would be; the fix goes through a name of its own and the victim's file is as it
        # was (its mode too).
        victim = self.write("bashrc", "alias ls='ls -F'\n", 0o600)
        job = self.write("job.sh", self.BROKEN)
        for planted in ("job.sh.jobspec-fix", ".job.sh.jobspec-fix", "job.sh.tmp", "job.sh~"):
            os.symlink(victim, self.path(planted))
        r = run("--fix", job)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(self.read("job.sh"), self.FIXED)
        self.assertEqual(self.read("bashrc"), "alias ls='ls -F'\n")
        self.assertEqual(os.stat(victim).st_mode & 0o777, 0o600)
        self.assertEqual(sorted(os.listdir(self.dir)),
                         sorted(["bashrc", "job.sh", "job.sh.jobspec-fix", ".job.sh.jobspec-fix",
                                 "job.sh.tmp", "job.sh~"]))

    def test_a_symbolic_link_is_refused_and_its_target_kept(self):
        target = self.write("real.sh", self.BROKEN)
        os.symlink(target, self.path("link.sh"))
        r = run("--fix", self.path("link.sh"))
        self.assert_refused(r, "io.not-regular", "is a symbolic link (to '" + target + "')")
        self.assertTrue(os.path.islink(self.path("link.sh")))
        self.assertEqual(self.read("real.sh"), self.BROKEN)

    def test_a_fifo_is_refused_at_once(self):
        os.mkfifo(self.path("pipe.sh"))
        for args in (["--fix"], ["fix", "--dry-run"]):
            r = run(*args, self.path("pipe.sh"))   # would wait for a writer for ever
            self.assert_refused(r, "io.not-regular", "is a FIFO")
        self.assertTrue(stat.S_ISFIFO(os.lstat(self.path("pipe.sh")).st_mode))

    def test_devices_and_directories_are_refused(self):
        self.assert_refused(run("fix", "--kind", "shape", "/dev/null"), "is a character device")
        os.mkdir(self.path("d.sh"))
        self.assert_refused(run("--fix", self.path("d.sh")), "is a directory")

    def test_a_file_with_hard_links_is_refused(self):
        job = self.write("job.sh", self.BROKEN)
        os.link(job, self.path("other.sh"))
        self.assert_refused(run("--fix", job), "has 2 hard links")
        self.assertEqual(os.stat(job).st_nlink, 2)
        self.assertEqual(self.read("other.sh"), self.BROKEN)

    def test_a_read_only_file_is_refused_even_for_root(self):
        job = self.write("job.sh", self.BROKEN, 0o444)
        r = run("--fix", job)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("io.unwritable", r.stderr)
        self.assertIn("read-only (mode 0444)", r.stderr)
        self.assertNotIn("replaced", r.stdout)
        self.assertEqual(self.read("job.sh"), self.BROKEN)
        self.assertEqual(os.stat(job).st_mode & 0o777, 0o444)

    @unittest.skipUnless(os.geteuid() == 0, "needs root to act as two users (CI runs as root)")
    def test_another_users_file_in_a_shared_directory_is_refused(self):
        # The directory lets anyone make and rename files (no sticky bit); the file is
        # nobody's and only nobody may write it. Renaming a new file over it would work:
        # that must not happen.
        os.chmod(self.dir, 0o777)
        job = self.write("job.sh", self.BROKEN, 0o644)
        os.chown(job, 65534, 65534)
        r = as_user(1, 1, "--fix", job)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("you may not write it", r.stderr)
        st = os.stat(job)
        self.assertEqual((st.st_uid, st.st_gid, st.st_mode & 0o777), (65534, 65534, 0o644))
        self.assertEqual(self.read("job.sh"), self.BROKEN)
        self.assertEqual(os.listdir(self.dir), ["job.sh"])

    @unittest.skipUnless(os.geteuid() == 0, "needs root to make a file another user's")
    def test_owner_group_and_mode_are_kept(self):
        job = self.write("job.sh", self.BROKEN, 0o640)
        os.chown(job, 65534, 1)
        self.assertEqual(run("--fix", job).returncode, 0)
        st = os.stat(job)
        self.assertEqual((st.st_uid, st.st_gid, st.st_mode & 0o7777), (65534, 1, 0o640))
        self.assertEqual(self.read("job.sh"), self.FIXED)
        # A group-writable file of another user, fixed by a member of its group who may
        # write it but cannot give a new file that owner: refused, not given away.
        os.chmod(self.dir, 0o777)
        other = self.write("other.sh", self.BROKEN, 0o664)
        os.chown(other, 65534, 1)
        r = as_user(1, 1, "--fix", other)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("owner and group (65534:1) cannot be kept", r.stderr)
        self.assertEqual(self.read("other.sh"), self.BROKEN)
        self.assertEqual(os.stat(other).st_uid, 65534)

    def test_nothing_is_left_beside_a_file_that_cannot_be_written(self):
        job = self.write("job.sh", self.BROKEN)
        os.chmod(self.dir, 0o555)
        try:
            r = run("--fix", job)
        finally:
            os.chmod(self.dir, 0o755)
        if os.geteuid() == 0:   # root may make files in any directory: then it is fixed
            self.assertEqual(r.returncode, 0, r.stderr)
        else:
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn("cannot make a new file beside it", r.stderr)
        self.assertEqual(sorted(os.listdir(self.dir)), ["job.sh"])


if __name__ == "__main__":
    JOBSPEC = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=1)
