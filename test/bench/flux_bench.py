#!/usr/bin/env python3
"""Jobs per second one Flux instance accepts, five ways (docs/PERFORMANCE.md, issues 27, 48):

  (a) flux-core's default validator        [ingest.validator] as shipped
  (b) jobspec's validator plugin instead   plugins = ["<build>/python/jobspec/flux/validator.py"]
  (c) jobspec's jobtap plugin              docs/FLUX.md's fast setup: the ingest validator
                                           disabled, jobspec.so loaded, each job in a batch
                                           of its own ([ingest] batch-count = 1)
  (e) (c) in job-ingest's batches          as (c) but batched, where one user's job can fail
                                           every job of its batch
  (f) (c) without reasons                  as (c), with the plugin's reasons in flux jobs
                                           turned off (reasons = false): (c) / (f) is their
                                           cost (issue 47)
  (d) no validation at all                 the ingest validator disabled (the limit)

Each measurement is a fresh single-broker instance: 200 submissions to warm up, then
COUNT submissions of the same small V1 jobspec (as `flux run -n1 true` writes it, with
an empty environment),
held (urgency 0) so that nothing is scheduled, 64 in flight at a time through the
Python API. With --live the jobs are not held: each is scheduled and runs (`true`), and
the rate is of jobs that have finished (sched-simple, 4 cores). Rounds interleave the four ways; the table shows medians. Validation CPU per
job is the validator processes' CPU for (a) and (b), and for (c) and (e) the broker's
CPU less that of (d) in the same round.

usage: flux_bench.py FLUX BUILD-DIR [--rounds N] [--count N] [--ways abcdef] [--live]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

WAYS = {
    "a": "flux-core's default validator",
    "b": "jobspec's validator plugin",
    "c": "jobspec's jobtap plugin, a batch per job",
    "e": "jobspec's jobtap plugin, batched",
    "d": "no validation",
    "f": "jobspec's jobtap plugin, a batch per job, no reasons",
}


def cpu_seconds(pid):
    """User + system CPU of a process, in seconds."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def validator_pids():
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    if b"job-validator" in f.read():
                        pids.append(int(entry))
            except OSError:
                pass
    return pids


def inside(count, live):
    """In the instance: warm up, submit `count` jobs (held, or with `live` run to the end),
    print the figures as JSON."""
    import flux
    import flux.job

    handle = flux.Flux()
    text = json.dumps({
        "version": 1,
        "resources": [{"type": "slot", "count": 1, "label": "task",
                       "with": [{"type": "core", "count": 1}]}],
        "tasks": [{"command": ["true"], "slot": "task", "count": {"per_slot": 1}}],
        "attributes": {"system": {"duration": 0, "cwd": "/tmp", "environment": {}}},
    })

    def submit(n):
        sent = 0
        ids = []
        while sent < n:
            futures = [flux.job.submit_async(handle, text, urgency=16 if live else 0)
                       for _ in range(min(64, n - sent))]
            sent += len(futures)
            ids += [future.get_id() for future in futures]
        for jobid in ids if live else []:
            flux.job.event_wait(handle, jobid, "clean")

    submit(200)
    broker = int(handle.attr_get("broker.pid"))
    validators = validator_pids()

    def cpu():
        return cpu_seconds(broker), sum(cpu_seconds(p) for p in validators)
    broker_before, validators_before = cpu()
    start = time.monotonic()
    submit(count)
    seconds = time.monotonic() - start
    broker_after, validators_after = cpu()
    print(json.dumps({"jobs_per_second": count / seconds,
                      "broker_cpu_per_job": (broker_after - broker_before) / count,
                      "validator_cpu_per_job": (validators_after - validators_before) / count}))


