"""Runs inside a Flux instance for flux_test.py: carries out a plan, step by step, and
writes what happened. It checks nothing itself.

usage: flux python in_instance.py PLAN.json RESULTS.json

A plan is a JSON list of steps; each result is a dict:
  {"run": [ARGV], "env": {...}, "stdin": PATH, "as": NAME, "cwd": DIR, "merge": true}
                                                -> {"rc", "stdout", "stderr"}
      with "as", what it printed (stripped) stands for "{NAME}" in later steps' ARGV;
      with "merge", standard error goes to standard output, as on a terminal; with
      "until": [LINES] and "seconds": S, it runs again until it prints LINES (test/docs
      wildcards), for at most S seconds
  {"rss": true}                                 -> {"kib": the broker's resident set,
                                                    "validators": its validator workers',
                                                    "validator_pids": theirs}
  {"flood": PATH, "count": N}                   -> {"accepted", "rejected", "seconds", "errors"}
      submits the jobspec in PATH N times through the Python API, 64 at a time
  {"together": [PATH...]}                       -> [{"accepted", "text"}], one per PATH
      submits them all at once (held), so that job-ingest takes them in one batch
  {"contend": {"bad": PATH, "good": PATH, "rounds": N, "bad_per_round": K}}
                                                -> {"good_accepted", "good_errors",
                                                    "bad_accepted"}
      N rounds of K bad jobs and one good one sent together (held): one user's flood
      beside another user's work
"""
import json
import os
import subprocess
import sys
import time

import flux
import flux.job


def shows(expected, result):
    """Whether a command printed (stdout and stderr, as merged) what `expected` shows, with
    test/docs/doc_test.py's wildcards."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs"))
    from doc_test import matches  # pylint: disable=import-outside-toplevel
    printed = (result["stdout"] + result["stderr"]).rstrip("\n")
    return matches(expected, printed.split("\n") if printed else [])


def run(step, captured):
    """A command; with "until" (expected lines) it is run again, for up to "seconds", until
    it prints them: what an instance shows a moment after a change."""
    deadline = time.monotonic() + step.get("seconds", 0)
    while True:
        result = run_once(step, captured)
        if "until" not in step or shows(step["until"], result) or time.monotonic() > deadline:
            return result
        time.sleep(0.1)


def run_once(step, captured):
    env = dict(os.environ)
    env.update(step.get("env", {}))
    argv = step["run"]
    for name, value in captured.items():
        argv = [a.replace("{" + name + "}", value) for a in argv]
    stdin = open(step["stdin"], "rb") if step.get("stdin") else subprocess.DEVNULL
    try:
        p = subprocess.run(argv, stdin=stdin, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT if step.get("merge") else subprocess.PIPE,
                           env=env, cwd=step.get("cwd"), timeout=300)
    finally:
        if stdin is not subprocess.DEVNULL:
            stdin.close()
    result = {"rc": p.returncode, "stdout": p.stdout.decode("utf-8", "replace"),
              "stderr": (p.stderr or b"").decode("utf-8", "replace")}
    if step.get("as"):
        captured[step["as"]] = result["stdout"].strip()
    return result


def resident_kib(pid):
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def rss(handle):
    """The resident memory of this instance's broker and of its own validator workers,
    whose pids job-ingest reports (never another instance's, and without reading the
    machine's process table)."""
    stats = handle.rpc("job-ingest.stats-get", {}).get()
    pids = stats.get("pipeline", {}).get("validator", {}).get("pids") or []
    validators = 0
    for pid in pids:
        if pid:
            try:
                validators += resident_kib(pid)
            except OSError:
                pass  # a worker that ended since job-ingest answered
    return {"kib": resident_kib(int(handle.attr_get("broker.pid"))), "validators": validators,
            "validator_pids": [p for p in pids if p]}


def flood(handle, path, count):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    accepted = rejected = 0
    errors = set()
    start = time.monotonic()
    sent = 0
    while sent < count:
        futures = [flux.job.submit_async(handle, text, urgency=0)
                   for _ in range(min(64, count - sent))]
        sent += len(futures)
        for future in futures:
            try:
                future.get_id()
                accepted += 1
            except OSError as error:
                rejected += 1
                if len(errors) < 5:
                    errors.add(str(error))
    return {"accepted": accepted, "rejected": rejected,
            "seconds": time.monotonic() - start, "errors": sorted(errors)}


def verdict(future):
    try:
        return {"accepted": True, "text": str(future.get_id())}
    except OSError as error:
        return {"accepted": False, "text": str(error)}


def together(handle, paths):
    texts = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            texts.append(f.read())
    return [verdict(f) for f in [flux.job.submit_async(handle, t, urgency=0) for t in texts]]


def contend(handle, step):
    with open(step["bad"], encoding="utf-8") as f:
        bad = f.read()
    with open(step["good"], encoding="utf-8") as f:
        good = f.read()
    result = {"good_accepted": 0, "good_errors": [], "bad_accepted": 0}
    for _ in range(step["rounds"]):
        bads = [flux.job.submit_async(handle, bad, urgency=0)
                for _ in range(step["bad_per_round"])]
        mine = flux.job.submit_async(handle, good, urgency=0)
        result["bad_accepted"] += sum(verdict(f)["accepted"] for f in bads)
        got = verdict(mine)
        if got["accepted"]:
            result["good_accepted"] += 1
        elif len(result["good_errors"]) < 5:
            result["good_errors"].append(got["text"])
    return result


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        plan = json.load(f)
    handle = flux.Flux()
    results = []
    captured = {}
    for step in plan:
        if "run" in step:
            results.append(run(step, captured))
        elif "rss" in step:
            results.append(rss(handle))
        elif "flood" in step:
            results.append(flood(handle, step["flood"], step["count"]))
        elif "together" in step:
            results.append(together(handle, step["together"]))
        elif "contend" in step:
            results.append(contend(handle, step["contend"]))
        else:
            raise ValueError(f"unknown step {step}")
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        json.dump(results, f)


if __name__ == "__main__":
    main()
