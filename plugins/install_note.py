#!/usr/bin/env python3
"""Run by `meson install` (plugins/meson.build): says where jobspec's Flux plugins went
and how to turn each on, in the words of docs/FLUX.md, so that an install never leaves
a site guessing why flux does not find them. meson (1.0) shows an install script's output
only when it fails, so the note goes to the terminal (/dev/tty) when there is one; the
configure summary says the same.

usage: install_note.py JOBTAP JOBTAP_SEARCHED VALIDATOR SHIM COMMAND PYTHON_DIR FOUND FLUX

JOBTAP: where jobspec.so was installed; JOBTAP_SEARCHED: the directory flux-core loads
jobtap plugins from by name; VALIDATOR: validator.py's installed path ("" without the
Python package); SHIM: the jobspec-rfc name installed into flux-core ("" when not);
COMMAND: `flux jobspec` installed among flux-core's commands ("" when not);
PYTHON_DIR: where the package went; FOUND: "found" when the Python flux runs searches
it; FLUX: the flux command. Paths are the final ones, without DESTDIR.
"""
import os
import sys


def main():
    jobtap, searched, validator, shim, command, python_dir, found, flux = sys.argv[1:9]
    destdir = os.environ.get("DESTDIR", "")
    by_name = os.path.dirname(jobtap) == searched
    load = "jobspec.so" if by_name else jobtap
    lines = ["jobspec's Flux plugins (docs/FLUX.md), the lines for this install:"]
    lines.append(f"  jobtap plugin     {jobtap}")
    lines.append(f'                    [job-manager] plugins = [ {{ load = "{load}" }} ]')
    lines.append(f"                    flux jobtap load --remove=jobspec.so {load} KEY=VALUE...")
    if not by_name:
        lines.append(f"                    (by this path: flux finds jobtap plugins by name only "
                     f"in {searched})")
    python_env = "" if found == "found" else f"PYTHONPATH={python_dir} "
    if validator:
        name = "jobspec-rfc" if shim else validator
        lines.append(f"  validator plugin  [ingest.validator] plugins = [\"{name}\"]")
        lines.append(f"  CLI plugin        FLUX_CLI_PLUGINPATH="
                     f"{os.path.join(os.path.dirname(validator), 'cli')}")
        lines.append(f"  flux jobspec      {command}" if command else
                     "  flux jobspec      FLUX_EXEC_PATH="
                     + os.path.join(os.path.dirname(validator), "cmd"))
        lines.append(f"  Python package    {python_dir}")
        lines.append(f"                    {python_env}flux python -m jobspec.flux --validator")
        if python_env:
            lines.append(f"                    the Python that {flux} runs does not search it: "
                         f"give instances PYTHONPATH={python_dir}")
    if destdir:
        lines.append(f"  (installed under DESTDIR={destdir})")
    try:
        with open("/dev/tty", "w", encoding="utf-8") as tty:
            print("\n".join(lines), file=tty)
    except OSError:
        print("\n".join(lines))


if __name__ == "__main__":
    main()
