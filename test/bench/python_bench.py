#!/usr/bin/env python3
"""jobspec's Python package against flux-core 0.88's PLY parsers, side by side in one run.

usage: PYTHONPATH=BUILDDIR/python /usr/bin/python3 test/bench/python_bench.py [FLUX-CORE-SOURCE]
       PYTHONPATH=BUILDDIR/python /usr/bin/python3 test/bench/python_bench.py --threads

flux-core's flux/shape/parser.py and flux/constraint/parser.py (with their parsetab.py,
so PLY finds its tables as it does installed) are copied into a temporary directory at
run time; they need python3-ply and python3-yaml. Without flux-core's source only
jobspec is measured. Prints a Markdown table for docs/PERFORMANCE.md: per call, the best
of 7 runs, wall-clock time and CPU time of this process. --threads prints only two
threads' throughput of jobspec.shape(S) over one thread's (5 rounds), to compare builds
by running it for each in turn.
"""
import importlib
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time

import jobspec
from jobspec.compat.flux import MiniConstraintParser, ShapeParser

SHAPE = "slot=4{nodelevel}/node{-x}/socket=2+/core=4+"
QUERY = "ssd and not host:foo[1-3]"
# The 50-vertex shape of test/bench/bench_shape.cpp.
LARGE_SHAPE = "[node{-x}/[" + ";".join(
    f"slot=2{{s{i}}}/[core=2;gpu=1-4:2:*;memory=4+{{unit:GB}}]" for i in range(12)) + "];switch=2]"
REPEATS = 7


def per_call(function, n):
    """Best wall and CPU seconds per call of `function` over REPEATS runs of n calls."""
    wall = cpu = float("inf")
    for _ in range(REPEATS):
        w, c = time.perf_counter(), time.process_time()
        for _ in range(n):
            function()
        wall = min(wall, (time.perf_counter() - w) / n)
        cpu = min(cpu, (time.process_time() - c) / n)
    return wall, cpu


def overhead(rounds=41, n=2000):
    """jobspec.shape(S) and its C++ work alone (compile_shape + to_json_value in a C++
    loop), CPU seconds per call: each the best of `rounds` runs of n calls, the two
    interleaved so that the machine's slow and fast moments fall on both."""
    shape = cpp = float("inf")
    for _ in range(rounds):
        c = time.process_time()
        for _ in range(n):
            jobspec.shape(SHAPE)
        shape = min(shape, (time.process_time() - c) / n)
        c = time.process_time()
        jobspec._jobspec._bench_shape(SHAPE, n)
        cpp = min(cpp, (time.process_time() - c) / n)
    return shape, cpp


def flux_modules(source):
    """flux-core's two parser modules, imported from a temporary copy."""
    base = os.path.join(source, "src", "bindings", "python", "flux")
    if not os.path.isdir(base):
        return None
    scratch = tempfile.mkdtemp(prefix="flux-baseline-")
    for package in ("shape", "constraint"):
        target = os.path.join(scratch, "fluxbaseline", package)
        os.makedirs(target)
        for name in ("__init__.py", "parser.py", "parsetab.py"):
            shutil.copy(os.path.join(base, package, name), target)
    open(os.path.join(scratch, "fluxbaseline", "__init__.py"), "w").close()
    sys.path.insert(0, scratch)
    shape = importlib.import_module("fluxbaseline.shape.parser")
    constraint = importlib.import_module("fluxbaseline.constraint.parser")

    # flux.job._utils.MiniConstraintParser: the three class attributes, in a module of
    # its own (as in flux, PLY then finds no tables for it and builds them per instance)
    class FluxMini(constraint.ConstraintParser):
        operator_map = {None: "properties", "host": "hostlist", "hosts": "hostlist",
                        "rank": "ranks"}
        split_values = {"properties": ","}
        combined_terms = {"properties"}

    return shape.ShapeParser, FluxMini, scratch


