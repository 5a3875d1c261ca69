#!/bin/bash
# Runs tests of the flux suite N times in a row, each on its own random seed, and stops at
# the first failure, keeping its log. With --beside, another flux instance runs all along:
# it submits small jobs without pause, so that its job-ingest keeps validator workers alive
# and its broker busy, as a neighbour in CI or on a shared machine would.
#
# usage: dev/flux-repeat.sh [--beside] [--build DIR] N TEST...
#   e.g. dev/flux-repeat.sh --beside 20 flux-plugins flux-why
# Output: one line per run (test, round, result, seconds); logs of failures in
# BUILD/flux-repeat/. Exit status: 0 when every run passed, 1 on a failure, 2 on misuse.
# A skip (77: flux-core or Fluxion missing) is a failure: JOBSPEC_REQUIRE_FLUX and
# JOBSPEC_REQUIRE_FLUXION are set.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
beside=false
while [ $# -gt 0 ]; do
  case $1 in
    --beside) beside=true; shift ;;
    --build) build=$(cd "$2" && pwd) || exit 2; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) break ;;
  esac
done
if [ $# -lt 2 ] || ! [ "$1" -gt 0 ] 2>/dev/null; then
  echo "usage: dev/flux-repeat.sh [--beside] [--build DIR] N TEST..." >&2
  exit 2
fi
rounds=$1; shift
flux=${FLUX:-$(command -v flux || echo "${TMPDIR:-/tmp}/flux-reference/install/bin/flux")}
[ -x "$flux" ] || { echo "flux-repeat: no flux ($flux); set FLUX" >&2; exit 2; }
out=$build/flux-repeat
mkdir -p "$out"
export JOBSPEC_REQUIRE_FLUX=1 JOBSPEC_REQUIRE_FLUXION=1

neighbour=
stop_neighbour() {
  [ -n "$neighbour" ] && kill -- -"$neighbour" 2>/dev/null
  wait 2>/dev/null
}
trap 'stop_neighbour; exit 1' INT TERM HUP
if $beside; then
  # Its own process group, so that it and its broker end together.
  rm -f "$out/neighbour.count"
  setsid "$flux" start -s2 bash -c \
    'n=0; while :; do flux submit --quiet --wait --cc=1-8 -n1 true && n=$((n + 8)) || sleep 1
                      echo "$n" > "$0"; done' "$out/neighbour.count" \
    >"$out/neighbour.log" 2>&1 &
  neighbour=$!
  sleep 3
  kill -0 "$neighbour" 2>/dev/null || { echo "flux-repeat: the neighbour did not start:" >&2;
                                        cat "$out/neighbour.log" >&2; exit 2; }
fi

status=0
for round in $(seq 1 "$rounds"); do
  for t in "$@"; do
    start=$(date +%s)
    meson test -C "$build" --no-rebuild --print-errorlogs "$t" >"$out/last.log" 2>&1
    rc=$?
    took=$(( $(date +%s) - start ))
    seed=$(grep -o 'JOBSPEC_[A-Z]*_SEED=[0-9]*' "$build/meson-logs/testlog.txt" | head -1)
    if [ $rc -eq 0 ]; then
      echo "$t round $round/$rounds: ok in ${took}s ${seed}"
    else
      cp "$build/meson-logs/testlog.txt" "$out/$t-round-$round.log"
      echo "$t round $round/$rounds: FAILED in ${took}s ${seed}; log: $out/$t-round-$round.log"
      status=1
      break 2
    fi
  done
done
if $beside; then
  kill -0 "$neighbour" 2>/dev/null || { echo "flux-repeat: the neighbour stopped early" >&2; status=1; }
  echo "the neighbour ran $(cat "$out/neighbour.count" 2>/dev/null || echo 0) jobs meanwhile"
fi
stop_neighbour
exit $status
