#!/usr/bin/env python3
"""Jobs per second one Flux instance accepts, five ways (docs/PERFORMANCE.md, issues 27, 48):

  (a) flux-core's default validator        [ingest.validator] as shipped
  (b) jobspec's validator plugin instead   plugins = ["<build>/python/jobspec/flux/validator.py"]
  (c) jobspec's jobtap plugin              docs/FLUX.md's fast setup: the ingest validator
                                           disabled, jobspec.so loaded, each job in a batch
                                           of its own ([ingest] batch-count = 1)
  (e) (c) in job-ingest's batches          as (c) but batched, where one user's job can fail
                                           every job of its batch
  (d) no validation at all                 the ingest validator disabled (the limit)

Each measurement is a fresh single-broker instance: 200 submissions to warm up, then
COUNT submissions of the same small V1 jobspec (as `flux run -n1 true` writes it, with
an empty environment),
held (urgency 0) so that nothing is scheduled, 64 in flight at a time through the
Python API. Rounds interleave the four ways; the table shows medians. Validation CPU per
job is the validator processes' CPU for (a) and (b), and for (c) and (e) the broker's
CPU less that of (d) in the same round.

usage: flux_bench.py FLUX BUILD-DIR [--rounds N] [--count N]
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


def inside(count):
    """In the instance: warm up, submit `count` jobs, print the figures as JSON."""
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
        while sent < n:
            futures = [flux.job.submit_async(handle, text, urgency=0)
                       for _ in range(min(64, n - sent))]
            sent += len(futures)
            for future in futures:
                future.get_id()

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
    }[way]


def measure(flux, build, way, count):
    with tempfile.TemporaryDirectory(prefix=f"flux-bench-{way}-") as directory:
        with open(os.path.join(directory, "bench.toml"), "w", encoding="utf-8") as f:
            f.write(config(way, build))
        env = dict(os.environ)
        env["PYTHONPATH"] = os.path.join(build, "python") + os.pathsep + env.get("PYTHONPATH", "")
        p = subprocess.run([flux, "start", "-s", "1", f"-o,--config-path={directory}",
                            "flux", "python", os.path.abspath(__file__), "--inside",
                            str(count)],
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
    parser.add_argument("--inside", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inside:
        inside(args.inside)
        return 0
    args.build = os.path.abspath(args.build)
    results = {way: [] for way in WAYS}
    for round_ in range(args.rounds):
        for way in WAYS:
            results[way].append(measure(args.flux, args.build, way, args.count))
        line = ", ".join(f"({w}) {results[w][-1]['jobs_per_second']:.0f}/s" for w in WAYS)
        print(f"round {round_ + 1}: {line}", file=sys.stderr, flush=True)

    def median(way, key):
        return statistics.median(r[key] for r in results[way])
    rate = {way: median(way, "jobs_per_second") for way in WAYS}
    def over_d(way):
        return statistics.median(c["broker_cpu_per_job"] - d["broker_cpu_per_job"]
                                 for c, d in zip(results[way], results["d"]))
    cpu = {"a": median("a", "validator_cpu_per_job"), "b": median("b", "validator_cpu_per_job"),
           "c": over_d("c"), "e": over_d("e"), "d": 0.0}
    print(f"{args.count} submissions, median of {args.rounds} interleaved rounds")
    print("| way | jobs/s accepted | validation CPU per job |")
    print("|---|---:|---:|")
    for way, name in WAYS.items():
        print(f"| ({way}) {name} | {rate[way]:.0f} | {cpu[way] * 1e6:.0f} µs |")
    def paired(x, y):
        """The median over rounds of x's rate over y's in the same round."""
        return statistics.median(p["jobs_per_second"] / q["jobs_per_second"]
                                 for p, q in zip(results[x], results[y]))
    print(f"(c) / (d) = {paired('c', 'd'):.3f}; (e) / (d) = {paired('e', 'd'):.3f}; "
          f"(c) / (a) = {paired('c', 'a'):.3f}; (b) / (a) = {paired('b', 'a'):.3f} "
          "(medians of the ratios within a round)")
    print("broker CPU per job: " + ", ".join(
        f"({w}) {median(w, 'broker_cpu_per_job') * 1e6:.0f} µs" for w in WAYS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
