#!/usr/bin/env python3
"""How the tools are linked, which decides what each process pays at start:

- none of the ANTLR runtime's XPath (grammar/without_tree_patterns.cpp), whose
  XPathLexer's static initializer would run at every start;
- with --static, no dynamic linker (no PT_INTERP), and GCC's ordinary crtbegin.o rather
  than crtbeginT.o (tools/startfiles/), whose registered .eh_frame makes the first
  exception sort every frame description: the program has the linker's frame table
  (__GNU_EH_FRAME_HDR) and not crtbeginT.o's registered one (__EH_FRAME_BEGIN__).

usage: linked_symbols_test.py NM [--static] PROGRAM..."""
import struct
import subprocess
import sys

PT_INTERP = 3


def has_interpreter(program):
    """Whether the ELF program names a dynamic linker."""
    with open(program, "rb") as f:
        data = f.read(1 << 16)
    assert data[:4] == b"\x7fELF" and data[4] == 2, f"{program} is not a 64-bit ELF file"
    order = "<" if data[5] == 1 else ">"
    phoff, = struct.unpack_from(order + "Q", data, 0x20)
    phentsize, phnum = struct.unpack_from(order + "HH", data, 0x36)
    return any(struct.unpack_from(order + "I", data, phoff + i * phentsize)[0] == PT_INTERP
               for i in range(phnum))


def problems(nm, program, static):
    symbols = subprocess.run([nm, "-C", program], capture_output=True, text=True,
                             check=True).stdout
    names = {line.split(" ", 2)[-1] for line in symbols.splitlines()}
    linked = sorted(n for n in names if "antlr4::tree::xpath::" in n or "XPathLexer" in n)
    if linked:
        yield f"links ANTLR's XPath: {len(linked)} symbols, e.g. {linked[0]}"
    if not any(n.startswith("antlr4::Parser::Parser(") for n in names):
        yield "does not link the ANTLR runtime statically"  # nothing above is proven
    if static:
        if has_interpreter(program):
            yield "is not linked -static: it names a dynamic linker"
        if "__EH_FRAME_BEGIN__" in names or "__GNU_EH_FRAME_HDR" not in names:
            yield "starts with crtbeginT.o: its first exception sorts every frame description"


def main(argv):
    nm, rest = argv[0], argv[1:]
    static = "--static" in rest
    failed = False
    for program in (a for a in rest if a != "--static"):
        for problem in problems(nm, program, static):
            failed = True
            print(f"{program} {problem}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
