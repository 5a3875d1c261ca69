#!/usr/bin/env python3
"""docs/CONFORMANCE.md against the RFC texts: every normative sentence of the RFCs it covers
has a row, every row names a sentence the RFC still has, and gives a case that exists or a
reason why no case can test it.

The normative sentences of an RFC (rfcNN.rst) are read so:
  1. Dropped: section titles (a line underlined or overlined with = * - # ~ ^ "), grid table
     lines (starting "+-", "+=", "++" or "|"), literal blocks (the indented block after a
     paragraph ending "::"), comments and footnotes (".. " not naming a directive), and the
     lines of the directives whose content is not prose (code, code-block, include,
     literalinclude, math, raw). Other directives (data, describe, note, ...) lose their
     ".. name::" line and options; their content is prose. The paragraph that defines the
     keywords ('The key words "MUST", ...') is dropped too, where an RFC has it in its text
     rather than included.
  2. What is left is cut into paragraphs: at blank lines, at each list item ("- ", "* ", "1. ")
     and wherever the indentation of the text changes (a definition's term and its body).
  3. Each paragraph is cut into sentences after ".", "!" or "?" followed by white space,
     except after "e.g.", "i.e.", "vs.", "cf." and "N.B.", and after "etc." when a lowercase
     word follows.
  4. A sentence is normative when it contains MUST, SHALL or REQUIRED in capitals (so also
     MUST NOT and SHALL NOT).
Sentences and rows are compared by their words only (letters, digits and "_"), after RST
roles and links are reduced to their text, so markup, quotes and line breaks do not matter.

A row of the map is a line "| RFC.N | QUOTE | CASES OR REASON |". RFC.N is the row's number,
unique, its RFC one of RFCS, or the name of one of the project's own specifications (OWN:
FLUXION.N for docs/FLUXION.md, SCHEDULERS.N for docs/SCHEDULERS.md, each a Markdown text read by the same rules once its headings and
fenced blocks are dropped, and checked with or without SPECS-DIR). QUOTE is the sentence from its start; "…" leaves words out, and
one at the end means the sentence goes on. A quote must name one sentence of its RFC: when an
RFC says the same sentence twice, it has as many rows. In the last column each `test/...`
code span is a case:
  `test/PATH`          the file must exist
  `test/PATH:NEEDLE`   the file must exist and contain NEEDLE (everything after the first ":")
Anything else in that column is prose; a row without a case must have prose: the reason.
A "|" inside a cell is written "\\|".

Every problem is printed, one a line, then the counts. Without SPECS-DIR only the rows are
checked, and the test is skipped (exit 77) if they pass, or fails when JOBSPEC_REQUIRE_SPECS
is set (as .ci/run sets it: CI must check the sentences).

usage: conformance_map.py CONFORMANCE.md SOURCE-DIR SPECS-DIR
"""
import os
import re
import sys

RFCS = (14, 19, 20, 22, 25, 26, 29, 31, 35, 36, 45, 46, 49)
# The project's own specifications, in Markdown, mapped as the RFCs are (rows "NAME.N"):
# headings and fenced blocks are dropped, the rest read by the same rules.
OWN = {"FLUXION": os.path.join("docs", "FLUXION.md"),
       "SCHEDULERS": os.path.join("docs", "SCHEDULERS.md")}
KEYWORD = re.compile(r"\b(MUST|SHALL|REQUIRED)\b")
LITERAL_DIRECTIVES = {"code", "code-block", "include", "literalinclude", "math", "raw"}
ABBREVIATIONS = re.compile(r"(?:\b(?:e\.g|i\.e|vs|cf)|N\.B)\.$")
LIST_ITEM = re.compile(r"\s*(?:[-*+]|\d+\.|#\.)\s+")
ADORNMENT = re.compile(r"""^([=*\-#~^"])\1{2,}\s*$""")
ELLIPSIS = "…"


def words(text):
    """The words of a text, RST roles and links reduced to their text."""
    text = re.sub(r":[\w-]+:`([^`<]*?)\s*(?:<[^>]*>)?`", r"\1", text)
    text = re.sub(r"`([^`<]+?)\s*<[^>]+>`_{1,2}", r"\1", text)
    text = re.sub(r"\[#\w*\]_", "", text)
    return re.findall(r"\w+", text)


