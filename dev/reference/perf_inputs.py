#!/usr/bin/python3
"""Inputs for the side-by-side timings of docs/PERFORMANCE.md ("flux R, flux hostlist and
jobspec"): R with 10,000 ranks, each with its own cores and GPUs, and 10^5 host names.
usage: perf_inputs.py DIR"""
import json
import os
import random
import sys


def idset(ids):
    ids, out, i = sorted(ids), [], 0
    while i < len(ids):
        j = i
        while j + 1 < len(ids) and ids[j + 1] == ids[j] + 1:
            j += 1
        out.append(str(ids[i]) if i == j else f"{ids[i]}-{ids[j]}")
        i = j + 1
    return ",".join(out)


def r(ranks, cores, gpus, nodelist, properties=True):
    lite = []
    for rank in ranks:
        children = {"core": idset(cores(rank))}
        if gpus(rank):
            children["gpu"] = idset(gpus(rank))
        lite.append({"rank": str(rank), "children": children})
    ex = {"R_lite": lite, "nodelist": nodelist}
    if properties:
        ex["properties"] = {"ssd": idset([x for x in ranks if x % 3 == 0]),
                            "bigmem": idset([x for x in ranks if x % 7 == 0])}
    return json.dumps({"version": 1, "execution": ex}) + "\n"


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    write = lambda name, text: open(os.path.join(out, name), "w").write(text)
    cores = lambda rank: [c for c in range(48) if c != rank % 48]   # one core missing
    gpus = lambda rank: [g for g in range(8) if g != rank % 8]
    r10k = r(range(10000), cores, gpus, ["node[0-9999]"])
    write("r10k.json", r10k)
    # the same ranks with 16 more cores each: decode takes the union rank by rank
    write("union.json", r10k + r(range(10000), lambda _: range(48, 64), lambda _: [],
                                 ["node[0-9999]"], properties=False))
    # ranks from 10000, every other core: remap renumbers ranks and cores
    write("r10k-sparse.json", r(range(10000, 20000), lambda x: range(0, 80 + 2 * (x % 8), 2),
                                lambda x: [x % 4], ["n[10000-19999]"]))
    # what rank 4242 should have, then what was found on it
    write("verify.json", r10k + r([4242], cores, gpus, ["node4242"], properties=False))
    names = [f"node{i}" for i in range(100000)]
    random.Random(17).shuffle(names)
    write("hosts100k.txt", "".join(n + "\n" for n in names))


if __name__ == "__main__":
    main()
