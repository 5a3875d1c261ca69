#!/usr/bin/python3
"""The drift check (issues 33 and 49): runs the differential harnesses
(dev/reference/run.sh) with this build of jobspec against flux-core built from
../shared/vendor, then dev/reference/drift.py against docs/COMPAT.md:
- on the default seeds, --complete: fails when a class of disagreement appears that no
  COMPAT row names, or a row names a class that no longer occurs;
- on a random seed as well, half the cases (printed; JOBSPEC_DRIFT_SEED=N replays it):
  fails when a class appears that no row names. COMPAT's keys must hold for any seed, not only for the seeds
  that produced them.

Usage: reference_drift.py JOBSPEC SOURCE_ROOT. Skips (77) without flux-core's build tree
at $REF (default ${TMPDIR:-/tmp}/flux-reference), unless JOBSPEC_REQUIRE_FLUX is set."""
import concurrent.futures
import os
import random
import subprocess
import sys
import tempfile

AREAS = ["shape", "constraint", "dependency", "validate", "idset-hostlist"]


def run_areas(jobspec, ref, root, out, shift, percent):
    """run.sh on AREAS with seeds shifted by `shift`, `percent` of the cases, into `out`:
    whether every area wrote its results, and what to print."""
    env = dict(os.environ, JOBSPEC=jobspec, REF=ref, DIFF_OUT=out, SEED_SHIFT=str(shift),
               PERCENT=str(percent))
    run = subprocess.run(["bash", os.path.join(root, "dev", "reference", "run.sh"), *AREAS],
                         env=env, cwd=root, capture_output=True, text=True, timeout=1200)
    said = [l for l in run.stdout.splitlines() if l.startswith("==")]
    wrote = {n.split(".")[0].split("-")[0] for n in os.listdir(out) if n.endswith(".json")}
    if run.returncode != 0 or not all(a.split("-")[0] in wrote for a in AREAS):
        return False, "\n".join(said + [run.stdout[-3000:], run.stderr[-3000:]])
    return True, "\n".join(said)


def drift(root, out, complete):
    args = [sys.executable, os.path.join(root, "dev", "reference", "drift.py")]
    args += ["--complete"] if complete else []
    run = subprocess.run([*args, os.path.join(root, "docs", "COMPAT.md"), out],
                         capture_output=True, text=True)
    print(run.stdout, run.stderr, sep="")
    return run.returncode == 0


def main():
    jobspec, root = (os.path.abspath(a) for a in sys.argv[1:3])
    ref = os.environ.get("REF", os.path.join(os.environ.get("TMPDIR", "/tmp"), "flux-reference"))
    if not os.access(os.path.join(ref, "flux-core", "src", "cmd", "flux"), os.X_OK):
        print(f"no flux-core build tree at {ref}/flux-core (../shared/reference/build-flux-core.sh)")
        return 1 if os.environ.get("JOBSPEC_REQUIRE_FLUX") else 77
    shift = int(os.environ.get("JOBSPEC_DRIFT_SEED") or random.SystemRandom().randrange(1, 10**6))
    with tempfile.TemporaryDirectory(prefix="jobspec-drift-") as fixed, \
            tempfile.TemporaryDirectory(prefix="jobspec-drift-random-") as loose, \
            concurrent.futures.ThreadPoolExecutor(2) as pool:
        # The two runs at once: each harness waits on flux's commands for half its time
        # (228 s, 217 core-seconds of 456, one after the other).
        runs = [pool.submit(run_areas, jobspec, ref, root, fixed, 0, 100),
                pool.submit(run_areas, jobspec, ref, root, loose, shift, 50)]
        (fixed_ran, fixed_said), (loose_ran, loose_said) = (r.result() for r in runs)
        print("== default seeds (--complete)")
        print(fixed_said)
        ok = fixed_ran and drift(root, fixed, True)
        print(f"== seeds shifted by {shift}, half the cases (replay: JOBSPEC_DRIFT_SEED={shift})")
        print(loose_said)
        ok = loose_ran and drift(root, loose, False) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
