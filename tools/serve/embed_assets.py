#!/usr/bin/env python3
"""Writes a C++ source defining jobspec::serve::find_asset over the given files (assets.hpp).

usage: embed_assets.py OUTPUT.cpp FILE...

Each file is served at "/" + its name; index.html also at "/". The bytes are written as
integer arrays, so any content (quotes, backslashes, non-ASCII) survives unchanged.
"""
import os
import sys

TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
}


def main():
    output, inputs = sys.argv[1], sys.argv[2:]
    lines = ['#include "assets.hpp"', "", "namespace jobspec::serve {", "", "namespace {", ""]
    table = []
    for i, path in enumerate(inputs):
        name = os.path.basename(path)
        kind = TYPES.get(os.path.splitext(name)[1])
        if kind is None:
            sys.exit(f"embed_assets.py: no content type for {name}")
        with open(path, "rb") as f:
            data = f.read()
        lines.append(f"constexpr unsigned char asset{i}[] = {{")
        for start in range(0, len(data), 24):
            lines.append("    " + ",".join(str(b) for b in data[start:start + 24]) + ",")
        lines.append("    0};")
        body = (f"std::string_view(reinterpret_cast<const char*>(asset{i}), {len(data)})")
        table.append(f'    {{"/{name}", "{kind}", {body}}},')
        if name == "index.html":
            table.append(f'    {{"/", "{kind}", {body}}},')
    lines += ["", "const Asset assets[] = {"] + table + ["};", "", "} // namespace", "",
              "const Asset* find_asset(std::string_view path) {",
              "    for (const auto& asset : assets)",
              "        if (asset.path == path)",
              "            return &asset;",
              "    return nullptr;",
              "}", "", "} // namespace jobspec::serve", ""]
    with open(output, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
