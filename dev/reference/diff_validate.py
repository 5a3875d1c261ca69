#!/usr/bin/python3
"""Area 8: jobspec validation. flux-core validators
  - python canonical: flux.job.Jobspec(**doc)          vs `jobspec validate`
  - python V1:        flux.job.JobspecV1(**doc)        vs `jobspec validate --v1`
  - C V1:             t/util/jobspec1-validate (flux_jobspec1_decode+check) vs `jobspec validate --v1`
on flux-core's t/jobspec corpus, the RFC example data, and seeded mutations of valid docs.
Run: $REF/flux-core/src/cmd/flux python diff_validate.py [N_MUTANTS] [SEED]"""
import sys, os, json, random, re, glob, copy, yaml, io, contextlib
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *
from flux.job import Jobspec, JobspecV1, validate_jobspec
from flux.job.Jobspec import _validate_keys

N = int(sys.argv[1]) if len(sys.argv) > 1 else 800
SEED = int(sys.argv[2]) if len(sys.argv) > 2 else 14
rng = random.Random(SEED)
CV1 = os.path.join(FLUXSRC, "t/util/jobspec1-validate")
SPECS = os.path.join(SHARED, "specs", "data")


def py(cls, doc):
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            if not isinstance(doc, dict):
                raise TypeError("not a dict")
            if cls is Jobspec:        # canonical: what validate_jobspec does for version != 1
                _validate_keys(Jobspec.top_level_keys, doc.keys())
                Jobspec(**doc)
            else:                     # V1: exactly the job-ingest validator plugin's call
                validate_jobspec(json.dumps(doc), 1)
        return ("valid", "")
    except Exception as e:
        return ("invalid", f"{type(e).__name__}: {e}"[:160])


def cv1(text):
    rc, out, err = run([CV1], input=text)
    if rc == 0:
        return ("valid", "")
    if rc == 1:
        return ("invalid", err.strip()[:160])
    return ("crash", f"rc={rc}")


def jsv(text, v1):
    rc, out, err = jobspec("validate", "--color", "never", "--format", "json", *(["--v1"] if v1 else []), "-", input=text)
    if rc == 0:
        return ("valid", "")
    if rc == 1:
        m = re.findall(r"error\[([^\]]+)\][^\n]*", err)
        return ("invalid", (re.search(r"error\[[^\n]*", err).group(0) if m else err.strip()[:160])[:160])
    if rc == 2:
        return ("invalid", "rc2 " + err.strip()[:150])
    return ("crash", f"rc={rc} {err[-200:]}")


def load_corpus():
    out = []
    for d in ("valid", "valid_v1", "invalid", "invalid_v1"):
        for f in sorted(glob.glob(os.path.join(FLUXSRC, "t/jobspec", d, "*.yaml"))):
            try:
                doc = yaml.safe_load(open(f))
            except Exception:
                continue   # invalid_yaml1.yaml: not YAML at all
            out.append((f"flux-t/{d}/{os.path.basename(f)}", doc))
    for f in sorted(glob.glob(os.path.join(SPECS, "spec_14/*.yaml")) + glob.glob(os.path.join(SPECS, "spec_25/*.yaml"))):
        out.append((f"rfc/{os.path.relpath(f, SPECS)}", yaml.safe_load(open(f))))
    # One document for each class only the other seeds' mutants found, so that the
    # default seed finds every class.
    slot = {"type": "slot", "count": 1, "label": "default", "with": [{"type": "core", "count": 1}]}
    node = {"type": "node", "count": 1, "with": [slot]}
    task = {"command": ["x"], "slot": "default", "count": {"per_slot": 1}}
    system = {"attributes": {"system": {"duration": 0}}}
    out.append(("hand/task-count-extension-key",
                {"version": 999, "resources": [slot], **system,
                 "tasks": [dict(task, count={"per_slot": 1, "unit": "2+"})]}))
    out.append(("hand/v1-two-nodes-one-label",
                {"version": 1, "resources": [node, copy.deepcopy(node)], "tasks": [task], **system}))
    out.append(("hand/constraints-properties-string",
                {"version": 999, "resources": [slot], "tasks": [task],
                 "attributes": {"system": {"duration": 0, "constraints": {"properties": "x"}}}}))
    out.append(("hand/v1-unit-on-slot",
                {"version": 1, "resources": [{**node, "with": [{**slot, "unit": "x"}]}],
                 "tasks": [task], **system}))
    out.append(("hand/v1-exclusive-node",
                {"version": 1, "resources": [{**node, "exclusive": True}], "tasks": [task],
                 **system}))
    out.append(("hand/dependency-empty-value",
                {"version": 999, "resources": [slot], "tasks": [task],
                 "attributes": {"system": {"duration": 0, "dependencies": [
                     {"type": "in", "scope": "user", "scheme": "fluid", "value": ""}]}}}))
    out.append(("hand/v1-per-slot-2",
                {"version": 1, "resources": [node], "tasks": [dict(task, count={"per_slot": 2})],
                 **system}))
    return out


