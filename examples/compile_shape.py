#!/usr/bin/python3
"""Compiles a resource shape to its RFC 14 resource list with the Python package, as
compile-shape does with the C++ API.
    PYTHONPATH=build/python /usr/bin/python3 examples/compile_shape.py 'slot=2/core'
"""
import json
import sys

import jobspec


def main(argv):
    if len(argv) != 2:
        print(f"usage: {argv[0]} SHAPE", file=sys.stderr)
        return 2
    try:
        resources = jobspec.shape(argv[1], default_label="task")
    except jobspec.Error as error:  # str(error) is the diagnostics with carets
        print(error, file=sys.stderr)
        return 1
    print(json.dumps(resources, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
