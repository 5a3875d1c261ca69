#!/usr/bin/env python3
"""The layering rule, enforced: includes never run upward.

    support  <  model  <  syntax  <  lower          sema, emit      <  api  <  capi, tools
   (below all)          (text -> AST) (-> model)   (read the model)  (every public entry point)

Each folder of src/ may include, besides the standard library, third-party headers and the
public headers <jobspec/...>, only the folders listed for it below. Generated ANTLR
headers stay inside src/syntax. capi, the tools, the Python extension and the Flux plugins
use only the public headers (and the tools their own tools/common), as any other program
would.

usage: layering_test.py SOURCE-DIR
"""
import os
import re
import sys
import unittest

SOURCE = None

ALLOWED = {
    "src/support": {"support"},
    "src/model": {"model", "support"},
    "src/syntax": {"syntax", "model", "support"},
    "src/lower": {"lower", "syntax", "model", "support"},
    "src/sema": {"sema", "model", "support"},
    "src/emit": {"emit", "model", "support"},
    "src/api": {"api", "syntax", "lower", "sema", "emit", "model", "support"},
    "src/capi": {"capi"},
    "tools": set(),
    "examples": set(),
    "python": set(),
    "plugins": set(),
}
SRC_FOLDERS = {"support", "model", "syntax", "lower", "sema", "emit", "api", "capi"}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
# What ANTLR generates from grammar/*.g4, and its runtime: only src/syntax may see them.
ANTLR = re.compile(r"^(antlr4-runtime\.h|[A-Z]\w*(Lexer|Parser|Visitor|Listener)?\.h|"
                   r"[A-Z][A-Za-z]*\.h|DefaultErrorStrategy\.h|tree/.*|atn/.*|misc/.*)$")


def files(folder):
    for root, _, names in os.walk(os.path.join(SOURCE, folder)):
        for name in names:
            if name.endswith((".cpp", ".hpp", ".h", ".c")):
                yield os.path.join(root, name)


def violations():
    found = []
    for folder, allowed in ALLOWED.items():
        for path in files(folder):
            rel = os.path.relpath(path, SOURCE)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for quote, header in INCLUDE.findall(text):
                top = header.split("/")[0]
                if header.startswith("jobspec/"):
                    continue
                if folder.startswith("src/") and top in SRC_FOLDERS:
                    if top not in allowed:
                        found.append(f"{rel}: includes {header} ({top} is not below "
                                     f"{folder[4:]})")
                    continue
                if folder == "tools" and quote == '"':
                    # the tools' own headers: their folder and tools/common
                    if top in SRC_FOLDERS:
                        found.append(f"{rel}: includes {header} (tools use only <jobspec/...>)")
                    continue
                if folder in ("tools", "examples", "python", "plugins", "src/capi") and \
                        quote == '"' and \
                        top in SRC_FOLDERS - {"capi"}:
                    found.append(f"{rel}: includes {header}")
                    continue
                if folder != "src/syntax" and quote == '"' and ANTLR.match(header) and \
                        top not in SRC_FOLDERS:
                    if not os.path.exists(os.path.join(os.path.dirname(path), header)) and \
                            not os.path.exists(os.path.join(SOURCE, "tools", "common", header)):
                        found.append(f"{rel}: includes generated or ANTLR header {header}")
                if folder != "src/syntax" and header.startswith("antlr4-runtime"):
                    found.append(f"{rel}: includes the ANTLR runtime")
    return found


class Layering(unittest.TestCase):
    def test_no_include_runs_upward(self):
        self.assertEqual(violations(), [])

    def test_the_checker_sees_a_violation(self):
        """A planted upward include must be caught (the test itself can fail)."""
        global SOURCE
        import tempfile
        real = SOURCE
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "src", "model"))
            with open(os.path.join(d, "src", "model", "x.cpp"), "w") as f:
                f.write('#include "sema/v1_pass.hpp"\n')
            SOURCE = d
            try:
                self.assertEqual(len(violations()), 1)
            finally:
                SOURCE = real


if __name__ == "__main__":
    SOURCE = os.path.abspath(sys.argv[1])
    unittest.main(argv=[sys.argv[0]], verbosity=1)
