#!/usr/bin/env python3
"""Whole-process start-up (issue 32), side by side in one run: `jobspec compile` against
`flux run --dry-run`, `jobspec shape` against flux-core's `python3 -m flux.shape.parser`,
and `jobspec --version` against a C++ hello world (the floor: a process that loads the
C++ runtime and prints a line). Runs alternate between the commands, in an order that
turns each round; each figure is the median of --rounds runs, wall time and CPU (user +
system).

    python3 test/bench/startup.py build-release/tools/jobspec [/tmp/old/jobspec ...]

flux-core is looked for at $REF/flux-core (default /tmp/flux-reference); without it the
flux rows are left out.
"""
import argparse
import os
import statistics
import subprocess
import tempfile

from spawn import run

SHAPE = "slot=4{nodelevel}/node{-x}/socket=2+/core=4+"
HELLO = '#include <iostream>\nint main() { std::cout << "hello world\\n"; }\n'


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binaries", nargs="+", help="jobspec programs to compare")
    parser.add_argument("--rounds", type=int, default=41)
    args = parser.parse_args()
    ref = os.environ.get("REF", "/tmp/flux-reference")
    flux = os.path.join(ref, "flux-core", "src", "cmd", "flux")
    bindings = os.path.join(ref, "flux-core", "src", "bindings", "python")
    python_env = dict(os.environ, PYTHONPATH=bindings)
    with tempfile.TemporaryDirectory() as scratch:
        hello = os.path.join(scratch, "hello")
        with open(hello + ".cpp", "w") as f:
            f.write(HELLO)
        subprocess.run(["c++", "-O2", "-o", hello, hello + ".cpp"], check=True)
        rows = [("compile -N4 -n16 -g1", ["compile", "-N4", "-n16", "-g1", "--", "app"],
                 "flux run --dry-run", [flux, "run", "--dry-run", "-N4", "-n16", "-g1", "app"],
                 None),
                ("shape S", ["shape", SHAPE], "python3 -m flux.shape.parser",
                 ["/usr/bin/python3", "-m", "flux.shape.parser", SHAPE], python_env),
                ("--version", ["--version"], "C++ hello world", [hello], None)]
        for name, jobspec_args, other_name, other, env in rows:
            if not os.access(other[0], os.X_OK):
                print(f"{name}: {other[0]} not found, row left out")
                continue
            commands = [(other_name, other, env)] + [
                (b, [os.path.abspath(b)] + jobspec_args, None) for b in args.binaries]
            times = {label: [] for label, _, _ in commands}
            # The order turns each round: a process that runs right after flux's Python
            # starts with the caches it left (about 0.25 ms more here), and each command
            # should take that turn equally often.
            for r in range(args.rounds):
                for label, argv, e in commands[r % len(commands):] + commands[:r % len(commands)]:
                    times[label].append(run(argv, e))
            base = statistics.median(t[0] for t in times[other_name])
            for label, _, _ in commands:
                wall = statistics.median(t[0] for t in times[label])
                cpu = statistics.median(t[1] for t in times[label])
                ratio = ("" if label == other_name
                         else f"  {wall / base:5.2f}x the floor" if other[0] == hello
                         else f"  {base / wall:5.1f}x faster")
                print(f"{name:22} {label:40} wall {wall * 1000:7.2f} ms  "
                      f"cpu {cpu * 1000:7.2f} ms{ratio}")

if __name__ == "__main__":
    main()
