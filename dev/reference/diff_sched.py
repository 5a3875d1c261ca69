#!/usr/bin/python3
"""Against a real scheduler (issue 31): is a jobspec satisfiable on R? flux-core's
sched-simple, in a real single-broker instance whose resources are a random R loaded
with `flux resource reload -f` (fake ranks, hosts, cores, gpus and properties), against
`jobspec match JOBSPEC R`.

Per R, one `flux start -s 1` runs this file's `inner` half: it loads R, then submits each
of the random jobspecs alone (flux's own JobspecV1.from_command, with constraints and a
mock run of the test execution service; properties, `not` and rank constraints, no host
constraints; two in five with resources written by hand, as RFC 14 allows: counts that
are ranges or idsets, slots of nodes, slots alone, sockets), and records whether the scheduler allocated
it or raised an "unsatisfiable" exception. Each job runs to its end before the next is
submitted, so every verdict is against the whole of R. The outer half asks `jobspec
match` the same question and sorts the disagreements into classes.

Run: /usr/bin/python3 dev/reference/diff_sched.py [N_R] [JOBS_PER_R] [SEED]
Env: JOBSPEC, REF, DIFF_OUT as for run.sh."""
import json
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import JOBSPEC, REF, Tally, run  # noqa: E402

INSTALLED_FLUX = os.path.join(REF, "install", "bin", "flux")
PROPERTIES = ["ssd", "gpu-a", "big", "login", "debug"]


def random_r(rng):
    """`flux R encode` argument lists for one to three node types, and properties."""
    groups, rank = [], 0
    for _ in range(rng.randint(1, 3)):
        n = rng.randint(1, 12)
        groups.append({"ranks": f"{rank}-{rank + n - 1}" if n > 1 else str(rank), "cores": rng.choice([1, 2, 4, 8, 16]),
                       "gpus": rng.choice([0, 0, 1, 2, 4])})
        rank += n
    props = {}
    for p in rng.sample(PROPERTIES, rng.randint(0, 3)):
        ranks = sorted(rng.sample(range(rank), rng.randint(1, rank)))
        props[p] = ",".join(map(str, ranks))
    return {"groups": groups, "size": rank, "properties": props}


def random_request(rng, size):
    """Arguments of JobspecV1.from_command, and a constraint, for one job."""
    nodes = rng.choice([None, None, rng.randint(1, size + 2)])
    req = {"num_tasks": rng.randint(1, 4 * size + 4),
           "cores_per_task": rng.choice([1, 1, 2, 4, 8, 17]),
           "gpus_per_task": rng.choice([None, None, None, 1, 2]),
           "num_nodes": nodes,
           "exclusive": nodes is not None and rng.random() < 0.3}
    if nodes is not None and req["num_tasks"] < nodes:
        req["num_tasks"] = nodes
    constraint = None
    r = rng.random()
    if r < 0.25:
        constraint = {"properties": rng.sample(PROPERTIES, rng.randint(1, 2))}
    elif r < 0.35:
        constraint = {"not": [{"properties": [rng.choice(PROPERTIES)]}]}
    elif r < 0.45:
        # Not hostlist: flux-core checks a host constraint against the instance's own
        # hosts, and the fake R's hosts are not those.
        first, more = rng.randint(0, size), rng.randint(0, 3)
        # One rank as "N": flux-core's idset refuses "N-N" (an idset question, not this one).
        constraint = {"ranks": [f"{first}-{first + more}" if more else str(first)]}
    return req, constraint


def random_count(rng, most, choice):
    """A count as RFC 14 writes it: an integer, or (when `choice`) a range or an idset."""
    n = rng.randint(1, most)
    if not choice or rng.random() < 0.5:
        return n
    return rng.choice([f"{n}+", f"{n}-{n + rng.randint(1, 3)}", {"min": n},
                       {"min": n, "max": n + 2, "operator": "+", "operand": 1},
                       f"{n},{n + 2}", f"{n}-{4 * n}:2:*"])


def random_resources(rng, size):
    """RFC 14 resources beyond what from_command writes: ranges, idsets, slots of nodes,
    slots alone, and now and then a socket (which R cannot describe)."""
    def slot(label, choice):
        with_ = [{"type": "core", "count": random_count(rng, 4, False)}]
        if rng.random() < 0.3:
            with_.append({"type": "gpu", "count": random_count(rng, 2, False)})
        return {"type": "slot", "count": random_count(rng, 4, choice), "label": label,
                "with": with_}
    kind = rng.choice(["nodes", "nodes", "slots", "slot-of-nodes", "socket"])
    if kind == "nodes":
        node = {"type": "node", "count": random_count(rng, size, True),
                "with": [slot("task", False)]}
        if rng.random() < 0.3:
            node["exclusive"] = True
        return [node]
    if kind == "slots":
        return [slot("task", True)]
    if kind == "slot-of-nodes":
        return [{"type": "slot", "count": random_count(rng, 3, False), "label": "task",
                 "with": [{"type": "node", "count": random_count(rng, 2, False),
                           "with": [{"type": "core", "count": random_count(rng, 4, False)}]}]}]
    return [{"type": "node", "count": random_count(rng, size, False),
             "with": [{"type": "socket", "count": random_count(rng, 2, False),
                       "with": [slot("task", False)]}]}]


