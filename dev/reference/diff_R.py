#!/usr/bin/python3
"""Area 4: RFC 20 R. `flux R ...` (flux-core librlist) vs `jobspec R ...`
on the same random R documents; compares decoded meaning.
Run: $REF/flux-core/src/cmd/flux python diff_R.py [N] [SEED]

Derived from ../shared/reference/diff_R.py; extended (marked "issue 17") to every
option and input convention of `flux R` that `jobspec R` takes: short options,
encode without -r or -H, property filters with ^, several documents, verify of one
rank, rerank checks, set-property without ranks, empty input."""
import sys, os, json, random, re
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *
from flux.idset import IDset
from flux.hostlist import Hostlist

N = int(sys.argv[1]) if len(sys.argv) > 1 else 120
SEED = int(sys.argv[2]) if len(sys.argv) > 2 else 20
rng = random.Random(SEED)
PROPS = ["pbatch", "debug", "ssd", "amd-mi50@gpu", "bigmem", "+queue"]


def mk_R(ranks=None, hosts=True, props=True, times=True):
    """random R: dict rank -> (cores, gpus) grouped into R_lite entries"""
    if ranks is None:
        ranks = sorted(rng.sample(range(0, 24), rng.randint(1, 6)))
    pats = [[0], list(range(4)), list(range(8)), [0, 2, 4], list(range(48)), [1, 3]]
    gpats = [[], [], [0], [0, 1], list(range(8))]
    per = {r: (rng.choice(pats), rng.choice(gpats)) for r in ranks}
    groups = {}
    for r in ranks:
        key = (tuple(per[r][0]), tuple(per[r][1]))
        if rng.random() < 0.3:
            key = key + (r,)          # sometimes split equal ranks into separate entries
        groups.setdefault(key, []).append(r)
    rl = []
    for key, rs in groups.items():
        ch = {"core": str(IDset(list(key[0])))}
        if key[1]:
            ch["gpu"] = str(IDset(list(key[1])))
        rl.append({"rank": str(IDset(rs)), "children": ch})
    rng.shuffle(rl)
    ex = {"R_lite": rl}
    if hosts:
        base = rng.choice(["node", "fluke", "n"])
        hl = [f"{base}{r + 100}" for r in ranks]
        if rng.random() < 0.5:
            ex["nodelist"] = [str(Hostlist(hl))]
        else:
            ex["nodelist"] = hl
    if props and rng.random() < 0.6:
        p = {}
        for name in rng.sample(PROPS, rng.randint(1, 3)):
            sub = sorted(rng.sample(ranks, rng.randint(1, len(ranks))))
            p[name] = str(IDset(sub))
        ex["properties"] = p
    if times and rng.random() < 0.5:
        ex["starttime"] = rng.choice([0, 1676560542.0, 1676560542])
        ex["expiration"] = rng.choice([0, 1676562342.5, 1676562342])
    if rng.random() < 0.2:
        ex["nslots"] = rng.randint(1, 8)
    return {"version": 1, "execution": ex}


def sub_R(R):
    """a random subset of R (some ranks, fewer cores/gpus)"""
    R = json.loads(json.dumps(R))
    ex = R["execution"]
    new = []
    for e in ex["R_lite"]:
        rs = list(IDset(e["rank"]))
        keep = [r for r in rs if rng.random() < 0.7]
        if not keep:
            continue
        cores = list(IDset(e["children"]["core"]))
        cores = sorted(rng.sample(cores, rng.randint(1, len(cores))))
        ch = {"core": str(IDset(cores))}
        if "gpu" in e["children"] and rng.random() < 0.5:
            ch["gpu"] = e["children"]["gpu"]
        new.append({"rank": str(IDset(keep)), "children": ch})
    if not new:
        new = [ex["R_lite"][0]]
    allr = sorted(r for e in ex["R_lite"] for r in IDset(e["rank"]))
    keepr = sorted(r for e in new for r in IDset(e["rank"]))
    if "nodelist" in ex:
        hosts = [h for hl in ex["nodelist"] for h in Hostlist(hl)]
        m = dict(zip(allr, hosts))
        ex["nodelist"] = [str(Hostlist([m[r] for r in keepr]))]
    ex["R_lite"] = new
    ex.pop("properties", None)
    return R


