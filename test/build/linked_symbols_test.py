#!/usr/bin/env python3
"""The tools link none of the ANTLR runtime's XPath (grammar/without_tree_patterns.cpp):
its XPathLexer's static initializer would run at every start.

usage: linked_symbols_test.py NM PROGRAM..."""
import subprocess
import sys


def main(nm, programs):
    failed = False
    for program in programs:
        symbols = subprocess.run([nm, "-C", program], capture_output=True, text=True,
                                 check=True).stdout
        linked = sorted({line.split(" ", 2)[-1] for line in symbols.splitlines()
                         if "antlr4::tree::xpath::" in line or "XPathLexer" in line})
        if linked:
            failed = True
            print(f"{program} links ANTLR's XPath: {len(linked)} symbols, e.g. {linked[0]}")
        elif "antlr4::Parser::Parser(" not in symbols:
            failed = True  # nothing to prove: the runtime is not linked statically
            print(f"{program} does not link the ANTLR runtime statically")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
