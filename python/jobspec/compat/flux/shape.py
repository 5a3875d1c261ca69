"""flux.shape.parser's names, and its command line:

    python3 -m jobspec.compat.flux.shape [--yaml] [--rangedict] [--wrapresources]
                                         [--label LABEL] EXPRESSION...
"""
import argparse
import json
import sys

from ._shape import ShapeParser, ShapeSyntaxError

__all__ = ["ShapeParser", "ShapeSyntaxError"]


def _yaml(value):
    import yaml  # only --yaml needs PyYAML, as in flux

    return yaml.dump(value, default_flow_style=False, sort_keys=False)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="shape.parser")
    parser.add_argument(
        "--outputdir", "-o", metavar="DIR", help="Set outputdir for parsetab.py generation"
    )
    parser.add_argument(
        "--debug",
        "-d",
        action="store_true",
        help="Emit lexer debug information before parsing expression",
    )
    parser.add_argument("--yaml", "-y", action="store_true", help="Output as YAML instead of JSON")
    parser.add_argument(
        "--rangedict",
        "-r",
        action="store_true",
        help="Store ranges as dicts instead of RFC 45 strings",
    )
    parser.add_argument(
        "--wrapresources",
        "-w",
        action="store_true",
        help="Wrap result in outer 'resources' key",
    )
    parser.add_argument(
        "--label",
        "-l",
        default="task",
        help="Label used for single slot if not specified",
    )
    parser.add_argument("expression", metavar="EXPRESSION", nargs="*", help="Expression to parse")
    args = parser.parse_args(argv)
    if args.outputdir:
        print(f"Generating shape parsetab.py in {args.outputdir}")
    if not args.expression:
        return 0
    query = " ".join(args.expression)
    if args.debug:
        print(f"parsing expression `{query}'")
    shapes = ShapeParser()
    shapes.default_slot_label = args.label
    shapes.range_as_dict = args.rangedict
    try:
        result = shapes.parse(query)
    except ShapeSyntaxError as e:
        print(e, file=sys.stderr)
        return 1
    if args.wrapresources:
        result = {"resources": result}
    print(_yaml(result) if args.yaml else json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
