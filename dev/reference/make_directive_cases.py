#!/usr/bin/python3
"""Writes test/conformance/directives/: the directive cases of the issue-16 research note
(/work/notes/flux-submit-spec.md section 12, or DIRECTIVE_CASES=FILE) plus RFC 36's
examples, each parsed by flux-core 0.88's own directive parser. Valid scripts get NAME.json
(the argument vectors); invalid ones NAME.error ("CODE LINE COLUMN": the line flux names,
the column where jobspec's diagnostic starts, checked to be on that line).
Run from the project root after building: /usr/bin/python3 dev/reference/make_directive_cases.py"""
import json, os, re, subprocess, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import FLUX, JOBSPEC

NOTE = os.environ.get("DIRECTIVE_CASES", "/work/notes/flux-submit-spec.md")
OUT = os.path.join("test", "conformance", "directives")
PARSE = ("import sys,json\nfrom flux.job.directives import DirectiveParser as P\n"
         "try:\n d=P(open(sys.argv[1], encoding='utf-8')).directives\n"
         " print(json.dumps({'ok': [x.args for x in d if x.action=='SETARGS']}))\n"
         "except Exception as e:\n print(json.dumps({'error': str(e)}))\n")
CODES = [("orphan", "directive.orphan"), ("sentinel changed", "directive.sentinel"),
         ("Unknown directive", "directive.unknown"), ("", "directive.quote")]


def cases():
    text = open(NOTE, encoding="utf-8").read()
    section = text[text.index("## 12."):text.index("## 13.")]
    for m in re.finditer(r"^#### (.+?)\n```\n(.*?)```\n", section, flags=re.M | re.S):
        yield re.sub(r"[^a-z0-9]+", "-", m.group(1).lower()).strip("-"), m.group(2).replace("\\r\\n", "\n")
    yield "rfc36-example-1", "#!/bin/sh\n# flux: -N4\n# flux: --job-name=foo\nflux run hostname\n"
    yield "rfc36-multiline", ('#!/bin/sh\n# flux: --setattr=user.conf="""\n# flux: [config]\n'
                              '# flux:   item = "foo"\n# flux: """\nhostname\n')


def main():
    for kind in ("valid", "invalid"):
        os.makedirs(os.path.join(OUT, kind), exist_ok=True)
    n = {"valid": 0, "invalid": 0}
    for name, script in cases():
        path = os.path.join(OUT, "valid", name + ".sh")
        with open(path, "w", encoding="utf-8") as f:
            f.write(script)
        r = json.loads(subprocess.run([FLUX, "python", "-c", PARSE, path], capture_output=True,
                                      text=True).stdout)
        if "ok" in r:
            with open(os.path.join(OUT, "valid", name + ".json"), "w") as f:
                f.write(json.dumps(r["ok"], ensure_ascii=False) + "\n")
            n["valid"] += 1
            continue
        os.replace(path, os.path.join(OUT, "invalid", name + ".sh"))
        path = os.path.join(OUT, "invalid", name + ".sh")
        line = int(re.match(r"line (\d+)", r["error"]).group(1))
        code = next(c for key, c in CODES if key in r["error"])
        p = subprocess.run([JOBSPEC, "directives", "--diagnostics", "json", path],
                           capture_output=True, text=True)
        diags = json.loads(p.stderr or "[]")
        column = diags[0].get("column", 0) if diags else 0
        if not diags or diags[0].get("line") != line or diags[0]["code"] != code:
            print(f"MISMATCH {name}: flux {r['error']!r}, jobspec {diags}")
        with open(os.path.join(OUT, "invalid", name + ".error"), "w") as f:
            f.write(f"{code} {line} {column}\n")
        n["invalid"] += 1
    print(n)


if __name__ == "__main__":
    main()
