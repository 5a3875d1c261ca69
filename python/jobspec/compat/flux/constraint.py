"""flux.constraint.parser's names, and its command line:

    python3 -m jobspec.compat.flux.constraint [--default-op NAME] EXPRESSION...
"""
import argparse
import json
import sys

from ._constraint import ConstraintParser, ConstraintSyntaxError, MiniConstraintParser

__all__ = ["ConstraintParser", "ConstraintSyntaxError", "MiniConstraintParser"]


def main(argv=None):
    parser = argparse.ArgumentParser(prog="constraint.parser")
    parser.add_argument("--outputdir", metavar="DIR", help="Set outputdir for parsetab.py generation")
    parser.add_argument(
        "--default-op",
        metavar="NAME",
        help="Set a default operator to substitute for bare terms",
    )
    parser.add_argument(
        "--debug",
        action="store_true",
        help="Emit lexer debug information before parsing expression",
    )
    parser.add_argument("expression", metavar="EXPRESSION", nargs="*", help="Expression to parse")
    args = parser.parse_args(argv)
    if args.outputdir:
        print(f"Generating constraint parsetab.py in {args.outputdir}")
    if not args.expression:
        return 0
    query = " ".join(args.expression)
    if args.debug:
        print(f"parsing expression `{query}'")

    class Parser(ConstraintParser):
        operator_map = {None: args.default_op} if args.default_op else {}

    try:
        print(json.dumps(Parser().parse(query)))
    except ConstraintSyntaxError as e:
        print(e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
