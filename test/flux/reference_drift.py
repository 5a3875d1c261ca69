#!/usr/bin/python3
"""The drift check (issue 33): runs the shape, constraint, dependency and validate
harnesses (tools/reference/run.sh, default seeds) with this build of jobspec against
flux-core built from ../shared/vendor, then tools/reference/drift.py --complete against
docs/COMPAT.md: fails when a class of disagreement appears that no COMPAT row names, or a
row names a class that no longer occurs.

Usage: reference_drift.py JOBSPEC SOURCE_ROOT. Skips (77) without flux-core's build tree
at $REF (default ${TMPDIR:-/tmp}/flux-reference), unless JOBSPEC_REQUIRE_FLUX is set."""
import os
import subprocess
import sys
import tempfile

AREAS = ["shape", "constraint", "dependency", "validate"]


def main():
    jobspec, root = (os.path.abspath(a) for a in sys.argv[1:3])
    ref = os.environ.get("REF", os.path.join(os.environ.get("TMPDIR", "/tmp"), "flux-reference"))
    if not os.access(os.path.join(ref, "flux-core", "src", "cmd", "flux"), os.X_OK):
        print(f"no flux-core build tree at {ref}/flux-core (../shared/reference/build-flux-core.sh)")
        return 1 if os.environ.get("JOBSPEC_REQUIRE_FLUX") else 77
    with tempfile.TemporaryDirectory(prefix="jobspec-drift-") as out:
        env = dict(os.environ, JOBSPEC=jobspec, REF=ref, DIFF_OUT=out, SEED_SHIFT="0")
        run = subprocess.run(["bash", os.path.join(root, "tools", "reference", "run.sh"), *AREAS],
                             env=env, cwd=root, capture_output=True, text=True, timeout=900)
        print("\n".join(l for l in run.stdout.splitlines() if l.startswith("==")))
        if run.returncode != 0 or not all(
                any(n.startswith(a) and n.endswith(".json") for n in os.listdir(out))
                for a in AREAS):
            print(run.stdout[-3000:], run.stderr[-3000:], sep="\n")
            return 1
        drift = subprocess.run([sys.executable, os.path.join(root, "tools", "reference", "drift.py"),
                                "--complete", os.path.join(root, "docs", "COMPAT.md"), out],
                               capture_output=True, text=True)
        print(drift.stdout, drift.stderr, sep="")
        return drift.returncode


if __name__ == "__main__":
    sys.exit(main())