def threads_throughput(threads, shape, seconds):
    """jobspec.shape(shape) calls per second from `threads` threads together, and the CPU
    seconds the process used per second."""
    counts = [0] * threads
    cpu = time.process_time()
    stop = time.perf_counter() + seconds

    def run(i):
        n = 0
        while time.perf_counter() < stop:
            for _ in range(100):
                jobspec.shape(shape)
            n += 100
        counts[i] = n

    workers = [threading.Thread(target=run, args=(i,)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return sum(counts) / seconds, (time.process_time() - cpu) / seconds


def threads_scaling(shape, rounds, seconds=1.0):
    """Two threads' throughput over one thread's, in `rounds` rounds of one run each, one
    right after the other, so that each ratio compares runs made in the same second (this
    virtual machine's speed drifts by ±25% over minutes): the median ratio, the lowest and
    highest, and the medians of one and of two threads' calls and CPU seconds per second."""
    ones, twos = [], []
    for _ in range(rounds):
        ones.append(threads_throughput(1, shape, seconds))
        twos.append(threads_throughput(2, shape, seconds))
    ratios = sorted(two[0] / one[0] for one, two in zip(ones, twos))
    median = statistics.median
    return (median(ratios), ratios[0], ratios[-1], median(r for r, _ in ones),
            median(r for r, _ in twos), median(c for _, c in twos))


def row(name, timing, new=None, reused=None):
    """A table row; `new` and `reused` are flux's timings to compare CPU time with."""
    wall, cpu = timing
    ratios = [f"{base[1] / cpu:.1f}×" if base else "" for base in (new, reused)]
    print(f"| {name} | {wall * 1e6:.1f} | {cpu * 1e6:.1f} | {ratios[0]} | {ratios[1]} |")


def print_scaling(name, text, rounds):
    ratio, low, high, one, two, two_cpu = threads_scaling(text, rounds)
    print(f"jobspec.shape({name}), 2 threads over 1: {ratio:.2f}× (median of {rounds} rounds; "
          f"{low:.2f}× to {high:.2f}×); medians 1 thread {one:,.0f}/s, 2 threads "
          f"{two:,.0f}/s, using {two_cpu:.2f} CPU-seconds per second (above 1 only if "
          f"both threads compile at once, i.e. the GIL is released).")


def main():
    if sys.argv[1:] == ["--threads"]:
        print_scaling("S", SHAPE, 5)
        return
    source = sys.argv[1] if len(sys.argv) > 1 else "/tmp/flux-reference/flux-core"
    flux = flux_modules(source)
    print(f"load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    print()
    print("| operation | wall µs/call | CPU µs/call | CPU speed-up over flux, new parser per call "
          "| over flux, one parser reused |")
    print("|---|---:|---:|---:|---:|")
    cpp = per_call(lambda: jobspec._jobspec._bench_shape(SHAPE, 20000), 1)
    cpp = (cpp[0] / 20000, cpp[1] / 20000)
    shape = per_call(lambda: jobspec.shape(SHAPE), 20000)
    reused = ShapeParser()
    mini = MiniConstraintParser()
    if flux:
        FluxShape, FluxMini, scratch = flux
        flux_new = per_call(lambda: FluxShape().parse(SHAPE), 200)
        flux_parser = FluxShape()
        flux_reused = per_call(lambda: flux_parser.parse(SHAPE), 2000)
        row("flux `ShapeParser().parse(S)` (new parser per call, as flux does)", flux_new)
        row("flux `p.parse(S)` (one parser reused)", flux_reused)
    shape_bases = (flux_new, flux_reused) if flux else (None, None)
    row("`jobspec.shape(S)`", shape, *shape_bases)
    row("`jobspec.compat.flux.ShapeParser().parse(S)`",
        per_call(lambda: ShapeParser().parse(SHAPE), 20000), *shape_bases)
    row("drop-in `p.parse(S)` (one parser reused)",
        per_call(lambda: reused.parse(SHAPE), 20000), *shape_bases)
    row("C++ alone (`compile_shape` + `to_json_value`, in a loop)", cpp)
    if flux:
        flux_mini_new = per_call(lambda: FluxMini().parse(QUERY), 50)
        flux_mini = FluxMini()
        flux_mini_reused = per_call(lambda: flux_mini.parse(QUERY), 2000)
        row("flux `MiniConstraintParser().parse(Q)` (new per call, as flux does)", flux_mini_new)
        row("flux `m.parse(Q)` (one parser reused)", flux_mini_reused)
    mini_bases = (flux_mini_new, flux_mini_reused) if flux else (None, None)
    row("drop-in `MiniConstraintParser().parse(Q)`",
        per_call(lambda: MiniConstraintParser().parse(QUERY), 5000), *mini_bases)
    row("drop-in `m.parse(Q)` (one parser reused)",
        per_call(lambda: mini.parse(QUERY), 5000), *mini_bases)
    row("`jobspec.constraint(Q)` (C++ parser, --requires dialect)",
        per_call(lambda: jobspec.constraint(QUERY), 20000), *mini_bases)
    print()
    print(f"S = `{SHAPE}`, Q = `{QUERY}`.")
    with_python, alone = overhead()
    print(f"Python overhead of jobspec.shape(S) over its C++ work: "
          f"{(with_python - alone) * 1e6:.2f} µs per call (CPU: {with_python * 1e6:.2f} µs "
          f"against {alone * 1e6:.2f} µs, interleaved, best of 41 runs each).")
    for name, text in (("S", SHAPE), ("the 50-vertex shape", LARGE_SHAPE)):
        print_scaling(name, text, 15)
    if flux:
        shutil.rmtree(flux[2], ignore_errors=True)


if __name__ == "__main__":
    main()
