#!/usr/bin/env python3
"""Where to install the jobspec package so that the Python flux runs imports it; run by
python/meson.build when flux-core is found.

usage: flux_python_dir.py FLUX DEFAULT_DIR PREFIX VERSION

FLUX is flux-core's flux command, DEFAULT_DIR where meson's Python installs (an absolute
path), PREFIX jobspec's prefix and VERSION the Python version the extension is built for.
Prints two lines: the directory to install into, and "found" when the Python flux runs
searches it (else "not-found"). DEFAULT_DIR when flux's Python searches it, or when that
Python is another version (the extension could not load there anyway); otherwise the
first directory flux's Python searches under PREFIX, a site- or dist-packages one first
(Debian's python3 searches /usr/local/lib/python3.X/dist-packages, not meson's
/usr/local/lib/python3/dist-packages); otherwise DEFAULT_DIR, which the install note then
says how to point flux at.
"""
import os
import subprocess
import sys

PROBE = ("import sys; print('%d.%d' % sys.version_info[:2]); "
         "print('\\n'.join(p for p in sys.path if p))")


def main():
    flux, default, prefix, version = sys.argv[1:5]
    try:
        out = subprocess.run([flux, "python", "-c", PROBE], capture_output=True, text=True,
                             timeout=60, check=True).stdout.splitlines()
    except (OSError, subprocess.SubprocessError):
        out = []
    if not out or out[0] != version:
        print(default, "not-found", sep="\n")
        return
    searched = [os.path.normpath(p) for p in out[1:]]
    if os.path.normpath(default) in searched:
        print(default, "found", sep="\n")
        return
    mine = [p for p in searched if p.startswith(os.path.normpath(prefix) + os.sep)]
    mine.sort(key=lambda p: not p.endswith(("site-packages", "dist-packages")))
    print(mine[0] if mine else default, "found" if mine else "not-found", sep="\n")


if __name__ == "__main__":
    main()