def paths(o, p=()):
    yield p
    if isinstance(o, dict):
        for k, v in o.items():
            yield from paths(v, p + (k,))
    elif isinstance(o, list):
        for i, v in enumerate(o):
            yield from paths(v, p + (i,))


def get(o, p):
    for k in p:
        o = o[k]
    return o


VALS = [0, -1, 1, 2, 1.5, "2", "", "x", True, False, None, [], [1], {}, {"min": 1}, {"min": 0},
        {"min": 2, "max": 1}, {"min": 1, "max": 4, "operator": "*", "operand": 1}, {"min": 1, "operator": "+"},
        "1-4", "2+", "1,3", "0", "3-1", {"min": 1, "max": 8, "operator": "^", "operand": 2}, {"min": 2, "max": 8, "operator": "^", "operand": 2}]


def mutate(doc):
    d = copy.deepcopy(doc)
    ps = [p for p in paths(d) if p]
    p = rng.choice(ps)
    parent, key = get(d, p[:-1]), p[-1]
    r = rng.random()
    if r < 0.3:
        if isinstance(parent, dict):
            del parent[key]; return d, f"delete {'/'.join(map(str, p))}"
        parent.pop(key); return d, f"delete {'/'.join(map(str, p))}"
    if r < 0.75:
        v = rng.choice(VALS)
        parent[key] = v
        return d, f"set {'/'.join(map(str, p))} = {json.dumps(v)}"
    if r < 0.85 and isinstance(parent, dict):
        k = rng.choice(["foo", "exclusive", "unit", "id", "label", "requires", "per_resource", "x"])
        parent[k] = rng.choice(VALS + ["GB"])
        return d, f"add {'/'.join(map(str, p[:-1]))}/{k} = {json.dumps(parent[k])}"
    if isinstance(parent, list):
        parent.append(copy.deepcopy(parent[key]))
        return d, f"duplicate list item {'/'.join(map(str, p))}"
    # targeted
    t = rng.choice(["v2", "dur", "label", "slotname"])
    if t == "v2":
        d["version"] = rng.choice([2, 99, "1", 1.0]); return d, f"version={d['version']!r}"
    if t == "dur":
        d.setdefault("attributes", {}).setdefault("system", {})["duration"] = rng.choice([-1, "1h", None, 1e400 if False else 1e30, 0.5, "0"])
        return d, f"duration={d['attributes']['system']['duration']!r}"
    if t == "label":
        for pp in paths(d):
            if pp and pp[-1] == "label":
                get(d, pp[:-1])["label"] = rng.choice(["", 1, "a b", "task"])
                return d, f"label={get(d, pp[:-1])['label']!r}"
    return d, "noop"


def compare(t, name, doc, what):
    text = json.dumps(doc)
    combos = [("canonical py", py(Jobspec, doc), jsv(text, False)),
              ("v1 py", py(JobspecV1, doc), jsv(text, True)),
              ("v1 C", cv1(text), None)]
    combos[2] = ("v1 C", combos[2][1], combos[1][2])
    for label, f, j in combos:
        case = {"case": name, "what": what, "flux": f[1], "jobspec": j[1]}
        if j[0] == "crash" or f[0] == "crash":
            t.bad(f"[{label}] (d) crash flux={f[0]} jobspec={j[0]}", dict(case, doc=text[:800])); continue
        if f[0] == j[0]:
            t.ok(); continue
        t.bad(f"[{label}] flux {f[0]} / jobspec {j[0]} [{class_reason(f, j)}]", dict(case, doc=text[:800]))


def class_reason(f, j):
    """What names a class: jobspec's first error code when it refuses, else flux's
    message without the names and numbers in it."""
    if j[0] == "invalid":
        m = re.search(r"error\[([^\]]+)\]", j[1])
        if m:
            return m.group(1)
    text = re.sub(r"\(.*?\)|'[^']*'|\"[^\"]*\"|\d+", "_", f[1])
    return re.sub(r"left unpacked:.*", "left unpacked", text)[:70]


def main():
    corpus = load_corpus()
    t = Tally("validate")
    for name, doc in corpus:
        compare(t, name, doc, "as is")
    valid = [(n, d) for n, d in corpus if "/valid" in n or n.startswith("rfc/")]
    for i in range(N):
        n, d = rng.choice(valid)
        m, what = mutate(d)
        compare(t, f"mutant{i}:{n}", m, what)
    t.report(show=2)


if __name__ == "__main__":
    main()
