"""jobspec.Error, jobspec.Diagnostic and jobspec.JobspecWarning.

The extension module calls _raise, _warnings, _warn and _diagnostics; nothing else does.
"""
import dataclasses
import sys
import warnings
from typing import Optional


@dataclasses.dataclass(frozen=True)
class Diagnostic:
    """One problem found in an input.

    code: the stable dotted code ("shape.range-order", see `jobspec explain`);
    severity: "error" or "warning"; message: short, lower case;
    line, column: where it starts, both from 1, columns in code points (None if unknown);
    offset, length: the same as a byte range of the UTF-8 input (None if unknown);
    pointer: an RFC 6901 JSON pointer into the document ("" if none); help: a hint or "";
    source: what the positions count in when it is not the input itself (the option
    whose value it is, "--resources-shape", for compile()), else "".
    """

    code: str
    severity: str
    message: str
    line: Optional[int] = None
    column: Optional[int] = None
    offset: Optional[int] = None
    length: Optional[int] = None
    pointer: str = ""
    help: str = ""
    source: str = ""

    def __str__(self):
        return f"{self.severity}[{self.code}]: {self.message}"


def _diagnostics(items):
    return [
        Diagnostic(
            code=d["code"],
            severity=d["severity"],
            message=d["message"],
            line=d.get("line"),
            column=d.get("column"),
            offset=d.get("offset"),
            length=d.get("length"),
            pointer=d.get("pointer", ""),
            help=d.get("help", ""),
            source=d.get("source", ""),
        )
        for d in items
    ]


class Error(ValueError):
    """Invalid input. `diagnostics` lists every problem found (jobspec.Diagnostic);
    str() shows them as the command line does, with the input and a caret under each;
    `summary` is the errors on one line ("CODE at POINTER: message; ..."), at most 159
    bytes (the errors that fit, then "; and N more"), as the Flux plugins report a
    rejected job."""

    def __init__(self, message, diagnostics=(), summary=""):
        super().__init__(message)
        self.diagnostics = list(diagnostics)
        self.summary = summary

    def __str__(self):
        return self.args[0] if self.args else ""

    def __reduce__(self):
        return (type(self), (str(self), self.diagnostics, self.summary))


class JobspecWarning(UserWarning):
    """A warning about an input that was accepted anyway (an unknown attribute, say).
    `diagnostic` is the jobspec.Diagnostic; `code` its code; `summary` the warning on one
    line, as jobspec.Error's."""

    def __init__(self, message, diagnostic=None, summary=""):
        super().__init__(message)
        self.diagnostic = diagnostic
        self.code = diagnostic.code if diagnostic is not None else None
        self.summary = summary

    def __reduce__(self):
        return (type(self), (self.args[0], self.diagnostic, self.summary))


def _raise(text, items, summary):
    raise Error(text.rstrip("\n"), _diagnostics(items), summary)


def _outside_level():
    """The warnings stacklevel of the first caller outside the jobspec package, as seen
    from _warn (the extension itself adds no frame)."""
    level, frame = 2, sys._getframe(2)
    while frame is not None and frame.f_globals.get("__name__", "").split(".")[0] == "jobspec":
        level, frame = level + 1, frame.f_back
    return level


def _warnings(texts, items, summaries):
    return [
        JobspecWarning(text.rstrip("\n"), diagnostic, summary)
        for text, diagnostic, summary in zip(texts, _diagnostics(items), summaries)
    ]


def _warn(objects):
    level = _outside_level()
    for warning in objects:
        warnings.warn(warning, stacklevel=level)
