"""docs/FLUX.md's examples, run by the flux suite in real instances: each ```console
flux=SETUP block runs, command by command, in an instance configured by the ```toml
flux=SETUP block of the page (none: flux-core's defaults), from a directory whose
`build` is the build under test, and must print what the page shows (test/docs/
doc_test.py's rules: "[...]" and "..." are wildcards). The pages are written for
jobspec installed in its default prefix, /usr/local, outside flux-core's: the suite
installs the build with `meson install --destdir` and runs each line as written, every
/usr/local path standing for its place under the DESTDIR (and mapped back in what is
printed)."""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs"))
from doc_test import examples, matches  # noqa: E402  pylint: disable=wrong-import-position


def setups(text):
    """{SETUP: the TOML of its ```toml flux=SETUP block}, for every setup a console block
    names."""
    names = set(re.findall(r"^ *```console flux=(\S+)$", text, flags=re.M))
    found = {name: "" for name in names}
    for block in re.finditer(r"^( *)```toml flux=(\S+)\n(.*?)^ *```", text, flags=re.M | re.S):
        indent = len(block.group(1))
        found[block.group(2)] = "\n".join(line[indent:] for line in
                                          block.group(3).split("\n"))
    return found


PREFIX = "/usr/local"


class Installed:
    """jobspec installed under a DESTDIR with the prefix the pages are written for."""

    def __init__(self, destdir, files, problem=""):
        self.destdir = destdir
        self.problem = problem
        self.ok = not problem
        self.python = self.command = ""
        if self.ok:
            package = os.path.dirname(os.path.dirname(os.path.dirname(files["validator.py"])))
            self.python = destdir + package
            self.command = destdir + os.path.dirname(files["flux-jobspec.py"])

    def local(self, text):
        """A command or TOML of the pages as it runs here: /usr/local under the DESTDIR."""
        return re.sub(r"(?<![\w/])" + re.escape(PREFIX) + r"(?=/)", self.destdir + PREFIX, text)

    def shown(self, result):
        """What a command printed, as the pages show it: the DESTDIR left out."""
        return {**result, "stdout": result["stdout"].replace(self.destdir + PREFIX, PREFIX),
                "stderr": result["stderr"].replace(self.destdir + PREFIX, PREFIX)}


def install(build, destdir):
    """`meson install --destdir` of the build, which must have the prefix /usr/local."""
    info = subprocess.run(["meson", "introspect", "--buildoptions", build],
                          capture_output=True, text=True, check=True).stdout
    prefix = next(o["value"] for o in json.loads(info) if o["name"] == "prefix")
    if prefix != PREFIX:
        return Installed(destdir, {}, f"the build's prefix is {prefix}: the pages are "
                         f"written for {PREFIX} (meson setup --prefix={PREFIX})")
    p = subprocess.run(["meson", "install", "-C", build, "--destdir", destdir, "--no-rebuild",
                        "--quiet"], capture_output=True, text=True)
    if p.returncode != 0:
        return Installed(destdir, {}, p.stdout + p.stderr)
    out = subprocess.run(["meson", "introspect", "--installed", build], capture_output=True,
                         text=True, check=True).stdout
    return Installed(destdir, {os.path.basename(k): v for k, v in json.loads(out).items()})


def eventual(example):
    """Whether what the example shows comes a moment after what came before it, so that it
    is awaited (for a bound) rather than read once: the jobtap plugin's reasons, set
    after the resources change (FLUX.md, "Reasons in flux jobs")."""
    return "user.jobspec_reason" in example.command


def sessions(text, setup):
    """The examples of the console blocks of `setup`."""
    return examples(text, f"flux={setup}")


def check(example, result):
    """Whether the command printed what the page shows (stdout and stderr together)."""
    printed = (result["stdout"] + result["stderr"]).rstrip("\n")
    ok = matches(example.output, printed.split("\n") if printed else [])
    return ok, f"line {example.line}: shows\n{example.expected}\n    printed\n{printed}"


def rewrite(text, printed):
    """The page with each example's output replaced by what it printed ({Example: text}),
    for a deliberate change (flux_test.py --update-docs; read the diff)."""
    lines = text.split("\n")
    for example, now in sorted(printed.items(), key=lambda p: -p[0].output_begin):
        end = example.output_begin + len(example.output)
        lines[example.output_begin:end] = now.rstrip("\n").split("\n") if now.strip() else []
    return "\n".join(lines)
