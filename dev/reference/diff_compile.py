#!/usr/bin/python3
"""Area 7: `flux run|submit|batch|alloc --dry-run OPTIONS` vs `jobspec compile [--submit|
--batch|--alloc] OPTIONS`, on random command lines over every option, and on batch scripts
with RFC 36 directives. Usage: /usr/bin/python3 diff_compile.py [N_LINES] [N_SCRIPTS] [SEED]

Derived from ../shared/reference/diff_compile.py (issue 16). Both run in the same scratch
directory with the same small environment; the output is compared exactly (key order, 0 vs
0.0) after two normalisations: the variables flux's front end adds to the environment
(PATH, FLUX_*, LUA_*, ...) are dropped from both, and begin-time values computed from the
clock are equal when within 5 seconds."""
import sys, os, json, random, re, tempfile, shlex
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *

N = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
NS = int(sys.argv[2]) if len(sys.argv) > 2 else 200
SEED = int(sys.argv[3]) if len(sys.argv) > 3 else 16
rng = random.Random(SEED)
SCRATCH = tempfile.mkdtemp(prefix="diff-compile-")
ENV = {"HOME": SCRATCH, "PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8", "FOO": "foo",
       "FOO2": "foo2", "BAR": "bar", "OMP_A": "1", "OMP_B": "2"}
# What flux's front end and its libtool wrapper add or change in the environment.
FLUX_ADDED = ("PATH", "PWD", "SHLVL", "LC_CTYPE", "BIN_SH", "DUALCASE", "LD_LIBRARY_PATH",
              "MANPATH", "PYTHONPATH", "FLUX_PYTHONPATH_ORIG", "LUA_PATH", "LUA_CPATH", "_")


def setup():
    with open(os.path.join(SCRATCH, "f.txt"), "w") as f:
        f.write("hello\n")
    os.chmod(os.path.join(SCRATCH, "f.txt"), 0o640)
    with open(os.path.join(SCRATCH, "envfile"), "w") as f:
        f.write("-*\nOMP*\n\n# X=1\n  FOO=bar  \nBAR=${FOO}/baz\n")
    with open(os.path.join(SCRATCH, "r.json"), "w") as f:
        f.write('{"resources": [{"type": "slot", "count": 2, "label": "task", '
                '"with": [{"type": "core", "count": 1}]}]}')
    with open(os.path.join(SCRATCH, "s.sh"), "w") as f:
        f.write("#!/bin/sh\nhostname\n")
    with open(os.path.join(SCRATCH, "empty.sh"), "w") as f:
        f.write("")


def pick(*xs):
    return rng.choice(xs)


def opt(name, value, short=None):
    """One option with its value in one of flux's forms."""
    forms = [[f"--{name}={value}"]]
    if not value.startswith("-") or " " in value:
        forms.append([f"--{name}", value])
    if short:
        forms.append([f"-{short}{value}"])
        if not value.startswith("-"):
            forms.append([f"-{short}", value])
    return rng.choice(forms)


def resource_options(cmd):
    a = []
    slots = cmd in ("batch", "alloc")
    if rng.random() < 0.6: a += opt("nodes", pick("1", "2", "3", "4", "8", "0"), "N")
    if rng.random() < 0.7:
        a += opt("nslots" if slots else "ntasks",
                 pick("1", "2", "4", "5", "8", "16", "17", "0", "x", "4_0") if not slots else
                 pick("1", "2", "4", "5", "8", "0"), "n")
    if rng.random() < 0.4: a += opt("cores-per-slot" if slots else "cores-per-task", pick("1", "2", "4", "0"), "c")
    if rng.random() < 0.3: a += opt("gpus-per-slot" if slots else "gpus-per-task", pick("0", "1", "2"), "g")
    if rng.random() < 0.2: a += ["-x"]
    if not slots and rng.random() < 0.15:
        a += opt(pick("cores", "tasks-per-node", "tasks-per-core", "gpus-per-node"), pick("0", "1", "2", "4", "8", "5"))
    return a


