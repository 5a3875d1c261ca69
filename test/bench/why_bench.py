#!/usr/bin/env python3
"""`flux jobspec why` for 1,000 pending jobs on a 1,024-node instance, side by side with
`flux jobs` on the same instance (docs/PERFORMANCE.md, issue 47).

One single-broker instance with fake resources: node[0-1023], 32 cores each, 512 with 4
GPUs (property gpu), 128 with the property ssd; every rank forced up
(monitor-force-up), node[0-63] drained, sched-simple, and no job-exec, so that an
allocated job stays in RUN holding its nodes. 16 jobs of 32 nodes run (with time
limits); a job of 600 nodes waits at the head of the queue; behind it 999 pending jobs,
a quarter on each path of the verdicts: 2 nodes (next in line: one placement and the
jobs ahead), 100 ssd nodes of which 64 are drained (down: three placements), 500 nodes
(waiting for resources: two placements and the jobs holding them) and 2,000 nodes
(never: one placement and the closest nodes). Then hyperfine runs both commands inside
the instance.

usage: why_bench.py FLUX PYTHON-BUILD-DIR [--runs N]
"""
import argparse
import os
import subprocess
import sys
import tempfile

CONFIG = """
[resource]
noverify = true
[[resource.config]]
hosts = "node[0-1023]"
cores = "0-31"
[[resource.config]]
hosts = "node[512-1023]"
gpus = "0-3"
properties = ["gpu"]
[[resource.config]]
hosts = "node[0-127]"
properties = ["ssd"]
"""

INSIDE = r"""
import json, subprocess, sys
import flux, flux.job
from flux.job import JobspecV1
h = flux.Flux()
subprocess.run(["flux", "module", "reload", "resource", "monitor-force-up", "noverify"],
               check=True)
subprocess.run(["flux", "module", "load", "sched-simple"], check=True)
# Without job-exec, allocated jobs stay in RUN, holding their nodes.
subprocess.run(["flux", "module", "remove", "job-exec"], check=True)
# Drained (its checkpoint fails on fake hosts, and says so: not an error here).
subprocess.run(["flux", "resource", "drain", "0-63", "benchmark"])


def submit(nodes, ssd=False, duration=0):
    js = JobspecV1.from_command(["true"], num_nodes=nodes, num_tasks=nodes, exclusive=True)
    if ssd:
        js.setattr("system.constraints", {"properties": ["ssd"]})
    if duration:
        js.duration = duration
    return flux.job.submit_async(h, js)


running = [submit(32, duration=3600 + 60 * i) for i in range(16)]
for f in running:
    flux.job.event_wait(h, f.get_id(), "alloc")
# The head of the queue waits for resources; sched-simple considers no job behind it.
flux.job.event_wait(h, submit(600).get_id(), "priority")
futures = [submit(*[(2,), (100, True), (500,), (2000,)][i % 4]) for i in range(999)]
for f in futures:
    f.get_id()
out = subprocess.run(["flux", "jobspec", "why", "-A", "--json"], capture_output=True,
                     text=True).stdout
nodes = dict(line.split() for line in subprocess.run(
    ["flux", "jobs", "-A", "-no", "{id} {nnodes}"], capture_output=True,
    text=True).stdout.splitlines())
verdicts = {}
for job in json.loads(out)["jobs"]:
    key = (job["verdict"], nodes.get(job["id"]))
    verdicts[key] = verdicts.get(key, 0) + 1
print("pending jobs by verdict and nodes asked:", verdicts, flush=True)
runs = sys.argv[1]
# -i: why exits 1 when a job cannot run now, as here.
p = subprocess.run(["hyperfine", "-N", "-i", "--warmup", "2", "--runs", runs, "--export-json",
                    sys.argv[2], "flux jobspec why -A", "flux jobs -A"], check=True)
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("flux")
    parser.add_argument("python_dir")
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="jobspec-why-bench-") as directory:
        with open(os.path.join(directory, "site.toml"), "w", encoding="utf-8") as f:
            f.write(CONFIG)
        inside = os.path.join(directory, "inside.py")
        with open(inside, "w", encoding="utf-8") as f:
            f.write(INSIDE)
        results = os.path.join(directory, "results.json")
        env = dict(os.environ)
        env["PYTHONPATH"] = args.python_dir + os.pathsep + env.get("PYTHONPATH", "")
        env["FLUX_EXEC_PATH"] = os.path.join(args.python_dir, "jobspec", "flux", "cmd")
        subprocess.run([args.flux, "start", "-s", "1", f"-o,--config-path={directory}",
                        "flux", "python", inside, str(args.runs), results],
                       env=env, check=True)
        with open(results, encoding="utf-8") as f:
            print(f.read())
    return 0


if __name__ == "__main__":
    sys.exit(main())
