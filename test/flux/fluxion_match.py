#!/usr/bin/python3
"""jobspec match on Fluxion's resource graphs against flux-sched's resource-query (issue
45): dev/reference/run.sh's fluxion-match area on its default seed, then
- every one of flux-sched's own jobspecs (basics, exclusive, min_max, flexible) on its
  graphs has resource-query's verdict;
- the generated cases agree at least 99%;
- dev/reference/drift.py --complete: every class of disagreement is a docs/COMPAT.md
  row, and every row's class still occurs.

Usage: fluxion_match.py JOBSPEC SOURCE_ROOT. Skips (77) without resource-query at
$REF/flux-sched (default REF ${TMPDIR:-/tmp}/flux-reference), unless
JOBSPEC_REQUIRE_FLUXION is set."""
import json
import os
import subprocess
import sys
import tempfile


def main():
    jobspec, root = (os.path.abspath(a) for a in sys.argv[1:3])
    ref = os.environ.get("REF", os.path.join(os.environ.get("TMPDIR", "/tmp"), "flux-reference"))
    rq = os.path.join(ref, "flux-sched", "build", "resource", "utilities", "resource-query")
    if not os.access(rq, os.X_OK) or not os.access(
            os.path.join(ref, "flux-core", "src", "cmd", "flux"), os.X_OK):
        print(f"no resource-query at {rq} (../shared/reference/build-flux-sched.sh)")
        return 1 if os.environ.get("JOBSPEC_REQUIRE_FLUXION") else 77
    with tempfile.TemporaryDirectory(prefix="jobspec-fluxion-match-") as out:
        env = dict(os.environ, JOBSPEC=jobspec, REF=ref, DIFF_OUT=out)
        run = subprocess.run(["bash", os.path.join(root, "dev", "reference", "run.sh"),
                              "fluxion-match"], env=env, cwd=root, capture_output=True,
                             text=True, timeout=1500)
        print(run.stdout[-4000:], run.stderr[-2000:], sep="\n")
        if run.returncode != 0:
            return 1
        with open(os.path.join(out, "fluxion-match.json")) as f:
            result = json.load(f)
        ok = True
        own = [c for cases in result["classes"].values() for c in cases
               if not c["case"].startswith(("generated", "hand:"))]
        for c in own:
            print(f"flux-sched's own case differs: {c}")
            ok = False
        agree = result["agree"] + result["agree_norm"]
        share = agree / max(result["n"], 1)
        print(f"{agree} of {result['n']} verdicts agree ({100 * share:.1f}%)")
        if share < 0.99:
            print("fewer than 99% agree")
            ok = False
        drift = subprocess.run([sys.executable, os.path.join(root, "dev", "reference",
                                                             "drift.py"), "--complete",
                                os.path.join(root, "docs", "COMPAT.md"), out],
                               capture_output=True, text=True)
        print(drift.stdout, drift.stderr, sep="")
        return 0 if ok and drift.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
