#!/usr/bin/python3
"""Area 1: RFC 46 shapes. flux-core ShapeParser (python, standalone copy) vs
`jobspec shape --default-label task --counts string`.
Usage: /usr/bin/python3 diff_shape.py [N_RANDOM] [SEED]"""
import sys, os, json, random, re, ast
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *
sys.path.insert(0, os.path.join(REF, "py"))          # copies of flux-core modules
from flux_shape.parser import ShapeParser, ShapeLexer

N = int(sys.argv[1]) if len(sys.argv) > 1 else 1500
SEED = int(sys.argv[2]) if len(sys.argv) > 2 else 46
rng = random.Random(SEED)

parser = ShapeParser(write_tables=False, debug=False)


def flux_parse(s):
    parser.lexer = ShapeLexer()
    try:
        return ("ok", parser.parse(s))
    except Exception as e:
        return ("err", f"{type(e).__name__}: {e}")


def js_parse(s):
    rc, out, err = jobspec("shape", "--default-label", "task", "--counts", "string",
                           "--color", "never", "--", s)
    if rc == 0:
        return ("ok", json.loads(out), err)
    if rc in (1, 2):
        m = re.search(r"error\[([^\]]+)\]", err)
        return ("err", m.group(1) if m else err.strip()[:80], err)
    return ("crash", f"rc={rc}", err)


def expand_idset(s):
    out = set()
    for part in s.split(","):
        if "-" in part:
            a, b = part.split("-")
            a, b = int(a), int(b)
            if b - a > 100000:
                return ("bigidset", s)
            out |= set(range(a, b + 1))
        else:
            out.add(int(part))
    return frozenset(out)


def norm_count(c):
    if isinstance(c, int) and not isinstance(c, bool):
        return frozenset([c])
    if isinstance(c, str):
        s = c.strip("[]")
        m = re.fullmatch(r"(\d+)(?:-(\d+)|\+)(?::(\d+)(?::([+*^]))?)?", s)
        if m and ("+" in s or ":" in s or m.group(2)):
            mn = int(m.group(1)); mx = m.group(2)
            opd = int(m.group(3)) if m.group(3) else 1
            opr = m.group(4) or "+"
            if mx is not None and opr == "+" and opd == 1:
                return expand_idset(f"{mn}-{mx}")
            return ("range", mn, int(mx) if mx else None, opd, opr)
        if re.fullmatch(r"[\d,\-]+", s):
            try:
                return expand_idset(s)
            except Exception:
                return ("badidset", s)
    return ("other", repr(c))


def norm(obj):
    if isinstance(obj, list):
        return [norm(x) for x in obj]
    if isinstance(obj, dict):
        return {k: (norm_count(v) if k == "count" else norm(v)) for k, v in obj.items()}
    return obj


RFC14_KEYS = {"", "[]", "type", "count", "label", "unit", "exclusive", "with", "id", "min",
              "max", "operator", "operand"}


