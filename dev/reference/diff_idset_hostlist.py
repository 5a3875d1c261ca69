#!/usr/bin/python3
"""Area 3: RFC 22 idsets and RFC 29 hostlists. flux-core C libraries through
the Python bindings (flux.idset.IDset) vs `jobspec idset ...`, and the
`flux hostlist` command vs `jobspec hostlist` with the same arguments.
Run with flux's python:  $REF/flux-core/src/cmd/flux python diff_idset_hostlist.py [N] [SEED]

Derived from ../shared/reference/diff_idset_hostlist.py (issue 17): the hostlist
cases now run flux-core's own `flux hostlist` script (in a worker forked
once from this interpreter, so without its start-up cost: HostlistWorker)
against `jobspec hostlist` with the same flags, and cover every flag both
take. Arguments flux would read as job ids (it then needs a running instance)
are given on standard input instead."""
import sys, os, gc, json, logging, random, re, tempfile
from collections import Counter
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *
from flux.idset import IDset
from flux.hostlist import Hostlist
import flux.job

N = int(sys.argv[1]) if len(sys.argv) > 1 else 400
SEED = int(sys.argv[2]) if len(sys.argv) > 2 else 22
rng = random.Random(SEED)
BIG = 200000   # never ask either side to expand more ids than this


def js(*args):
    rc, out, err = jobspec(*args[:1], *args[1:2], "--color", "never", "--", *args[2:])
    if rc == 0:
        return ("ok", out.rstrip("\n"))
    if rc in (1, 2):
        return ("err", (err.strip().splitlines() or [""])[0][:120])
    return ("crash", f"rc={rc} {err[-200:]}")


def fx(fn):
    try:
        return ("ok", fn())
    except Exception as e:
        return ("err", f"{type(e).__name__}: {e}"[:120])


def js_count(kind, s):
    r = js(kind, "count", s) if kind == "idset" else js(kind, "-c", s)
    try:
        return int(r[1]) if r[0] == "ok" else 0
    except ValueError:
        return 0


def rfc29(s):
    """Minimal model of RFC 29 as written: comma-separated expressions
    prefix[idlist]suffix; leading zeros of the FIRST idlist element set the
    width of every id in the list.  Returns a list of hosts or None."""
    if s == "":
        return []
    exprs, depth, cur = [], 0, ""
    for ch in s:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        if ch == "," and depth == 0:
            exprs.append(cur); cur = ""
        else:
            cur += ch
    exprs.append(cur)
    hosts = []
    for e in exprs:
        if e == "":
            continue
        m = re.fullmatch(r"([^\[\],\s]*)(?:\[([0-9,\-]+)\])?([^\[\],\s]*)", e)
        if not m or any(ord(c) > 126 or ord(c) < 33 for c in e):
            return None
        pre, idl, suf = m.groups()
        if idl is None:
            hosts.append(pre + suf); continue
        elems = idl.split(",")
        first = re.match(r"\d+", elems[0]).group(0) if re.match(r"\d+", elems[0]) else ""
        width = len(first) if len(first) > 1 and first.startswith("0") else 0
        for el in elems:
            mm = re.fullmatch(r"(\d+)(?:-(\d+))?", el)
            if not mm:
                return None
            a = int(mm.group(1)); b = int(mm.group(2)) if mm.group(2) else a
            if b < a or b - a > 200000:
                return None
            hosts += [pre + str(i).zfill(width) + suf for i in range(a, b + 1)]
    return hosts


def lines(v):
    return "\n".join(str(x) for x in v)


def idcount(s):
    try:
        return IDset(s).count()
    except Exception:
        return 0

# ------------------------------------------------------------------ idsets


