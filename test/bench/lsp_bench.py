#!/usr/bin/env python3
"""`jobspec lsp`: the time from an edit to its diagnostics on a 1,000-line batch script
with 50 #flux: directives (test/lsp/protocol_test.py's measure, with more edits). Each
edit changes one directive's value, so each is a whole check of the script, as
`jobspec compile --batch` makes it. Prints the median and p90 of --edits edits.

    python3 test/bench/lsp_bench.py build-release/tools/jobspec [--edits 200]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lsp"))
import protocol_test  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("jobspec", help="the jobspec program")
    parser.add_argument("--edits", type=int, default=200)
    args = parser.parse_args()
    protocol_test.measure_edits(os.path.abspath(args.jobspec), args.edits)


if __name__ == "__main__":
    main()