def first_diff(a, b, path=""):
    if type(a) != type(b) and not (isinstance(a, (int, float)) and isinstance(b, (int, float))
                                    and not isinstance(a, bool) and not isinstance(b, bool)):
        return path, a, b
    if isinstance(a, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if k not in a or k not in b:
                return path + "/" + k, a.get(k, "<absent>"), b.get(k, "<absent>")
            d = first_diff(a[k], b[k], path + "/" + k)
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return path + "[len]", len(a), len(b)
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_diff(x, y, path + f"[{i}]")
            if d:
                return d
        return None
    if a != b:
        return path, a, b
    return None

# ---------------------------------------------------------------- generation
TYPES = ["node", "core", "gpu", "socket", "memory", "cluster", "switch", "rack",
         "ib10g", "node-a", "n1", "CoRe", "x", "a.b", "a_b", "Slot", "SLOT", "0node",
         "'quoted type'", '"dq"', "a:b", "a,b", "a+b", "hw@1", "ünï"]
KEYS = ["unit", "exclusive", "x", "id", "foo", "a-b", "k_1", "requires", "'q k'", "label",
        "with", "count", "type", "X", "excl"]
VALUES = ["GB", "MB", "true", "false", "null", "True", "NULL", "0", "1", "-1", "1.5", "1e3",
          "1.5E-2", "01", "-0", "[1,2]", "[]", '["a","b"]', "['a']", '"x y"', "'x y'",
          "{a:b}", "{}", "{+b,-c}", '""', "''", "a b", "1.", ".5", "+5", "1GB", "[1,[2,3]]"]


def gen_count():
    r = rng.random()
    if r < 0.35:
        return str(rng.choice([1, 2, 3, 4, 10, 16, 128, 999999]))
    if r < 0.45:
        return rng.choice(["0", "01", "-1", "1.5", "a", "4294967296", "18446744073709551616", ""])
    if r < 0.6:
        ids = sorted(rng.sample(range(1, 40), rng.randint(1, 4)))
        if rng.random() < 0.1:
            rng.shuffle(ids)
        parts = []
        for i in ids:
            parts.append(f"{i}-{i + rng.randint(1, 5)}" if rng.random() < 0.3 else str(i))
        s = ",".join(parts)
        return s
    if r < 0.92:
        mn = rng.choice([1, 2, 3, 4, 8])
        s = f"{mn}+" if rng.random() < 0.4 else f"{mn}-{mn + rng.choice([0, 1, 4, 30, -1])}"
        k = rng.random()
        if k < 0.4:
            s += f":{rng.choice([1, 2, 3])}"
        elif k < 0.7:
            s += f":{rng.choice([1, 2, 3])}:{rng.choice('+*^')}"
        if rng.random() < 0.1:
            s = s.replace(":", "::", 1)
        return s
    return rng.choice(["1-5:2:%", "[2]", "[1-4:2:*]", "[100+]", "2+:", "1-", "+", "1,,2",
                       "3,1", "1,1", "1-3,2", "[1,2]", "[[2]]", "1 - 3", " 2 "])


def gen_item():
    r = rng.random()
    k = rng.choice(KEYS)
    if r < 0.5:
        return f"{k}:{rng.choice(VALUES)}"
    if r < 0.8:
        return rng.choice(["+", "-", ""]) + k
    return rng.choice(["x", "-x", "+x", "x:true", "exclusive:false", "x:1"])


def gen_vertex(depth, slots_allowed, ctx):
    is_slot = slots_allowed and rng.random() < 0.35
    if is_slot:
        ctx["slots"] += 1
        t = rng.choice(["slot"] * 8 + ["Slot", "SLOT"])
    else:
        t = rng.choice(TYPES)
    s = t
    if rng.random() < 0.6:
        c = gen_count()
        s += "=" + (f"[{c}]" if rng.random() < 0.1 else c)
    items = []
    if is_slot and rng.random() < 0.6:
        items.append(rng.choice(["task", "a", "b", "db", "read-db", "x", "4GB-node", "l" + str(ctx["slots"]), "'q l'", "+a", "-b"]))
    if rng.random() < 0.35:
        items += [gen_item() for _ in range(rng.randint(0, 3))]
    if items or rng.random() < 0.05:
        s += "{" + ",".join(items) + "}"
    need_child = is_slot and rng.random() < 0.95
    if depth < 4 and (need_child or rng.random() < 0.5):
        s += "/" + gen_list(depth + 1, slots_allowed and not is_slot, ctx)
    return s


def gen_list(depth, slots_allowed, ctx):
    n = 1 if rng.random() < 0.7 else rng.randint(1, 3)
    vs = [gen_vertex(depth, slots_allowed, ctx) for _ in range(n)]
    if n == 1 and rng.random() < 0.8:
        return vs[0]
    sep = ";" if rng.random() < 0.97 else rng.choice([",", "; ", ";;"])
    return "[" + sep.join(vs) + "]"


def gen_shape():
    ctx = {"slots": 0}
    s = gen_list(0, True, ctx)
    if rng.random() < 0.05:
        s = rng.choice([" ", "\t"]) + s + rng.choice([" ", ""])
    if rng.random() < 0.03 and len(s) > 2:
        i = rng.randrange(len(s))
        s = s[:i] + s[i + 1:]     # random deletion
    return s


HAND = [
    # one shape for each class the other seeds find (so the default seed finds them all)
    "n1{id:1.}", "node{unit:1.}", "node/slot/memory{unit:True}", 'node{x:a b"}', "core{[2,3]]}",
    # RFC 46 examples
    "slot=4/node", "slot=3-30/node", "slot=4{nodelevel}/node{-x}/socket=2+/core=4+",
    "slot=4{nodelevel}/node/socket=2/core=4",
    "[cluster/slot=2{ib}/node/[memory=4{unit:GB};ib10g];switch/slot=2{bicore}/node/core=2]",
    "cluster=2/slot/node=1+{-x}/core=30", "switch=3/slot/node=1+{-x}/core", "slot=4,9,16,25/node",
    "slot=10/core=2", "node/[slot=10{read-db}/[core;memory=4{unit:GB}];slot{db}/[core=6;memory=24{unit:GB}]]",
    "slot=10/[memory=2+{unit:GB};core]", "slot=2{4GB-node}/node/memory=4+{unit:GB}", "slot/node",
    # edge cases
    "", " ", "slot", "slot/", "slot=2{blah", "slot=2{bla}}", "node/[slot=10{read-db}/[core;memory=4{unit:GB}]]]",
    "node=0", "node=01", "node=5-1", "node=2+:1:*", "node=2+:2:^", "node=1-5:2:+", "node=1,1",
    "node=3,1", "node=[3]", "node=[1-4:2:*]", "node=[100+]", "slot{x}/node", "SLOT/node",
    "[slot/core;slot{b}/core]", "[slot{a}/core;slot{a}/core]", "slot{a,unit:GB}/core",
    "slot{unit:GB}/core", "node{x:5}", "node{a:'q r'}", "node{a:\"q r\"}", "node{a:[1,\"b\"]}",
    "node{a:{b:c,+d}}", "node{}", "node{,}", "node{x,x}", "node{x,-x}", "node{unit:GB,unit:MB}",
    "node{type:core}", "node{count:3}", "node{with:[]}", "node{label:foo}", "'slot'/node",
    "node/slot/core", "slot/slot{b}/core", "[node;node]", "[node]", "[[node]]", "[]",
    "node/[]", "node;core", "node/core/", "node==2", "node=2=3", "node= 2", "node =2",
    "node=2 /core", "node{ unit : GB }", "node{'':1}", "node{a:}", "node{:b}", "node{a:b:c}",
    "node=1-5:2:%", "node=2+:", "node=4294967296", "node=18446744073709551616",
    "node{a:1e400}", "node{a:-0}", "node{a:01}", "node{a:.5}", "node{a:1.}",
    "slot=2+:2:*{l}/core", "slot{a}/node{x}/core", "slot{'a b'}/core", "slot{\"\"}/core",
    "node{a:[1,2}", "node{a:[1,2]]}", "node{a:'}'}", "node{'x'}", "node{\"x\":true}",
    "node=1,2-4,6", "node=[1,2]", "node=[[2]]", "node=2-2", "node=2+:1", "node=2+:1:+",
    "node=0+", "node=0-3", "node=1-0", "node=2-5:0", "node=2-5:3:^", "node=1+:2:^",
]


def main():
    # flux-core's own test shapes
    sys.path.insert(0, os.path.join(FLUXSRC, "t/python"))
    src = open(os.path.join(FLUXSRC, "t/python/t0045-job-shape-parser.py")).read()
    tree = ast.parse(src)
    fluxtests = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and node.targets[0].id in ("VALID", "INVALID"):
            val = ast.literal_eval(node.value)
            for v in val:
                fluxtests.append(v["in"] if isinstance(v, dict) else v)
    # shapes from t0039-shape-parser.t
    for m in re.finditer(r"\$parser -- (.*?) >", open(os.path.join(FLUXSRC, "t/t0039-shape-parser.t")).read()):
        s = m.group(1).strip()
        if s.startswith('"') and s.endswith('"'):
            s = s[1:-1]
        s = s.replace("\\,", ",").replace('\\"', '"').replace("\\;", ";")
        fluxtests.append(s)
    cases = [("flux-test", s) for s in fluxtests] + [("hand", s) for s in HAND] + \
            [("random", gen_shape()) for _ in range(N)]
    t = Tally("shape")
    seen = set()
    for origin, s in cases:
        if s in seen:
            continue
        seen.add(s)
        f = flux_parse(s)
        j = js_parse(s)
        case = {"origin": origin, "shape": s}
        if j[0] == "crash":
            t.bad("(d) jobspec crash/timeout " + j[1], dict(case, stderr=j[2][-300:]))
            continue
        if f[0] == "err" and j[0] == "err":
            t.ok(); continue
        if f[0] == "err":
            t.bad(f"flux rejects / jobspec accepts", dict(case, flux=f[1], jobspec=j[1]))
            continue
        if j[0] == "err":
            t.bad(f"flux accepts / jobspec rejects [{j[1]}]", dict(case, flux=f[1], jobspec=j[2].strip().splitlines()[0]))
            continue
        fo, jo = json.loads(json.dumps(f[1])), j[1]
        if fo == jo:
            t.ok(); continue
        if norm(fo) == norm(jo):
            t.ok(normalized=True); continue
        d = first_diff(norm(fo), norm(jo))
        path = re.sub(r"\[\d+\]", "[]", d[0]) if d else "?"
        # A key the generator made up is "<key>", so that the class does not depend on it.
        path = "/".join(p if p in RFC14_KEYS or p.endswith("[]") else "<key>"
                        for p in path.split("/"))
        # Nor on how deep the vertex is: "[]/with[]/with[]/unit" is "<vertex>/unit".
        path = re.sub(r"^\[\](/with\[\])*", "<vertex>", path)
        t.bad(f"both accept, differ at {path}", dict(case, flux=fo, jobspec=jo, diff=str(d)))
    t.report()


if __name__ == "__main__":
    main()