def gen_idset_str(valid_bias=0.7):
    if rng.random() < valid_bias:
        ids = sorted(rng.sample(range(0, rng.choice([20, 100, 5000, 70000])), rng.randint(0, 12)))
        s = str(IDset(ids)) if ids else ""
        if rng.random() < 0.2:
            s = ",".join(str(i) for i in ids)     # uncompressed
        if rng.random() < 0.1:
            s = f"[{s}]"
        return s
    return rng.choice([
        "3,1", "1,1", "1-3,2-4", "3-1", "01", "00", "0-01", "[1-3", "1-3]", " 1", "1 ", "1, 2", "", "[]",
        "4294967294", "4294967295", "4294967296", "4294967297", "18446744073709551615",
        "18446744073709551616", "0-4294967294", "4294967290-4294967300", "1-", "-1", "1--2", "a",
        "1,", ",1", "1,,2", "[[1]]", "0", "0-0", "2-2", "1-2,3-4", "1-2,4-5,3", "5,3-4",
        "1 2", "1\n2", "٣", "0x10", "1e3", "+1", "1.0", "[1],[2]", "1-3:2", "1+",
        str(2**31) + "-" + str(2**31 + 3), "999999999999", "1-100000", "0-99999"])


def idset_cases():
    out = []
    for _ in range(N):
        s = gen_idset_str()
        out.append(("count", [s]))
        out.append(("encode", [s]))
        if idcount(s) < 2000 and js_count("idset", s) < 2000:
            out.append(("expand", [s]))
        a, b = gen_idset_str(0.85), gen_idset_str(0.85)
        out.append((rng.choice(["union", "intersect", "diff"]), [a, b]))
        if rng.random() < 0.2:
            out.append((rng.choice(["union", "intersect", "diff"]), [a, b, gen_idset_str(0.9)]))
    # jobspec's encode takes ids in any order (help: 'encode 7,3,1,2,2 -> 1-3,7'):
    # reference = flux IDset built from the integers (python iterable -> sorted)
    for _ in range(N // 4):
        ids = [rng.randrange(0, 50) for _ in range(rng.randint(1, 8))]
        out.append(("encode-list", [",".join(map(str, ids))]))
    return out


def flux_idset(op, args):
    if op == "count":
        return fx(lambda: str(IDset(args[0]).count()))
    if op == "encode":
        return fx(lambda: str(IDset(args[0])))
    if op == "encode-list":
        return fx(lambda: str(IDset(sorted(set(int(x) for x in args[0].split(","))))))
    if op == "expand":
        return fx(lambda: lines(IDset(args[0]).expand()))
    fn = {"union": "union", "intersect": "intersect", "diff": "difference"}[op]
    return fx(lambda: str(getattr(IDset(args[0]), fn)(*args[1:])))


# ---------------------------------------------------------------- hostlists
PREFIXES = ["node", "n", "foo", "", "rack1-node", "a.b", "x_y", "h-", "c0", "Z"]


def gen_hl_expr():
    p = rng.choice(PREFIXES)
    r = rng.random()
    if r < 0.3:
        return p + (str(rng.randint(0, 300)) if rng.random() < 0.7 else "")
    parts = []
    pad = rng.random() < 0.25
    for _ in range(rng.randint(1, 4)):
        a = rng.randint(0, 120)
        b = a + rng.randint(0, 15)
        w = rng.choice([2, 3]) if pad else 0
        fa, fb = str(a).zfill(w), str(b).zfill(w)
        if rng.random() < 0.1:
            fb = str(b)   # mixed padding
        parts.append(fa if a == b or rng.random() < 0.3 else f"{fa}-{fb}")
    suf = rng.choice(["", "", "", "-ib", ".local", "x"])
    return f"{p}[{','.join(parts)}]{suf}"


def gen_hostlist(valid_bias=0.85):
    if rng.random() < valid_bias:
        return ",".join(gen_hl_expr() for _ in range(rng.randint(1, 3)))
    return rng.choice([
        "", "foox,fooy,fooz", "[1-3,5-6]", "foo[1-5]", "foo[0-4]-eth2", "foo1,foo1,foo1", "[00-02]",
        "[00-2]", "foo[1,1,2,1]", "foo[005,4,11-13]", "foo[3-1]", "foo[", "foo]", "foo[]", "a b",
        "foo[1-3][1-2]", "foo[1-3]bar[1-2]", "f[4294967295]", "f[4294967296]", "f[18446744073709551616]",
        "f[0-4294967296]", "foo[01-10]", "foo[9-10]", "foo[009-011]", "foo[1-010]", "foo[010-1]",
        "a,,b", ",a", "a,", "foo[a-b]", "foo[1-]", "foo[-1]", "foo[ 1]", "foo[1 ,2]", "fo o",
        "foo\tbar", "ünï[1-2]", "foo[1-2],foo[2-3]", "foo7,foo[1-3]", "foo[1-100000]", "[0]", "0",
        "foo[00]", "foo[0]", "f[1-3],g[1-3]-x", "node[1-2]x[3]", "f[9223372036854775808]",
        "f18446744073709551616", "f[0-18446744073709551615]",
        "f[18446744073709551614-18446744073709551615]"])


def hostlist_cases():
    out = []
    for _ in range(N):
        s = gen_hostlist()
        out.append(("count", [s]))
        if js_count("hostlist", s) < BIG:
            out.append(("expand", [s]))
        out.append(("sort", [s]))
        out.append(("uniq", [s]))
        try:
            hl = list(Hostlist(s))
        except Exception:
            hl = []
        if hl:
            out.append(("nth", [str(rng.choice([0, len(hl) - 1, len(hl), rng.randrange(len(hl)), -1])), s]))
            out.append(("find", [rng.choice(hl + ["nosuchhost"]), s]))
            out.append(("encode", hl if rng.random() < 0.5 else rng.sample(hl, len(hl))))
        a, b = gen_hostlist(0.95), gen_hostlist(0.95)
        out.append((rng.choice(["union", "intersect", "diff"]), [a, b]))
    return out


HOSTLIST_PY = os.path.join(FLUXSRC, "src/cmd/flux-hostlist.py")


def exit_code(code):
    while isinstance(code, SystemExit):
        code = code.code
    return 0 if code is None else (code if isinstance(code, int) else 1)


def run_hostlist_script(script, argv, stdin):
    """flux-core's `flux hostlist` script run in this process with `argv`, `stdin` as its
    standard input and files as its output: (rc, out, err). Its descriptors 0-2 are the
    case's files, since the script reopens its output by descriptor (and closes them)."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        if fd != null:
            os.dup2(null, fd)  # open, so that the case's files are never numbered 0-2
    if null > 2:
        os.close(null)
    with tempfile.TemporaryFile() as fin, tempfile.TemporaryFile() as fout, \
            tempfile.TemporaryFile() as ferr:
        fin.write(stdin.encode("utf-8", "surrogateescape"))
        fin.seek(0)
        for f, fd in ((fin, 0), (fout, 1), (ferr, 2)):
            os.dup2(f.fileno(), fd)
        # closefd=False: the script replaces these, which must not close the descriptors
        sys.stdin = open(0, "r", closefd=False)
        sys.stdout = open(1, "w", closefd=False)
        sys.stderr = open(2, "w", closefd=False)
        sys.argv = ["flux-hostlist", *argv]
        logging.root.handlers.clear()   # its logging writes to this case's stderr
        try:
            exec(script, {"__name__": "__main__", "__file__": HOSTLIST_PY})
            code = 0
        except SystemExit as e:
            code = exit_code(e)
        for f in (sys.stdin, sys.stdout, sys.stderr):
            try:
                f.close()      # flushes; the script's own objects close descriptors 0-2
            except Exception:
                pass
        gc.collect()           # no object of this case is left to close one later
        fout.seek(0)
        ferr.seek(0)
        return (code, fout.read().decode("utf-8", "surrogateescape"),
                ferr.read().decode("utf-8", "surrogateescape"))


class HostlistWorker:
    """`flux hostlist` for many cases: a process forked once from this interpreter runs
    the script for each case (run_hostlist_script), a JSON line in and one out. A fork
    per case cost 40 ms on a 2-core VM, most of it the child's first touch of the
    parent's memory; this costs 3. A case that kills the worker is reported as its
    signal (a crash), and the next case gets a new worker."""

    def __init__(self):
        self.pid = None

    def start(self):
        worker_reads, parent_writes = os.pipe()
        parent_reads, worker_writes = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:
            try:
                os.close(parent_writes)
                os.close(parent_reads)
                os.environ["FLUX_HOSTLIST_STDIN_TIMEOUT"] = "5"
                with open(HOSTLIST_PY, encoding="utf-8") as f:
                    script = compile(f.read(), HOSTLIST_PY, "exec")
                gc.freeze()    # each case's collection scans that case's objects only
                requests = open(worker_reads, "r", encoding="utf-8")
                answers = open(worker_writes, "w", encoding="utf-8")
                for line in requests:
                    argv, stdin = json.loads(line)
                    answers.write(json.dumps(run_hostlist_script(script, argv, stdin)) + "\n")
                    answers.flush()
            finally:
                os._exit(99)   # never back into the harness; an unanswered case crashed
        os.close(worker_reads)
        os.close(worker_writes)
        self.requests = open(parent_writes, "w", encoding="utf-8")
        self.answers = open(parent_reads, "r", encoding="utf-8")

    def run(self, argv, stdin):
        """(rc, out, err) of `flux hostlist ARGV` reading `stdin`."""
        if self.pid is None:
            self.start()
        try:
            self.requests.write(json.dumps([argv, stdin]) + "\n")
            self.requests.flush()
            line = self.answers.readline()
        except BrokenPipeError:
            line = ""
        if line:
            return tuple(json.loads(line))
        _, status = os.waitpid(self.pid, 0)
        self.requests.close()
        self.answers.close()
        self.pid = None
        return (os.waitstatus_to_exitcode(status), "", "")


HOSTLIST = HostlistWorker()


def flux_hostlist_cmd(argv, stdin):
    """flux-core's `flux hostlist` script: (rc, out, err)."""
    return HOSTLIST.run(argv, stdin)


def jobspec_hostlist_cmd(argv, stdin):
    return run([JOBSPEC, "hostlist", "--color", "never", *argv], input=stdin)


def is_jobid(arg):
    try:
        flux.job.JobID(arg)
        return True
    except Exception:
        return False


def command_line(op, args):
    """The `hostlist` flags and sources for a case, and what goes on standard input.
    Arguments flux would take for job ids go on standard input; None when two would."""
    flags = {"count": ["-c"], "expand": ["-e", "-d", "\\n"], "sort": ["-S"], "uniq": ["-u"],
             "encode": [], "union": ["-u"], "intersect": ["-i"], "diff": ["-m"],
             "nth": ["-n", args[0]] if args else [], "find": ["-F", args[0]] if args else []}[op]
    lists = args[1:] if op in ("nth", "find") else args
    if op == "encode":                      # host names: all on stdin or all as arguments
        if any(is_jobid(h) or h.startswith("-") for h in lists):
            return flags, ["-"], "".join(h + "\n" for h in lists)
        return flags, list(lists), ""
    sources, stdin = [], ""
    for hl in lists:
        if is_jobid(hl) or hl.startswith("-") or hl in ("stdin", "instance", "local", "avail", "available"):
            if stdin:
                return None
            sources.append("-")
            stdin = hl + "\n"
        else:
            sources.append(hl)
    return flags, sources, stdin


def result(rc, out, err):
    if rc == 0:
        return ("ok", out.rstrip("\n"))
    if rc in (1, 2):
        return ("err", (err.strip().splitlines() or [""])[0][:160])
    return ("crash", f"rc={rc} {err[-200:]}")


def hostlist_pair(op, args, extra=()):
    cl = command_line(op, args)
    if cl is None:
        return None
    flags, sources, stdin = cl
    argv = [*extra, *flags, "--", *sources] if sources else [*extra, *flags]
    return (argv, stdin, result(*flux_hostlist_cmd(argv, stdin)),
            result(*jobspec_hostlist_cmd(argv, stdin)))


def hostlist_flag_cases():
    """issue 17: the flags the old operations did not reach, alone and together."""
    out = [(["-x", "0-0"], ["[00-2]", "x_y33"])]   # by hand: a range of one id
    for _ in range(N // 2):
        a, b = gen_hostlist(0.95), gen_hostlist(0.95)
        try:
            n = len(Hostlist(a))
        except Exception:
            n = 0
        i = str(rng.randrange(n)) if n else "0"
        choice = rng.choice([
            ["-x", rng.choice([i, f"0-{i}", a.split(",")[0]])], ["-L", rng.choice(["1", "3", "-2", "0"])],
            ["-n", "-" + rng.choice(["1", i, f"1-{max(1, int(i))}"])], ["-n", f"0-{i}"],
            ["-X"], ["-q"], ["-S", "-u"], ["-e"], ["-e", "-d", ","], ["-c", "-u"], ["-F", a.split(",")[0]],
            ["-i", "-c"], ["-m", "-e"], ["-S", "-L", "2"]])
        lists = [a, b] if rng.random() < 0.6 else [a]
        out.append((choice, lists))
    return out


def hostlist_stdin_cases():
    """issue 17: standard input as a source: lines, spaces, - and stdin, with arguments."""
    out = []
    for _ in range(N // 8):
        hosts = [h for h in (gen_hl_expr() for _ in range(rng.randint(1, 4)))]
        sep = rng.choice(["\n", " ", "\t", "\n\n"])
        out.append((rng.choice([[], ["-"], ["stdin"], ["-", "x_y[1-2]"], ["x_y[1-2]", "-"]]),
                    sep.join(hosts) + "\n", rng.choice([[], ["-e"], ["-c"], ["-u"]])))
    return out


def rfc29_verdict(op, args, fo, jo):
    """Which side matches the RFC 29 model?"""
    try:
        if op in ("union", "intersect", "diff"):
            # a difference takes one copy of a repeated host per copy subtracted (flux and
            # jobspec alike); union and intersection are of the sets
            if op == "diff":
                left = Counter(rfc29(args[0]))
                for a in args[1:]:
                    left -= Counter(rfc29(a))
                want = set(left)
            else:
                sets = [set(rfc29(a)) for a in args]
                want = set.union(*sets) if op == "union" else set.intersection(*sets)
            jv = set(rfc29(jo)); fv = fo
        elif op == "expand":
            want = rfc29(args[0]); jv = jo.split("\n"); fv = fo.split("\n")
        elif op in ("sort", "uniq", "encode"):
            base = rfc29(args[0]) if op != "encode" else list(args)
            want = sorted(set(base)) if op == "uniq" else sorted(base)
            jv = sorted(rfc29(jo)); fv = sorted(rfc29(fo))
            if op == "encode":
                want = list(args); jv = rfc29(jo); fv = rfc29(fo)
        elif op == "nth":
            want = rfc29(args[1])[int(args[0])]; jv = jo; fv = fo
        elif op == "find":
            want = str(rfc29(args[1]).index(args[0])); jv = jo; fv = fo
        else:
            return ""
        jm, fm = (jv == want), (fv == want)
        return {(True, False): " [RFC29 model agrees with jobspec]", (False, True): " [RFC29 model agrees with flux]",
                (True, True): " [both match RFC29 model: encoding differs only]", (False, False): " [neither matches RFC29 model]"}[(jm, fm)]
    except Exception as e:
        return " [model n/a]"


def flag_class(flags):
    """The flags of a case as its class names them: the values made up for it written as
    what they are (`-n -IDS`, `-x HOSTS`, `-L N`), so that classes hold for any seed."""
    out = []
    for i, f in enumerate(flags):
        before = flags[i - 1] if i else ""
        if before in ("-n", "-x") and re.fullmatch(r"-?[0-9][0-9,\-]*", f):
            one = re.fullmatch(r"(\d+)-\1", f)   # a range of one id, flux's IDset refuses it
            f = ("-" if f.startswith("-") else "") + (
                "ID" if f.lstrip("-").isdigit() else "ID-ID" if one else "IDS")
        elif before == "-x":
            f = "HOSTS"
        elif before == "-L":
            f = "-N" if f.startswith("-") else "N"
        elif before == "-F":
            f = "HOST"
        out.append(f)
    return " ".join(out)


def code_of(err):
    """jobspec's diagnostic code in an error line, as `[code]`, or ""."""
    m = re.search(r"error\[([^\]]+)\]", err)
    return f" [{m.group(1)}]" if m else ""


def why_outputs_differ(op, args, fo, jo):
    """For hostlist outputs the RFC 29 model does not judge (the flags, standard input,
    counts), what the difference comes to, as a tag of the class: a number above 2^64-1 in
    the input, a count the RFC 29 model agrees with, the same hosts written differently,
    only zero padding (in order or not), or an input whose padding flux reads otherwise;
    "" when it is none of these."""
    if any(int(n) > 2**64 - 1 for a in args for n in re.findall(r"\d+", a)):
        return " [a number above 2^64-1]"

    def hosts(text):
        try:
            return list(Hostlist(",".join(text.split())))
        except Exception:
            return None
    if re.fullmatch(r"\d+", fo) and re.fullmatch(r"\d+", jo):   # -c
        model = rfc29(",".join(a for a in args if a != "-"))
        if model is not None and str(len(set(model)) if "-u" in op else len(model)) == jo:
            return " [RFC29 model agrees with jobspec]"
    else:
        hf, hj = hosts(fo), hosts(jo)
        if hf is None or hj is None:
            return ""
        if hf == hj:
            return " [encoding differs only]"
        unpadded = lambda hs: [re.sub(r"(?<!\d)0+(?=\d)", "", h) for h in hs]
        if unpadded(hf) == unpadded(hj):
            return " [zero padding]"
        if set(unpadded(hf)) == set(unpadded(hj)):
            return " [zero padding, order or repeats]"
        # -S -L N: the first N of a sort that orders padded numbers otherwise, both of them
        # hosts of the input
        padded = any(re.search(r"(?<!\d)0\d", a) for a in args)
        given = rfc29(",".join(a for a in args if a != "-"))
        if "-L" in op and padded and given is not None and \
                set(hf) <= set(given) and set(hj) <= set(given):
            return " [zero padding, order or repeats]"
    # flux reads the padding of the input otherwise than RFC 29 does (then -L, -n, -i, -c
    # pick or count others)
    for a in args:
        try:
            if rfc29(a) not in (None, list(Hostlist(a))):
                return " [zero padding in the input]"
        except Exception:
            pass
    return ""


def compare(t, kind, op, args, f, j, case_extra=None):
    case = {"op": op, "args": args, "flux": f[1], "jobspec": j[1][:300]}
    if case_extra:
        case.update(case_extra)
    if j[0] == "crash":
        t.bad(f"(d) jobspec crash {j[1][:20]}", case); return
    if f[0] == "err" and j[0] == "err":
        t.ok(); return
    if f[0] == "err":
        t.bad(f"{op}: flux rejects / jobspec accepts", case); return
    if j[0] == "err":
        t.bad(f"{op}: flux accepts / jobspec rejects" + code_of(j[1]), case); return
    if f[1] == j[1]:
        t.ok(); return
    if kind == "idset" and op != "expand":
        try:
            if IDset(f[1]).equal(IDset(j[1])):
                t.ok(normalized=True); return
        except Exception:
            pass
    if kind == "hostlist" and op not in ("count", "find", "expand"):
        try:   # the same hosts in the same order, written differently
            if list(Hostlist(f[1])) == list(Hostlist(j[1])):
                t.ok(normalized=True); return
        except Exception:
            pass
    if kind == "hostlist":
        fo, jo = f[1], j[1]
        if op in ("union", "intersect", "diff"):
            try:
                fo = set(Hostlist(f[1]))
            except Exception:
                pass
        verdict = rfc29_verdict(op, args, fo, jo)
        if verdict in ("", " [model n/a]"):
            verdict = why_outputs_differ(op, args, f[1], j[1])
        t.bad(f"{op}: both accept, different output" + verdict, case); return
    t.bad(f"{op}: both accept, different output", case)


def main():
    t = Tally("idset")
    for op, args in idset_cases():
        jop = "encode" if op == "encode-list" else op
        compare(t, "idset", op, args, flux_idset(op, args), js("idset", jop, *args))
    t.report(show=4)
    t = Tally("hostlist")
    for op, args in hostlist_cases():
        pair = hostlist_pair(op, args)
        if pair is None:
            continue
        argv, stdin, f, j = pair
        compare(t, "hostlist", op, args, f, j, {"argv": argv, "stdin": stdin})
    for flags, lists in hostlist_flag_cases():
        argv = [*flags, "--", *lists]
        if any(is_jobid(x) or x.startswith("-") for x in lists):
            continue
        f = result(*flux_hostlist_cmd(argv, ""))
        j = result(*jobspec_hostlist_cmd(argv, ""))
        compare(t, "hostlist", flag_class(flags), lists, f, j, {"argv": argv})
    for sources, stdin, flags in hostlist_stdin_cases():
        argv = [*flags, *sources]
        f = result(*flux_hostlist_cmd(argv, stdin))
        j = result(*jobspec_hostlist_cmd(argv, stdin))
        compare(t, "hostlist", "stdin " + " ".join(flags), sources, f, j, {"argv": argv, "stdin": stdin})
    t.report(show=4)


if __name__ == "__main__":
    main()