VALUES = {
    "time-limit": ("5", "1.5", "30s", "2h", "1d", "100ms", "0", "1e2", "5x", "inf", "-5", "1.5m", "0.5"),
    "job-name": ("j", "my job", "", "ƒ"),
    "queue": ("batch", "debug", ""),
    "bank": ("b", "proj"),
    "cwd": ("/w", "/tmp", ""),
    "urgency": ("16", "0", "bogus"),
    "flags": ("waitable", "debug,novalidate"),
    "setopt": ("verbose", "foo=bar", "x=1", "y=[1,2]", "a.b=2", "z={\"k\":1}", "^bad=nofile.json"),
    "setattr": ("user.x=1", "user.s=abc", "system.foo=bar", "foo=1.5", "user.a.b=true", "user.n=null",
                "user.q=\"quoted\"", "user.z=01", "user.e=1E5", "user.f", "queue=q", "user.l=[1,\"a\"]"),
    "dependency": ("afterok:123", "afterany:ƒ2", "singleton", "AfterOK:1", "after_ok:1", "afterok:1?x=1&y=a",
                   "afternotok:5#frag", "begin-time:1700000000", "afterok:1?x=1&x=2", ""),
    "begin-time": ("+1h", "+30", "+5m", "2030-01-02 03:04:05", "3pm", "15:00", "tomorrow", "noon",
                   "midnight", "garbage", "2030-01-02", "today", "tomorrow 8am", "in 2 hours", "+"),
    "requires": ("foo", "host:x[1-2]", "-rank:0", "foo|bar", "not foo", "foo,bar", "(foo", "hosts:a"),
    "env": ("-*", "FOO*", "/^OMP", "X=1", "Y=$FOO", "Z=${BAR}z", "W={{rank}}", "BAD=$NOPE", "-FOO",
            "A=b=c", "P=$$X", "-/.*/", "FOO", "NOPE*", "Q=${FOO:-x}"),
    "env-remove": ("FOO", "*", "OMP_*", "/O"),
    "env-file": ("envfile", "nofile"),
    "rlimit": ("-*", "nofile=1024", "core=unlimited", "-n*", "bogus=1", "memlock", "-*,core", "cpu=inf",
               "NOFILE=5", "nofile=x"),
    "input": ("in.txt", "0", "0-3", "all"),
    "output": ("o", "none", "o.{{id}}", "kvs"),
    "error": ("e", "none"),
    "signal": ("USR1", "USR2@30", "@", "SIGTERM@5m", "9", "BOGUS", "0", "@1e2", "USR1@x", ""),
    "taskmap": ("cyclic", "block", "cyclic:2", "manual:[[0,1,1,1]]", "", "hostfile:/x/y"),
    "add-file": ("f.txt", "name=f.txt", "x=line1\\nline2\\n", "x:0644=hello\\n", "nofile"),
    "resources-shape": ("node/slot/core", "slot=2/core", "slot=3-1/core"),
    "resources-json": ("r.json",),
}
COMMON = ["time-limit", "job-name", "queue", "bank", "cwd", "urgency", "flags", "setopt", "setattr",
          "dependency", "begin-time", "requires", "env", "env-remove", "env-file", "rlimit", "output",
          "error", "signal", "add-file", "resources-shape", "resources-json", "input"]
SHORT = {"time-limit": "t", "queue": "q", "bank": "B", "setopt": "o", "setattr": "S"}


