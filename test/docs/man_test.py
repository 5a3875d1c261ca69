#!/usr/bin/env python3
"""Man page tests: a tool's page, as man(1) shows it, fits 80 columns, has the sections a
man page has, and names every option of the tool's --help and of each subcommand's.

An option of a subcommand counts as named when it is in the subcommand's own subsection
(COMMANDS: "jobspec R ...") or in OPTIONS (the options every command takes); an option of
the tool itself anywhere in the page. So an option added to --help without a word in the
page fails here.

usage: man_test.py PROGRAM PAGE.1
"""
import os
import re
import subprocess
import sys
import unittest

PROGRAM = PAGE = None
SECTIONS = ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS", "ENVIRONMENT",
            "FILES", "EXAMPLES", "SEE ALSO"]


def man_environment():
    """man's default width (80 columns into a pipe), without man-db's seccomp sandbox,
    which some containers refuse."""
    env = {k: v for k, v in os.environ.items() if k not in ("MANWIDTH", "COLUMNS", "MANPAGER",
                                                            "PAGER", "MANROFFOPT")}
    env.update({"LC_ALL": "C.UTF-8", "MAN_DISABLE_SECCOMP": "1"})
    return env


def rendered():
    """The page as `man -l PAGE` prints it into a pipe (formatting stripped)."""
    return subprocess.run(["man", "-l", PAGE], capture_output=True, text=True,
                          env=man_environment(), check=True).stdout


def help_text(words):
    return subprocess.run([PROGRAM, *words, "--help"], capture_output=True, text=True,
                          check=True).stdout


def listed_options(text):
    """Every option named in the help's option lists ("Options:", "Options of ...:")."""
    options, listing = set(), False
    for line in text.splitlines():
        if re.match(r"Options\b.*:$", line):
            listing = True
        elif not line.strip():
            listing = False
        elif listing and re.match(r" +-", line):
            column = re.split(r" {2,}", line.strip())[0]
            options.update(re.findall(r"(?<![\w-])--?[A-Za-z][\w-]*", column))
    return options


def subcommands(text):
    names, listing = [], False
    for line in text.splitlines():
        if line == "Subcommands:":
            listing = True
        elif not line.strip():
            listing = False
        elif listing and re.match(r"  \S", line):
            names.append(re.split(r"[\s,]+", line.strip())[0])
    return names


def commands(words=()):
    """(words, help text) for the program and every subcommand below it."""
    text = help_text(list(words))
    yield list(words), text
    for name in subcommands(text):
        yield from commands((*words, name))


def sections(page):
    """{heading: text} for each section (a line at column 0) and subsection (column 3)."""
    out, heading = {}, None
    for line in page.splitlines()[1:-1]:  # the header and footer lines are not sections
        if re.match(r"\S", line) or re.match(r" {3}\S", line):
            heading = line.strip()
            out[heading] = ""
        elif heading is not None:
            out[heading] += line + "\n"
    return out


def names(option, text):
    return re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text) is not None


class ManPage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.page = rendered()
        cls.sections = sections(cls.page)
        cls.name = os.path.basename(PROGRAM)

    def test_no_line_is_wider_than_80_columns(self):
        wide = subprocess.run(["sh", "-c", 'man -l "$1" | awk "length > 80"', "sh", PAGE],
                              capture_output=True, text=True, env=man_environment()).stdout
        self.assertEqual(wide, "")
        self.assertEqual([line for line in self.page.splitlines() if len(line) > 80], [])

    def test_has_the_sections_of_a_man_page_in_order(self):
        found = [h for h in self.sections if h in SECTIONS]
        self.assertEqual(found, SECTIONS)
        self.assertTrue(self.sections["NAME"].strip().startswith(self.name + " - "))

    def test_every_subcommand_has_a_subsection(self):
        for words, _ in commands():
            if len(words) == 1:
                with self.subTest(command=words[0]):
                    self.assertTrue(any(h.startswith(f"{self.name} {words[0]} ")
                                        for h in self.sections))

    def test_every_option_of_every_help_is_in_the_page(self):
        common = self.sections.get("OPTIONS", "")
        count = 0
        for words, text in commands():
            if words:
                own = "".join(body for h, body in self.sections.items()
                              if h.startswith(f"{self.name} {words[0]} "))
                where = own + common
            else:
                where = self.page
            for option in sorted(listed_options(text)):
                count += 1
                with self.subTest(command=" ".join([self.name, *words]), option=option):
                    self.assertTrue(names(option, where),
                                    f"{option} of '{' '.join(words)} --help' is not in the page")
        self.assertGreater(count, 10)


if __name__ == "__main__":
    PROGRAM, PAGE = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    unittest.main(argv=[sys.argv[0]], verbosity=1)
