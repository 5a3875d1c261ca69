"""Runs inside a Flux instance for flux_test.py: carries out a plan, step by step, and
writes what happened. It checks nothing itself.

usage: flux python in_instance.py PLAN.json RESULTS.json

A plan is a JSON list of steps; each result is a dict:
  {"run": [ARGV], "env": {...}, "stdin": PATH}  -> {"rc", "stdout", "stderr"}
  {"rss": true}                                 -> {"kib": the broker's resident set,
                                                    "validators": the validator workers'}
  {"flood": PATH, "count": N}                   -> {"accepted", "rejected", "seconds", "errors"}
      submits the jobspec in PATH N times through the Python API, 64 at a time
"""
import json
import os
import subprocess
import sys
import time

import flux
import flux.job


def run(step):
    env = dict(os.environ)
    env.update(step.get("env", {}))
    stdin = open(step["stdin"], "rb") if step.get("stdin") else subprocess.DEVNULL
    try:
        p = subprocess.run(step["run"], stdin=stdin, capture_output=True, env=env, timeout=300)
    finally:
        if stdin is not subprocess.DEVNULL:
            stdin.close()
    return {"rc": p.returncode, "stdout": p.stdout.decode("utf-8", "replace"),
            "stderr": p.stderr.decode("utf-8", "replace")}


def resident_kib(pid):
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def rss(handle):
    validators = 0
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                if entry.isdigit() and b"job-validator" in f.read():
                    validators += resident_kib(entry)
        except OSError:
            pass
    return {"kib": resident_kib(int(handle.attr_get("broker.pid"))), "validators": validators}


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


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        plan = json.load(f)
    handle = flux.Flux()
    results = []
    for step in plan:
        if "run" in step:
            results.append(run(step))
        elif "rss" in step:
            results.append(rss(handle))
        elif "flood" in step:
            results.append(flood(handle, step["flood"], step["count"]))
        else:
            raise ValueError(f"unknown step {step}")
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        json.dump(results, f)


if __name__ == "__main__":
    main()
