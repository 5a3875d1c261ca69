"""Runs flux-core's own unit tests for flux.shape.parser and flux.constraint.parser
against jobspec.compat.flux, unchanged.

flux-core's test files are not part of this repository (they are flux-core's, under the
LGPL): they are read from FLUX_CORE_SOURCE (default /tmp/flux-reference/flux-core), and
the tests that need them are skipped when it is absent. Before a test file is loaded,
`flux`, `flux.shape`, `flux.shape.parser`, `flux.constraint` and `flux.constraint.parser`
are made to resolve to the drop-in (shadowing a real flux), and the two helpers the files
import, `subflux` (which would rewrite sys.argv) and `pycotap`, are stubbed.
"""
import contextlib
import importlib.util
import os
import shutil
import sys
import tempfile
import types
import unittest

FLUX_CORE_SOURCE = os.environ.get("FLUX_CORE_SOURCE", "/tmp/flux-reference/flux-core")


def flux_source(*parts):
    """The path of a file in flux-core's source, or None when it is not there."""
    path = os.path.join(FLUX_CORE_SOURCE, *parts)
    return path if os.path.exists(path) else None


def flux_constraint_module():
    """flux-core's own flux.constraint.parser module (it needs python3-ply), imported from
    a copy under a name of its own, or None when flux-core's source is not there."""
    base = flux_source("src", "bindings", "python", "flux", "constraint")
    if base is None:
        return None
    scratch = tempfile.mkdtemp(prefix="flux-constraint-")
    target = os.path.join(scratch, "fluxoriginal")
    os.makedirs(target)
    for name in ("__init__.py", "parser.py", "parsetab.py"):
        shutil.copy(os.path.join(base, name), target)
    sys.path.insert(0, scratch)
    try:
        return importlib.import_module("fluxoriginal.parser")
    finally:
        sys.path.remove(scratch)


def _package(name, **attributes):
    module = types.ModuleType(name)
    module.__path__ = []
    module.__dict__.update(attributes)
    return module


@contextlib.contextmanager
def flux_resolves_to_dropin():
    """sys.modules with flux's parser modules replaced by jobspec.compat.flux's."""
    from jobspec.compat.flux import constraint, shape

    pycotap = types.ModuleType("pycotap")
    pycotap.TAPTestRunner = unittest.TextTestRunner
    stubs = {
        "flux.shape.parser": shape,
        "flux.constraint.parser": constraint,
        "flux.shape": _package("flux.shape", parser=shape),
        "flux.constraint": _package("flux.constraint", parser=constraint),
        "subflux": types.ModuleType("subflux"),
        "pycotap": pycotap,
    }
    stubs["flux"] = _package("flux", shape=stubs["flux.shape"], constraint=stubs["flux.constraint"])
    saved = {name: sys.modules.get(name) for name in stubs}
    sys.modules.update(stubs)
    try:
        yield
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


def run_flux_test(path):
    """Loads flux-core's test file at `path` with flux resolving to the drop-in and runs
    every test in it; returns the unittest.TestResult."""
    with flux_resolves_to_dropin():
        name = "flux_test_" + os.path.basename(path).split("-")[0]
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        suite = unittest.defaultTestLoader.loadTestsFromModule(module)
        result = unittest.TestResult()
        suite.run(result)
    return result
