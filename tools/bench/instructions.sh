#!/bin/bash
# Instructions per call of one function in a benchmark, for two builds, under callgrind:
# a figure that machine load does not move, for comparing builds side by side.
#
#   tools/bench/instructions.sh OLD-BUILD NEW-BUILD BENCH FILTER FUNCTION MARKER
#
# FUNCTION's inclusive instruction count is divided by the number of calls of MARKER
# (a function called once per benchmark iteration), e.g.
#   tools/bench/instructions.sh ../old/build-release build-release bench-shape \
#     stage_emit/small 'jobspec::to_json_text[abi:cxx11](std::vector' \
#     'jobspec::to_json_text[abi:cxx11](std::vector'
set -euo pipefail
[ $# -eq 6 ] || { sed -n '2,12p' "$0" >&2; exit 2; }
old=$1 new=$2 bench=$3 filter=$4 function=$5 marker=$6
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for build in "$old" "$new"; do
    valgrind --tool=callgrind --callgrind-out-file="$tmp/out" "$build/test/bench/$bench" \
        --benchmark_filter="$filter" --benchmark_min_time=0.05 >/dev/null 2>&1
    callgrind_annotate --inclusive=yes --tree=caller "$tmp/out" >"$tmp/tree"
    total=$(grep -F -m1 "*  ???:$function" "$tmp/tree" | awk '{print $1}' | tr -d ,)
    calls=$(grep -F -B1 "*  ???:$marker" "$tmp/tree" | grep '  < ' | grep -o '([0-9,]*x)' |
        tr -d '(),x' | paste -sd+ | bc)
    echo "$build $filter: $((total / calls)) instructions per call ($calls calls)"
done
