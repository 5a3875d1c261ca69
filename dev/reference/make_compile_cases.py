#!/usr/bin/python3
"""Writes test/cli/data/compile_cases.json: command lines with the exact output (or exit
status) of flux-core 0.88's `flux run|submit|batch|alloc --dry-run`, for test/cli's
compile tests. Run from the project root with the reference built (../shared/reference):
  /usr/bin/python3 dev/reference/make_compile_cases.py
Every case runs in a scratch directory holding f.txt and s.sh, with the environment below,
--rlimit=-* (limits differ between machines) and --cwd=/w."""
import json, os, subprocess, sys, tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import FLUX

ENV = {"PATH": "/usr/bin:/bin", "TZ": "UTC", "FOO": "foo", "FOO2": "foo2", "OMP_A": "1"}
# (bullet of issue 16, command, arguments); --env=-* keeps flux's own variables out.
CASES = [
    ("-t is minutes", "run", ["-t", "30", "app"]),
    ("-t FSD", "run", ["-t", "30s", "app"]),
    ("-t FSD hours", "run", ["-t", "1.5h", "app"]),
    ("-t bad", "run", ["-t", "5x", "app"]),
    ("begin-time date", "run", ["--begin-time", "2030-01-02 03:04:05", "app"]),
    ("begin-time clock", "run", ["--begin-time=2030-01-02 3pm", "app"]),
    ("begin-time garbage", "run", ["--begin-time", "garbage", "app"]),
    ("requires repeated", "run", ["--requires", "foo", "--requires", "host:n[1-2]", "app"]),
    ("dependency repeated", "run", ["--dependency", "afterok:123", "--dependency=afterany:ƒ2",
                                    "--dependency", "AfterOK:1?x=1", "app"]),
    ("stops at command", "run", ["-n1", "myapp", "-c", "4"]),
    ("-- then options", "run", ["--", "app", "-n", "4"]),
    ("from_command -n5 -N4", "run", ["-n5", "-N4", "app"]),
    ("from_command -N alone", "run", ["-N2", "app"]),
    ("from_command -N4 -n2", "run", ["-N4", "-n2", "app"]),
    ("rfc25 2.4", "run", ["-N4", "-n16", "-g1", "app"]),
    ("setattr no value", "run", ["-S", "user.x", "--setattr=foo", "app"]),
    ("setattr json", "run", ["-S", "user.l=[1,2]", "-S", "user.s=abc", "-S", "system.foo=1", "app"]),
    ("setopt", "run", ["-o", "verbose", "--setopt=foo=bar", "app"]),
    ("queue", "run", ["-q", "debug", "app"]),
    ("job-name", "run", ["--job-name", "my job", "app"]),
    ("tasks-per-node", "run", ["-N2", "--tasks-per-node=2", "app"]),
    ("tasks-per-core", "run", ["--cores=8", "--tasks-per-core=2", "app"]),
    ("gpus-per-node", "run", ["-N2", "--gpus-per-node=2", "app"]),
    ("cores", "run", ["--cores=4", "-N2", "app"]),
    ("per-resource conflict", "run", ["-n2", "--cores=4", "app"]),
    ("exclusive", "run", ["-N2", "-n4", "-x", "app"]),
    ("exclusive without nodes", "run", ["-x", "app"]),
    ("env-remove", "run", ["--env-remove=FOO*", "app"]),
    ("env rules", "run", ["--env=-*", "--env=X=1", "--env=Y=$FOO:2", "--env=R={{rank}}", "--env=OMP*", "app"]),
    ("env bad variable", "run", ["--env=-*", "--env=Y=$NOPE", "app"]),
    ("rlimit", "run", ["--rlimit=nofile=1024,core=unlimited", "app"]),
    ("signal", "run", ["--signal=USR2@5m", "app"]),
    ("signal default", "run", ["--signal=@", "app"]),
    ("taskmap", "run", ["--taskmap=cyclic:2", "app"]),
    ("stdio", "run", ["--output=o.{{id}}", "--error=e", "--input=i.txt", "-l", "app"]),
    ("unbuffered", "run", ["-u", "app"]),
    ("add-file", "run", ["--add-file=f.txt", "--add-file=x:0755=#!/bin/sh\\ntrue\\n", "app"]),
    ("urgency bank flags", "run", ["--urgency=20", "-B", "proj", "--flags=waitable", "app"]),
    ("resources-shape", "run", ["--resources-shape=node=2/slot=2/core", "app"]),
    ("slot label task", "run", ["-n2", "app"]),
    ("submit cc", "submit", ["--cc=1-3", "--job-name=j{cc}", "app", "{cc}"]),
    ("submit bcc", "submit", ["--bcc=4", "app"]),
    # A format spec in the field: zero-padded and space-padded widths (issue 60).
    ("submit cc width", "submit", ["--cc=7", "--job-name=j{cc:03}", "app", "{cc:3}"]),
    ("batch nslots", "batch", ["-N2", "-n4", "s.sh", "a"]),
    ("batch slots required", "batch", ["s.sh"]),
    ("batch broker options", "batch", ["-n1", "--broker-opts=-v,-Sx=1", "--conf=a=1", "--dump=d.tgz", "s.sh"]),
    ("batch wrap", "batch", ["-n1", "--wrap", "hostname", "-n5"]),
    ("alloc", "alloc", ["-N2", "-n3", "--bg", "--", "cmd", "x"]),
    ("batch directives", "batch", ["d.sh"]),
    ("batch directives and command line", "batch", ["--job-name=cmd", "--env=B=2", "-n4", "d.sh", "x"]),
    ("batch directive error", "batch", ["bad.sh"]),
    ("unknown option", "run", ["--bogus", "app"]),
    ("no abbreviations", "run", ["--ntask=4", "app"]),
    ("no command", "run", []),
]


