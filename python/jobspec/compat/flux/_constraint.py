"""flux-core 0.88's flux.constraint.parser API (and --requires' MiniConstraintParser).

The query is read by jobspec's C++ ConstraintQuery grammar, its flux rules: flux's lexing
and grouping (RFC 35 leaves the grouping open: `a|b c` is (a|b) and c, while `not`/`-`
after a term bind to it tighter than anything pending). The class-level configuration
works as in flux: operator_map, split_values and combined_terms are read through the
instance at parse time, and a subclass's combine_like_terms or invalid_operator is called
where flux calls it. MiniConstraintParser's results are then checked against RFC 31 by
jobspec's C++ library, so what the scheduler would reject (`rank:a`, `foo:bar`) fails
here, with its diagnostics.
"""
from ... import _jobspec

# PLY's yacc() keyword arguments, which flux passes through; accepted and ignored.
YACC_KEYWORDS = frozenset(
    "method debug tabmodule start check_recursion optimize write_tables debugfile "
    "outputdir debuglog errorlog picklefile".split()
)

# The C++ read and fold (python/src/flux_constraint.cpp), looked up once. It raises
# TypeError for a query that is neither str nor None.
_flux_parse = _jobspec._flux_parse


class ConstraintSyntaxError(Exception):
    """A query flux's parser rejects (or RFC 31 forbids, for MiniConstraintParser).
    `diagnostics` holds jobspec's located diagnostics when it has them."""

    def __init__(self, message):
        super().__init__(message)
        self.diagnostics = []


class ConstraintParser:
    """flux.constraint.parser.ConstraintParser: parse(query) returns an RFC 31 dict.

    operator_map: None -> the operator of a bare term (without it, a bare term is an
    error); other keys rename operators. split_values: operator -> separator its operand is
    split on. combined_terms: operators whose terms joined by AND merge into one.
    """

    operator_map = {}
    split_values = {}
    combined_terms = set()
    # Whether parse() checks its result against RFC 31 (in the same C++ call).
    _rfc31_checked = False

    def __init__(self, lexer=None, optimize=True, debug=False, write_tables=False, **kw_args):
        for name in kw_args:
            if name not in YACC_KEYWORDS:
                raise TypeError(f"yacc() got an unexpected keyword argument '{name}'")
        self.lexer = lexer
        self.query = None

    @staticmethod
    def invalid_operator(op):
        """The first character of `op` that cannot be in an operator, or None."""
        return _jobspec._invalid_operator(op)

    def parse(self, query, **kw_args):
        """The RFC 31 constraint of `query`; raises ConstraintSyntaxError."""
        self.query = query
        return _flux_parse(self, ConstraintParser, ConstraintSyntaxError, query,
                           self._rfc31_checked)

    def combine_like_terms(self, p1, p2):
        """p1 AND p2: appended to p1 when it is an `and`; terms of combined_terms
        operators merge into the first earlier one."""
        return _jobspec._combine_like_terms(self, p1, p2)


class MiniConstraintParser(ConstraintParser):
    """flux's --requires parser: bare terms are properties, host/hosts mean hostlist and
    rank means ranks, properties split on ',' and merge under AND. Results are checked
    against RFC 31 (operators, property names, hostlists, idsets)."""

    operator_map, split_values, combined_terms = _jobspec._requires_dialect()
    _rfc31_checked = True
