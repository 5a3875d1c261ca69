#!/usr/bin/env python3
"""The layering rule, enforced: includes never run upward.

    support  <  model  <  syntax  <  lower      sema, match, emit   <  api  <  capi, tools
   (below all)          (text -> AST) (-> model)   (read the model)  (every public entry point)

Each folder of src/ may include, besides the standard library and third-party headers, only
the folders listed for it below, and of the public headers <jobspec/...> only those whose
layer (PUBLIC_LAYER) is one of them: a value header is model's (or support's), a door
header is the layer's that implements it (the entry points that compose the stages are
api's). link_test.py checks the same rule at link time. Generated ANTLR headers stay inside
src/syntax. capi, the tools, the Python extension and the Flux plugins
use only the public headers (and the tools their own tools/common), as any other program
would.

usage: layering_test.py SOURCE-DIR
"""
import os
import re
import sys
import unittest

SOURCE = None

ALLOWED = {
    "src/support": {"support"},
    "src/model": {"model", "support"},
    "src/syntax": {"syntax", "model", "support"},
    "src/lower": {"lower", "syntax", "model", "support"},
    "src/sema": {"sema", "model", "support"},
    "src/match": {"match", "model", "support"},
    "src/forecast": {"forecast", "match", "model", "support"},
    "src/emit": {"emit", "model", "support"},
    "src/api": {"api", "syntax", "lower", "sema", "match", "forecast", "emit", "model",
                "support"},
    "src/capi": {"capi"},
    "tools": set(),
    "examples": set(),
    "python": set(),
    "plugins": set(),
}
SRC_FOLDERS = {"support", "model", "syntax", "lower", "sema", "match", "forecast", "emit", "api",
               "capi"}
# The layer of each public header: where what it declares belongs. A header every layer
# may use holds value types or utilities; the entry points that run a whole pipeline
# (read, lower, check) are api's, and the C API is capi's.
PUBLIC_LAYER = {
    "api.hpp": "support", "limits.hpp": "support", "text.hpp": "support",
    "suggest.hpp": "support", "diagnostic.hpp": "support", "diagnostic_codes.def": "support",
    "result.hpp": "support",
    "count.hpp": "model", "idset.hpp": "model", "hostlist.hpp": "model",
    "fluid.hpp": "model", "resource_graph.hpp": "model", "attributes.hpp": "model",
    "constraint_model.hpp": "model", "dependency_model.hpp": "model",
    "resource_set_model.hpp": "model", "jobspec_model.hpp": "model",
    "fluxion_graph_model.hpp": "model", "forecast_model.hpp": "model",
    "submit_options.hpp": "model", "workflow_model.hpp": "model",
    "grammar_view_model.hpp": "model", "flux_query_model.hpp": "model",
    "dependency_rules.hpp": "sema", "workflow_graph.hpp": "sema",
    "emit.hpp": "emit", "render.hpp": "emit", "grammar_view_text.hpp": "emit",
    "forecast_text.hpp": "emit", "write_back.hpp": "emit",
    "document.hpp": "api", "document_check.hpp": "api", "submit.hpp": "api", "shape.hpp": "api", "shape_cache.hpp": "api",
    "input.hpp": "api", "match.hpp": "api", "version.hpp": "api", "jobspec.hpp": "api",
    "resource_config.hpp": "api", "constraint.hpp": "api", "resource_set.hpp": "api",
    "dependency.hpp": "api", "workflow.hpp": "api", "grammar_view.hpp": "api",
    "flux_query.hpp": "api", "forecast.hpp": "api",
    "jobspec.h": "capi",
}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
# What ANTLR generates from grammar/*.g4, and its runtime: only src/syntax may see them.
ANTLR = re.compile(r"^(antlr4-runtime\.h|[A-Z]\w*(Lexer|Parser|Visitor|Listener)?\.h|"
                   r"[A-Z][A-Za-z]*\.h|DefaultErrorStrategy\.h|tree/.*|atn/.*|misc/.*)$")


def files(folder):
    for root, _, names in os.walk(os.path.join(SOURCE, folder)):
        for name in names:
            if name.endswith((".cpp", ".hpp", ".h", ".c")):
                yield os.path.join(root, name)