def config(way, build):
    validator = os.path.join(build, "python", "jobspec", "flux", "validator.py")
    jobtap = os.path.join(build, "plugins", "jobspec.so")
    return {
        "a": "",
        "b": f'[ingest.validator]\nplugins = ["{validator}"]\n',
        "c": '[ingest]\nbatch-count = 1\n[ingest.validator]\ndisable = true\n'
             f'[job-manager]\nplugins = [{{load = "{jobtap}"}}]\n',
        "e": '[ingest.validator]\ndisable = true\n'
             f'[job-manager]\nplugins = [{{load = "{jobtap}"}}]\n',
        "d": "[ingest.validator]\ndisable = true\n",
        "f": '[ingest]\nbatch-count = 1\n[ingest.validator]\ndisable = true\n'
             f'[job-manager]\nplugins = [{{load = "{jobtap}", conf = {{reasons = false}}}}]\n',
    }[way]


def measure(flux, build, way, count, live):
    with tempfile.TemporaryDirectory(prefix=f"flux-bench-{way}-") as directory:
        with open(os.path.join(directory, "bench.toml"), "w", encoding="utf-8") as f:
            f.write(config(way, build))
        env = dict(os.environ)
        env["PYTHONPATH"] = os.path.join(build, "python") + os.pathsep + env.get("PYTHONPATH", "")
        p = subprocess.run([flux, "start", "-s", "1", f"-o,--config-path={directory}",
                            "flux", "python", os.path.abspath(__file__), "--inside",
                            str(count)] + (["--live"] if live else []),
                           env=env, capture_output=True, text=True, check=False)
        if p.returncode != 0:
            raise RuntimeError(f"({way}) failed:\n{p.stdout}\n{p.stderr}")
        return json.loads(p.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("flux", nargs="?")
    parser.add_argument("build", nargs="?")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--ways", default="abcedf",
                        help="which ways, in the order of each round (default all)")
    parser.add_argument("--live", action="store_true",
                        help="jobs not held: scheduled and run to the end")
    parser.add_argument("--inside", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inside:
        inside(args.inside, args.live)
        return 0
    args.build = os.path.abspath(args.build)
    ways = {w: WAYS[w] for w in args.ways}
    results = {way: [] for way in ways}
    for round_ in range(args.rounds):
        for way in ways:
            results[way].append(measure(args.flux, args.build, way, args.count, args.live))
        line = ", ".join(f"({w}) {results[w][-1]['jobs_per_second']:.0f}/s" for w in ways)
        print(f"round {round_ + 1}: {line}", file=sys.stderr, flush=True)

    def median(way, key):
        return statistics.median(r[key] for r in results[way])
    rate = {way: median(way, "jobs_per_second") for way in ways}

    def over_d(way):
        return statistics.median(c["broker_cpu_per_job"] - d["broker_cpu_per_job"]
                                 for c, d in zip(results[way], results["d"]))
    cpu = {w: median(w, "validator_cpu_per_job") if w in "ab" else
           (over_d(w) if "d" in ways and w != "d" else 0.0) for w in ways}
    print(f"{args.count} submissions{' run to the end' if args.live else ''}, median of "
          f"{args.rounds} interleaved rounds")
    print("| way | jobs/s | validation CPU per job |")
    print("|---|---:|---:|")
    for way, name in ways.items():
        print(f"| ({way}) {name} | {rate[way]:.0f} | {cpu[way] * 1e6:.0f} µs |")

    def paired(x, y):
        """The median over rounds of x's rate over y's in the same round."""
        return statistics.median(p["jobs_per_second"] / q["jobs_per_second"]
                                 for p, q in zip(results[x], results[y]))
    pairs = [(x, y) for x, y in (("c", "d"), ("e", "d"), ("c", "a"), ("b", "a"), ("c", "f"))
             if x in ways and y in ways]
    print("; ".join(f"({x}) / ({y}) = {paired(x, y):.3f}" for x, y in pairs)
          + " (medians of the ratios within a round)")
    print("broker CPU per job: " + ", ".join(
        f"({w}) {median(w, 'broker_cpu_per_job') * 1e6:.0f} µs" for w in ways))
    return 0


if __name__ == "__main__":
    sys.exit(main())
