#!/bin/bash
# Instructions per call of one function in a benchmark, for two builds, under callgrind:
# a figure that machine load does not move, for comparing builds side by side.
#
#   dev/bench/instructions.sh OLD-BUILD NEW-BUILD BENCH FILTER FUNCTION MARKER
#
# Both builds need -Dbenchmarks=true. FUNCTION's inclusive instruction count is divided by
# the number of calls of MARKER (a function called once per benchmark iteration; MIN_TIME,
# default 0.05 s, sets how long the benchmark runs under valgrind), e.g.
#   dev/bench/instructions.sh ../old/build-release build-release bench-shape \
#     stage_emit/small 'jobspec::to_json_text[abi:cxx11](std::vector' \
#     'jobspec::to_json_text[abi:cxx11](std::vector'
set -euo pipefail
[ $# -eq 6 ] || { sed -n '2,13p' "$0" >&2; exit 2; }
old=$1 new=$2 bench=$3 filter=$4 function=$5 marker=$6
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for build in "$old" "$new"; do
    valgrind --tool=callgrind --callgrind-out-file="$tmp/out" "$build/test/bench/$bench" \
        --benchmark_filter="$filter" --benchmark_min_time="${MIN_TIME:-0.05}" >/dev/null 2>&1
    callgrind_annotate --inclusive=yes --tree=caller "$tmp/out" >"$tmp/tree"
    # Each block of the caller tree: the callers ("<" lines, with call counts), then the
    # function itself ("*").
    read -r total calls < <(python3 - "$tmp/tree" "$function" "$marker" <<'PY'
import re, sys
tree, function, marker = sys.argv[1:]
total = calls = None
for block in open(tree).read().split("\n\n"):
    lines = block.strip("\n").split("\n")
    star = [l for l in lines if "*  ???:" in l]
    if not star:
        continue
    if total is None and "*  ???:" + function in star[0]:
        total = int(star[0].split()[0].replace(",", ""))
    if calls is None and "*  ???:" + marker in star[0]:
        calls = sum(int(m.replace(",", "")) for l in lines if "  < " in l
                    for m in re.findall(r"\(([\d,]+)x\)", l)[-1:])
print(total, calls)
PY
)
    echo "$build $filter: $((total / calls)) instructions per call ($calls calls)"
done
