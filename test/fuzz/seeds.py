#!/usr/bin/env python3
"""Seeds a libFuzzer target from the conformance data, then runs it.

usage: seeds.py TARGET CONFORMANCE-DIR FUZZER [LIBFUZZER-ARGS...]

Writes one seed file per conformance input into a fresh corpus directory (inside the
build tree, kept between runs so coverage accumulates) and runs FUZZER over it.
"""
import os
import pathlib
import subprocess
import sys


def shape_seeds(conformance):
    base = conformance / "shape"
    for f in sorted((base / "valid").glob("*.shape")):
        for line in f.read_text().splitlines():
            if line and not line.startswith("#"):
                yield line
    for line in (base / "invalid.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            yield line.split("\t", 2)[-1]


def jobspec_seeds(extension):
    def seeds(conformance):
        base = conformance / "jobspec"
        for f in sorted(base.rglob("*")):
            if f.is_file() and f.suffix in (".yaml", ".json") and f.suffix == extension:
                yield f.read_text()
    return seeds


def dependency_seeds(conformance):
    base = conformance / "dependency"
    for line in (base / "valid.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            yield line.split("\t", 1)[0]
    for line in (base / "invalid.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            yield line.split("\t", 2)[-1]


def fluid_seeds(conformance):
    for uri in dependency_seeds(conformance):
        if ":" in uri:
            yield uri.split(":", 1)[1].split("?", 1)[0]


def idset_seeds(_conformance):
    yield from ["0-3,7", "[1-3,5]", "0", "", "0-4294967295|1-5", "1,3,5|2-4", "0-10|5", "3,1"]


def hostlist_seeds(_conformance):
    yield from ["foo[1-5]", "foo[0-4]-eth2", "[00-02]", "foo[1,1,2,1]", "foox,fooy,fooz",
                "n[09-11]|n10", "a,b[1-2]|b2,c", "node[0-15]|node[4-7]"]


def resource_set_seeds(conformance):
    for f in sorted((conformance / "R").rglob("*.json")):
        yield f.read_text()


def query_seeds(conformance):
    base = conformance / "constraint"
    for name in ("queries.txt", "invalid.txt"):
        for line in (base / name).read_text().splitlines():
            if line and not line.startswith("#"):
                fields = line.split("\t")
                yield fields[0] if name == "queries.txt" else fields[-1]


def constraint_json_seeds(conformance):
    base = conformance / "constraint"
    for line in (base / "match.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            yield line.split("\t")[0]
    for line in (base / "invalid-json.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            yield line.split("\t")[-1]


def directives_seeds(conformance):
    for path in sorted((conformance / "directives").glob("*/*.sh")):
        yield path.read_text(encoding="utf-8")


def submit_options_seeds(conformance):
    """Each directive line's words, one per line, behind a byte choosing the command."""
    for i, script in enumerate(directives_seeds(conformance)):
        words = [w for line in script.splitlines() if line.startswith("#flux:")
                 for w in line[len("#flux:"):].split()]
        yield chr(i % 4) + "\n".join(words + ["app"])
    for i, words in enumerate((["-N4", "-n16", "-g1", "app"], ["--requires=ssd and (", "app"],
                               ["--shape", "slot=0/core", "app"], ["--add-file=z=/x", "a"],
                               ["--env=^/FOO=1", "--dependency=afterok:f1", "-t", "5m", "a"],
                               ["--conf=/a.json", "--add-brokers=2", "-N2", "script"])):
        yield chr(i % 4) + "\n".join(words)


def r_encode_seeds(_conformance):
    yield from ["0-3\n0-7\n0-1\nn[0-3]\nbig:1-2\nssd", "0\n0\n\nlocalhost", "\n\n\n",
                "0-9223372036854775806\n0-9\n\nn[0-9223372036854775806]\np",
                "1,3,5\n2-4\n7\nfoo[1-3]\nx:3\ny:9"]


def r_config_seeds(_conformance):
    """flux-core's resource.config examples, one file or two behind the first byte."""
    one = ('[[resource.config]]\nhosts = "foo[0-2]"\ncores = "0-1"\n[[resource.config]]\n'
           'hosts = "foo2"\ngpus = "0"\n[[resource.config]]\nhosts = "foo0"\n'
           'properties = ["login"]\n')
    yield from ["\x00" + one, "\x00[resource]\nnoverify = true\n",
                "\x01[[resource.config]]\nhosts = 'a'\ncores = '0'\n\x00" + one,
                "\x80" + '{"resource": {"config": [{"hosts": "n[0-3]", "cores": "0-3"}]}}',
                "\x00[resource]\npath = 'r.json'\nscheduling = 's.json'\n"]


def grammar_debug_seeds(conformance):
    """Each grammar's seeds behind a first byte choosing it (and some options)."""
    for selector, seeds in ((0, shape_seeds), (1, dependency_seeds), (2, query_seeds)):
        for i, seed in enumerate(seeds(conformance)):
            yield chr(selector + 3 * (i % 8)) + seed


SEEDS = {"grammar_debug": grammar_debug_seeds, "shape": shape_seeds, "query": query_seeds, "constraint_json": constraint_json_seeds, "idset": idset_seeds, "hostlist": hostlist_seeds,
         "resource_set": resource_set_seeds, "dependency": dependency_seeds, "fluid": fluid_seeds, "jobspec_yaml": jobspec_seeds(".yaml"),
         "jobspec_json": jobspec_seeds(".json"), "directives": directives_seeds,
         "submit_options": submit_options_seeds, "r_encode": r_encode_seeds,
         "r_config": r_config_seeds}


def main():
    target, conformance, fuzzer, *args = sys.argv[1:]
    corpus = pathlib.Path(fuzzer).parent / f"corpus-{target}"
    corpus.mkdir(exist_ok=True)
    for i, seed in enumerate(SEEDS[target](pathlib.Path(conformance))):
        (corpus / f"seed-{i:04d}").write_bytes(seed.encode())
    artifacts = pathlib.Path(fuzzer).parent / f"artifacts-{target}"
    artifacts.mkdir(exist_ok=True)
    cmd = [fuzzer, *args, f"-artifact_prefix={artifacts}/", "-print_final_stats=1", str(corpus)]
    sys.exit(subprocess.run(cmd).returncode)


if __name__ == "__main__":
    main()
