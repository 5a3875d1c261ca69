#!/usr/bin/env python3
"""Documentation tests: every console example in the given Markdown files runs as written.

A console example is a ```console block: lines starting with "$ " are commands (a
trailing backslash continues one onto the next line, and so does a line starting "> "
right after the command, as the shell prompts for the rest of an open quote), and the
lines after a command, up to the next command or the end of the block, are what it
prints (standard output and standard error together, as a terminal shows them; it must
end with a newline, or the next prompt would follow it on the same line). Each command
runs with `sh -c`, from a copy of the repository root whose `build` is the build being
tested, with the build's tools and examples first on PATH, NO_COLOR set, TZ=UTC and a
C.UTF-8 locale. The commands of one file run in order in the same directory, so one may
use what an earlier one wrote. Other blocks (```sh, ```c, ...) are shown, never run:
set-up, benchmarks and anything needing a server or flux-core go there (docs/TESTING.md).

Output that differs from run to run is matched by two wildcards, to be used sparingly: a
line that is exactly "..." stands for any number of lines (none included), and "[...]"
inside a line for any text on that line.

Every file is also checked for the repository files it names: each Markdown link to a
relative path, and each word that starts with a top-level directory of the repository
("docs/", "examples/", "test/", ...; "*" and "{a,b}" expanded), must exist. Words
starting "build/" are not checked: they name what a build makes.

Every file's prose is checked for what it names (class Prose): outside code blocks, each
`jobspec ...` span must name a command the tool has and options that command has, each
bare `--option` an option of some command (or one of FOREIGN_OPTIONS), and each span that
looks like a diagnostic code a code of the table; the commands and options are read from
the tools' own --help (test/cli/command_tree.py).

With --no-python (a build without the Python package), commands that use it
(PYTHONPATH=build/python) are skipped.

With --codes, the file is docs/CODES.md and each "## code" section is checked
against include/jobspec/diagnostic_codes.def: every code has a section and every section
a code; the section's first example reports its code (run again with
JOBSPEC_DIAGNOSTICS=json, and the code looked for in the JSON on stderr), and its last
example, the fix, exits 0 without it. (What its examples print is checked by the run
without --codes, which takes every file of docs/.)

With --update, nothing is tested: each example's output in the files is replaced by what
it prints now (for a deliberate change; read the diff before committing it).

A directory given stands for every *.md file in it.

usage: doc_test.py BUILD-DIR SOURCE-DIR [--codes] [--update] [--no-python] FILE.md|DIR...
"""
import glob
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
PYTHON = True
ROOT = None  # the repository root the examples run in

# Options the prose names that are not jobspec's, each with whose it is.
FOREIGN_OPTIONS = {
    "--system-site-packages",  # python3 -m venv
    "--require-version",  # flux job-validator
    "--debug",  # flux-core's PLY parsers run as scripts
    "--env-all",  # the shared harnesses' compile, from before the flux-compatible options
}
# Words after the last dot that make a span a file name, not a diagnostic code.
FILE_SUFFIXES = {"so", "pc", "h", "hpp", "c", "cpp", "py", "pyi", "md", "json", "yaml", "toml",
                 "sh", "txt", "def", "g4", "build", "scd"}

# flux-core's Python modules the prose names, which look like codes of the flux family.
FLUX_MODULES = {"flux.job", "flux.constraint", "flux.shape", "flux.hostlist", "flux.idset"}

# Codes whose example cannot run as a shell command, and why.
NOT_RUNNABLE = {
    "api.internal": "reports an exception inside the library (out of memory, a bug); no input "
                    "produces it on purpose",
}


class Example:
    """One command of a console block: the line it starts on (from 1), the command, the
    output shown, and where that output is in the file (output_begin, a line index from
    0; the output is the len(output) lines from there)."""

    def __init__(self, line, command):
        self.line, self.command, self.output = line, command, []
        self.output_begin = line  # the line after the command's first, as an index from 0

    @property
    def expected(self):
        return "\n".join(self.output)


def examples(text, info=""):
    """The Example of each command of each console block of a Markdown text: blocks
    fenced ```console, or with `info`, ```console INFO (test/flux/flux_docs.py runs
    those, ```console flux=SETUP, in a real Flux instance). A block may be indented."""
    found = []
    fence = r"^ *```console" + (" " + re.escape(info) if info else "") + r"\n(.*?)^ *```"
    for block in re.finditer(fence, text, flags=re.M | re.S):
        first_line = text.count("\n", 0, block.start(1)) + 1
        example = None
        indent = len(block.group(0)) - len(block.group(0).lstrip(" "))
        for i, line in enumerate(line[indent:] for line in block.group(1).split("\n")[:-1]):
            if example is not None and not example.output:
                continued = example.command.endswith("\\")
                if continued or line.startswith("> "):
                    # backslash-newline, or the shell's secondary prompt for an open quote
                    example.command += "\n" + (line if continued else line[2:])
                    example.output_begin += 1
                    continue
            if line.startswith("$ "):
                example = Example(first_line + i, line[2:])
                found.append(example)
            elif example is not None:
                example.output.append(line)
    return found