def norm(R):
    if isinstance(R, str):
        R = json.loads(R)
    ex = R["execution"]
    ranks = {}
    for e in ex["R_lite"]:
        for r in IDset(e["rank"]):
            c = ranks.setdefault(r, {"core": set(), "gpu": set()})
            c["core"] |= set(IDset(e["children"].get("core", "")))
            c["gpu"] |= set(IDset(e["children"].get("gpu", "")))
    hosts = [h for hl in ex.get("nodelist", []) for h in Hostlist(hl)]
    out = {}
    for i, r in enumerate(sorted(ranks)):
        out[r] = {"host": hosts[i] if i < len(hosts) else None,
                  "core": sorted(ranks[r]["core"]), "gpu": sorted(ranks[r]["gpu"])}
    props = {k: sorted(IDset(v)) for k, v in (ex.get("properties") or {}).items()}
    return {"version": R.get("version"), "ranks": out, "props": props,
            "starttime": float(ex.get("starttime", 0) or 0), "expiration": float(ex.get("expiration", 0) or 0),
            "nslots": ex.get("nslots"), "scheduling": R.get("scheduling")}


def docs(*Rs):
    return "".join(json.dumps(R) + "\n" for R in Rs)


def flux_R(args, stdin):
    return run([FLUX, "R", *args], input=stdin)


def js_R(args, stdin):
    return run([JOBSPEC, "R", args[0], "--color", "never", *args[1:]], input=stdin)


def compare(t, label, args, stdin, mode):
    f = flux_R(args, stdin)
    j = js_R(args, stdin)
    case = {"cmd": "R " + " ".join(args), "stdin": stdin[:700], "flux": (f[1] or f[2])[:400], "jobspec": (j[1] or j[2])[:400]}
    if j[0] == "TIMEOUT" or (isinstance(j[0], int) and j[0] not in (0, 1, 2)):
        t.bad(f"(d) jobspec crash/hang rc={j[0]} [{label}]", case); return
    if f[0] == "TIMEOUT" or (isinstance(f[0], int) and f[0] < 0):
        t.bad(f"(d) flux crash/hang rc={f[0]} [{label}]", case); return
    fok, jok = f[0] == 0, j[0] == 0
    if mode == "rc":
        if fok == jok:
            t.ok()
        else:
            t.bad(f"{label}: exit status differs (flux {f[0]}, jobspec {j[0]})", case)
        return
    if not fok and not jok:
        t.ok(); return
    if not fok:
        t.bad(f"{label}: flux fails / jobspec succeeds", case); return
    if not jok:
        t.bad(f"{label}: flux succeeds / jobspec fails", case); return
    if mode == "text":
        if f[1].strip() == j[1].strip():
            t.ok()
        else:
            t.bad(f"{label}: different text", case)
        return
    try:
        nf, nj = norm(f[1]), norm(j[1])
    except Exception as e:
        t.bad(f"{label}: unparsable output {type(e).__name__}", case); return
    if nf == nj:
        t.ok(normalized=(json.loads(f[1]) != json.loads(j[1]))); return
    what = [k for k in nf if nf[k] != nj[k]]
    if "ranks" in what:
        rf, rj = nf["ranks"], nj["ranks"]
        if set(rf) != set(rj):
            what = ["rank-set"] + [w for w in what if w != "ranks"]
        else:
            sub = set()
            for r in rf:
                for k in rf[r]:
                    if rf[r][k] != rj[r][k]:
                        sub.add(k)
            what = ["ranks." + "/".join(sorted(sub))] + [w for w in what if w != "ranks"]
    if what == ["scheduling"]:
        writer = (nf["scheduling"] or nj["scheduling"] or {}).get("writer", "none")
        t.bad(f"{label.split(' ')[0]}: only scheduling differs (writer {writer})", case); return
    meta = {"starttime", "expiration", "nslots"}
    if set(what) <= meta:
        kept = "jobspec keeps / flux drops" if all(nf[k] in (0.0, None) for k in what) else "values differ"
        t.bad(f"{label.split(' ')[0]}: only starttime/expiration/nslots differ ({kept})", case); return
    core = [w for w in what if w not in meta]
    t.bad(f"{label}: different meaning ({','.join(core)})", case)


