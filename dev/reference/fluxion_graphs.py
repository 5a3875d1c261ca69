#!/usr/bin/python3
"""Fluxion resource graphs (JGF) for the side-by-side timings of docs/PERFORMANCE.md
("Fluxion's graphs: jobspec match and resource-query"), and the jobspecs they match:
- large.json: a system the size of a large one, 11,000 nodes in 110 racks, each node two
  sockets of 44 cores, two GPUs and two 64 GB memory vertices: 1,089,111 vertices;
- medium.json and sierra.json: flux-sched's GRUG recipes made JGF by resource-query itself
  (`find status=up -F jgf`), when RQ (resource-query) and FLUXSCHED (its source) are given;
- fits.yaml (50 nodes of two sockets of 18 cores, one slot each), small.yaml (one core in
  one slot) and explain.yaml (50 nodes of two sockets of 45 cores, which no graph has: the
  whole graph searched, and the failure explained).
usage: fluxion_graphs.py DIR"""
import json
import os
import subprocess
import sys


def large(path, racks=110, per_rack=100, sockets=2, cores=44, gpus=2, memory=2):
    n = 0
    with open(path, "w") as f:
        f.write('{"graph":{"nodes":[')
        edges = []

        def vertex(parent, type_, path_, **meta):
            nonlocal n
            key = str(n)
            n += 1
            md = {"type": type_, "paths": {"containment": path_}}
            md.update(meta)
            f.write(("," if key != "0" else "") + json.dumps({"id": key, "metadata": md},
                                                             separators=(",", ":")))
            if parent is not None:
                edges.append(f'{{"source":"{parent}","target":"{key}"}}')
            return key

        root = vertex(None, "cluster", "/large0", id=0)
        rank = 0
        for r in range(racks):
            rk = vertex(root, "rack", f"/large0/rack{r}", id=r)
            for _ in range(per_rack):
                node = vertex(rk, "node", f"/large0/rack{r}/node{rank}", id=rank, rank=rank,
                              name=f"node{rank}")
                for s in range(sockets):
                    sp = f"/large0/rack{r}/node{rank}/socket{s}"
                    sk = vertex(node, "socket", sp, id=s, rank=rank)
                    for c in range(cores):
                        vertex(sk, "core", f"{sp}/core{s * cores + c}", id=s * cores + c,
                               rank=rank)
                    for g in range(gpus):
                        vertex(sk, "gpu", f"{sp}/gpu{s * gpus + g}", id=s * gpus + g, rank=rank)
                    for m in range(memory):
                        vertex(sk, "memory", f"{sp}/memory{s * memory + m}",
                               id=s * memory + m, rank=rank, size=64, unit="GB")
                rank += 1
        f.write('],"edges":[' + ",".join(edges) + "]}}\n")
    return n


JOB = """version: 9999
resources: {resources}
tasks: [{{command: [app], slot: task, count: {{per_slot: 1}}}}]
attributes: {{system: {{duration: 3600}}}}
"""

JOBS = {
    "fits.yaml": "[{type: node, count: 50, with: [{type: slot, count: 1, label: task, with: "
                 "[{type: socket, count: 2, with: [{type: core, count: 18}]}]}]}]",
    "small.yaml": "[{type: slot, count: 1, label: task, with: [{type: core, count: 1}]}]",
    "explain.yaml": "[{type: node, count: 50, with: [{type: slot, count: 1, label: task, "
                    "with: [{type: socket, count: 2, with: [{type: core, count: 45}]}]}]}]",
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, resources in JOBS.items():
        with open(os.path.join(out, name), "w") as f:
            f.write(JOB.format(resources=resources))
    if not os.path.exists(os.path.join(out, "large.json")):
        print("large.json:", large(os.path.join(out, "large.json")), "vertices")
    rq, sched = os.environ.get("RQ"), os.environ.get("FLUXSCHED")
    for recipe in ("medium", "sierra"):
        target = os.path.join(out, recipe + ".json")
        if rq and sched and not os.path.exists(target):
            dump = target + ".dump"
            subprocess.run([rq, "-L", os.path.join(sched, "t/data/resource/grugs",
                                                   recipe + ".graphml"),
                            "-f", "grug", "-F", "jgf", "-d", "-t", dump],
                           input="find status=up\nquit\n", text=True, check=True,
                           capture_output=True)
            with open(dump) as f, open(target, "w") as t:
                t.write(f.readline())
            os.remove(dump)


if __name__ == "__main__":
    main()
