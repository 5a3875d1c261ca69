#!/bin/sh
# Installs every Debian package the build, tests and tools need, then configures build/.
# Idempotent: packages already installed are skipped, and nothing is printed for them.
# Usage: tools/setup.sh [BUILDDIR [MESON-OPTIONS...]]   (default BUILDDIR: build)
set -eu

packages="gcc g++ pkg-config meson ninja-build python3 \
  antlr4 libantlr4-runtime-dev default-jre-headless \
  libboost-json1.81-dev libboost1.81-dev libyaml-cpp-dev libtomlplusplus-dev libcli11-dev libfmt-dev libutf8proc-dev \
  doctest-dev libbenchmark-dev graphviz scdoc man-db \
  clang libclang-rt-14-dev \
  chromium chromium-driver python3-selenium curl jq \
  neovim emacs-nox elpa-eglot elpa-yaml-mode \
  python3-dev pybind11-dev python3-mesonpy python3-pytest python3-pip python3-venv \
  python3-ply python3-yaml"

missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: missing packages:$missing (run as root to install them)" >&2
    exit 1
  fi
  echo "setup: installing$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

top=$(cd "$(dirname "$0")/.." && pwd)
builddir=${1:-build}
[ $# -gt 0 ] && shift
cd "$top"
# Quiet on success; meson's own output when it fails.
if [ -f "$builddir/build.ninja" ]; then
  set -- configure "$builddir" "$@"
  [ $# -gt 2 ] || exit 0
else
  set -- setup "$builddir" "$@"
fi
if ! log=$(meson "$@" 2>&1); then
  printf '%s\n' "$log" >&2
  exit 1
fi
