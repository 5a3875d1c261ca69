#!/usr/bin/env python3
"""Mutation testing for this tree: plants one small bug at a time and sees whether a test fails.

usage: dev/mutate.py [--build DIR] [--since REV] [--only ID ...] [--no-plan]
                     [--list | --check | --restore]

Each mutant of the catalogue (dev/mutants.txt, described at its top) is applied to its
file, the build directory is rebuilt incrementally (only what the tests run), and the fast
tests run one after another until one fails, then the tests the plan
(dev/mutation-plan.txt) names for the mutant's file, such as the `flux` suite's for the
Flux plugins and `flux jobspec why`: the mutant is then *killed* by that test, or
it *survives* when all pass. The file is then written back byte for byte and checked clean
against git. A mutant whose text is no longer in its file is *stale* (the code moved on):
it is listed, not counted. One that no longer compiles is *stillborn*, also not counted.

Safety: the original of the file being mutated is kept in a journal in the worktree's git
directory before the mutant is written; Ctrl-C, SIGTERM and SIGHUP restore it, and a run
killed outright is repaired by the next one (or by --restore). A lock in the git directory
keeps two runs from mutating one worktree.

Output (one directory per build directory, --out to choose another): logs/ID.log for each
mutant (its build and test output), results.json, and summary.txt (also printed), so runs
on different build directories never share a file. killers.json remembers which test
killed each mutant; the next run tries that test first.

Exit status: 0 when the run completed, 1 when the score is below --min-score, 2 on a
problem with the tree or the build (the unmutated tree must build and pass the tests).
"""
import argparse
import contextlib
import datetime
import fcntl
import fnmatch
import json
import os
import shutil
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_TESTS = ["unit", "conformance-*", "cli", "cli-fix", "golden", "capi"]
DEFAULT_PLAN = os.path.join(ROOT, "dev", "mutation-plan.txt")
# A planned test of the flux suite must run, not skip: these make a missing flux-core or
# Fluxion a failure, as in CI. Exit status 77 (a skip) stops the run.
REQUIRE_ENV = {"JOBSPEC_REQUIRE_FLUX": "1", "JOBSPEC_REQUIRE_FLUXION": "1"}
SKIPPED = 77
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class Stop(Exception):
    """Raised by the signal handlers: finish restoring, then leave."""


class Mutant:
    def __init__(self, ident, file, original, replacement, kind, why, line):
        self.id = ident
        self.file = file
        self.original = original
        self.replacement = replacement
        self.kind = kind
        self.why = why
        self.line = line


def parse_catalogue(path):
    """Reads the catalogue. Returns the mutants; raises ValueError naming the line."""
    mutants = []
    current = None
    seen = set()

    def finish():
        if current is None:
            return
        missing = [k for k in ("file", "kind", "why") if not current[k]]
        if current["original"] is None:
            missing.append("'-' lines")
        if current["replacement"] is None:
            missing.append("'+' lines")
        if missing:
            raise ValueError(f"{path}:{current['line']}: mutant {current['id']} has no "
                             + ", ".join(missing))
        if current["original"] == current["replacement"]:
            raise ValueError(f"{path}:{current['line']}: mutant {current['id']} changes nothing")
        mutants.append(Mutant(current["id"], current["file"], current["original"],
                              current["replacement"], current["kind"], current["why"],
                              current["line"]))

    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw[:-1] if raw.endswith("\n") else raw
            if line.startswith("[") and line.rstrip().endswith("]"):
                finish()
                ident = line.strip()[1:-1]
                if not ident or ident in seen:
                    raise ValueError(f"{path}:{number}: empty or repeated id '{ident}'")
                seen.add(ident)
                current = {"id": ident, "file": "", "kind": "", "why": "", "line": number,
                           "original": None, "replacement": None}
                continue
            if current is None or line.startswith("#") or not line.strip():
                continue
            if line.startswith("- ") or line == "-":
                if current["replacement"] is not None:
                    raise ValueError(f"{path}:{number}: '-' line after '+' lines")
                text = line[2:]
                current["original"] = text if current["original"] is None else (
                    current["original"] + "\n" + text)
            elif line.startswith("+ ") or line == "+":
                if current["original"] is None:
                    raise ValueError(f"{path}:{number}: '+' line before any '-' line")
                text = line[2:]
                current["replacement"] = text if current["replacement"] is None else (
                    current["replacement"] + "\n" + text)
            elif ":" in line:
                key, value = line.split(":", 1)
                key = key.strip()
                if key not in ("file", "kind", "why"):
                    raise ValueError(f"{path}:{number}: unknown field '{key}'")
                current[key] = value.strip()
            else:
                raise ValueError(f"{path}:{number}: cannot read '{line}'")
    finish()
    return mutants