# The batch script of the directive cases (test/cli creates the same files).
DIRECTIVES = ('#!/bin/sh\n#FLUX: -N2 --job-name=dir   # two nodes\n#FLUX: --env=A=1\n#FLUX:\n'
              '#FLUX: --setattr=user.conf="""\n#FLUX: [config]\n#FLUX:   item = "foo"\n#FLUX: """\n'
              'hostname\n')


def main():
    scratch = tempfile.mkdtemp(prefix="compile-cases-")
    with open(os.path.join(scratch, "f.txt"), "w") as f:
        f.write("hello\n")
    os.chmod(os.path.join(scratch, "f.txt"), 0o640)
    with open(os.path.join(scratch, "s.sh"), "w") as f:
        f.write("#!/bin/sh\nhostname\n")
    with open(os.path.join(scratch, "d.sh"), "w") as f:
        f.write(DIRECTIVES)
    with open(os.path.join(scratch, "bad.sh"), "w") as f:
        f.write("#!/bin/sh\n#flux: -n1\nhostname\n#flux: -N1\n")
    out = []
    for name, cmd, args in CASES:
        argv = ["--env=-*", "--rlimit=-*", "--cwd=/w"] if "env" not in name else ["--rlimit=-*", "--cwd=/w"]
        if name == "env-remove":
            argv = ["--env=-*", "--env=FOO*", "--rlimit=-*", "--cwd=/w"]
        p = subprocess.run([FLUX, cmd, "--dry-run", *argv, *args], env=ENV, cwd=scratch,
                           capture_output=True, text=True)
        if "cc" in name and p.returncode == 0:
            # flux ignores --rlimit under --cc/--bcc (docs/COMPAT.md); jobspec honours it.
            js = json.loads(p.stdout)
            js["attributes"]["system"].pop("shell")
            p.stdout = json.dumps(js, ensure_ascii=False) + "\n"
        out.append({"name": name, "command": cmd, "arguments": argv + args, "status": p.returncode,
                    "stdout": p.stdout})
    path = os.path.join("test", "cli", "data", "compile_cases.json")
    with open(path, "w") as f:
        json.dump(out, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"{len(out)} cases -> {path}")


if __name__ == "__main__":
    main()
