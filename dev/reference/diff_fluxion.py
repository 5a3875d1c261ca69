#!/usr/bin/env python3
"""jobspec's Fluxion dialect against Fluxion's own jobspec reader.

    diff_fluxion.py VALIDATE JOBSPECS [--jobspec PATH] [--out FILE]

VALIDATE is flux-sched's `flux-jobspec-validate` (its resource/libjobspec reader, built on
its own: see README.md here); JOBSPECS a folder of jobspecs, flux-sched's
t/data/resource/jobspecs or any other. Each file is read by both, `jobspec validate
--dialect fluxion FILE` and `VALIDATE FILE`, and their verdicts (accepted: exit 0) are
compared. Prints, per top-level folder, how many files each accepted and how many
verdicts agree, then every disagreement with jobspec's first error and Fluxion's message;
with --out, the same into FILE. Exits 0 whatever the counts: the differences that are
meant to stay are rows of docs/COMPAT.md.
"""
import argparse
import collections
import os
import subprocess
import sys

JOBSPEC = os.environ.get("JOBSPEC", "build/tools/jobspec")


def verdict(command):
    result = subprocess.run(command, capture_output=True, text=True, errors="replace",
                            timeout=60)
    first = next((line for line in result.stderr.splitlines()
                  if line.startswith(("error", "/", "flux")) or ": " in line), "")
    return result.returncode == 0, first.strip()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("validate")
    parser.add_argument("jobspecs")
    parser.add_argument("--jobspec", default=JOBSPEC)
    parser.add_argument("--out")
    args = parser.parse_args()
    files = sorted(os.path.join(d, f) for d, _, names in os.walk(args.jobspecs)
                   for f in names if f.endswith((".yaml", ".yml", ".json")))
    tally = collections.defaultdict(lambda: collections.Counter())
    differences = []
    for path in files:
        name = os.path.relpath(path, args.jobspecs)
        folder = name.split(os.sep)[0] if os.sep in name else "."
        ours, our_error = verdict([args.jobspec, "validate", "--dialect", "fluxion",
                                   "--color", "never", path])
        theirs, their_error = verdict([args.validate, path])
        row = tally[folder]
        row["files"] += 1
        row["jobspec accepts"] += ours
        row["Fluxion accepts"] += theirs
        row["agree"] += ours == theirs
        if ours != theirs:
            differences.append(f"{name}: jobspec {'accepts' if ours else 'refuses'}"
                               f" ({our_error or '-'}); Fluxion "
                               f"{'accepts' if theirs else 'refuses'} ({their_error or '-'})")
    lines = [f"{'folder':24} {'files':>6} {'jobspec ok':>11} {'Fluxion ok':>11} {'agree':>6}"]
    total = collections.Counter()
    for folder in sorted(tally):
        row = tally[folder]
        total.update(row)
        lines.append(f"{folder:24} {row['files']:6} {row['jobspec accepts']:11} "
                     f"{row['Fluxion accepts']:11} {row['agree']:6}")
    lines.append(f"{'all':24} {total['files']:6} {total['jobspec accepts']:11} "
                 f"{total['Fluxion accepts']:11} {total['agree']:6}")
    lines += ["", f"{len(differences)} disagreements:"] + differences
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)


if __name__ == "__main__":
    main()
