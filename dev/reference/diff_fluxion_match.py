#!/usr/bin/python3
"""jobspec match against Fluxion's resource-query on Fluxion's resource graphs (JGF).

    diff_fluxion_match.py [N] [SEED]

Each case is a graph and a jobspec, matched on a fresh graph by both:
`resource-query -L GRAPH -f jgf -d` with `match allocate_with_satisfiability JOBSPEC`
(`-T flexible` when the jobspec has or-slots or xor_slots), and `jobspec match --dialect
fluxion JOBSPEC GRAPH`. Their verdicts are compared: allocated, busy (fits the graph, not
what is up now), unsatisfiable, or error (a jobspec either refuses). Allocations are not
compared (match policies differ); each of jobspec's passes an independent check instead:
its graph is part of the input graph (same paths and types), and each leaf type the
jobspec asks for in slots is there at least as much as the jobspec's least counts say.

The cases: flux-sched's own jobspecs (t/data/resource/jobspecs: basics, exclusive,
min_max, flexible) on the graphs its tests use (jgfs/tiny.json; GRUG recipes made JGF by
resource-query itself), every one; then N generated graphs (racks, nodes, sockets, cores,
GPUs, memory and storage with sizes, properties, down nodes) each with generated jobspecs,
from SEED. Writes fluxion-match.txt and .json to DIFF_OUT like the other harnesses; the
classes say which verdicts differ and, for jobspec's errors, its code.

Env: RQ (resource-query), FLUXSCHED (flux-sched's source, for its data), JOBSPEC.
"""
import json
import os
import random
import subprocess
import sys
import tempfile

from common import REF, JOBSPEC, OUTDIR, Tally

FLUXSCHED = os.environ.get("FLUXSCHED", os.path.join(REF, "flux-sched"))
RQ = os.environ.get("RQ", os.path.join(FLUXSCHED, "build/resource/utilities/resource-query"))
DATA = os.path.join(FLUXSCHED, "t/data/resource")
WORK = os.path.join(OUTDIR, "fluxion-match")
BIG = str(1 << 30)

# flux-sched's jobspec folders and the graphs its tests match them on.
SUITES = [("basics", "jgfs/tiny.json"), ("exclusive", "grugs/medium.graphml"),
          ("min_max", "grugs/resv_test.graphml"), ("flexible", "jgfs/tiny.json")]


# Hand cases, so that the default seed finds the classes docs/COMPAT.md names: (name,
# graph, jobspec resources as YAML flow).
HAND = [
    ("a slot under a node whose cores are under sockets", "jgfs/tiny.json",
     "[{type: node, count: 1, with: [{type: slot, count: 1, label: task, "
     "with: [{type: core, count: 1}]}]}]"),
    ("no slot and nothing exclusive", "jgfs/tiny.json",
     "[{type: node, count: 1, with: [{type: socket, count: 1, with: [{type: core, count: 1}]}]}]"),
]


