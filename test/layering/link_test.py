#!/usr/bin/env python3
"""The layering rule at link time: each stage's library defines what it uses or finds it
in the stages below it, and each public header's functions are defined in its layer or
below (so a header is never implemented above the code that includes it).

The build links every stage alone with only the stages below it (src/meson.build, with
-Wl,--no-undefined); this test shows that such a link fails when a stage calls upward,
and reads the stage libraries' symbols to place each public header's functions.

usage: link_test.py SOURCE-DIR BUILD-DIR [LINK-FLAG...]   (the build's own, e.g. -fsanitize=...)
"""
import os
import re
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import layering_test  # noqa: E402  (PUBLIC_LAYER, ALLOWED: one table of the layers)

SOURCE = BUILD = None
LINK_FLAGS = []
STAGES = ["support", "model", "syntax", "lower", "sema", "match", "forecast", "emit", "api",
          "capi"]
# What the stages link besides each other (src/meson.build's stage_deps).
THIRD_PARTY = ["-lantlr4-runtime", "-lboost_json", "-lyaml-cpp", "-lfmt", "-lutf8proc"]
DECLARED = re.compile(r"JOBSPEC_API\s+[^;{}()]*?\b(~?\w+)\s*\(", re.S)
CLASS = re.compile(r"\b(?:class|struct)\s+JOBSPEC_API\s+(\w+)")


def archive(stage):
    return os.path.join(BUILD, "src", f"libjobspec_{stage}.a")


def below(stage):
    """The stages `stage` may use, itself included, lowest last (link order)."""
    allowed = layering_test.ALLOWED[f"src/{stage}"]
    if stage == "capi":
        allowed = set(STAGES)
    return [s for s in reversed(STAGES) if s in allowed]


def link_alone(stage, extra_objects=()):
    """Links `stage` whole with the stages below it, as the build does; the linker's
    output, and whether it succeeded."""
    with tempfile.TemporaryDirectory() as d:
        args = ["c++", "-shared", *LINK_FLAGS, "-o", os.path.join(d, "alone.so"),
                "-Wl,--no-undefined",
                "-Wl,--whole-archive", *extra_objects, archive(stage), "-Wl,--no-whole-archive",
                *[archive(s) for s in below(stage) if s != stage], *THIRD_PARTY]
        done = subprocess.run(args, capture_output=True, text=True)
        return done.returncode == 0, done.stderr


def defined_functions():
    """Each function the stages define in namespace jobspec (not its inner namespaces),
    by qualified name, with the stages that define it."""
    found = {}
    for stage in STAGES:
        out = subprocess.run(["nm", "-C", "--defined-only", archive(stage)],
                             capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            parts = line.split(" ", 2)
            if len(parts) != 3 or parts[1] != "T":
                continue
            m = re.match(r"jobspec::((?:[A-Z]\w*::)?~?\w+)\(", parts[2])
            if m:
                found.setdefault(m.group(1), set()).add(stage)
    return found


def misplaced_public_functions():
    defined = defined_functions()
    found = []
    public = os.path.join(SOURCE, "include", "jobspec")
    for name, layer in sorted(layering_test.PUBLIC_LAYER.items()):
        if layer == "capi" or not name.endswith(".hpp"):
            continue
        path = os.path.join(public, name)
        if not os.path.exists(path):
            path += ".in"  # version.hpp, configured
        with open(path, encoding="utf-8") as f:
            text = f.read()
        wanted = set(DECLARED.findall(text))
        classes = set(CLASS.findall(text))
        allowed = layering_test.ALLOWED[f"src/{layer}"]
        for qualified, stages in sorted(defined.items()):
            owner, _, function = qualified.rpartition("::")
            if (owner in classes or (not owner and function in wanted)) and \
                    not stages <= allowed:
                found.append(f"include/jobspec/{name} ({layer}): {qualified} is defined in "
                             f"{', '.join(sorted(stages - allowed))}")
    return found


class Linking(unittest.TestCase):
    def test_each_stage_links_with_only_the_stages_below_it(self):
        for stage in STAGES:
            linked, errors = link_alone(stage)
            self.assertTrue(linked, f"{stage}: {errors[:2000]}")

    def test_a_call_upward_does_not_link(self):
        """model calling read_jobspec (api's) is refused by the linker."""
        with tempfile.TemporaryDirectory() as d:
            planted = os.path.join(d, "upward.cpp")
            with open(planted, "w") as f:
                f.write("#include <jobspec/document.hpp>\n"
                        "bool upward() { return jobspec::read_jobspec(\"{}\").ok(); }\n")
            subprocess.run(["c++", "-std=c++20", "-fPIC", "-c", planted, "-o", planted + ".o",
                            "-I", os.path.join(SOURCE, "include")], check=True)
            linked, errors = link_alone("model", [planted + ".o"])
        self.assertFalse(linked)
        self.assertIn("undefined reference to `jobspec::read_jobspec", errors)

    def test_public_headers_are_implemented_in_their_layer_or_below(self):
        self.assertEqual(misplaced_public_functions(), [])

    def test_the_header_check_sees_a_misplaced_function(self):
        """A model header declaring an api function is caught."""
        real = layering_test.PUBLIC_LAYER["document.hpp"]
        layering_test.PUBLIC_LAYER["document.hpp"] = "model"
        try:
            self.assertIn("include/jobspec/document.hpp (model): read_jobspec is defined in "
                          "api", misplaced_public_functions())
        finally:
            layering_test.PUBLIC_LAYER["document.hpp"] = real


if __name__ == "__main__":
    SOURCE, BUILD = (os.path.abspath(a) for a in sys.argv[1:3])
    LINK_FLAGS = sys.argv[3:]
    unittest.main(argv=[sys.argv[0]], verbosity=1)