def violations():
    found = []
    for folder, allowed in ALLOWED.items():
        for path in files(folder):
            rel = os.path.relpath(path, SOURCE)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for quote, header in INCLUDE.findall(text):
                top = header.split("/")[0]
                if header.startswith("jobspec/"):
                    name = header[len("jobspec/"):]
                    layer = PUBLIC_LAYER.get(name)
                    if layer is None:
                        found.append(f"{rel}: includes {header}, which PUBLIC_LAYER does not "
                                     "place in a layer")
                    elif folder.startswith("src/") and folder != "src/capi" and \
                            layer not in allowed:
                        found.append(f"{rel}: includes {header} (an {layer} header, not below "
                                     f"{folder[4:]})")
                    continue
                if folder.startswith("src/") and top in SRC_FOLDERS:
                    if top not in allowed:
                        found.append(f"{rel}: includes {header} ({top} is not below "
                                     f"{folder[4:]})")
                    continue
                if folder == "tools" and quote == '"':
                    # the tools' own headers: their folder and tools/common
                    if top in SRC_FOLDERS:
                        found.append(f"{rel}: includes {header} (tools use only <jobspec/...>)")
                    continue
                if folder in ("tools", "examples", "python", "plugins", "src/capi") and \
                        quote == '"' and \
                        top in SRC_FOLDERS - {"capi"}:
                    found.append(f"{rel}: includes {header}")
                    continue
                if folder != "src/syntax" and quote == '"' and ANTLR.match(header) and \
                        top not in SRC_FOLDERS:
                    if not os.path.exists(os.path.join(os.path.dirname(path), header)) and \
                            not os.path.exists(os.path.join(SOURCE, "tools", "common", header)):
                        found.append(f"{rel}: includes generated or ANTLR header {header}")
                if folder != "src/syntax" and header.startswith("antlr4-runtime"):
                    found.append(f"{rel}: includes the ANTLR runtime")
    return found


# How the layers of public headers stack: a public header includes only its own layer's
# headers and those below.
PUBLIC_ORDER = {"support": 0, "model": 1, "sema": 2, "emit": 2, "api": 3, "capi": 4}


def public_violations():
    found = []
    public = os.path.join(SOURCE, "include", "jobspec")
    for name in sorted(os.listdir(public)):
        own = PUBLIC_LAYER.get(name.replace(".in", ""))
        if own is None:
            continue
        with open(os.path.join(public, name), encoding="utf-8") as f:
            for _, header in INCLUDE.findall(f.read()):
                layer = PUBLIC_LAYER.get(header[len("jobspec/"):]) if \
                    header.startswith("jobspec/") else None
                if layer is not None and PUBLIC_ORDER[layer] > PUBLIC_ORDER[own]:
                    found.append(f"include/jobspec/{name} ({own}): includes {header} ({layer})")
    return found


class Layering(unittest.TestCase):
    def test_no_include_runs_upward(self):
        self.assertEqual(violations(), [])

    def test_the_checker_sees_a_violation(self):
        """A planted upward include must be caught (the test itself can fail)."""
        global SOURCE
        import tempfile
        real = SOURCE
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "src", "model"))
            with open(os.path.join(d, "src", "model", "x.cpp"), "w") as f:
                f.write('#include "sema/v1_pass.hpp"\n')
            SOURCE = d
            try:
                self.assertEqual(len(violations()), 1)
                # A public entry point's header below api is caught too.
                with open(os.path.join(d, "src", "model", "x.cpp"), "w") as f:
                    f.write("#include <jobspec/document.hpp>\n")
                self.assertEqual(violations(), ["src/model/x.cpp: includes jobspec/document.hpp "
                                                "(an api header, not below model)"])
            finally:
                SOURCE = real

    def test_public_headers_include_only_their_layer_and_below(self):
        self.assertEqual(public_violations(), [])

    def test_every_public_header_has_a_layer(self):
        public = os.path.join(SOURCE, "include", "jobspec")
        names = {n.replace(".in", "") for n in os.listdir(public)
                 if n.endswith((".hpp", ".h", ".def", ".hpp.in"))}
        self.assertEqual(sorted(names - set(PUBLIC_LAYER)), [])


if __name__ == "__main__":
    SOURCE = os.path.abspath(sys.argv[1])
    unittest.main(argv=[sys.argv[0]], verbosity=1)