def main():
    t = Tally("R")
    # encode
    for _ in range(N):
        ranks = sorted(rng.sample(range(0, 64), rng.randint(1, 8)))
        args = ["encode", "-r", str(IDset(ranks)), "-c", rng.choice(["0", "0-3", "0-47", "1,3"])]
        if rng.random() < 0.5:
            args += ["-g", rng.choice(["0", "0-7", "0,2"])]
        if rng.random() < 0.7:
            args += ["-H", str(Hostlist([f"node{r}" for r in ranks])) if rng.random() < 0.8 else "node[0-1]"]
        if rng.random() < 0.4:
            args += ["-p", rng.choice(["ssd", "ssd:" + str(ranks[0]), "bigmem:" + str(IDset(ranks[:2])), "x:999"])]
        compare(t, "encode", args, "", "meaning")
    for _ in range(N):
        R1 = mk_R()
        s1 = docs(R1)
        compare(t, "decode", ["decode"], s1, "meaning")
        compare(t, "decode --short", ["decode", "--short"], s1, "text")
        compare(t, "decode --nodelist", ["decode", "--nodelist"], s1, "text")
        compare(t, "decode --ranks", ["decode", "--ranks"], s1, "text")
        for ty in ("node", "core", "gpu"):
            compare(t, "decode --count " + ty, ["decode", "--count", ty], s1, "text")
        ranks = sorted(r for e in R1["execution"]["R_lite"] for r in IDset(e["rank"]))
        sel = str(IDset(sorted(rng.sample(ranks, rng.randint(1, len(ranks))))))
        compare(t, "decode --include", ["decode", "--include", sel], s1, "meaning")
        compare(t, "decode --exclude", ["decode", "--exclude", sel], s1, "meaning")
        if "properties" in R1["execution"]:
            p = ",".join(rng.sample(list(R1["execution"]["properties"]), 1) + (["^ssd"] if rng.random() < 0.2 else []))
            compare(t, "decode --properties", ["decode", "--properties", p], s1, "meaning")
        # binary ops
        R2 = sub_R(R1) if rng.random() < 0.6 else mk_R()
        s12 = docs(R1, R2)
        compare(t, "diff", ["diff"], s12, "meaning")
        compare(t, "intersect", ["intersect"], s12, "meaning")
        compare(t, "append", ["append"], s12, "meaning")
        compare(t, "decode(union of 2)", ["decode"], s12, "meaning")
        compare(t, "verify R1 R2", ["verify"], s12, "rc")
        compare(t, "verify R2 R1", ["verify"], docs(R2, R1), "rc")
        compare(t, "remap", ["remap"], s1, "meaning")
        if "nodelist" in R1["execution"]:
            hosts = [h for hl in R1["execution"]["nodelist"] for h in Hostlist(hl)]
            perm = rng.sample(hosts, len(hosts))
            if rng.random() < 0.1:
                perm = perm[:-1] if len(perm) > 1 else perm + ["nosuch"]
            compare(t, "rerank", ["rerank", str(Hostlist(perm))], s1, "meaning")
        sp = rng.choice(["newprop", "ssd", "x@gpu"]) + ":" + rng.choice([sel, "0-100", str(ranks[0])])
        compare(t, "set-property", ["set-property", sp], s1, "meaning")
    extended(t)
    scheduling(t)
    t.report(show=2)


