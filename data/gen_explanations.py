#!/usr/bin/env python3
"""Turns docs/CODES.md into the table behind jobspec::explanation(): one entry per
"## code" section, its text as written (the section's Markdown, without the heading).

usage: gen_explanations.py CODES.md OUTPUT.cpp
"""
import re
import sys


def sections(text):
    """(code, body) for each '## code' section, in order."""
    parts = re.split(r"^## +(\S+)[ \t]*\n", text, flags=re.M)
    for i in range(1, len(parts), 2):
        yield parts[i], parts[i + 1].strip() + "\n"


def literal(text):
    """A C++ raw string literal holding text, with a delimiter text does not contain."""
    delimiter = "x"
    while ")" + delimiter + '"' in text:
        delimiter += "x"
    return 'R"' + delimiter + "(" + text + ")" + delimiter + '"'


def main():
    source, output = sys.argv[1], sys.argv[2]
    with open(source, encoding="utf-8") as f:
        entries = list(sections(f.read()))
    with open(output, "w", encoding="utf-8") as out:
        out.write("// Generated from docs/CODES.md by data/gen_explanations.py; do not edit.\n")
        out.write('#include "support/explanations.hpp"\n\n')
        out.write("namespace jobspec::support {\n\n")
        out.write("const std::vector<Explanation>& explanations() {\n")
        out.write("    static const std::vector<Explanation> table = {\n")
        for code, body in entries:
            out.write("        {%s, %s},\n" % (literal(code), literal(body)))
        out.write("    };\n    return table;\n}\n\n} // namespace jobspec::support\n")


if __name__ == "__main__":
    main()
