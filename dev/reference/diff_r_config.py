#!/usr/bin/python3
"""`flux R parse-config` vs `jobspec R parse-config` (issue 30): flux-core's own
configuration examples (every TOML heredoc of its tests that holds resource.config or
resource.path, and the TOML blocks of flux-config-resource(5)), then random
configurations: entries whose hosts overlap, cores and gpus that clash or are not
idsets, properties valid and not, unknown and missing keys, several files merged.
Both must accept and give the same R (rank by rank: host, cores, gpus, properties,
scheduling), or both refuse.
Run: $REF/flux-core/src/cmd/flux python diff_r_config.py [N] [SEED]"""
import glob
import json
import os
import random
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: E402,F401
from diff_R import norm  # noqa: E402  (R as each rank's host, cores and gpus)
from flux.hostlist import Hostlist  # noqa: E402
from flux.idset import IDset  # noqa: E402

N = int(sys.argv[1]) if len(sys.argv) > 1 else 300
SEED = int(sys.argv[2]) if len(sys.argv) > 2 else 30
rng = random.Random(SEED)


def flux_examples():
    """(name, {file: text}) for flux-core's examples."""
    cases = []
    for t in sorted(glob.glob(os.path.join(FLUXSRC, "t", "t*.t"))):
        text = open(t, errors="replace").read()
        for n, m in enumerate(re.finditer(r"cat <<-?\\?'?EOF'? ?>\s*(\S+)\s*(?:&&)?\n(.*?)\n\s*EOF", text, re.S)):
            body = "\n".join(line.lstrip("\t") for line in m.group(2).split("\n"))
            if "resource.config" in body or re.search(r"^\s*\[resource\]", body, re.M):
                cases.append((f"{os.path.basename(t)}#{n}", {"resource.toml": body + "\n"}))
    rst = os.path.join(FLUXSRC, "doc", "man5", "flux-config-resource.rst")
    if os.path.exists(rst):
        text = open(rst).read()
        for n, m in enumerate(re.finditer(r"::\n\n((?:[ ]{3,}.*\n|\n)+)", text)):
            body = "\n".join(line[3:] for line in m.group(1).split("\n"))
            if "[[resource.config]]" in body:
                cases.append((f"flux-config-resource.rst#{n}", {"resource.toml": body}))
    return cases


def idset_text(ids, bad=False):
    if bad:
        return rng.choice(["0-", "2,1", "x", "3-1", "", "0,,1", "[0-3]", "-1"])
    return str(IDset(ids)) if ids else ""


def random_entry(pool):
    e = {}
    if rng.random() > 0.03:
        hosts = sorted(rng.sample(pool, rng.randint(1, min(4, len(pool)))))
        e["hosts"] = rng.choice([str(Hostlist(hosts)), ",".join(hosts)]) if rng.random() > 0.03 \
            else rng.choice(["", "foo[p]", "n[3-1]"])
    if rng.random() < 0.85:
        lo = rng.choice([0, 0, 2, 4])
        e["cores"] = idset_text(range(lo, lo + rng.choice([1, 2, 4])), bad=rng.random() < 0.04)
    if rng.random() < 0.35:
        e["gpus"] = idset_text(range(rng.choice([0, 1]), rng.choice([1, 2, 3])), bad=rng.random() < 0.04)
    if rng.random() < 0.3:
        names = rng.sample(["login", "debug", "+queue", "amd@gpu", "bigmem", "de^bug", "a|b"],
                           rng.randint(1, 2))
        e["properties"] = names if rng.random() > 0.05 else rng.choice([[1], "login"])
    if rng.random() < 0.03:
        e[rng.choice(["junk", "core", "host"])] = 5
    return e


def toml_value(v):
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    return json.dumps(v)


def toml_entries(entries):
    out = []
    for e in entries:
        out.append("[[resource.config]]")
        out += [f"{k} = {toml_value(v)}" for k, v in e.items()]
    return "\n".join(out) + "\n"


def random_case(i):
    pool = [f"{rng.choice(['node', 'n', 'fluke'])}{k}" for k in range(rng.randint(1, 8))]
    pool = sorted(set(pool))
    entries = [random_entry(pool) for _ in range(rng.randint(1, 5))]
    files = {"resource.toml": toml_entries(entries)}
    r = rng.random()
    if r < 0.15:
        # Two files: the later one's resource.config replaces the earlier one's.
        files["a-first.toml"] = toml_entries([random_entry(pool)])
    elif r < 0.2:
        files["z-other.toml"] = "[resource]\nnoverify = true\n"
    elif r < 0.23:
        files["resource.toml"] = "[resource]\nnoverify = true\n"
    return f"random#{i}", files


def run_case(name, files, tally):
    d = tempfile.mkdtemp(prefix="rconf.")
    try:
        for fname, text in files.items():
            with open(os.path.join(d, fname), "w") as f:
                f.write(text)
        fl = run([FLUX, "R", "parse-config", d], cwd=d)
        js = run([JOBSPEC, "R", "parse-config", d], cwd=d)
        case = {"case": name, "files": files, "flux": (fl[1] or fl[2])[:300],
                "jobspec": (js[1] or js[2])[:300]}
        if js[0] not in (0, 1, 2):
            tally.bad("jobspec crashed or hung", case)
        elif (fl[0] == 0) != (js[0] == 0):
            tally.bad("verdicts differ (flux " + ("accepts" if fl[0] == 0 else "refuses") + ")", case)
        elif fl[0] == 0 and norm(fl[1]) != norm(js[1]):
            tally.bad("both accept, different R", case)
        else:
            tally.ok()
    finally:
        shutil.rmtree(d)


def main():
    examples = Tally("R-parse-config-flux-examples")
    for name, files in flux_examples():
        run_case(name, files, examples)
    examples.report()
    randoms = Tally("R-parse-config-random")
    for i in range(N):
        name, files = random_case(i)
        run_case(name, files, randoms)
    randoms.report()


if __name__ == "__main__":
    main()