def prose_lines(text):
    """(line number, line) of the prose of an RST text, blank where something was dropped."""
    lines = text.expandtabs(8).split("\n")
    out = []
    skip_deeper_than = None  # drop following lines indented more than this (or blank)
    options_of = None  # the indentation of a kept directive, while its options follow
    for i, line in enumerate(lines):
        indent = len(line) - len(line.lstrip())
        if skip_deeper_than is not None:
            if not line.strip() or indent > skip_deeper_than:
                out.append((i + 1, ""))
                continue
            skip_deeper_than = None
        if options_of is not None:
            if indent > options_of and re.match(r"\s*:[\w-]+:", line):
                out.append((i + 1, ""))
                continue
            options_of = None
        stripped = line.strip()
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        directive = re.match(r"\s*\.\.\s+([\w-]+)::", line)
        if directive:
            out.append((i + 1, ""))
            if directive.group(1) in LITERAL_DIRECTIVES:
                skip_deeper_than = indent
            else:
                options_of = indent
        elif stripped.startswith(".. ") or stripped == "..":
            out.append((i + 1, ""))
            skip_deeper_than = indent
        elif ADORNMENT.match(line) or (stripped and ADORNMENT.match(nxt)) \
                or re.match(r"\s*(\+[-=+]|\|)", line):
            out.append((i + 1, ""))
        else:
            out.append((i + 1, line))
            if stripped.endswith("::"):
                skip_deeper_than = indent
    return out


def paragraphs(text):
    """(line number, text) of each paragraph of an RST text."""
    found, current, current_indent = [], [], None
    for number, line in prose_lines(text):
        item = LIST_ITEM.match(line)
        indent = item.end() if item else len(line) - len(line.lstrip())
        if not line.strip() or item or indent != current_indent:
            if current:
                found.append((current[0][0], "\n".join(t for _, t in current)))
            current, current_indent = [], None
        if line.strip():
            body = line[item.end():] if item else line.strip()
            # RST shows a paragraph ending "text ::" as "text", and one ending "text::" as
            # "text:"
            body = re.sub(r"\s+::$", "", body.strip())
            current.append((number, body[:-1] if body.endswith("::") else body))
            current_indent = indent
    if current:
        found.append((current[0][0], "\n".join(t for _, t in current)))
    return [(n, p) for n, p in found if not p.startswith('The key words "MUST"')]


def sentences(text):
    """(line number, sentence) of each normative sentence of an RST text."""
    found = []
    for line, paragraph in paragraphs(text):
        start = 0
        for m in re.finditer(r"(?<=[.!?])\s+", paragraph):
            before, after = paragraph[start:m.start()], paragraph[m.end():]
            if not ABBREVIATIONS.search(before) and \
                    not (before.endswith(" etc.") and after[:1].islower()):
                found.append((line + paragraph.count("\n", 0, start), before))
                start = m.end()
        found.append((line + paragraph.count("\n", 0, start), paragraph[start:]))
    return [(n, " ".join(s.split())) for n, s in found if KEYWORD.search(s)]


def quote_matches(quote, sentence_words):
    """Whether a row's quote names a sentence (given as its words)."""
    fragments = [words(f) for f in quote.split(ELLIPSIS)]
    open_end = not fragments[-1]
    fragments = [f for f in fragments if f]
    if not fragments or sentence_words[:len(fragments[0])] != fragments[0]:
        return False
    at = len(fragments[0])
    for k, fragment in enumerate(fragments[1:], 1):
        if k == len(fragments) - 1 and not open_end:
            n = len(fragment)
            return n <= len(sentence_words) - at and sentence_words[-n:] == fragment
        found = next((i for i in range(at, len(sentence_words) - len(fragment) + 1)
                      if sentence_words[i:i + len(fragment)] == fragment), None)
        if found is None:
            return False
        at = found + len(fragment)
    return open_end or at == len(sentence_words)


def table_cells(line):
    """The cells of a Markdown table row ("\\|" is a "|" inside a cell)."""
    cells = re.split(r"(?<!\\)\|", line.strip())[1:-1]
    return [c.strip().replace("\\|", "|") for c in cells]


def rows(path):
    """(line number, number, quote, last cell) of each row of the map."""
    found = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.startswith("|"):
                continue
            cells = table_cells(line)
            if len(cells) == 3 and re.fullmatch(r"(?:\d+|[A-Z]+)\.\d+", cells[0]):
                found.append((n, *cells))
    return found


