#!/usr/bin/env python3
"""The abuse sweep: every command and option of jobspec and jobspec-grammar, fed hostile
input, must end by itself and answer sanely.

The command tree is read from the programs themselves, never from a list kept here: each
command's --help gives its subcommands, positionals and options (CLI11's layout), and
`jobspec compile --help` lists the flux options compile reads, for each of --submit,
--batch and --alloc. So a new command or option is swept the day it is added.

Each run gets one hostile thing in one place: as a positional (a value, or a file), as an
option's value, or on standard input. The hostile things: /dev/zero, an endless `yes`,
100k-deep nesting in every bracket the languages have, numbers from 2^63 to 10^30,
negative and zero counts, ranges of 2^63 ids and hosts, control characters, bidi
overrides, invalid UTF-8, a directory, a FIFO nobody writes, a missing file, and a 50 MB
valid input. Each run has its address space limited (1 GiB, unless under a sanitizer),
its output limited (256 MiB) and a wall-clock limit. Every run must:
  - exit 0, 1 or 2: never a signal, never a hang, never past a limit;
  - print valid UTF-8 on stdout and stderr, and no raw control character on stderr;
  - print valid JSON when it prints JSON (a document, or one per line);
  - with --diagnostics json, write one JSON array on stderr.
(`serve` is swept with an impossible --port beside each hostile value, so that it must
refuse to start; given a hostile --port it may start, and is stopped after 5 s.)

usage: abuse_sweep.py JOBSPEC JOBSPEC-GRAMMAR SANITIZE [--full] [--seconds N] [--seed N]
                     [--jobs N] [--big-mb N]

SANITIZE is meson's b_sanitize ("none" outside a sanitizer build). By default (the meson
test) every place gets one hostile thing of each class (numbers, ranges, nesting, loose
text, files), a different one at the next place, so that every thing is tried at many
places; under a sanitizer, one value and one file a place, turning through the classes. --full tries every thing at every place. --seconds N does that and then draws
random combinations of several hostile things at once for N seconds (the long mode);
the seed is printed so that a failure can be replayed with --seed.
"""
import argparse
import concurrent.futures
import json
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from command_tree import read_tree  # noqa: E402

MEMORY = 1 << 30
OUTPUT = 256 << 20
TIMEOUT = 30

NESTING = 100_000
BIG = 2**63

# Values: each must fit in one argv word (128 KiB).
VALUES = {
    "int-2^63": str(BIG),
    "int-2^64": str(2**64),
    "int-10^30": "1" + "0" * 30,
    "int-max": str(BIG - 1),
    "int-negative": "-1",
    "int-negative-huge": str(-BIG - 1),
    "int-zero": "0",
    "int-float": "1e308",
    "range-ids": f"0-{BIG - 2}",
    "range-hosts": f"n[0-{BIG - 2}]",
    "range-bracket": f"[0-{BIG - 2}]",
    "deep-paren": "(" * NESTING,
    "deep-bracket": "[" * NESTING,
    "deep-brace": "{" * NESTING,
    "deep-slash": "core/" * 20_000 + "core",
    "deep-not": "not " * 20_000 + "x",
    "control": "a\x01\x1b[2J\x07\rb\x7f",
    "bidi": "\u202eabc\u2066x\u2069\u200b",
    "invalid-utf8": b"\xff\xfe\xc3(\xed\xa0\x80".decode("utf-8", "surrogateescape"),
    "long": "a" * 120_000,
    "empty": "",
    "space": " ",
    "dash": "-",
    "option-like": "--",
    "equals": "=",
    "comma": ",,,",
    "colon": ":",
    "count": "slot=0/core=-1",
    "huge-shape": f"node={BIG}/slot={BIG}/core={2**64}",
}