def matches(expected, printed):
    """Whether printed (a list of lines) is what expected shows, wildcards and all."""
    if not expected:
        return not printed
    if expected[0] == "...":
        return any(matches(expected[1:], printed[i:]) for i in range(len(printed) + 1))
    if not printed:
        return False
    pattern = ".*".join(re.escape(part) for part in expected[0].split("[...]"))
    return re.fullmatch(pattern, printed[0]) is not None and matches(expected[1:], printed[1:])


def uses_python(command):
    return "PYTHONPATH=build/python" in command


def expand_braces(word):
    m = re.search(r"\{([^{}]*)\}", word)
    if not m:
        return [word]
    return [w for alternative in m.group(1).split(",")
            for w in expand_braces(word[:m.start()] + alternative + word[m.end():])]


def named_paths(text, top_level):
    """(line number, path) for each repository path the Markdown text names: relative link
    targets, and words starting with one of the top-level directories."""
    found = []
    for m in re.finditer(r"\]\(([^)\s#]+)(?:#[^)]*)?\)", text):
        if not re.match(r"[a-z]+:", m.group(1)):
            found.append((m.start(), m.group(1), True))
    prefixes = "|".join(re.escape(d) for d in top_level)
    for m in re.finditer(rf"(?<![\w./~$-])((?:{prefixes})/[^\s`'\"()<>\[\];|\\]*)", text):
        found.append((m.start(), m.group(1), False))
    out = []
    for start, word, relative in found:
        word = re.sub(r"[.,:]+$", "", word.split(":", 1)[0])
        for path in expand_braces(word):
            line = text.count("\n", 0, start) + 1
            if not any(n[:2] == (line, path) for n in out):
                out.append((line, path, relative))
    return out


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
    maxDiff = None

    def setUp(self):
        if CODES:
            self.skipTest("the codes document's examples run with the others")

    def test_every_example_prints_what_the_document_shows(self):
        for path in FILES:
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for example in examples(text):
                command, expected = example.command, example.expected
                with self.subTest(file=os.path.basename(path), line=example.line,
                                  command=command):
                    if not PYTHON and uses_python(command):
                        self.skipTest("built without the Python package")
                    printed = run(command).stdout.decode("utf-8", "replace")
                    if printed:
                        self.assertTrue(printed.endswith("\n"), "the output ends mid-line")
                    printed, expected = printed.rstrip("\n"), expected.rstrip("\n")
                    if not matches(expected.split("\n"), printed.split("\n")):
                        self.assertEqual(printed, expected)


class Paths(unittest.TestCase):
    def test_every_repository_file_named_exists(self):
        top_level = [name for name in os.listdir(SOURCE) if name != "build" and
                     not name.startswith("build-") and
                     os.path.isdir(os.path.join(SOURCE, name)) and
                     (not name.startswith(".") or name == ".ci")]
        for path in FILES:
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for line, name, relative in named_paths(text, top_level):
                base = os.path.dirname(path) if relative else SOURCE
                with self.subTest(file=os.path.basename(path), line=line, name=name):
                    self.assertTrue(glob.glob(os.path.join(base, name)),
                                    f"{name} is not in the repository")


