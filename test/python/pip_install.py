#!/usr/bin/env python3
"""The Python package installs from source the way users install it:
`pip install --no-build-isolation .` into a fresh venv (meson-python builds it), then
imports and works from outside the source tree.

The venv is made with --system-site-packages so that pip finds Debian's meson-python
(python3-mesonpy) offline; the installed package itself comes from the wheel.

usage: pip_install.py SOURCE-DIR
"""
import os
import subprocess
import sys
import tempfile
import unittest

SOURCE = None


def run(*command, cwd=None):
    done = subprocess.run(command, capture_output=True, text=True, cwd=cwd)
    if done.returncode != 0:
        raise AssertionError(f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


class PipInstall(unittest.TestCase):
    def test_pip_install_into_fresh_venv(self):
        with tempfile.TemporaryDirectory() as d:
            venv = os.path.join(d, "venv")
            run(sys.executable, "-m", "venv", "--system-site-packages", venv)
            python = os.path.join(venv, "bin", "python3")
            # Unoptimized (buildtype plain) with precompiled headers: the point is that it
            # builds, installs and works; a user's pip builds the release default, and
            # -O0 halves the time, the headers read once per stage a third of the rest.
            run(python, "-m", "pip", "install", "--no-build-isolation", "--no-index", "-q",
                "--config-settings=setup-args=-Dbuildtype=plain",
                "--config-settings=setup-args=-Db_pch=true", SOURCE)
            out = run(python, "-c", "import jobspec; print(jobspec.shape('slot=2/core'))", cwd=d)
            self.assertEqual(
                out,
                "[{'type': 'slot', 'count': 2, 'label': 'default', "
                "'with': [{'type': 'core', 'count': 1}]}]\n",
            )
            where = run(python, "-c", "import jobspec, os; print(os.path.dirname(jobspec.__file__))",
                        cwd=d).strip()
            self.assertTrue(where.startswith(venv), where)
            for name in ("py.typed", "__init__.pyi"):
                self.assertTrue(os.path.exists(os.path.join(where, name)), name)
            out = run(python, "-m", "jobspec.compat.flux.shape", "slot/node", cwd=d)
            self.assertIn('"label": "task"', out)
            # only the Python package: no jobspec tools, headers or libraries
            self.assertFalse(os.path.exists(os.path.join(venv, "bin", "jobspec")))


if __name__ == "__main__":
    SOURCE = os.path.abspath(sys.argv[1])
    unittest.main(argv=[sys.argv[0]], verbosity=2)