def make_files(root, big):
    """Hostile files: name -> path (a path that is not a regular file is used as is)."""
    files = {
        "dev-zero": "/dev/zero",
        "directory": root,
        "missing": os.path.join(root, "missing"),
    }
    files["fifo"] = os.path.join(root, "fifo")  # made for each run that uses it
    for name, text in (
        ("deep-json", "[" * NESTING + "]" * NESTING),
        ("deep-yaml", "- " * 2 + "[" * NESTING),
        ("deep-shape", "node/" * NESTING + "core"),
        ("deep-query", "(" * NESTING + "x" + ")" * NESTING),
        ("deep-brace-text", "{" * NESTING),
        ("control-text", "version: 1\x00\x01\x1b[2J\nresources: [\u202e]\n"),
        ("invalid-utf8-text", "#!/bin/sh\n#flux: -n\xff\xfe 2\n"),
        ("huge-numbers", json.dumps({"version": 1, "resources": [
            {"type": "slot", "count": 10**30, "label": "t",
             "with": [{"type": "core", "count": -(2**63)}]}],
            "R_lite": [{"rank": f"0-{BIG - 2}", "children": {"core": f"0-{BIG - 2}"}}],
            "nodelist": [f"n[0-{BIG - 2}]"], "tasks": [], "attributes": {}})),
    ):
        path = os.path.join(root, name)
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
        files[name] = path
    # Valid inputs of many megabytes: a jobspec (JSON), R and a hostlist/idset list.
    size = big << 20
    path = os.path.join(root, "big-jobspec.json")
    task = ('{"command":["app"],"slot":"task","count":{"per_slot":1}}')
    count = max(1, size // (len(task) + 1))
    with open(path, "w") as f:
        f.write('{"version":1,"resources":[{"type":"slot","count":1,"label":"task",'
                '"with":[{"type":"core","count":1}]}],"tasks":[')
        f.write(",".join([task] * count))
        f.write('],"attributes":{"system":{"duration":0}}}')
    files["big-jobspec"] = path
    path = os.path.join(root, "big-R.json")
    ranks = max(1, size // 60)
    with open(path, "w") as f:
        f.write('{"version":1,"execution":{"R_lite":[')
        f.write(",".join(f'{{"rank":"{i}","children":{{"core":"0-{i % 64}"}}}}'
                         for i in range(ranks)))
        f.write(f'],"nodelist":["n[0-{ranks - 1}]"]}}}}')
    files["big-R"] = path
    path = os.path.join(root, "big-lines")
    with open(path, "w") as f:
        line = "n[1-5],m7\n"
        f.write(line * max(1, size // len(line)))
    files["big-lines"] = path
    return files


class Outcome:
    def __init__(self, argv, stdin_name, problem=None):
        self.argv, self.stdin_name, self.problem = argv, stdin_name, problem

    def describe(self):
        shown = [a if len(a) < 60 else a[:40] + f"...({len(a)} chars)" for a in self.argv]
        return f"{self.problem}: {shown!r} stdin={self.stdin_name}"


class Runner:
    def __init__(self, sanitized, root, files):
        self.sanitized, self.root, self.files = sanitized, root, files
        self.counter = 0
        self.lock = threading.Lock()
        self.env = dict(os.environ, NO_COLOR="1", TZ="UTC", LC_ALL="C.UTF-8")
        self.env.pop("JOBSPEC_DIAGNOSTICS", None)

    def limits(self):
        if not self.sanitized:
            resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
        resource.setrlimit(resource.RLIMIT_FSIZE, (OUTPUT, OUTPUT))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        os.setsid()

    def run(self, argv, stdin):
        """Runs argv with stdin one of: None (empty), 'yes' (endless), a file's name. The
        FIFO named in argv is made for this run, with an endless writer."""
        with self.lock:
            self.counter += 1
            n = self.counter
        out_path = os.path.join(self.root, f"out.{n}")
        err_path = os.path.join(self.root, f"err.{n}")
        fifo = self.files["fifo"]
        helpers = []
        stdin_file = None
        try:
            if any(fifo in a for a in argv):
                own = f"{fifo}.{n}"
                os.mkfifo(own)
                argv = [a.replace(fifo, own) for a in argv]
                helpers.append(subprocess.Popen(["sh", "-c", 'exec yes "[{" > "$0"', own],
                                                stderr=subprocess.DEVNULL))
            if stdin == "yes":
                helpers.append(subprocess.Popen(["yes", "0-3 x[1-2] {a: [1]}"],
                                                stdout=subprocess.PIPE,
                                                stderr=subprocess.DEVNULL))
                stdin_file = helpers[-1].stdout
            else:
                stdin_file = open(self.files[stdin] if stdin else os.devnull, "rb")
            with open(out_path, "wb") as out, open(err_path, "wb") as err:
                started = time.monotonic()
                proc = subprocess.Popen([a.encode("utf-8", "surrogateescape") for a in argv],
                                        stdin=stdin_file, stdout=out, stderr=err, env=self.env,
                                        preexec_fn=self.limits)
                server = "serve" in argv[:5]
                try:
                    proc.wait(timeout=5 if server else TIMEOUT * (3 if self.sanitized else 1))
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()
                    if server:
                        return Outcome(argv, stdin)
                    return Outcome(argv, stdin, f"no answer in "
                                   f"{time.monotonic() - started:.0f} s")
            with open(out_path, "rb") as f:
                stdout = f.read()
            with open(err_path, "rb") as f:
                stderr = f.read()
            return Outcome(argv, stdin, self.check(argv, proc.returncode, stdout, stderr))
        finally:
            if stdin_file is not None:
                stdin_file.close()
            for helper in helpers:
                helper.kill()
                helper.wait()
            for p in (out_path, err_path, f"{fifo}.{n}"):
                if os.path.exists(p):
                    os.unlink(p)

    @staticmethod
    def diagnostics_format(argv):
        """The --diagnostics value that holds: the last one given (or text)."""
        value = "text"
        for i, word in enumerate(argv):
            if word == "--diagnostics" and i + 1 < len(argv):
                value = argv[i + 1]
            elif word.startswith("--diagnostics="):
                value = word.split("=", 1)[1]
        return value

    @staticmethod
    def check(argv, status, stdout, stderr):
        if status < 0:
            return f"killed by {signal.Signals(-status).name}" + (
                " (output over the limit)" if -status == signal.SIGXFSZ else "") + \
                f"; stderr: {stderr[-300:]!r}"
        if status not in (0, 1, 2):
            return f"exit status {status}; stderr: {stderr[-300:]!r}"
        for name, data in (("stdout", stdout), ("stderr", stderr)):
            try:
                data.decode("utf-8")
            except UnicodeDecodeError as e:
                return f"{name} is not UTF-8 at byte {e.start}"
        bad = re.search(rb"[\x00-\x08\x0b-\x1f\x7f]", stderr)
        if bad:
            return f"a raw control character on stderr: {stderr[max(0, bad.start() - 40):bad.end() + 20]!r}"
        if Runner.diagnostics_format(argv) == "json" and stderr.strip():
            try:
                if not isinstance(json.loads(stderr), list):
                    return "--diagnostics json: stderr is not one JSON array"
            except ValueError as e:
                return f"--diagnostics json: stderr is not JSON ({e})"
        text = stdout.decode("utf-8").strip()
        # hostlist and idset print host names and ids, which may start with { or [.
        if text[:1] in ("{", "[") and not {"hostlist", "idset"} & set(argv[1:4]):
            try:
                json.loads(text)
            except ValueError:
                for line in text.splitlines():
                    try:
                        json.loads(line)
                    except ValueError as e:
                        return f"stdout looks like JSON but is not ({e}): {line[:200]!r}"
        return None


def places(commands):
    """Every (argv before the hostile part, where it goes) of the tree."""
    for base, positionals, valued, flags, _ in commands:
        if base[1:2] == ["serve"]:
            # Only values that must make it refuse; a started server is stopped at TIMEOUT.
            for option in valued:
                yield base, ("option", option, ["--port", "70000"] if option != "--port" else [])
            continue
        tail = ["app"] if "COMMAND" in positionals else []
        for option in valued:
            yield base, ("option", option, tail)
        if positionals:
            yield base, ("positional", positionals[0], [])
        yield base, ("stdin", None, tail)


def classes(names):
    """Names grouped by the class of hostile thing they are (the part before the first '-',
    or the whole name for the loose texts)."""
    grouped = {}
    for name in names:
        head = name.split("-")[0]
        grouped.setdefault(head if head in ("int", "range", "deep", "big") else "text",
                           []).append(name)
    return list(grouped.values())


def pick(names, index, full):
    """All of `names` (full), or one of each class, turning with `index` (quick)."""
    return list(names) if full else [group[index % len(group)] for group in classes(names)]


def invocations(place, index, full, thin):
    """The runs of one place: every hostile value and file there (full), or one of each
    class, different ones at the next place (quick), or just one value and one file,
    turning through the classes (thin: under a sanitizer, where a process costs ten times
    as much); once with --diagnostics json (thin: at every fourth place)."""
    base, (kind, name, tail) = place
    values = pick(VALUES, index, full)
    files = pick([f for f in FILES if not f.startswith("big-") or kind == "positional"],
                 index, full)
    if thin:
        values, files = values[index % len(values):][:1], files[index % len(files):][:1]
    if kind != "stdin" and not (thin and index % 4):
        yield [base[0], "--diagnostics", "json", *base[1:],
               *([name, VALUES[values[0]], *tail] if kind == "option"
                 else [VALUES[values[0]]])], None
    if kind == "option":
        for v in values:
            yield [*base, name, VALUES[v], *tail], None
        for f in files:
            yield [*base, f"{name}={FILES[f]}", *tail], None
    elif kind == "positional":
        for v in values:
            yield [*base, VALUES[v]], None
        if name != "COMMAND":
            for f in files:
                yield [*base, FILES[f]], None
    else:
        quick = ["yes", "dev-zero", STDIN[index % len(STDIN)]]
        for s in STDIN if full else quick[index % 3:][:1] if thin else quick:
            yield [*base, *tail], s


# Standard inputs: nothing, and the hostile files a command might read there.
STDIN = [None, "yes", "dev-zero", "deep-json", "deep-shape", "invalid-utf8-text",
         "control-text", "huge-numbers", "big-jobspec", "big-R", "big-lines"]

FILES = {}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("jobspec")
    parser.add_argument("grammar")
    parser.add_argument("sanitize")
    parser.add_argument("--seconds", type=float, default=0)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--big-mb", type=int, default=50)
    parser.add_argument("--full", action="store_true",
                        help="every hostile thing at every place (implied by --seconds)")
    args = parser.parse_args()
    sanitized = args.sanitize not in ("", "none")
    seed = args.seed if args.seed is not None else random.randrange(1 << 32)
    rng = random.Random(seed)

    root = tempfile.mkdtemp(prefix="abuse-sweep.")
    try:
        FILES.update(make_files(root, args.big_mb))
        commands = read_tree(args.jobspec) + read_tree(args.grammar)
        paths = {" ".join([os.path.basename(c[0][0]), *c[0][1:]]) for c in commands}
        options = sum(len(c[2]) + len(c[3]) for c in commands)
        print(f"{len(commands)} commands, {options} options "
              f"(from --help): {', '.join(sorted(paths))}", flush=True)

        runner = Runner(sanitized, root, FILES)
        jobs = []
        for index, place in enumerate(places(commands)):
            full = args.full or args.seconds > 0
            jobs += invocations(place, index, full, sanitized and not full)
        failures = []
        done = 0
        started = time.monotonic()

        def report(outcome):
            nonlocal done
            done += 1
            if outcome.problem:
                failures.append(outcome)
                print("FAIL " + outcome.describe(), flush=True)

        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            for outcome in pool.map(lambda j: runner.run(*j), jobs):
                report(outcome)
            print(f"sweep: {done} runs in {time.monotonic() - started:.0f} s, "
                  f"{len(failures)} failed", flush=True)
            if args.seconds > 0:
                print(f"long mode: {args.seconds:.0f} s, seed {seed}", flush=True)
                deadline = time.monotonic() + args.seconds
                long_runs = 0
                while time.monotonic() < deadline:
                    batch = [random_job(rng, commands) for _ in range(4 * args.jobs)]
                    for outcome in pool.map(lambda j: runner.run(*j), batch):
                        report(outcome)
                        long_runs += 1
                print(f"long mode: {long_runs} runs, {len(failures)} failed in all", flush=True)
        return 1 if failures else 0
    finally:
        shutil.rmtree(root, ignore_errors=True)


def random_job(rng, commands):
    """Several hostile things at once: up to three options and a positional of one command,
    maybe --diagnostics json, and a hostile stdin."""
    base, positionals, valued, flags, _ = rng.choice(
        [c for c in commands if c[0][1:2] != ["serve"]])
    argv = list(base)
    if rng.random() < 0.3:
        argv[1:1] = ["--diagnostics", "json"]
    files = [f for f in FILES if not f.startswith("big-")]
    for _ in range(rng.randint(0, 3)):
        if valued and rng.random() < 0.7:
            option = rng.choice(valued)
            if rng.random() < 0.8:
                argv += [option, VALUES[rng.choice(list(VALUES))]]
            else:
                argv.append(f"{option}={FILES[rng.choice(files)]}")
        elif flags:
            argv.append(rng.choice(flags))
    if "COMMAND" in positionals:
        argv.append("app")
    elif positionals and rng.random() < 0.7:
        argv.append(VALUES[rng.choice(list(VALUES))] if rng.random() < 0.6
                    else FILES[rng.choice(list(FILES))])
    return argv, rng.choice(STDIN)


if __name__ == "__main__":
    sys.exit(main())
