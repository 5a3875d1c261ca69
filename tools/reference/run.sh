#!/bin/bash
# Runs jobspec's extended differential harnesses (idset, hostlist, R, fluid) against
# flux-core 0.88, the areas of issue 17. Run from the project root after building.
# Env: JOBSPEC (default build/tools/jobspec), REF (where flux-core was built, default
# ${TMPDIR:-/tmp}/flux-reference), DIFF_OUT (results, default build/reference).
# Each area writes AREA.txt (counts and every disagreement class with its shortest
# examples) and AREA.json (every case). About 15 minutes on 2 busy cores.
set -u
export JOBSPEC=$(readlink -f "${JOBSPEC:-build/tools/jobspec}")
export REF=${REF:-${TMPDIR:-/tmp}/flux-reference}
export DIFF_OUT=$(readlink -f "${DIFF_OUT:-build/reference}")
mkdir -p "$DIFF_OUT"
FLUX=$REF/flux-core/src/cmd/flux
[ -x "$FLUX" ] || { echo "no reference at $REF/flux-core: see ../shared/reference/README.md"; exit 2; }
cd "$(dirname "$0")"
"$FLUX" python diff_idset_hostlist.py 400 22      # RFC 22 idsets, RFC 29 hostlists, flux hostlist
"$FLUX" python diff_R.py 120 20                   # RFC 20 R and flux R
"$FLUX" python diff_r_config.py 200 30            # flux R parse-config (issue 30)
/usr/bin/python3 diff_fluid.py 150 19             # RFC 19 job ids and flux job id
/usr/bin/python3 diff_compile.py 2000 200 16      # flux run/submit/batch/alloc --dry-run, directives
