"""The command tree of jobspec and jobspec-grammar, read from their own --help (CLI11's
layout) and, for `jobspec compile`, from the flux options its --help lists. Used by the
abuse sweep and by the documentation test, so that neither keeps a list of commands."""
import re
import subprocess

TIMEOUT = 30


def help_sections(text):
    """CLI11 help -> {section: [item lines]}, items being lines indented by two spaces."""
    sections, current = {}, None
    for line in text.splitlines():
        if line and not line.startswith(" ") and line.endswith(":"):
            current = line[:-1]
            sections[current] = []
        elif current and re.match(r"  \S", line):
            sections[current].append(line[2:])
    return sections


def read_tree(program, path=(), aliases=()):
    """Every command under `path`: a list of (argv, positionals, options with values, flags,
    other names of the command), from --help."""
    text = subprocess.run([program, *path, "--help"], capture_output=True, text=True,
                          timeout=TIMEOUT).stdout
    if path == ("compile",):
        return compile_tree(program)
    sections = help_sections(text)
    positionals = [item.split()[0] for item in sections.get("Positionals", [])]
    valued, flags = [], []
    for item in sections.get("Options", []):
        head, _, rest = re.split(r"\s{2,}", item + "  ", maxsplit=1)[0].partition(" ")
        names = [n for n in head.split(",") if n.startswith("-")]
        name = max(names, key=len)
        if name in ("--help", "-h", "--version", "--help-all"):
            continue
        takes_value = bool(rest) and not rest.startswith(("Excludes", "Needs"))
        (valued if takes_value else flags).append(name)
    commands = [([program, *path], positionals, valued, flags, list(aliases))]
    for item in sections.get("Subcommands", []):
        names = re.split(r"\s{2,}", item, maxsplit=1)[0].split(", ")
        commands += read_tree(program, path + (names[0],), names[1:])
    return commands


def compile_tree(program):
    """compile's commands (one per flux command) and the flux options it reads."""
    commands = []
    for kind in ("run", "submit", "batch", "alloc"):
        text = subprocess.run([program, "compile", "--" + kind, "--help"], capture_output=True,
                              text=True, timeout=TIMEOUT).stdout
        listed = text[text.index("that compile reads"):]
        valued = re.findall(r"(--[\w-]+)(?:\[)?=VALUE", listed)
        flags = [f for f in re.findall(r"(--[\w-]+)(?![\w=\[-])", listed)
                 if f not in ("--submit", "--batch", "--alloc")]
        own = text[text.index("Options of jobspec"):text.index("How options become")]
        for name, value in re.findall(r"(--[\w-]+)( [A-Z]+\b| [a-z]+\|[a-z|]+)?", own):
            if name not in ("--submit", "--batch", "--alloc", "--help"):
                (valued if value else flags).append(name)
        script = ["SCRIPT"] if kind == "batch" else ["COMMAND"]
        commands.append(([program, "compile", "--" + kind, "--env-none"], script, valued,
                         flags, []))
    return commands
