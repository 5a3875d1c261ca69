#!/bin/sh
# Runs libFuzzer targets for longer than the test suite's smoke runs, one after another,
# each seeded from test/conformance with its dictionary, and prints one line per target:
# runs, exec/s and whether it found anything. Logs and crash inputs stay in the build tree
# (BUILDDIR/test/fuzz/{TARGET.log,artifacts-TARGET/}); a crash input belongs in
# test/conformance once fixed.
# Usage: dev/fuzz.sh [-t SECONDS] [-b BUILDDIR] [TARGET...]   (default: 600 s, build-fuzz,
#        every target). Configures BUILDDIR with clang, ASan and UBSan when it is missing.
set -eu
seconds=600
builddir=build-fuzz
while getopts t:b:h opt; do
  case $opt in
    t) seconds=$OPTARG ;;
    b) builddir=$OPTARG ;;
    *) sed -n '2,9s/^# \{0,1\}//p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
cd "$(dirname "$0")/.."

if [ ! -f "$builddir/build.ninja" ]; then
  CXX=clang++ CC=clang tools/setup.sh "$builddir" -Dfuzz=true \
    -Db_sanitize=address,undefined -Db_lundef=false
fi
# Only the targets named (with their library), or everything.
if [ $# -eq 0 ]; then
  ninja -C "$builddir" >/dev/null
  for f in "$builddir"/test/fuzz/fuzz-*; do
    [ -f "$f" ] && [ -x "$f" ] && set -- "$@" "${f##*/fuzz-}"
  done
else
  ninja -C "$builddir" $(for t in "$@"; do echo "test/fuzz/fuzz-$t"; done) >/dev/null
fi
targets=$*
status=0
for t in $targets; do
  log="$builddir/test/fuzz/$t.log"
  if python3 test/fuzz/seeds.py "$t" test/conformance "$builddir/test/fuzz/fuzz-$t" \
      -max_total_time="$seconds" -dict="test/fuzz/dict/$t.dict" >"$log" 2>&1; then
    result=clean
  else
    result="FOUND A PROBLEM (see $log)"
    status=1
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  echo "$t: ${runs:-?} runs in $seconds s, ${rate:-?} exec/s: $result"
done
exit $status