def inner(plan_path, out_path):
    """Inside the instance: load R, run every job alone, record the scheduler's verdict."""
    import flux
    import flux.job
    from flux.job import JobspecV1

    plan = json.load(open(plan_path))
    h = flux.Flux()
    subprocess.run(["flux", "module", "unload", "sched-simple"], check=True)
    subprocess.run(["flux", "resource", "reload", "-f", plan["r_path"]], check=True,
                   stderr=subprocess.DEVNULL)
    subprocess.run(["flux", "module", "load", "sched-simple"], check=True)
    verdicts = []
    for job in plan["jobs"]:
        js = JobspecV1.from_command(["true"], **{k: v for k, v in job["request"].items()
                                                  if v is not None})
        js.setattr("system.exec.test.run_duration", "0.001s")
        if job["constraint"] is not None:
            js.setattr("system.constraints", job["constraint"])
        if job.get("resources") is not None:
            # Written by hand, as RFC 14 allows: submitted as text, past JobspecV1.
            doc = json.loads(js.dumps())
            doc["resources"] = job["resources"]
            doc["tasks"][0]["count"] = {"per_slot": 1}
            text = json.dumps(doc)
        else:
            text = js.dumps()
        try:
            jobid = flux.job.submit(h, text)
        except OSError as e:
            verdicts.append({"jobspec": text, "flux": "refused", "note": str(e)})
            continue
        verdict, note = None, ""
        for event in flux.job.event_watch(h, jobid):
            if event.name == "alloc" and verdict is None:
                verdict = "allocated"
            elif event.name == "exception" and verdict is None:
                note = event.context.get("note", "")
                verdict = "unsatisfiable" if "unsatisfiable" in note else "exception"
            elif event.name == "clean":
                break
        verdicts.append({"jobspec": text, "flux": verdict, "note": note})
    json.dump(verdicts, open(out_path, "w"))


def make_r(spec, scratch):
    """R of the spec, by flux R encode, append and set-property (flux-core's own tools)."""
    parts = []
    for i, g in enumerate(spec["groups"]):
        first, _, last = g["ranks"].partition("-")
        last = last or first
        span = lambda n: "0" if n == 1 else f"0-{n - 1}"  # flux R encode refuses "0-0"
        args = [INSTALLED_FLUX, "R", "encode", "-r", g["ranks"], "-c", span(g["cores"]),
                "-H", f"n[{first}-{last}]"]
        if g["gpus"]:
            args += ["-g", span(g["gpus"])]
        rc, out, err = run(args)
        assert rc == 0, err
        parts.append(out)
    rc, r, err = run([INSTALLED_FLUX, "R", "append"], input="".join(parts))
    assert rc == 0, err
    for name, ranks in spec["properties"].items():
        rc, r, err = run([INSTALLED_FLUX, "R", "set-property", f"{name}:{ranks}"], input=r)
        assert rc == 0, err
    path = os.path.join(scratch, "R.json")
    with open(path, "w") as f:
        f.write(r)
    return path


def jobspec_verdict(jobspec_text, r_path, scratch):
    path = os.path.join(scratch, "job.json")
    with open(path, "w") as f:
        f.write(jobspec_text)
    rc, out, err = run([JOBSPEC, "--diagnostics", "json", "match", path, r_path])
    if rc == 0:
        return "allocated", ""
    diagnostics = json.loads(err or "[]") if err.startswith("[") else []
    codes = [d.get("code") for d in diagnostics] if diagnostics else [err]
    if "jobspec.unsatisfiable" in codes:
        # Issue 31: every "no" names the vertex or the constraint term that fails.
        where = next(d for d in diagnostics if d.get("code") == "jobspec.unsatisfiable").get(
            "pointer", "")
        if not where.startswith(("/resources/", "/attributes/system/constraints")):
            return "unsatisfiable", "jobspec.unsatisfiable without a located reason"
        return "unsatisfiable", "jobspec.unsatisfiable"
    if "match.unsupported" in codes:
        return "unsupported", "match.unsupported"
    return "refused", codes[0] if codes else err[:80]


def outer(n_r, per_r, seed):
    rng = random.Random(seed)
    t = Tally("sched")
    with tempfile.TemporaryDirectory(prefix="diff-sched-") as scratch:
        for i in range(n_r):
            spec = random_r(rng)
            r_path = make_r(spec, scratch)
            jobs = [dict(zip(("request", "constraint"), random_request(rng, spec["size"])))
                    for _ in range(per_r)]
            for job in jobs:
                if rng.random() < 0.4:
                    job["resources"] = random_resources(rng, spec["size"])
            plan = os.path.join(scratch, "plan.json")
            out = os.path.join(scratch, "verdicts.json")
            json.dump({"r_path": r_path, "jobs": jobs}, open(plan, "w"))
            rc, _, err = run([INSTALLED_FLUX, "start", "-s", "1", "flux", "python",
                              os.path.abspath(__file__), "--inner", plan, out], timeout=600)
            if rc != 0:
                print(f"R {i}: the instance failed: {err[-500:]}")
                continue
            for v in json.load(open(out)):
                j, code = jobspec_verdict(v["jobspec"], r_path, scratch)
                case = {"r": spec, "jobspec": json.loads(v["jobspec"])["resources"],
                        "constraints": json.loads(v["jobspec"])["attributes"]["system"]
                        .get("constraints"), "flux": v["flux"], "note": v["note"],
                        "jobspec_code": code}
                if code.endswith("without a located reason"):
                    t.bad(f"jobspec {j}, {code}", case)
                elif v["flux"] == j:
                    t.ok()
                else:
                    t.bad(f"flux {v['flux']} / jobspec {j}" + (f" [{code}]" if code else ""),
                          case)
    t.report()


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--inner":
        inner(sys.argv[2], sys.argv[3])
    else:
        args = [int(a) for a in sys.argv[1:]]
        outer(*(args + [10, 100, 31][len(args):]))
