"""The package's public surface: documented, typed, and its helper types picklable."""
import ast
import os
import pickle

import jobspec


def test_every_public_name_has_a_docstring():
    undocumented = [
        name
        for name in jobspec.__all__
        if not isinstance(getattr(jobspec, name), tuple) and not getattr(jobspec, name).__doc__
    ]
    assert undocumented == []


def test_stubs_declare_every_public_name():
    stub = os.path.join(os.path.dirname(jobspec.__file__), "__init__.pyi")
    with open(stub, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    declared = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            declared.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            declared.add(node.target.id)
        elif isinstance(node, ast.ImportFrom):
            declared.update(alias.asname or alias.name for alias in node.names)
    assert sorted(set(jobspec.__all__) - declared) == []
    assert os.path.exists(os.path.join(os.path.dirname(stub), "py.typed"))


def test_warning_and_diagnostic_pickle():
    d = jobspec.Diagnostic("a.b", "warning", "m", 1, 2, 3, 4, "/x", "h")
    w = jobspec.JobspecWarning("text", d)
    copy = pickle.loads(pickle.dumps(w))
    assert (str(copy), copy.diagnostic, copy.code) == ("text", d, "a.b")
    w = jobspec.JobspecWarning("text", d, "a.b at /x: m")
    assert pickle.loads(pickle.dumps(w)).summary == "a.b at /x: m"


def test_version():
    assert jobspec.__version__.count(".") == 2
