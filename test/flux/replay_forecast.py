#!/usr/bin/env python3
"""Replays what forecast_reality.py dumped (JOBSPEC_FORECAST_DUMP=DIR): the instance's
state at the forecast through `jobspec forecast --json`, each estimate against the start
that happened, so a change to the forecast is measured against real runs without running
them again (docs/TESTING.md).

usage: replay_forecast.py [--every] [--within S] JOBSPEC DUMP.json...

Prints each estimate further from what happened than the tolerance (1 s, or S), then per
dump how many held, with the median and worst lateness of the starts (started minus
estimated), and the total. Exits 1 when a dump cannot be read or forecast, or with --every
when an estimate missed (the `forecast-replays` test, on the runs kept in test/flux/dumps/, with
--within 0.25: a start more than 0.25 s from its estimate is a miss there, as an estimate
that forgot the instance's latency along a chain of passes was, by up to 0.48 s).
"""
import json
import subprocess
import sys
import tempfile

TOLERANCE = 1.0


def f58(jobid):
    """ƒ-prefixed base58 of a job id, as `jobspec forecast` prints it (RFC 19)."""
    alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
    digits = ""
    while True:
        jobid, r = divmod(jobid, 58)
        digits = alphabet[r] + digits
        if jobid == 0:
            return "ƒ" + digits


def replay(jobspec, path, tolerance):
    with open(path, encoding="utf-8") as f:
        dump = json.load(f)
    with tempfile.NamedTemporaryFile("w", suffix=".json", encoding="utf-8") as state:
        json.dump(dump["state"], state)
        state.flush()
        done = subprocess.run([jobspec, "forecast", "--json", state.name],
                              capture_output=True, text=True, check=True)
    now = dump["state"]["now"]
    started = {f58(int(i)): a.get("start") for i, a in dump["actual"].items()}
    held = estimated = 0
    late = []
    for job in json.loads(done.stdout)["jobs"]:
        if job["eta"] is None:
            continue
        estimated += 1
        start = started.get(job["id"])
        if start is not None:
            late.append(start - job["eta"])
        if start is not None and abs(start - job["eta"]) <= tolerance:
            held += 1
            continue
        when = "never" if start is None else f"{start - now:+.1f} s"
        print(f"  MISS {job['id']}: estimated {job['eta'] - now:+.1f} s, started {when}: "
              f"{job['summary']}")
    late.sort()
    spread = (f", lateness median {late[len(late) // 2]:+.3f} s, worst "
              f"{max(late, key=abs):+.3f} s" if late else "")
    print(f"{path}: {held} of {estimated} within {tolerance} s{spread}")
    return held, estimated


def main():
    args = sys.argv[1:]
    every = bool(args) and args[0] == "--every"
    args = args[1:] if every else args
    tolerance = TOLERANCE
    if len(args) >= 2 and args[0] == "--within":
        tolerance, args = float(args[1]), args[2:]
    if len(args) < 2:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    total_held = total = 0
    try:
        for path in args[1:]:
            held, estimated = replay(args[0], path, tolerance)
            total_held += held
            total += estimated
    except (OSError, ValueError, KeyError, subprocess.CalledProcessError) as e:
        print(f"replay_forecast: {e}", file=sys.stderr)
        return 1
    print(f"all: {total_held} of {total} within {tolerance} s")
    return 1 if every and total_held < total else 0


if __name__ == "__main__":
    sys.exit(main())