def run(argv, stdin=None, timeout=120):
    p = subprocess.run(argv, input=stdin, capture_output=True, text=True, errors="replace",
                       timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def graph_file(spec):
    """A JGF file for a flux-sched graph: JGF as it is, a GRUG recipe through
    resource-query's own `find status=up -F jgf`."""
    path = os.path.join(DATA, spec)
    if spec.endswith(".json"):
        return path
    out = os.path.join(WORK, os.path.basename(spec) + ".json")
    if not os.path.exists(out):
        dump = out + ".dump"
        run([RQ, "-L", path, "-f", "grug", "-F", "jgf", "-d", "-t", dump],
            "find status=up\nquit\n")
        with open(dump) as f:
            first = f.readline()
        with open(out, "w") as f:
            f.write(first)
        os.remove(dump)
    return out


def load(text):
    """A jobspec's document (YAML or JSON), or None when it does not parse."""
    try:
        import yaml
        return yaml.safe_load(text)
    except Exception:
        try:
            return json.loads(text)
        except ValueError:
            return None


def flexible(doc_text):
    """Whether the jobspec needs Fluxion's flexible traverser (xor_slots or or-slots)."""
    doc = load(doc_text)
    resources = doc.get("resources") if isinstance(doc, dict) else None
    return "xor_slot" in doc_text or (isinstance(resources, list) and or_slots(resources))


def fluxion_verdict(graph, jobspec_path, text):
    argv = [RQ, "-L", graph, "-f", "jgf", "-d"]
    if flexible(text):
        argv += ["-T", "flexible"]
    rc, out, err = run(argv, f"match allocate_with_satisfiability {jobspec_path}\nquit\n")
    # A jobspec Fluxion refuses; its traversal's own messages ("dom_slot: not enough
    # slots") come with a verdict.
    if "Jobspec error" in err or "siblings in jobspec" in err:
        return "error", err.strip().splitlines()[0][:200]
    if "RESOURCES=ALLOCATED" in out:
        return "allocated", ""
    if "Unsatisfiable request" in out:
        return "unsatisfiable", ""
    if "No matching resources found" in out:
        return "busy", ""
    return "error", f"rc={rc} {err.strip()[:200]}"


def jobspec_verdict(graph, jobspec_path):
    rc, out, err = run([JOBSPEC, "match", "--dialect", "fluxion", "--diagnostics", "json",
                        "--max-input-bytes", BIG, jobspec_path, graph])
    if rc == 0:
        return "allocated", "", json.loads(out)
    try:
        diags = [d for d in json.loads(err) if d.get("severity") == "error"]
    except ValueError:
        return "error", f"rc={rc} no JSON diagnostics", None
    code = diags[0]["code"] if diags else f"rc={rc}"
    if code == "jobspec.unsatisfiable":
        return "unsatisfiable", code, None
    if code == "match.pending":
        return "busy", code, None
    return "error", code, None


def leaves(resources, factor, in_slot, out):
    """Least amounts of each leaf type asked for in slots or exclusively."""
    for r in resources:
        count = r.get("count", 1)
        least = count.get("min", 1) if isinstance(count, dict) else int(count)
        slot = in_slot or r["type"] == "slot" or r.get("exclusive") is True
        if not r.get("with"):
            if slot and r["type"] != "slot":
                out[r["type"]] = out.get(r["type"], 0) + factor * least
        else:
            leaves(r["with"], factor * least, slot, out)


def or_slots(resources):
    """Whether some level has slots side by side (Fluxion's or-slots)."""
    if not isinstance(resources, list):
        return False
    entries = [r for r in resources if isinstance(r, dict)]
    return sum(r.get("type") == "slot" for r in entries) > 1 or \
        any(or_slots(r.get("with", [])) for r in entries)


def check_allocation(graph_doc, jobspec_doc, alloc):
    """'' when jobspec's allocation is part of the graph and holds what the jobspec asks
    at least; else what is wrong."""
    nodes = {n["metadata"]["paths"].get("containment"): n["metadata"]
             for n in graph_doc["graph"]["nodes"]}
    got = alloc.get("scheduling", {}).get("graph", {}).get("nodes", [])
    if not got:
        return "the allocation has no graph"
    held = {}
    paths = set()
    for n in got:
        m = n["metadata"]
        path = m["paths"].get("containment")
        if path not in nodes or nodes[path]["type"] != m["type"]:
            return f"{path} ({m['type']}) is not a vertex of the graph"
        if path in paths:
            return f"{path} twice"
        paths.add(path)
        if m.get("exclusive"):
            held[m["type"]] = held.get(m["type"], 0) + m.get("size", 1)
    if "xor_slot" in json.dumps(jobspec_doc) or or_slots(jobspec_doc["resources"]):
        return ""  # alternatives: any of them may be what was allocated
    asked = {}
    leaves(jobspec_doc["resources"], 1, False, asked)
    for t, n in asked.items():
        if held.get(t, 0) < n:
            return f"{n} {t} asked, {held.get(t, 0)} allocated"
    return ""


VERDICTS = {}  # Fluxion's verdicts, counted


def least(r):
    count = r.get("count", 1)
    return count.get("min", 1) if isinstance(count, dict) else int(count)


def nodes_asked(resources):
    """Nodes a request asks in all, as Fluxion's first check counts them."""
    slots = [r for r in resources if r.get("type") == "slot"]
    if len(slots) > 1:
        return min(least(s) * nodes_asked(s.get("with", [])) for s in slots)
    return sum((least(r) if r.get("type") == "node" else 0) +
               least(r) * nodes_asked(r.get("with", [])) for r in resources)


def why_verdicts_differ(graph_doc, doc):
    """A tag for a known cause: Fluxion's count of nodes up at load subtracts each node
    that is down, so a request for up to the nodes up is refused once one is down."""
    status = [n["metadata"].get("status", 0) for n in graph_doc["graph"]["nodes"]
              if n["metadata"]["type"] == "node"]
    up, down = status.count(0), len(status) - status.count(0)
    if doc and down and up - down < nodes_asked(doc.get("resources", [])) <= up:
        return " [Fluxion counts each node down against the nodes up]"
    return ""


def compare(tally, graph, graph_doc, jobspec_path, label):
    with open(jobspec_path) as f:
        text = f.read()
    theirs, why = fluxion_verdict(graph, jobspec_path, text)
    ours, code, alloc = jobspec_verdict(graph, jobspec_path)
    VERDICTS[theirs] = VERDICTS.get(theirs, 0) + 1
    case = {"case": label, "fluxion": why, "jobspec": code}
    if ours == "allocated":
        problem = check_allocation(graph_doc, load(text), alloc)
        if problem:
            case["check"] = problem
            tally.bad("jobspec's allocation fails the independent check", case)
            return
    if theirs == ours:
        tally.ok()
        return
    tally.bad(f"fluxion {theirs} / jobspec {ours}" + (f" [{code}]" if code else "") +
              why_verdicts_differ(graph_doc, load(text)), case)


# ----------------------------------------------------------------------------- generation

def gen_graph(rng, index):
    """A random containment tree as Fluxion's JGF: cluster -> racks -> nodes -> sockets ->
    cores, GPUs and memory, storage beside the nodes, properties and a down node."""
    nodes, edges = [], []
    counter = [0]

    def add(parent, type_, path, **meta):
        key = str(counter[0])
        counter[0] += 1
        md = {"type": type_, "paths": {"containment": path}}
        md.update(meta)
        nodes.append({"id": key, "metadata": md})
        if parent is not None:
            edges.append({"source": parent, "target": key})
        return key

    root = add(None, "cluster", f"/cluster{index}", id=0)
    racks = rng.randint(1, 3)
    per_rack = rng.randint(1, 4)
    sockets = rng.randint(1, 2)
    cores = rng.choice([2, 4, 8])
    gpus = rng.choice([0, 0, 1, 2])
    memory = rng.choice([0, 1, 2])
    mem_size = rng.choice([2, 16, 64])
    ssd = rng.choice([0, 0, 2, 4])
    ssd_size = rng.choice([453, 800, 1600])
    rank = 0
    for r in range(racks):
        rpath = f"/cluster{index}/rack{r}"
        rk = add(root, "rack", rpath, id=r)
        for s in range(ssd):
            add(rk, "ssd", f"{rpath}/ssd{s}", id=s, size=ssd_size, unit="GiB")
        for n in range(per_rack):
            name = f"node{rank}"
            meta = {"id": rank, "rank": rank, "name": name, "basename": "node"}
            if rng.random() < 0.3:
                meta["properties"] = {rng.choice(["fast", "bigmem", "ssd"]): ""}
            if rng.random() < 0.04:
                meta["status"] = 1
            npath = f"{rpath}/{name}"
            nk = add(rk, "node", npath, **meta)
            for so in range(sockets):
                spath = f"{npath}/socket{so}"
                sk = add(nk, "socket", spath, id=so)
                for c in range(cores):
                    add(sk, "core", f"{spath}/core{so * cores + c}", id=so * cores + c)
                for g in range(gpus):
                    add(sk, "gpu", f"{spath}/gpu{so * gpus + g}", id=so * gpus + g)
                for m in range(memory):
                    add(sk, "memory", f"{spath}/memory{so * memory + m}", id=so * memory + m,
                        size=mem_size, unit="GB")
            rank += 1
    shape = {"nodes": rank, "cores": cores, "gpus": gpus, "memory": memory * mem_size,
             "ssd": ssd * ssd_size, "sockets": sockets}
    return {"graph": {"nodes": nodes, "edges": edges}}, shape


def count_of(rng, typical):
    n = max(1, typical + rng.choice([-1, 0, 0, 1, 2]))
    if rng.random() < 0.15:
        return {"min": max(1, n - 1), "max": n + 1, "operator": "+", "operand": 1}
    return n


def gen_jobspec(rng, graph):
    """A jobspec with one slot (sometimes or-slots), as Fluxion's tests write them; most
    ask what the graph has (its types, counts near what a socket or a node holds)."""
    fits = rng.random() < 0.7
    cores = rng.randint(1, graph["cores"]) if fits else rng.choice([1, 2, 4, 8])
    socket_part = [{"type": "core", "count": count_of(rng, cores)}]
    if (graph["gpus"] and fits and rng.random() < 0.5) or (not fits and rng.random() < 0.4):
        socket_part.append({"type": "gpu", "count": count_of(rng, 1)})
    if (graph["memory"] and fits and rng.random() < 0.4) or (not fits and rng.random() < 0.3):
        amount = rng.randint(1, graph["memory"]) if fits else rng.choice([2, 8, 32])
        socket_part.append({"type": "memory", "count": count_of(rng, amount)})
    shape = rng.random()
    if shape < 0.35:
        slot = {"type": "slot", "count": count_of(rng, rng.choice([1, 2, 4])), "label": "task",
                "with": socket_part}
        resources = [slot]
        for prefix in rng.choice([[], ["socket"], ["node", "socket"], ["cluster", "rack", "node", "socket"]]) [::-1]:
            resources = [{"type": prefix, "count": count_of(rng, 1), "with": resources}]
    elif shape < 0.7:
        node = {"type": "node", "count": 1,
                "with": [{"type": "socket", "count": count_of(rng, 1), "with": socket_part}]}
        nodes = rng.randint(1, graph["nodes"]) if fits else rng.choice([1, 2, 3, 6])
        resources = [{"type": "slot", "count": count_of(rng, nodes),
                      "label": "task", "with": [node]}]
        if rng.random() < 0.4:
            resources = [{"type": "rack", "count": 1, "with": resources}]
    elif shape < 0.85:
        with_ssd = [{"type": "node", "count": 1}]
        with_ssd.append({"type": "ssd", "count": rng.choice([300, 700, 1500])})
        if not graph["ssd"] and fits:
            with_ssd.pop()
        resources = [{"type": "rack", "count": 1,
                      "with": [{"type": "slot", "count": count_of(rng, rng.choice([1, 2, 4])),
                                "label": "task", "with": with_ssd}]}]
    else:
        a = {"type": "slot", "count": count_of(rng, 2), "label": "a",
             "with": [{"type": "core", "count": rng.choice([2, 4])}]}
        b = {"type": "slot", "count": a["count"], "label": "b",
             "with": [{"type": "core", "count": 1}, {"type": "gpu", "count": 1}]}
        resources = [{"type": "socket", "count": 1, "with": [a, b]}]
    if rng.random() < 0.1:
        resources[0]["exclusive"] = True
    system = {"duration": 3600}
    if rng.random() < 0.2:
        system["constraints"] = {"properties": [rng.choice(["fast", "^fast", "bigmem", "ssd"])]}
    return {"version": 9999, "resources": resources,
            "tasks": [{"command": ["app"], "slot": "task", "count": {"per_slot": 1}}],
            "attributes": {"system": system}}


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 45
    if not os.access(RQ, os.X_OK):
        print(f"diff_fluxion_match.py: no resource-query at {RQ} "
              "(../shared/reference/build-flux-sched.sh builds it)", file=sys.stderr)
        return 2
    os.makedirs(WORK, exist_ok=True)
    tally = Tally("fluxion-match")
    for folder, spec in SUITES:
        graph = graph_file(spec)
        with open(graph) as f:
            graph_doc = json.load(f)
        jobspecs = os.path.join(DATA, "jobspecs", folder)
        for name in sorted(os.listdir(jobspecs)):
            compare(tally, graph, graph_doc, os.path.join(jobspecs, name),
                    f"{folder}/{name} on {spec}")
    for name, spec, resources in HAND:
        graph = graph_file(spec)
        with open(graph) as f:
            graph_doc = json.load(f)
        path = os.path.join(WORK, "hand-" + name.replace(" ", "-") + ".yaml")
        with open(path, "w") as f:
            f.write(f"version: 9999\nresources: {resources}\ntasks: [{{command: [app], "
                    "slot: task, count: {per_slot: 1}}]\nattributes: {system: {duration: 3600}}\n")
        compare(tally, graph, graph_doc, path, f"hand: {name} on {spec}")
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(dir=WORK) as tmp:
        for i in range(n):
            graph_doc, shape = gen_graph(rng, i)
            graph = os.path.join(tmp, f"graph{i}.json")
            with open(graph, "w") as f:
                json.dump(graph_doc, f)
            for j in range(5):
                path = os.path.join(tmp, f"job{i}-{j}.json")
                with open(path, "w") as f:
                    json.dump(gen_jobspec(rng, shape), f)
                compare(tally, graph, graph_doc, path, f"generated graph {i} job {j}")
                if tally.classes:
                    last = list(tally.classes.values())[-1][-1]
                    if last["case"] == f"generated graph {i} job {j}":
                        with open(path) as f:
                            last["jobspec_text"] = f.read()
                        kept = os.path.join(WORK, f"graph-{seed}-{i}.json")
                        with open(kept, "w") as f:
                            json.dump(graph_doc, f)
                        last["graph_file"] = kept
    tally.report()
    agree = tally.agree + tally.agree_norm
    print("Fluxion's verdicts: " + ", ".join(f"{v} {n}" for v, n in sorted(VERDICTS.items())))
    print(f"verdicts agree on {agree} of {tally.n} ({100.0 * agree / max(tally.n, 1):.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