def git(*args, check=True):
    r = subprocess.run(["git", "-C", ROOT, *args], capture_output=True)
    if check and r.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {r.stderr.decode(errors='replace').strip()}")
    return r.stdout


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def write_bytes(path, data):
    """Writes `data` to `path` in place (same inode, so hard links and modes stay)."""
    with open(path, "r+b") as f:
        f.write(data)
        f.truncate()
        f.flush()
        os.fsync(f.fileno())


class Journal:
    """The original of the file being mutated, kept until it is written back."""

    def __init__(self, git_dir):
        self.meta = os.path.join(git_dir, "mutate-journal.json")
        self.copy = os.path.join(git_dir, "mutate-journal.orig")

    def record(self, path, original):
        with open(self.copy, "wb") as f:
            f.write(original)
            f.flush()
            os.fsync(f.fileno())
        self.write_meta({"path": path, "size": len(original)})

    def write_meta(self, meta):
        with open(self.meta + ".tmp", "w") as f:
            json.dump(meta, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(self.meta + ".tmp", self.meta)

    def child(self, pgid, marker):
        """Notes the process group building or testing the mutant, for recover()."""
        if not os.path.exists(self.meta):
            return
        with open(self.meta) as f:
            meta = json.load(f)
        meta["child"] = {"pgid": pgid, "marker": marker}
        self.write_meta(meta)

    def clear(self):
        for p in (self.meta, self.copy):
            with contextlib.suppress(FileNotFoundError):
                os.remove(p)

    def recover(self):
        """Restores a file a killed run left mutated; returns its path, or None."""
        if not os.path.exists(self.meta):
            return None
        with open(self.meta) as f:
            meta = json.load(f)
        original = read_bytes(self.copy)
        if len(original) != meta["size"]:
            raise RuntimeError(f"journal copy of {meta['path']} is damaged; restore it with "
                               f"git checkout -- {meta['path']}")
        # A build the killed run started may still be compiling the mutant: stop it first,
        # or it writes an object newer than the restored source, which ninja then keeps.
        child = meta.get("child")
        if child:
            stop_group(child["pgid"], child["marker"])
        write_bytes(meta["path"], original)
        os.utime(meta["path"])
        self.clear()
        return meta["path"]


@contextlib.contextmanager
def signals_blocked():
    """No Stop in the middle of writing a file and its journal."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def on_signal(signum, _frame):
    raise Stop(signal.Signals(signum).name)


def stop_group(pgid, marker):
    """Kills process group `pgid` if its leader is still ours (its command line names
    `marker`, our tree), and waits for it to go."""
    try:
        with open(f"/proc/{pgid}/cmdline", "rb") as f:
            cmdline = f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return
    if marker not in cmdline:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGKILL)
    for _ in range(100):
        if not os.path.exists(f"/proc/{pgid}"):
            return
        time.sleep(0.05)


class Locator:
    """Finds where a mutant's text is now: its file, or one other file under src/."""

    def __init__(self):
        self.candidates = None

    def tracked_sources(self):
        if self.candidates is None:
            names = git("ls-files", "--cached", "--others", "--exclude-standard", "--", "src",
                        "include").decode().split("\n")
            self.candidates = [n for n in names if n and os.path.isfile(os.path.join(ROOT, n))]
        return self.candidates

    def locate(self, m):
        """(path, None) where the text occurs exactly once, or (None, why it is stale)."""
        path = os.path.join(ROOT, m.file)
        if os.path.isfile(path):
            n = read_bytes(path).decode("utf-8", errors="surrogateescape").count(m.original)
            if n == 1:
                return m.file, None
            if n > 1:
                return None, f"the text occurs {n} times in {m.file}; make it unique"
        # Moved: exactly one other source file holds it exactly once.
        found = []
        for name in self.tracked_sources():
            if name == m.file:
                continue
            text = read_bytes(os.path.join(ROOT, name)).decode("utf-8", errors="surrogateescape")
            if text.count(m.original) == 1:
                found.append(name)
        if len(found) == 1:
            return found[0], None
        where = "its file is gone" if not os.path.isfile(path) else f"not found in {m.file}"
        if len(found) > 1:
            where += f", and found in {len(found)} other files"
        return None, where


def parse_plan(path):
    """The plan's rows, in order: (file pattern, [test name, ...])."""
    plan = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            if len(words) < 2:
                raise ValueError(f"{path}:{n}: '{words[0]}' names no test")
            plan.append((words[0], words[1:]))
    return plan


def planned_tests(plan, path):
    """The test names the plan gives a file, each once, in the plan's order."""
    names = []
    for pattern, tests in plan:
        if fnmatch.fnmatchcase(path, pattern):
            names += [t for t in tests if t not in names]
    return names


def load_tests(build):
    with open(os.path.join(build, "meson-info", "intro-tests.json")) as f:
        tests = json.load(f)
    with open(os.path.join(build, "meson-info", "intro-targets.json")) as f:
        targets = {t["id"]: t for t in json.load(f)}
    return tests, targets


def select_tests(tests, patterns):
    chosen = [t for t in tests if any(fnmatch.fnmatchcase(t["name"], p) for p in patterns)]
    if not chosen:
        raise RuntimeError(f"no test of the build matches {patterns}")
    return chosen


def build_outputs(chosen, targets, build):
    """The files ninja must bring up to date for the chosen tests."""
    outputs = []
    for t in chosen:
        for dep in t.get("depends", []):
            for filename in targets.get(dep, {}).get("filename", []):
                rel = os.path.relpath(filename, build)
                if rel not in outputs:
                    outputs.append(rel)
    return outputs


def run_logged(cmd, log, cwd=None, env=None, timeout=None, journal=None):
    """Runs cmd with its output appended to log; returns (status, seconds, timed_out).

    The command runs in a process group of its own, so a timeout or a stop kills all of
    it (a compiler ninja started included) before the mutant's file is restored."""
    start = time.monotonic()
    log.write(f"$ {' '.join(cmd)}\n")
    log.flush()
    with signals_blocked():
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
        if journal is not None:
            journal.child(proc.pid, ROOT)

    def kill():
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()

    try:
        status = proc.wait(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        kill()
        status, timed_out = -9, True
    except BaseException:
        kill()
        raise
    # Whatever the group's leader left behind (a test's own children) goes too.
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    seconds = time.monotonic() - start
    log.write(f"[status {status}{' (timeout)' if timed_out else ''}, {seconds:.1f} s]\n\n")
    log.flush()
    return status, seconds, timed_out


class Runner:
    def __init__(self, args, plan, paths):
        """`paths`: the files of the mutants to run, for the tests their plan adds."""
        self.args = args
        self.build = os.path.abspath(args.build)
        self.out = os.path.abspath(args.out or os.path.join(self.build, "mutation"))
        tests, targets = load_tests(self.build)
        self.tests = select_tests(tests, args.tests)
        self.plan = plan
        by_name = {t["name"]: t for t in tests}
        self.planned = {}
        for path in paths:
            for name in planned_tests(plan, path):
                if name in self.planned or any(t["name"] == name for t in self.tests):
                    continue
                if name not in by_name:
                    raise RuntimeError(f"the plan names test '{name}' for {path}, which "
                                       f"{args.build} does not have (configured without "
                                       f"flux-core, or with sanitizers?)")
                self.planned[name] = by_name[name]
        self.outputs = build_outputs(self.tests + list(self.planned.values()), targets,
                                     self.build)
        self.baseline = {}
        self.previous = self.previous_killers()

    def previous_killers(self):
        with contextlib.suppress(OSError, ValueError):
            with open(os.path.join(self.out, "killers.json")) as f:
                return json.load(f)
        return {}

    def remember_killer(self, row):
        if not row.get("by"):
            return
        self.previous[row["id"]] = row["by"].split(" ")[0]
        path = os.path.join(self.out, "killers.json")
        with open(path + ".tmp", "w") as f:
            json.dump(self.previous, f, indent=1, sort_keys=True)
        os.replace(path + ".tmp", path)

    def ninja(self, log, journal=None):
        cmd = ["ninja", "-C", self.build, *self.outputs]
        if self.args.nice:
            cmd = ["nice", "-n", str(self.args.nice), *cmd]
        return run_logged(cmd, log, journal=journal)[0] == 0

    def env_of(self, test):
        env = dict(os.environ)
        env.update(test.get("env") or {})
        env.update(REQUIRE_ENV)
        env.setdefault("NO_COLOR", "1")
        return env

    def timeout_of(self, test):
        limit = test.get("timeout") or 300
        base = self.baseline.get(test["name"])
        if base is None:
            return limit
        return min(limit, max(30.0, 5 * base))

    def run_test(self, test, log, journal=None):
        log.write(f"--- test {test['name']}\n")
        status, seconds, timed_out = run_logged(
            test["cmd"], log, cwd=test.get("workdir") or self.build, env=self.env_of(test),
            timeout=self.timeout_of(test), journal=journal)
        if status == SKIPPED and not timed_out:
            raise RuntimeError(f"test {test['name']} skipped (exit {SKIPPED}); a test that "
                               f"does not run kills nothing; see {log.name}")
        expected_fail = test.get("should_fail", False)
        passed = (status != 0) == expected_fail and not timed_out
        return passed, seconds, timed_out

    def ordered_tests(self, mutant_id, path):
        """The fast tests, quickest first, then the file's planned ones in the plan's
        order; the test that killed this mutant last time goes first."""
        order = sorted(self.tests, key=lambda t: self.baseline.get(t["name"], 0))
        order += [self.planned[n] for n in planned_tests(self.plan, path) if n in self.planned]
        first = self.previous.get(mutant_id)
        order.sort(key=lambda t: t["name"] != first)
        return order

    def check_baseline(self):
        os.makedirs(os.path.join(self.out, "logs"), exist_ok=True)
        with open(os.path.join(self.out, "logs", "_baseline.log"), "w") as log:
            if not self.ninja(log):
                raise RuntimeError(f"the unmutated tree does not build; see {log.name}")
            for t in self.tests + list(self.planned.values()):
                passed, seconds, _ = self.run_test(t, log)
                if not passed:
                    raise RuntimeError(f"test {t['name']} fails on the unmutated tree; "
                                       f"see {log.name}")
                self.baseline[t["name"]] = seconds
        print("baseline: " + ", ".join(f"{n} {s:.1f}s" for n, s in self.baseline.items()),
              flush=True)

    def run_mutant(self, m, path, journal):
        """Applies, builds, tests and restores one mutant; returns its result row."""
        row = {"id": m.id, "file": m.file, "kind": m.kind, "why": m.why}
        if path != m.file:
            row["moved_to"] = path
        full = os.path.join(ROOT, path)
        original = read_bytes(full)
        text = original.decode("utf-8", errors="surrogateescape")
        mutated = text.replace(m.original, m.replacement, 1).encode("utf-8", "surrogateescape")
        git_state = git("status", "--porcelain", "--", path) + git("diff", "--", path)
        log_path = os.path.join(self.out, "logs", f"{m.id}.log")
        start = time.monotonic()
        with open(log_path, "w") as log:
            log.write(f"mutant {m.id} ({m.kind}) in {path}: {m.why}\n"
                      f"- {m.original}\n+ {m.replacement}\n\n")
            try:
                with signals_blocked():
                    journal.record(full, original)
                    write_bytes(full, mutated)
                if not self.ninja(log, journal):
                    row["status"] = "stillborn"
                else:
                    row["status"] = "survived"
                    for t in self.ordered_tests(m.id, path):
                        passed, _, timed_out = self.run_test(t, log, journal)
                        if not passed:
                            row["status"] = "killed"
                            row["by"] = t["name"] + (" (timeout)" if timed_out else "")
                            break
            finally:
                with signals_blocked():
                    write_bytes(full, original)
                    journal.clear()
                if read_bytes(full) != original:
                    raise RuntimeError(f"{path} did not restore; git checkout -- {path}")
                if git("status", "--porcelain", "--", path) + git("diff", "--", path) != git_state:
                    raise RuntimeError(f"{path} differs from before the mutant; check git diff")
        row["seconds"] = round(time.monotonic() - start, 1)
        row["log"] = os.path.relpath(log_path, self.out)
        return row


def summary_text(rows, args, head):
    counted = [r for r in rows if r["status"] in ("killed", "survived")]
    killed = [r for r in counted if r["status"] == "killed"]
    lines = [f"{'id':<34} {'status':<10} {'by':<24} file"]
    for r in rows:
        lines.append(f"{r['id']:<34} {r['status']:<10} {r.get('by', ''):<24} "
                     f"{r.get('moved_to', r['file'])}")
    lines.append("")
    score = 100.0 * len(killed) / len(counted) if counted else 0.0
    by_status = {}
    for r in rows:
        by_status.setdefault(r["status"], []).append(r)
    lines.append(f"tree {head}: {len(counted)} mutants, {len(killed)} killed, "
                 f"{len(counted) - len(killed)} survived: score {score:.1f}%"
                 f" ({len(by_status.get('stale', []))} stale, "
                 f"{len(by_status.get('stillborn', []))} stillborn, not counted)")
    for status, title in (("survived", "survivors (equivalent, or a test is missing)"),
                          ("stale", "stale (update the catalogue)"),
                          ("stillborn", "stillborn (the mutant no longer compiles)")):
        if by_status.get(status):
            lines.append(f"\n{title}:")
            for r in by_status[status]:
                lines.append(f"  {r['id']}: {r.get('reason') or r['why']}")
    moved = [r for r in rows if r.get("moved_to")]
    if moved:
        lines.append("\nmoved (found in another file; update the catalogue):")
        for r in moved:
            lines.append(f"  {r['id']}: {r['file']} -> {r['moved_to']}")
    return "\n".join(lines) + "\n", score


def changed_since(rev):
    names = git("diff", "--name-only", rev, "--").decode().split("\n")
    names += git("ls-files", "--others", "--exclude-standard").decode().split("\n")
    return {n for n in names if n}


def rebuild(args, runner):
    """Leaves the build matching the restored tree: a stopped run would otherwise leave
    the last mutant's binaries for the next test run to trust."""
    if runner is None:
        return
    with open(os.devnull, "w") as null:
        subprocess.run((["nice", "-n", str(args.nice)] if args.nice else [])
                       + ["ninja", "-C", runner.build, *runner.outputs],
                       stdout=null, stderr=null)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default="build", help="build directory (default: build)")
    parser.add_argument("--catalogue", default=os.path.join(ROOT, "dev", "mutants.txt"))
    parser.add_argument("--out", help="output directory (default: BUILD/mutation)")
    parser.add_argument("--since", metavar="REV",
                        help="only mutants in files changed since REV (committed or not)")
    parser.add_argument("--only", nargs="+", metavar="ID", help="only these mutants")
    parser.add_argument("--tests", nargs="+", default=DEFAULT_TESTS, metavar="PATTERN",
                        help="meson test names to run (default: %(default)s)")
    parser.add_argument("--plan", default=DEFAULT_PLAN,
                        help="which tests each file's mutants also run (default: %(default)s)")
    parser.add_argument("--no-plan", action="store_true",
                        help="run the --tests only, not the plan's (a mutant only a planned "
                             "test can kill then survives)")
    parser.add_argument("--nice", type=int, default=10, help="niceness of ninja (0: none)")
    parser.add_argument("--min-score", type=float, default=0.0,
                        help="exit 1 when the score (percent killed) is below this")
    parser.add_argument("--no-baseline", action="store_true",
                        help="skip building and testing the unmutated tree first")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument("--check", action="store_true",
                        help="only say which mutants are stale; build nothing")
    parser.add_argument("--restore", action="store_true",
                        help="only restore a file a killed run left mutated")
    args = parser.parse_args()

    try:
        mutants = parse_catalogue(args.catalogue)
        plan = [] if args.no_plan else parse_plan(args.plan)
    except (OSError, ValueError) as e:
        print(f"mutate: {e}", file=sys.stderr)
        return 2
    if args.only:
        unknown = set(args.only) - {m.id for m in mutants}
        if unknown:
            print(f"mutate: no mutant named {', '.join(sorted(unknown))}", file=sys.stderr)
            return 2
        mutants = [m for m in mutants if m.id in args.only]
    if args.since:
        changed = changed_since(args.since)
        mutants = [m for m in mutants if m.file in changed]
    if args.list:
        for m in mutants:
            tests = planned_tests(plan, m.file)
            print(f"{m.id:<34} {m.kind:<12} {m.file}: {m.why}"
                  + (f" [also {', '.join(tests)}]" if tests else ""))
        print(f"{len(mutants)} mutants")
        return 0

    git_dir = git("rev-parse", "--absolute-git-dir").decode().strip()
    lock = open(os.path.join(git_dir, "mutate.lock"), "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        print("mutate: another run is mutating this worktree", file=sys.stderr)
        return 2
    journal = Journal(git_dir)
    recovered = journal.recover()
    if recovered:
        print(f"mutate: restored {recovered}, left mutated by a run that was killed",
              flush=True)
    if args.restore:
        return 0

    locator = Locator()
    located = [(m, *locator.locate(m)) for m in mutants]
    if args.check:
        for m, path, why in located:
            state = "stale: " + why if path is None else (
                "ok" if path == m.file else f"moved to {path}")
            print(f"{m.id:<34} {state}")
        stale = sum(1 for _, path, _ in located if path is None)
        print(f"{len(located)} mutants, {stale} stale")
        return 0

    for s in STOP_SIGNALS:
        signal.signal(s, on_signal)
    head = git("rev-parse", "--short", "HEAD").decode().strip()
    if git("status", "--porcelain", "--untracked-files=no"):
        head += "+changes"
    rows = []
    runner = None
    stopped = None
    try:
        runner = Runner(args, plan, {path for _, path, _ in located if path is not None})
        os.makedirs(os.path.join(runner.out, "logs"), exist_ok=True)
        if not args.no_baseline:
            runner.check_baseline()
        todo = [x for x in located if x[1] is not None]
        for i, (m, path, why) in enumerate(located):
            if path is None:
                rows.append({"id": m.id, "file": m.file, "kind": m.kind, "why": m.why,
                             "status": "stale", "reason": why})
                print(f"[stale] {m.id}: {why}", flush=True)
                continue
            row = runner.run_mutant(m, path, journal)
            runner.remember_killer(row)
            rows.append(row)
            done = sum(1 for r in rows if r["status"] != "stale")
            print(f"[{done}/{len(todo)}] {m.id}: {row['status']}"
                  f"{' by ' + row['by'] if row.get('by') else ''} ({row['seconds']} s)",
                  flush=True)
    except Stop as e:
        stopped = e
    except RuntimeError as e:
        print(f"mutate: {e}", file=sys.stderr)
        rebuild(args, runner)
        return 2
    finally:
        for s in STOP_SIGNALS:
            signal.signal(s, signal.SIG_DFL)
        if rows:
            text, _ = summary_text(rows, args, head)
            out = os.path.abspath(args.out or os.path.join(args.build, "mutation"))
            os.makedirs(out, exist_ok=True)
            with open(os.path.join(out, "summary.txt"), "w") as f:
                f.write(text)
            with open(os.path.join(out, "results.json"), "w") as f:
                json.dump({"tree": head,
                           "date": datetime.datetime.now().isoformat(timespec="seconds"),
                           "tests": args.tests,
                           "planned": sorted(runner.planned) if runner else [],
                           "mutants": rows}, f, indent=1)
    if stopped is not None:
        print(f"\nmutate: stopped by {stopped}; the tree is restored, and the build is "
              f"rebuilt from it", file=sys.stderr)
        rebuild(args, runner)
        return 130
    text, score = summary_text(rows, args, head)
    print("\n" + text, end="")
    rebuild(args, runner)
    return 1 if score < args.min_score else 0


if __name__ == "__main__":
    sys.exit(main())
