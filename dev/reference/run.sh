#!/bin/bash
# Runs jobspec's differential harnesses against flux-core 0.88, every area: shapes,
# constraint queries (both dialects), dependency URIs, jobspec validation, idsets,
# hostlists, R and its configuration, job ids and compile; and match on Fluxion's graphs
# against flux-sched's resource-query (built by build-flux-sched.sh). Run from the
# project root after building.
# Usage: run.sh [AREA...]   areas: shape constraint dependency validate idset-hostlist
#                           R r-config fluid compile sched fluxion-match (default: all)
# Env: JOBSPEC (default build/tools/jobspec), REF (where flux-core was built, default
# ${TMPDIR:-/tmp}/flux-reference), DIFF_OUT (results, default build/reference), SEED_SHIFT
# (added to every area's seed, default 0: the seeds docs/COMPAT.md counts with), PERCENT
# (of each area's random cases, default 100: a quicker run over many seeds).
# Each area writes AREA.txt (counts and every disagreement class with its shortest
# examples) and AREA.json (every case); drift.py checks the classes against COMPAT.md.
# About 1 minute for the first four areas, 16 for all, on 2 cores.
set -u
export JOBSPEC=$(readlink -f "${JOBSPEC:-build/tools/jobspec}")
export REF=${REF:-${TMPDIR:-/tmp}/flux-reference}
export DIFF_OUT=$(readlink -f "${DIFF_OUT:-build/reference}")
shift_=${SEED_SHIFT:-0}
pct=${PERCENT:-100}
n() { echo $(( ($1 * pct + 99) / 100 )); }
mkdir -p "$DIFF_OUT"
FLUX=$REF/flux-core/src/cmd/flux
[ -x "$FLUX" ] || { echo "no reference at $REF/flux-core: see ../shared/reference/README.md"; exit 2; }
# The shape and constraint harnesses import flux-core's pure-Python parsers from copies, so
# that they run without flux's bindings; each copy is renamed into place, so that another
# run.sh at the same time never imports one half written.
for m in shape constraint; do
    mkdir -p "$REF/py/flux_$m"
    cp "$REF/flux-core/src/bindings/python/flux/$m/parser.py" "$REF/py/flux_$m/parser.py.$$"
    mv -f "$REF/py/flux_$m/parser.py.$$" "$REF/py/flux_$m/parser.py"
    touch "$REF/py/flux_$m/__init__.py"
done
cd "$(dirname "$0")"
areas=${*:-shape constraint dependency validate idset-hostlist R r-config fluid compile sched fluxion-match}
status=0
for area in $areas; do
    case $area in
    shape)          /usr/bin/python3 diff_shape.py $(n 1500) $((46 + shift_)) ;;      # RFC 46 shapes
    constraint)     /usr/bin/python3 diff_constraint.py $(n 1500) $((35 + shift_)) ;; # RFC 35, both dialects
    dependency)     "$FLUX" python diff_dependency.py $(n 600) $((26 + shift_)) ;;    # RFC 26 URIs
    validate)       "$FLUX" python diff_validate.py $(n 800) $((14 + shift_)) ;;      # RFC 14/25
    idset-hostlist) "$FLUX" python diff_idset_hostlist.py $(n 400) $((22 + shift_)) ;; # RFC 22, RFC 29
    R)              "$FLUX" python diff_R.py $(n 120) $((20 + shift_)) ;;             # RFC 20 R, flux R
    r-config)       "$FLUX" python diff_r_config.py $(n 200) $((30 + shift_)) ;;      # flux R parse-config
    fluid)          /usr/bin/python3 diff_fluid.py $(n 150) $((19 + shift_)) ;;       # RFC 19 job ids
    compile)        /usr/bin/python3 diff_compile.py $(n 2000) $(n 200) $((16 + shift_)) ;; # flux run ... --dry-run
    sched)          /usr/bin/python3 diff_sched.py $(n 10) 100 $((31 + shift_)) ;;    # sched-simple vs match
    fluxion-match)  /usr/bin/python3 diff_fluxion_match.py $(n 150) $((45 + shift_)) ;; # vs resource-query
    *)              echo "run.sh: unknown area '$area'" >&2; exit 2 ;;
    esac || status=1
done
exit $status