def random_line(cmd):
    a = resource_options(cmd)
    for _ in range(rng.choice([0, 1, 2, 3, 4, 6])):
        name = rng.choice(COMMON + (["taskmap"] if cmd in ("run", "submit") else []))
        if name == "input" and cmd == "alloc":
            continue
        a += opt(name, rng.choice(VALUES[name]), SHORT.get(name))
    for flag in ("-u", "-l", "--debug-emulate"):
        if rng.random() < 0.08: a.append(flag)
    if cmd == "submit" and rng.random() < 0.2:
        a += opt(pick("cc", "bcc"), pick("1-3", "2", "0", "3-1", ""))
    if cmd in ("batch", "alloc"):
        if rng.random() < 0.2: a += opt("broker-opts", pick("-v", "-Sx=1,-Sy=2"))
        if rng.random() < 0.1: a += ["--dump=d.tgz"]
        if rng.random() < 0.2: a += opt("conf", pick("a=1", "x.y=[1,2]", "z=notjson"))
    if cmd == "alloc" and rng.random() < 0.2: a.append("--bg")
    if rng.random() < 0.5 and cmd != "batch":
        rng.shuffle(a) if rng.random() < 0.1 else None
    if rng.random() < 0.15: a.append("--env=-*")
    if rng.random() < 0.3: a.append("--rlimit=-*")
    if cmd == "batch":
        if rng.random() < 0.15:
            return a + ["--wrap", "hostname", "-n5"]
        return a + [pick("s.sh", "s.sh", "empty.sh", "nosuch.sh")] + (["a", "b"] if rng.random() < 0.3 else [])
    if cmd == "alloc":
        return a + pick([], ["cmd", "x"], ["--", "cmd", "-n", "4"])
    return a + pick(["app"], ["app", "arg"], ["--", "app", "-n", "4"], ["app", "-c", "4"], [], ["--"])


def script_text():
    """A batch script with random RFC 36 directives."""
    prefix = rng.choice(["#flux: ", "#FLUX: ", "# flux: ", "#flux:"])
    lines = ["#!/bin/sh"]
    for _ in range(rng.randint(0, 5)):
        kind = rng.random()
        if kind < 0.55:
            name = rng.choice(["job-name", "queue", "setattr", "env", "time-limit", "nodes", "nslots",
                               "exclusive", "setopt", "output", "requires"])
            value = {"job-name": pick("name", "'a b'", "\"q x\"", "a#b"), "queue": pick("q", "batch"),
                     "setattr": pick("user.x=1", "user.y='a b'", "user.c=\"\"\"x\"\"\""),
                     "env": pick("A=1", "-*", "B=$FOO"), "time-limit": pick("5", "1h", "30s"),
                     "nodes": pick("1", "2"), "nslots": pick("1", "2", "4"), "exclusive": None,
                     "setopt": pick("verbose", "foo=bar"), "output": pick("o.txt", "none"),
                     "requires": pick("foo", "host:a")}[name]
            lines.append(prefix + (f"--{name}" if value is None else f"--{name}={value}")
                         + pick("", "", "  # comment"))
        elif kind < 0.65:
            lines.append(pick("#", "# just a comment", "", "#flux:", prefix + "# nothing"))
        elif kind < 0.72:
            lines.append(prefix + "--setattr=user.conf=\"\"\"")
            lines.append(prefix + "[config]")
            lines.append(prefix + "  item = 1")
            lines.append(prefix + "\"\"\"")
        elif kind < 0.77:
            lines.append(prefix + pick("hello", "--job-name=\"unclosed", "-n1 foo --queue=x", "--bogus"))
        elif kind < 0.85:
            lines.append(pick("hostname", "echo hi"))
        else:
            lines.append(pick("#FLUX: -n2", " #flux: -n2", "# flux: -N1"))
    lines.append("hostname")
    return "\n".join(lines) + "\n"


def environment(js):
    system = js.get("attributes", {}).get("system", {})
    env = system.get("environment")
    if isinstance(env, dict):
        for k in FLUX_ADDED + tuple(k for k in env if k.startswith(("FLUX_", "LUA_"))):
            env.pop(k, None)
        # flux's front end reorders its environment (setenv/unsetenv) before Python copies it.
        system["environment"] = dict(sorted(env.items()))
    return js


def begin_times(js):
    """The begin-time dependencies of a jobspec (dicts, to be compared and changed)."""
    system = js.get("attributes", {}).get("system", {}) if isinstance(js, dict) else {}
    deps = system.get("dependencies") if isinstance(system, dict) else None
    return [d for d in deps if isinstance(d, dict) and d.get("scheme") == "begin-time"] \
        if isinstance(deps, list) else []