def scheduling(t):
    """Issue 30: R's scheduling key (RFC 20's writer, RFC 49's TreePool, another
    scheduler's) through every operation, with R of its own (a second random stream, so
    the cases above stay the same)."""
    srng = random.Random(SEED + 1)
    for _ in range(N // 2):
        R1 = mk_R(times=False)
        ranks = sorted(r for e in R1["execution"]["R_lite"] for r in IDset(e["rank"]))
        half = str(IDset(ranks[: max(1, len(ranks) // 2)]))
        R1["scheduling"] = srng.choice([
            {"writer": "fluxion", "graph": {"nodes": [], "edges": []}},
            {"graph": None},
            {"writer": "TreePool", "children": [
                {"ranks": half, "topo": {"cores": "0-3"}},
                {"ranks": str(IDset(ranks)), "topo": {"socket": [{"cores": "0-1"}, {"cores": "2-3"}]}}]},
            {"writer": "other://site", "anything": [1, 2]}])
        s1 = docs(R1)
        sel = str(IDset(sorted(srng.sample(ranks, srng.randint(1, len(ranks))))))
        for label, args in (("decode", ["decode"]), ("decode --include", ["decode", "--include", sel]),
                            ("decode --exclude", ["decode", "--exclude", sel]), ("remap", ["remap"]),
                            ("set-property", ["set-property", "p:" + str(ranks[0])])):
            compare(t, f"{label} [scheduling]", args, s1, "meaning")
        if "nodelist" in R1["execution"]:
            hosts = [h for hl in R1["execution"]["nodelist"] for h in Hostlist(hl)]
            compare(t, "rerank [scheduling]", ["rerank", str(Hostlist(srng.sample(hosts, len(hosts))))],
                    s1, "meaning")
        s12 = docs(R1, sub_R(R1))
        for op in ("diff", "intersect", "append"):
            compare(t, f"{op} [scheduling]", [op], s12, "meaning")


def one_rank(R, pick=None):
    """One rank of R as its own R (what `flux R verify` takes second), or None."""
    n = norm(R)
    if not n["ranks"]:
        return None
    r = pick if pick is not None else rng.choice(sorted(n["ranks"]))
    info = n["ranks"][r]
    ch = {"core": str(IDset(info["core"]))}
    if info["gpu"]:
        ch["gpu"] = str(IDset(info["gpu"]))
    ex = {"R_lite": [{"rank": str(r), "children": ch}]}
    if info["host"]:
        ex["nodelist"] = [info["host"]]
    return {"version": 1, "execution": ex}


def extended(t):
    """issue 17: the rest of flux R's options and conventions."""
    for _ in range(N // 2):
        # encode: ranks from -H, this host's name without -H, properties on all ranks,
        # gpus without cores
        hosts = str(Hostlist([f"node{i}" for i in range(rng.randint(1, 6))]))
        compare(t, "encode -H", ["encode", "-H", hosts, "-c", rng.choice(["0-3", "1,3"])], "", "meaning")
        compare(t, "encode (no -H)", ["encode", "-r", rng.choice(["0", "0-3", "2,5"]), "-c", "0-1"], "", "meaning")
        compare(t, "encode -g only", ["encode", "-r", "0-1", "-g", rng.choice(["0", "0-3"]), "-H", "n[0-1]"], "", "meaning")
        compare(t, "encode -p NAME", ["encode", "-H", hosts, "-p", rng.choice(["ssd", "big:0", "x@gpu", "a!b", "^x"])], "", "meaning")
        R1 = mk_R()
        s1 = docs(R1)
        # decode with short options, several at once, and other count types
        flags = rng.sample(["-s", "-n", "-r"], rng.randint(1, 3))
        compare(t, "decode short flags", ["decode", *flags], s1, "text")
        compare(t, "decode -c TYPE", ["decode", "-c", rng.choice(["node", "core", "gpu", "ranks", "foo"])], s1, "text")
        ranks = sorted(r for e in R1["execution"]["R_lite"] for r in IDset(e["rank"]))
        sel = str(IDset(sorted(rng.sample(ranks, rng.randint(1, len(ranks))))))
        compare(t, "decode -i/-x", ["decode", rng.choice(["-i", "-x"]), sel, rng.choice(["-s", "-r"])], s1, "text")
        hosts1 = norm(R1)["ranks"]
        hsel = str(Hostlist([hosts1[r]["host"] for r in IDset(sel)]))
        compare(t, "decode --include HOSTLIST", ["decode", "--include", hsel, "-r"], s1, "text")
        props = list(R1["execution"].get("properties", {})) + ["nosuch"]
        expr = ",".join(rng.choice(["", "^"]) + p for p in rng.sample(props, rng.randint(1, min(3, len(props)))))
        compare(t, "decode -p with ^", ["decode", "-p", expr], s1, "meaning")
        compare(t, "decode -p with ^ -s", ["decode", "-p", expr, "-s"], s1, "text")
        # several documents: union of 3, append of the same ranks with other cores
        R2, R3 = mk_R(), mk_R()
        compare(t, "decode(union of 3)", ["decode"], docs(R1, R2, R3), "meaning")
        compare(t, "remap(union of 2)", ["remap"], docs(R1, R2), "meaning")
        other = json.loads(json.dumps(R1))
        for e in other["execution"]["R_lite"]:
            e["children"] = {"core": "100-101"}
        other["execution"].pop("properties", None)
        compare(t, "append same ranks, other cores", ["append"], docs(R1, other), "meaning")
        compare(t, "append same R twice", ["append"], docs(R1, R1), "rc")
        # verify: the second R is one rank as found
        exp = one_rank(R1)
        if exp:
            r = int(exp["execution"]["R_lite"][0]["rank"])
            fewer = json.loads(json.dumps(exp))
            cores = list(IDset(fewer["execution"]["R_lite"][0]["children"]["core"]))
            fewer["execution"]["R_lite"][0]["children"]["core"] = str(IDset(cores[:-1])) if len(cores) > 1 else "200"
            more = json.loads(json.dumps(exp))
            more["execution"]["R_lite"][0]["children"]["core"] = str(IDset(cores + [200]))
            renamed = json.loads(json.dumps(exp))
            renamed["execution"]["nodelist"] = ["othername"]
            for label, actual in (("same", exp), ("fewer cores", fewer), ("more cores", more), ("other host", renamed)):
                compare(t, f"verify one rank ({label})", ["verify"], docs(R1, actual), "rc")
        # rerank: too many, too few, unknown, repeated hosts
        hosts = [hosts1[r]["host"] for r in sorted(hosts1)]
        for label, hl in (("too many", hosts + ["extra9"]), ("too few", hosts[:-1]),
                          ("unknown", hosts[:-1] + ["nosuch"]), ("repeated", hosts[:-1] + hosts[:1])):
            if hl:
                compare(t, f"rerank {label}", ["rerank", ",".join(hl)], s1, "rc")
        # set-property: without ranks, several at once
        specs = rng.sample(["newprop", "ssd", "x@gpu", "+queue", "b:" + sel, "c:" + sel], rng.randint(1, 3))
        compare(t, "set-property NAME...", ["set-property", *specs], s1, "meaning")
    # input conventions: nothing, whitespace, R without a nodelist, garbage after R
    R = mk_R()
    no_nodelist = json.loads(json.dumps(R))
    no_nodelist["execution"].pop("nodelist")
    for label, stdin in (("empty input", ""), ("blank input", "  \n"), ("no nodelist", docs(no_nodelist)),
                         ("garbage after R", docs(R) + "xyz"), ("nodelist []", docs(no_nodelist).replace('"R_lite"', '"nodelist": [], "R_lite"'))):
        for cmd in (["decode"], ["decode", "-n"], ["remap"]):
            compare(t, f"{' '.join(cmd)} of {label}", cmd, stdin, "rc")


if __name__ == "__main__":
    main()
