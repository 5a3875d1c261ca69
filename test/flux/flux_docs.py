"""docs/FLUX.md's examples, run by the flux suite in real instances: each ```console
flux=SETUP block runs, command by command, in an instance configured by the ```toml
flux=SETUP block of the page (none: flux-core's defaults), from a directory whose
`build` is the build under test, and must print what the page shows (test/docs/
doc_test.py's rules: "[...]" and "..." are wildcards). Setup `cli` has the CLI plugin
on FLUX_CLI_PLUGINPATH. Names a site uses once jobspec is installed stand for the
build's files: "jobspec.so" (loaded by name) for the build's plugin, "jobspec-rfc" for
the build's shim among flux-core's validator plugins."""
import os
import re
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


def with_build(text, jobtap):
    """A command or TOML as the build runs it: jobspec.so, named alone, is the build's."""
    text = re.sub(r'load = "jobspec\.so"', f'load = "{jobtap}"', text)
    return re.sub(r"(?<=\s)jobspec\.so(?=\s|$)", jobtap, text)


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