def same_clock(f, j):
    """jobspec's begin times replaced by flux's where they are within 5 seconds: both are
    computed from the clock, a moment apart."""
    for a, b in zip(begin_times(f), begin_times(j)):
        try:
            if abs(float(a["value"]) - float(b["value"])) <= 5:
                b["value"] = a["value"]
        except (TypeError, ValueError, KeyError):
            pass
    return j


def outcome(rc, out, err):
    if rc == 0:
        try:
            return ("ok", json.dumps(environment(json.loads(out)), ensure_ascii=False))
        except ValueError:
            return ("bad-json", out[:200])
    if rc in (1, 2):
        m = re.search(r"error\[([^\]]+)\]", err)
        return ("err", rc, (err.strip().splitlines() or [""])[-1][:160], m.group(1) if m else "")
    return ("crash", rc, err[-300:])


def differences(a, b, path=""):
    """The paths where two JSON values differ (order and int/float included)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = [p for k in list(a) + [k for k in b if k not in a]
               for p in differences(a.get(k), b.get(k), f"{path}.{k}")]
        if not out and list(a) != list(b):
            out = [path + " (key order)"]
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [p for i, (x, y) in enumerate(zip(a, b)) for p in differences(x, y, f"{path}[{i}]")]
    if json.dumps(a) != json.dumps(b):
        return [path or "."]
    return []


def where(paths):
    """The parts of a jobspec that differences fall in, as a class names them whatever the
    seed: `.resources` for anything in the resources, else down to a key of
    `attributes.system` (`.attributes.system.shell`)."""
    out = set()
    for p in paths:
        p = re.sub(r"\[\d+\]", "", p.split(" ")[0])
        out.add(".resources" if p.startswith(".resources") else ".".join(p.split(".")[:4]))
    return ", ".join(sorted(out))


def compare(t, cmd, args, case):
    f = outcome(*run([FLUX, cmd, "--dry-run", *args], env=ENV, cwd=SCRATCH))
    mode = [] if cmd == "run" else [f"--{cmd}"]
    j = outcome(*run([JOBSPEC, "compile", "--color", "never", *mode, *args], env=ENV, cwd=SCRATCH))
    case = {**case, "flux": f[1:], "jobspec": j[1:]}
    # flux ignores most options in each copy --cc/--bcc makes (docs/COMPAT.md)
    cc = " [--cc/--bcc]" if re.search(r"(^| )--b?cc", case["cmd"]) else ""
    if j[0] in ("crash", "bad-json"):
        t.bad(f"(d) jobspec {j[0]}", case)
    elif f[0] == "ok" and j[0] == "ok":
        j = ("ok", json.dumps(same_clock(json.loads(f[1]), json.loads(j[1])), ensure_ascii=False))
        if f[1] == j[1]:
            t.ok()
        else:
            t.bad(f"both accept, differ in {where(differences(json.loads(f[1]), json.loads(j[1])))}{cc}",
                  {**case, "differences": differences(json.loads(f[1]), json.loads(j[1]))})
    elif f[0] == "err" and j[0] == "err":
        if f[1] == j[1]:
            t.ok()
        else:
            t.bad(f"both reject, exit status {f[1]} vs {j[1]}", case)
    elif f[0] == "err":
        t.bad("flux rejects, jobspec accepts", case)
    else:
        t.bad(f"flux accepts, jobspec rejects [{j[3]}]{cc}", case)


def main():
    setup()
    t = Tally("compile")
    for i in range(N):
        cmd = rng.choices(["run", "submit", "batch", "alloc"], [60, 20, 10, 10])[0]
        args = random_line(cmd)
        compare(t, cmd, args, {"cmd": f"{cmd} " + shlex.join(args)})
    for i in range(NS):
        text = script_text()
        path = os.path.join(SCRATCH, f"d{i}.sh")
        with open(path, "w") as f:
            f.write(text)
        args = rng.choice([[], [], ["--job-name=cmdline"], ["--env=-*", "-n1"], ["-N2"]]) + [f"d{i}.sh"]
        compare(t, "batch", args, {"cmd": "batch " + shlex.join(args), "script": text})
    t.report(show=4)


if __name__ == "__main__":
    main()