def prose_spans(text):
    """(line, text) of each inline code span outside fenced blocks."""
    found, fenced = [], False
    for number, line in enumerate(text.split("\n"), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            found += [(number, span) for span in re.findall(r"`([^`\n]+)`", line)]
    return found


class Prose(unittest.TestCase):
    """What the prose names exists: each `jobspec ...` or `jobspec-grammar ...` span names
    a command and options it has, each bare `--option` is an option of some command, and
    each span that looks like a diagnostic code (a family of the table, a dot, a name) is
    a code of the table or a family wildcard ("limit.*")."""

    @classmethod
    def setUpClass(cls):
        sys.path.insert(0, os.path.join(SOURCE, "test", "cli"))
        sys.dont_write_bytecode = True  # no __pycache__ in the source tree
        from command_tree import read_tree
        cls.commands = {}
        for program in ("jobspec", "jobspec-grammar"):
            for argv, _, valued, flags, aliases in read_tree(os.path.join(BUILD, "tools",
                                                                          program)):
                key = (program, *(w for w in argv[1:] if not w.startswith("-")))
                for name in [key[-1], *aliases]:
                    cls.commands.setdefault(key[:-1] + (name,), set()).update(
                        valued, flags, (w for w in argv[2:] if w.startswith("-")))
        cls.all_options = set().union(*cls.commands.values()) | {"--help", "--version"}
        with open(os.path.join(SOURCE, "include", "jobspec", "diagnostic_codes.def")) as f:
            cls.codes = set(re.findall(r'^JOBSPEC_DIAGNOSTIC\(\w+, "([^"]+)"', f.read(),
                                       flags=re.M))
        cls.families = {code.split(".")[0] for code in cls.codes}
        # `jobspec.shape` is a Python function, not a code: the package's public names.
        with open(os.path.join(SOURCE, "python", "jobspec", "__init__.pyi")) as f:
            cls.python = set(re.findall(r"^(?:def|class) (\w+)|^(\w+)\b", f.read(), flags=re.M))
        cls.python = {a or b for a, b in cls.python}
        # The Flux plugins' own options (--jobspec-v1, ...), from their sources.
        for plugin in glob.glob(os.path.join(SOURCE, "python", "jobspec", "flux", "**", "*.py"),
                                recursive=True):
            with open(plugin) as f:
                text = f.read()
            cls.all_options |= set(re.findall(r"(--jobspec-[a-z0-9-]+)", text))
            # `flux jobspec why`'s options (argparse).
            cls.all_options |= set(re.findall(r'add_argument\([^)]*?"(--[a-z0-9-]+)"', text))
        # The developer tools' options: argparse in dev/*.py, case labels in dev/*.sh.
        for tool in glob.glob(os.path.join(SOURCE, "dev", "*.py")):
            with open(tool) as f:
                cls.all_options |= set(re.findall(r'add_argument\("(--[a-z0-9-]+)"', f.read()))
        for tool in glob.glob(os.path.join(SOURCE, "dev", "*.sh")):
            with open(tool) as f:
                cls.all_options |= set(re.findall(r"^\s*(--[a-z0-9-]+)(?:\|[^)]*)?\)", f.read(), re.M))

    def check_command(self, words):
        """None, or what is wrong with a `jobspec ...` span."""
        key = (words[0],)
        for word in words[1:]:
            if word.startswith("-") and word != "-":
                name = word.split("=", 1)[0]
                if name == "--" or re.fullmatch(r"-[A-Za-z0-9]+", name):
                    continue  # short options, alone or clustered, are not checked
                if name not in self.commands[key] | self.commands[key[:1]] | {"--help"}:
                    return f"'{' '.join(key)}' has no option {name}"
            elif key + (word,) in self.commands:
                key += (word,)
            elif key == ("jobspec",):
                return f"jobspec has no command {word}"
            else:
                break  # a positional: the rest is its arguments
        return None

    def test_commands_options_and_codes_named_exist(self):
        for path in FILES:
            with open(path, encoding="utf-8") as f:
                spans = prose_spans(f.read())
            for line, span in spans:
                with self.subTest(file=os.path.basename(path), line=line, span=span):
                    words = span.split()
                    if not words:
                        continue
                    if words[0] in ("jobspec", "jobspec-grammar") and len(words) > 1:
                        self.assertIsNone(self.check_command(words))
                    elif re.fullmatch(r"--[a-z][a-z0-9-]*(=\S*)?", span):
                        name = span.split("=")[0]
                        known = self.all_options | FOREIGN_OPTIONS
                        # "--jobspec-" names the options that start so
                        self.assertTrue(name in known or name.endswith("-") and any(
                            o.startswith(name) for o in known), "no command has this option")
                    elif re.fullmatch(r"[A-Za-z]+\.([a-z0-9-]+|\*)", span) and \
                            span.split(".")[0] in self.families and \
                            span.split(".")[1] not in FILE_SUFFIXES and \
                            not (span.startswith("jobspec.") and span[8:] in self.python) and \
                            span not in FLUX_MODULES:
                        self.assertTrue(span in self.codes or span.endswith(".*"),
                                        f"{span} is not a diagnostic code")


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
                status, codes = reported_codes(runs[0].command)
                self.assertIn(code, codes, f"{runs[0].command!r} exited {status}")
                status, codes = reported_codes(runs[-1].command)
                self.assertNotIn(code, codes, runs[-1].command)
                self.assertEqual(status, 0, runs[-1].command)


def update(path):
    """Rewrites the outputs of every console example of a file with what it prints now."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    lines = text.split("\n")
    # Run in order (a command may read what an earlier one wrote); replace from the end.
    printed = [run(e.command).stdout.decode("utf-8", "replace").rstrip("\n")
               for e in examples(text)]
    for example, now in reversed(list(zip(examples(text), printed))):
        end = example.output_begin + len(example.output)
        lines[example.output_begin:end] = now.split("\n") if now else []
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))


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
    PYTHON = "--no-python" not in rest
    for name in (os.path.abspath(f) for f in rest if not f.startswith("--")):
        FILES += sorted(os.path.join(name, f) for f in os.listdir(name)
                        if f.endswith(".md")) if os.path.isdir(name) else [name]
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
