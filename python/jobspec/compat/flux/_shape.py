"""flux-core 0.88's flux.shape.parser API over jobspec's C++ shape compiler.

Results are flux's: the RFC 14 resource list with counts as RFC 45/22 strings (or, with
range_as_dict, ranges as dicts with an infinite max when unbounded with a step) and the
default slot label "task". Shapes an RFC forbids raise ShapeSyntaxError with jobspec's
diagnostics (docs/COMPAT.md lists what flux accepts and this does not).
"""
from ... import _jobspec
from ..._errors import Error
from ._constraint import YACC_KEYWORDS

_RANGE_KEYS = ("min", "max", "operand", "operator")


class ShapeSyntaxError(Exception):
    """A shape that cannot be compiled; str() is jobspec's caret rendering and
    `diagnostics` the jobspec.Diagnostic list."""

    def __init__(self, message):
        super().__init__(message)
        self.diagnostics = []


def _flux_ranges(vertices):
    """Range counts as flux writes them: keys min, max, operand, operator; a stepped
    unbounded range gets max = inf."""
    for vertex in vertices:
        count = vertex["count"]
        if isinstance(count, dict):
            if "operand" in count and "max" not in count:
                count["max"] = float("inf")
            vertex["count"] = {k: count[k] for k in _RANGE_KEYS if k in count}
        if "with" in vertex:
            _flux_ranges(vertex["with"])


class ShapeParser:
    """flux.shape.parser.ShapeParser: parse(shape) returns the RFC 14 resource list.

    The constructor takes flux's (PLY's) arguments and ignores them. Set
    `default_slot_label` (default "task") and `range_as_dict` (default False) after
    construction, as flux's command line does.
    """

    def __init__(self, lexer=None, optimize=True, debug=False, write_tables=False, **kw_args):
        for name in kw_args:
            if name not in YACC_KEYWORDS:
                raise TypeError(f"yacc() got an unexpected keyword argument '{name}'")
        self.lexer = lexer
        self.query = None
        self.default_slot_label = "task"
        self.range_as_dict = False

    def parse(self, query, **kw_args):
        """The resource list of `query`; raises ShapeSyntaxError."""
        if not isinstance(query, str):
            raise TypeError(f"a shape is a str, not {type(query).__name__}")
        self.query = query
        counts = "dict" if self.range_as_dict else "string"
        try:
            resources = _jobspec.shape(query, default_label=self.default_slot_label, counts=counts,
                                        flux=True)
        except Error as e:
            error = ShapeSyntaxError(str(e))
            error.diagnostics = e.diagnostics
            raise error from None
        if self.range_as_dict:
            _flux_ranges(resources)
        return resources
