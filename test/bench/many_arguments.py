#!/usr/bin/env python3
"""Whole-process time of `jobspec hostlist` and `jobspec idset union` with 100,000
arguments (issue 29), for one or more builds side by side: runs alternate between the
binaries, and each figure is the median of --rounds runs. /bin/true with the same
arguments is the floor (the kernel copying 100,000 arguments into a new process).

    python3 test/bench/many_arguments.py build-release/tools/jobspec /tmp/old/jobspec
"""
import argparse
import statistics

from spawn import run

COUNT = 100_000


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binaries", nargs="+", help="jobspec programs to compare")
    parser.add_argument("--rounds", type=int, default=11)
    args = parser.parse_args()
    hosts = [f"n{2 * i}" for i in range(COUNT)]
    ids = [str(2 * i) for i in range(COUNT)]
    cases = [("hostlist 100k hosts", ["hostlist"] + hosts),
             ("idset union 100k ids", ["idset", "union"] + ids)]
    for name, argv in cases:
        runs = {b: [] for b in ["/bin/true"] + args.binaries}
        for _ in range(args.rounds):
            for binary in runs:
                runs[binary].append(run([binary] + argv))
        for binary, times in runs.items():
            wall = statistics.median(t[0] for t in times) * 1000
            cpu = statistics.median(t[1] for t in times) * 1000
            print(f"{name:22} {binary:40} wall {wall:6.1f} ms  cpu {cpu:6.1f} ms")


if __name__ == "__main__":
    main()
