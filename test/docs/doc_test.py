#!/usr/bin/env python3
"""Documentation tests: every console example in the given Markdown files runs as written.

A console example is a ```console block: lines starting with "$ " are commands (a
trailing backslash continues one onto the next line), and the lines after a command, up
to the next command or the end of the block, are what it prints (standard output and
standard error together, as a terminal shows them). Each command runs with `sh -c`, from
a copy of the repository root whose `build` is the build being tested, with the build's
tools and examples first on PATH, NO_COLOR set, TZ=UTC and a C.UTF-8 locale.

With --codes, the file is docs/CODES.md and each "## code" section is also checked
against include/jobspec/diagnostic_codes.def: every code has a section and every section
a code; the section's first example reports its code (run again with
JOBSPEC_DIAGNOSTICS=json, and the code looked for in the JSON on stderr), and its last
example, the fix, exits 0 without it.

With --update, nothing is tested: each example's output in the files is replaced by what
it prints now (for a deliberate change; read the diff before committing it).

usage: doc_test.py BUILD-DIR SOURCE-DIR [--codes] [--update] FILE.md...
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

BUILD = SOURCE = None
FILES = []
CODES = False
ROOT = None  # the repository root the examples run in

# Codes whose example cannot run as a shell command, and why.
NOT_RUNNABLE = {
    "api.internal": "reports an exception inside the library (out of memory, a bug); no input "
                    "produces it on purpose",
    "jobspec.request": "reported by compile_jobspec (the C++ and C APIs' JobRequest); "
                       "jobspec compile reads flux's options and says submit.layout",
}


def examples(text):
    """(line number, command, expected output) for each command of each console block."""
    found = []
    for block in re.finditer(r"^```console\n(.*?)^```", text, flags=re.M | re.S):
        first_line = text.count("\n", 0, block.start(1)) + 1
        command = None
        for i, line in enumerate(block.group(1).split("\n")[:-1]):
            if command is not None and command.endswith("\\"):
                command = command[:-1] + "\n" + line
                continue
            if line.startswith("$ "):
                if command is not None:
                    found.append((start, command, "\n".join(output)))
                command, output, start = line[2:], [], first_line + i
            elif command is not None:
                output.append(line)
        if command is not None:
            found.append((start, command, "\n".join(output)))
    return found


def run(command, extra_env=None):
    env = dict(os.environ)
    env.pop("JOBSPEC_DIAGNOSTICS", None)
    env.update({"NO_COLOR": "1", "TZ": "UTC", "LC_ALL": "C.UTF-8",
                "PATH": os.pathsep.join([os.path.join(BUILD, "tools"),
                                         os.path.join(BUILD, "examples"), env["PATH"]])})
    env.update(extra_env or {})
    return subprocess.run(["sh", "-c", command], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, timeout=60)


def json_documents(text):
    """Every JSON value in text, one after another (several processes may write one each)."""
    decoder, values, i = json.JSONDecoder(), [], 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return values
        try:
            value, i = decoder.raw_decode(text, i)
            values.append(value)
        except ValueError:
            i = text.find("\n", i)
            if i < 0:
                return values


def reported_codes(command):
    r = run(command, {"JOBSPEC_DIAGNOSTICS": "json"})
    codes = set()
    for doc in json_documents(r.stdout.decode("utf-8", "replace")):
        if isinstance(doc, list):
            codes.update(d.get("code") for d in doc if isinstance(d, dict))
    return r.returncode, codes


def sections(text):
    """{code: (line number, section text)} for each '## code' section."""
    out = {}
    for m in re.finditer(r"^## +(\S+)[ \t]*\n(.*?)(?=^## |\Z)", text, flags=re.M | re.S):
        out[m.group(1)] = (text.count("\n", 0, m.start()) + 1, m.group(2))
    return out


class Examples(unittest.TestCase):
    def test_every_example_prints_what_the_document_shows(self):
        for path in FILES:
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for line, command, expected in examples(text):
                with self.subTest(file=os.path.basename(path), line=line, command=command):
                    r = run(command)
                    self.assertEqual(r.stdout.decode("utf-8", "replace").rstrip("\n"),
                                     expected.rstrip("\n"))


class Codes(unittest.TestCase):
    def setUp(self):
        if not CODES:
            self.skipTest("not the codes document")
        with open(FILES[0], encoding="utf-8") as f:
            self.sections = sections(f.read())
        with open(os.path.join(SOURCE, "include", "jobspec", "diagnostic_codes.def")) as f:
            self.codes = re.findall(r'^JOBSPEC_DIAGNOSTIC\(\w+, "([^"]+)"', f.read(), flags=re.M)

    def test_every_code_has_a_section_and_every_section_a_code(self):
        self.assertEqual(sorted(set(self.codes) - set(self.sections)), [],
                         "codes without a section")
        self.assertEqual(sorted(set(self.sections) - set(self.codes)), [],
                         "sections without a code")

    def test_each_example_reports_its_code_and_the_fix_does_not(self):
        for code, (line, body) in self.sections.items():
            if code in NOT_RUNNABLE:
                continue
            with self.subTest(code=code, line=line):
                runs = examples(body)
                self.assertGreaterEqual(len(runs), 2, "an example and its fix")
                status, codes = reported_codes(runs[0][1])
                self.assertIn(code, codes, f"{runs[0][1]!r} exited {status}")
                status, codes = reported_codes(runs[-1][1])
                self.assertNotIn(code, codes, runs[-1][1])
                self.assertEqual(status, 0, runs[-1][1])


def update(path):
    """Rewrites the outputs of every console example of a file with what it prints now."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    out, i, in_block = [], 0, False
    while i < len(lines):
        line = lines[i]
        if line.startswith("```console"):
            in_block = True
        elif line.startswith("```"):
            in_block = False
        if in_block and line.startswith("$ "):
            command = line[2:]
            out.append(line)
            while command.endswith("\\") and i + 1 < len(lines):
                i += 1
                out.append(lines[i])
                command = command[:-1] + "\n" + lines[i]
            printed = run(command).stdout.decode("utf-8", "replace").rstrip("\n")
            if printed:
                out.extend(printed.split("\n"))
            i += 1
            while i < len(lines) and not lines[i].startswith("$ ") and \
                    not lines[i].startswith("```"):
                i += 1
            continue
        out.append(line)
        i += 1
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out))


def make_root():
    """The repository root as the examples see it, with `build` the build under test."""
    root = tempfile.mkdtemp(prefix="jobspec-docs-")
    for name in os.listdir(SOURCE):
        if name != "build":
            os.symlink(os.path.join(SOURCE, name), os.path.join(root, name))
    os.symlink(BUILD, os.path.join(root, "build"))
    return root


if __name__ == "__main__":
    BUILD, SOURCE = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    rest = sys.argv[3:]
    CODES = "--codes" in rest
    FILES = [os.path.abspath(f) for f in rest if f not in ("--codes", "--update")]
    ROOT = make_root()
    try:
        if "--update" in rest:
            for path in FILES:
                update(path)
            sys.exit(0)
        unittest.main(argv=[sys.argv[0]], verbosity=1)
    finally:
        for name in os.listdir(ROOT):
            os.unlink(os.path.join(ROOT, name))
        os.rmdir(ROOT)
