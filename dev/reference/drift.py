#!/usr/bin/python3
"""Checks the differential harnesses' disagreement classes against docs/COMPAT.md.

Every class a harness run found (AREA.json in each results folder) must be named by a
row of COMPAT.md: a key `AREA: CLASS` in backticks, as run.sh's AREA.txt prints the
class under "== AREA". A `*` in a key stands for any text, for the part of a class that
names what a case happened to use rather than why it differs (the hostlist operation
that met a space: `hostlist: *: flux accepts / jobspec rejects [hostlist.syntax]`).
With --complete, every key of the areas that ran must also have been found: a row that
covers a class no longer seen is stale.

Usage: drift.py [--complete] COMPAT.md RESULTS_DIR...
Exit status: 0 every class explained (and, with --complete, every key seen), 1 otherwise,
2 misuse or no results."""
import json
import os
import re
import sys


def documented_keys(compat_text, areas):
    """The `AREA: CLASS` keys in backticks whose area is one of `areas`."""
    keys = set()
    for text in re.findall(r"`([^`\n]+)`", compat_text):
        area, sep, _ = text.partition(": ")
        if sep and area in areas:
            keys.add(text)
    return keys


def found_classes(folders):
    """{area: {key: cases}} of every AREA.json in the folders."""
    found = {}
    for folder in folders:
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".json"):
                continue
            area = name[:-len(".json")]
            with open(os.path.join(folder, name)) as f:
                classes = json.load(f)["classes"]
            seen = found.setdefault(area, {})
            for cls, cases in classes.items():
                seen.setdefault(f"{area}: {cls}", []).extend(cases)
    return found


def main(argv):
    complete = "--complete" in argv
    args = [a for a in argv if a != "--complete"]
    if len(args) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    compat, folders = args[0], args[1:]
    found = found_classes(folders)
    if not found:
        print("drift.py: no AREA.json in " + ", ".join(folders), file=sys.stderr)
        return 2
    with open(compat) as f:
        keys = documented_keys(f.read(), set(found))
    seen = {key: cases for area in found.values() for key, cases in area.items()}
    patterns = {key: re.compile(".*".join(map(re.escape, key.split("*")))) for key in keys}
    matched = {key: [k for k, p in patterns.items() if p.fullmatch(key)] for key in seen}
    unexplained = sorted(key for key, by in matched.items() if not by)
    used = {k for by in matched.values() for k in by}
    stale = sorted(keys - used) if complete else []
    for key in unexplained:
        example = min(seen[key], key=lambda c: len(json.dumps(c, default=str)))
        print(f"unexplained: `{key}` ({len(seen[key])} cases), e.g. "
              + json.dumps(example, default=str, ensure_ascii=False)[:300])
    for key in stale:
        print(f"stale: `{key}` is in {os.path.basename(compat)} but no run found it")
    print(f"drift: {len(seen)} classes in {len(found)} areas, {len(keys)} keys documented; "
          f"{len(unexplained)} unexplained, {len(stale)} stale")
    return 1 if unexplained or stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
