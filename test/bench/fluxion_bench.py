#!/usr/bin/python3
"""jobspec match and flux-sched's resource-query on the same Fluxion graphs, whole
processes, side by side (docs/PERFORMANCE.md, "Fluxion's graphs").

    fluxion_bench.py DIR [RUNS [GRAPH...]]

DIR holds what dev/reference/fluxion_graphs.py makes (medium.json, sierra.json,
large.json; fits.yaml, small.yaml, explain.yaml). For each graph: resource-query loading it
and matching the three jobspecs in one process (`-e`: its load time and each match's
ELAPSE), and, RUNS times in turn, one process of each matching fits.yaml (resource-query:
load and `match allocate_with_satisfiability`; jobspec: `jobspec match --dialect
fluxion`), with wall time and peak memory (GNU time). Prints the medians as a Markdown
table. Env: RQ (resource-query), JOBSPEC (a release build's jobspec)."""
import json
import os
import re
import statistics
import subprocess
import sys

RQ = os.environ.get("RQ", os.path.join(os.environ.get("REF", "/tmp/flux-reference"),
                                       "flux-sched/build/resource/utilities/resource-query"))
JOBSPEC = os.environ.get("JOBSPEC", "build-release/tools/jobspec")
JOBS = ("fits", "small", "explain")


def timed(argv, stdin=None):
    """(seconds, peak KB, stdout, stderr) of one process."""
    p = subprocess.run(["/usr/bin/time", "-f", "%e %M", *argv], input=stdin,
                       capture_output=True, text=True)
    wall, rss = p.stderr.strip().splitlines()[-1].split()
    return float(wall), int(rss), p.stdout, p.stderr


def rq_matches(graph, d):
    """resource-query's load time and each job's ELAPSE, in seconds, from one process."""
    commands = "".join(f"match allocate_with_satisfiability {os.path.join(d, j)}.yaml\n"
                       for j in JOBS) + "quit\n"
    _, _, out, err = timed([RQ, "-L", graph, "-f", "jgf", "-d", "-e"], commands)
    text = out + err
    load = float(re.search(r"Graph Load Time: ([0-9.e-]+)", text).group(1))
    elapse = [float(x) for x in re.findall(r"ELAPSE=([0-9.e-]+)", text)]
    verdicts = ["allocated" if "ALLOCATED" in b else "unsatisfiable" if "Unsatisfiable" in b
                else "busy" for b in text.split("ELAPSE=")[:-1]]
    return load, elapse, verdicts


def main():
    d = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    print("| graph | vertices | resource-query load | its match (fits / small / explain) "
          "| whole process, fits: resource-query | jobspec | peak memory (RQ / jobspec) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name in sys.argv[3:] or ("medium", "sierra", "large"):
        graph = os.path.join(d, name + ".json")
        if not os.path.exists(graph):
            continue
        load, elapse, verdicts = rq_matches(graph, d)
        rq_wall, js_wall, rq_rss, js_rss = [], [], [], []
        for _ in range(runs):
            w, m, _, _ = timed([RQ, "-L", graph, "-f", "jgf", "-d"],
                               f"match allocate_with_satisfiability {d}/fits.yaml\nquit\n")
            rq_wall.append(w)
            rq_rss.append(m)
            w, m, _, _ = timed([JOBSPEC, "match", "--dialect", "fluxion", "--max-input-bytes",
                                str(1 << 31), f"{d}/fits.yaml", graph])
            js_wall.append(w)
            js_rss.append(m)
        with open(graph) as f:
            vertices = len(json.load(f)["graph"]["nodes"])
        print(f"| {name} | {vertices:,} | {load:.2f} s | "
              + " / ".join(f"{e * 1000:.2f} ms" for e in elapse)
              + f" ({', '.join(verdicts)}) "
              f"| {statistics.median(rq_wall):.2f} s | {statistics.median(js_wall):.2f} s "
              f"| {statistics.median(rq_rss) / 1024:.0f} / {statistics.median(js_rss) / 1024:.0f} MB |")


if __name__ == "__main__":
    main()
