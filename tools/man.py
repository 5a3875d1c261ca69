#!/usr/bin/env python3
"""Writes a man page for a CLI11 program from its own --help text.

    man.py PROGRAM OUTPUT.1

The page holds the program's --help, then the --help of every subcommand (and of their
subcommands) in a SUBCOMMANDS section, so the page and --help never disagree.
"""
import datetime
import os
import re
import subprocess
import sys


def help_text(program, words):
    run = subprocess.run([program, *words, "--help"], capture_output=True, text=True,
                         check=True)
    return run.stdout.rstrip("\n")


def subcommands(text):
    """The subcommand names listed under "Subcommands:" (first of each alias list)."""
    names = []
    listing = False
    for line in text.splitlines():
        if line == "Subcommands:":
            listing = True
        elif listing and line.startswith("  ") and not line.startswith("   "):
            names.append(re.split(r"[\s,]+", line.strip())[0])
        elif listing and not line.strip():
            listing = False
    return names


def escape(line):
    line = line.replace("\\", "\\e")
    if line.startswith((".", "'")):
        line = "\\&" + line
    return line


def verbatim(text):
    return ".nf\n" + "\n".join(escape(line) for line in text.splitlines()) + "\n.fi\n"


def section(program, words):
    """A subsection with the help of subcommand `words`, then of its own subcommands."""
    text = help_text(program, words)
    out = [f".SS {' '.join(words)}\n", verbatim(text)]
    for name in subcommands(text):
        out.append(section(program, [*words, name]))
    return "".join(out)


def main():
    program, output = sys.argv[1], sys.argv[2]
    name = os.path.basename(program)
    top = help_text(program, [])
    summary = top.splitlines()[0].split(": ", 1)[-1]
    version = subprocess.run([program, "--version"], capture_output=True, text=True,
                             check=True).stdout.split()[-1]
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", "0")) or None
    date = (datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc) if epoch
            else datetime.datetime.now(datetime.timezone.utc)).strftime("%Y-%m-%d")
    page = [
        f'.TH {name.upper()} 1 "{date}" "{name} {version}" "User Commands"\n',
        ".SH NAME\n",
        f"{escape(name)} \\- {escape(summary)}\n",
        ".SH DESCRIPTION\n",
        verbatim(top.split("\n", 1)[1]),
    ]
    subs = subcommands(top)
    if subs:
        page.append(".SH SUBCOMMANDS\n")
        for sub in subs:
            page.append(section(program, [sub]))
    page.append(".SH EXIT STATUS\n0 success, 1 invalid input, 2 usage error.\n")
    page.append(".SH SEE ALSO\n")
    page.append("jobspec(1), jobspec-grammar(1); the Flux RFCs 14, 19, 20, 22, 25, 26, 29, "
                "31, 35, 45 and 46.\n")
    with open(output, "w", encoding="utf-8") as f:
        f.write("".join(page))


if __name__ == "__main__":
    main()