def check_cell(cell, source):
    """(number of cases, problems) of a row's last cell: cases that are missing, or neither
    a case nor a reason."""
    problems, cases = [], 0
    for span in re.findall(r"`([^`]+)`", cell):
        if not span.startswith("test/"):
            continue
        cases += 1
        path, _, needle = span.partition(":")
        full = os.path.join(source, path)
        if not os.path.isfile(full):
            problems.append(f"{path} does not exist")
            continue
        with open(full, encoding="utf-8", errors="replace") as f:
            if needle and needle not in f.read():
                problems.append(f"{path} does not contain {needle!r}")
    if not cases and not re.search(r"\w", cell):
        problems.append("has neither a case nor a reason")
    return cases, problems


def markdown_prose(text):
    """A Markdown specification as text the RST rules read: headings and fenced blocks
    blank."""
    out, fenced = [], False
    for line in text.split("\n"):
        if line.startswith("```"):
            fenced = not fenced
            out.append("")
        elif fenced or line.startswith("#"):
            out.append("")
        else:
            out.append(line)
    return "\n".join(out)


def check_rfc(rfc, text, named):
    """Problems between an RFC's text and the rows [(where, quote)] that name its sentences,
    and how many normative sentences it has."""
    problems = []
    # Identical sentences are one text, with as many rows as occurrences.
    texts = {}
    for line, sentence in sentences(text):
        texts.setdefault(tuple(words(sentence)), []).append((line, sentence))
    rows_of = {key: [] for key in texts}
    for where, quote in named:
        fits = [key for key in texts if quote_matches(quote, list(key))]
        if not fits:
            problems.append(f"{where}: RFC {rfc} has no such sentence (any more): {quote}")
        elif len(fits) > 1:
            problems.append(f"{where}: the quote fits {len(fits)} sentences of RFC {rfc}; "
                            f"quote more of it: {quote}")
        else:
            rows_of[fits[0]].append(where)
    for key, occurrences in texts.items():
        for line, sentence in occurrences[len(rows_of[key]):]:
            problems.append(f"{OWN.get(rfc) or f'rfc{rfc}.rst'}:{line}: no row for: {sentence}")
        for where in rows_of[key][len(occurrences):]:
            problems.append(f"{where}: a row more than RFC {rfc} has of: {occurrences[0][1]}")
    return problems, sum(len(o) for o in texts.values())


def main():
    map_path, source, specs = sys.argv[1:4]
    problems, named, numbers, with_cases = [], {}, set(), 0
    table = rows(map_path)
    for line, number, quote, cell in table:
        where = f"{os.path.basename(map_path)}:{line}: {number}"
        if number in numbers:
            problems.append(f"{where}: the number is used twice")
        numbers.add(number)
        prefix = number.split(".")[0]
        rfc = prefix if prefix in OWN else int(prefix) if prefix.isdigit() else prefix
        if rfc not in RFCS and rfc not in OWN:
            problems.append(f"{where}: RFC {rfc} is not one the map covers")
            continue
        cases, cell_problems = check_cell(cell, source)
        with_cases += cases > 0
        problems += [f"{where}: {p}" for p in cell_problems]
        named.setdefault(rfc, []).append((where, quote))
    counts = {}
    for name, path in OWN.items():
        with open(os.path.join(source, path), encoding="utf-8") as f:
            own_problems, counts[name] = check_rfc(name, markdown_prose(f.read()),
                                                   named.get(name, []))
        problems += own_problems
    if not os.path.isdir(specs):
        print("\n".join(problems + [f"no RFC texts in {specs}: the sentences are not checked"]))
        return 1 if problems or os.environ.get("JOBSPEC_REQUIRE_SPECS") else 77
    for rfc in RFCS:
        with open(os.path.join(specs, f"rfc{rfc}.rst"), encoding="utf-8") as f:
            rfc_problems, counts[rfc] = check_rfc(rfc, f.read(), named.get(rfc, []))
        problems += rfc_problems
    for p in problems:
        print(p)
    print(f"{sum(counts.values())} normative sentences (" +
          ", ".join(f"RFC {r}: {n}" for r, n in counts.items()) + f"); {len(table)} rows, "
          f"{with_cases} with cases, {len(table) - with_cases} with a reason only; "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
