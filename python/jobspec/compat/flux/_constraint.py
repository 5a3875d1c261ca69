"""flux-core 0.88's flux.constraint.parser API (and --requires' MiniConstraintParser).

The query grammar and its grouping follow flux exactly (RFC 35 leaves them open): `a|b c`
is (a|b) and c, while `not`/`-` after a term bind to it tighter than anything pending.
The class-level configuration works as in flux: operator_map, split_values and
combined_terms, read through the instance at parse time so subclasses override them.
MiniConstraintParser's results are then checked against RFC 31 by jobspec's C++ library,
so what the scheduler would reject (`rank:a`, `foo:bar`) fails here, with its diagnostics.
"""
import re

from ... import _jobspec
from ..._errors import Error

# PLY's yacc() keyword arguments, which flux passes through; accepted and ignored.
YACC_KEYWORDS = frozenset(
    "method debug tabmodule start check_recursion optimize write_tables debugfile "
    "outputdir debuglog errorlog picklefile".split()
)

_TOKEN = re.compile(
    r"\s*(?:(?P<NEGATE>-)|(?P<NOT>not\b)|(?P<AND>&&?|and\b)|(?P<OR>\|\|?|or\b)"
    r"|(?P<LPAREN>\()|(?P<RPAREN>\))|(?P<QUOTE>['\"])|(?P<TOKEN>[^()|&\s\"']+))"
)
_SPACE = re.compile(r"\s*")
_INVALID_OPERATOR = re.compile(r"[^\w.+@-]")
_LEVEL = {"OR": 1, "AND": 2, "JUX": 2}


class ConstraintSyntaxError(Exception):
    """A query flux's parser rejects (or RFC 31 forbids, for MiniConstraintParser).
    `diagnostics` holds jobspec's diagnostics when the library found the problem."""

    def __init__(self, message):
        super().__init__(message)
        self.diagnostics = []


def _lex(query):
    """The tokens as (type, value, position); a lexer error is a final ("ERROR", msg, pos)."""
    tokens = []
    held = None  # a term ending in ':' waits for the next term as its operand
    i, n = 0, len(query)
    while True:
        i = _SPACE.match(query, i).end()
        if i >= n:
            break
        m = _TOKEN.match(query, i)
        kind = m.lastgroup
        if kind not in ("QUOTE", "TOKEN"):
            tokens.append((kind, m.group(kind), m.start(kind)))
            i = m.end()
            continue
        if kind == "QUOTE":
            quote = m.group(kind)
            start = m.end()
            close = query.find(quote, start)
            if close < 0:
                message = (
                    f"Unclosed quote \"'\" at position {start}"
                    if quote == "'"
                    else f"Unclosed quote '\"' at position {start}"
                )
                value = query[start:]
                if value and held is not None:
                    tokens.append(("TOKEN", held[0] + value, held[1]))
                elif value and not value.endswith(":"):
                    tokens.append(("TOKEN", value, start))
                tokens.append(("ERROR", message, n))
                return tokens
            value, position, i = query[start:close], start, close + 1
            if not value:
                continue
        else:
            value, position, i = m.group(kind), m.start(kind), m.end()
        if held is not None:
            tokens.append(("TOKEN", held[0] + value, held[1]))
            held = None
        elif value.endswith(":"):
            held = (value, position)
        else:
            tokens.append(("TOKEN", value, position))
    if held is not None:
        tokens.append(("ERROR", f"Missing argument to token '{held[0]}'", n))
    return tokens


class ConstraintParser:
    """flux.constraint.parser.ConstraintParser: parse(query) returns an RFC 31 dict.

    operator_map: None -> the operator of a bare term (without it, a bare term is an
    error); other keys rename operators. split_values: operator -> separator its operand is
    split on. combined_terms: operators whose terms joined by AND merge into one.
    """

    operator_map = {}
    split_values = {}
    combined_terms = set()

    def __init__(self, lexer=None, optimize=True, debug=False, write_tables=False, **kw_args):
        for name in kw_args:
            if name not in YACC_KEYWORDS:
                raise TypeError(f"yacc() got an unexpected keyword argument '{name}'")
        self.lexer = lexer
        self.query = None

    @staticmethod
    def invalid_operator(op):
        """The first character of `op` that cannot be in an operator, or None."""
        m = _INVALID_OPERATOR.search(op)
        return m.group() if m else None

    def parse(self, query, **kw_args):
        """The RFC 31 constraint of `query`; raises ConstraintSyntaxError."""
        if query is not None and not isinstance(query, str):
            raise TypeError(f"a query is a str, not {type(query).__name__}")
        self.query = query
        text = "None" if query is None else query
        return _Parse(self, text, _lex(query or "")).run()

    def _term(self, text):
        op, colon, value = text.partition(":")
        if not colon:
            if None not in self.operator_map:
                raise ConstraintSyntaxError(f'Missing required operator in "{text}"')
            op, value = self.operator_map[None], text
        elif op in self.operator_map:
            op = self.operator_map[op]
        bad = self.invalid_operator(op)
        if bad:
            raise ConstraintSyntaxError(f"invalid character '{bad}' in operator '{op}:'")
        if op in self.split_values:
            return {op: value.split(self.split_values[op])}
        return {op: [value]}

    def combine_like_terms(self, p1, p2):
        """p1 AND p2: appended to p1 when it is an `and`; terms of combined_terms
        operators merge into the first earlier one."""
        entries = [p1, p2]
        if "and" in p1:
            p1["and"].append(p2)
            entries = [p1]
        seen, terms = {}, []
        for entry in entries:
            key = next(iter(entry))
            if key not in self.combined_terms:
                terms.append(entry)
            elif key not in seen:
                seen[key] = entry[key]
                terms.append(entry)
            else:
                seen[key].extend(entry[key])
        return terms[0] if len(terms) == 1 else {"and": terms}


class _Parse:
    """One parse: operator precedence with flux's juxtaposition rules."""

    def __init__(self, parser, query, tokens):
        self.parser = parser
        self.query = query
        self.tokens = tokens
        self.i = 0

    def run(self):
        return self.expression(top=True)

    def peek(self):
        if self.i < len(self.tokens):
            token = self.tokens[self.i]
            if token[0] == "ERROR":
                raise ConstraintSyntaxError(token[1])
            return token
        return ("EOF", None, len(self.query))

    def error(self, token):
        seen = self.tokens[: self.i + 1] if token[0] != "EOF" else self.tokens
        depth, last_open = 0, None
        for kind, _, position in seen:
            if kind == "LPAREN":
                depth, last_open = depth + 1, position
            elif kind == "RPAREN":
                depth -= 1
        if token[0] == "EOF":
            if depth > 0:
                raise ConstraintSyntaxError(f"Unclosed parenthesis in position {last_open}")
            raise ConstraintSyntaxError(f"Unexpected end of input in '{self.query}'")
        if depth < 0:
            # flux's message, un-interpolated braces included
            raise ConstraintSyntaxError(
                "Mismatched parentheses starting at position {self.lexer.last_rparens}."
            )
        raise ConstraintSyntaxError(f"Invalid token '{token[1]}' at position {token[2]}")

    def term(self, token):
        self.i += 1
        self.peek()  # flux reads one token ahead before it reduces a term
        return self.parser._term(token[1])

    def primary(self):
        token = self.peek()
        kind = token[0]
        if kind == "TOKEN":
            return self.term(token)
        if kind == "LPAREN":
            self.i += 1
            inner = self.expression()
            if self.peek()[0] != "RPAREN":
                self.error(self.peek())
            self.i += 1
            return inner
        if kind == "NOT":
            self.i += 1
            return {"not": [self.operand()]}
        if kind == "NEGATE":
            self.i += 1
            operand = self.peek()
            if operand[0] != "TOKEN":
                self.error(operand)
            return {"not": [self.term(operand)]}
        self.error(token)

    def operand(self):
        """A primary and the `not`/`-` terms juxtaposed after it, which bind to it."""
        result = self.primary()
        while self.peek()[0] in ("NOT", "NEGATE"):
            result = self.parser.combine_like_terms(result, self.operand())
        return result

    def expression(self, top=False):
        values = [self.operand()]
        ops = []

        def reduce(level):
            while ops and _LEVEL[ops[-1]] >= level:
                op = ops.pop()
                right = values.pop()
                left = values.pop()
                if op == "OR":
                    if "or" in left:
                        left["or"].append(right)
                    else:
                        left = {"or": [left, right]}
                    values.append(left)
                else:
                    values.append(self.parser.combine_like_terms(left, right))

        while True:
            token = self.peek()
            kind = token[0]
            if kind in ("AND", "OR"):
                reduce(_LEVEL[kind])
                self.i += 1
                ops.append(kind)
                values.append(self.operand())
            elif kind in ("TOKEN", "LPAREN"):
                reduce(0)  # a new term closes everything pending to its left
                ops.append("JUX")
                values.append(self.operand())
            elif kind == "RPAREN" or kind == "EOF":
                reduce(0)
                if top == (kind == "RPAREN"):
                    self.error(token)
                return values[0]
            else:
                self.error(token)


class MiniConstraintParser(ConstraintParser):
    """flux's --requires parser: bare terms are properties, host/hosts mean hostlist and
    rank means ranks, properties split on ',' and merge under AND. Results are checked
    against RFC 31 (operators, property names, hostlists, idsets)."""

    operator_map = {None: "properties", "host": "hostlist", "hosts": "hostlist", "rank": "ranks"}
    split_values = {"properties": ","}
    combined_terms = {"properties"}

    def parse(self, query, **kw_args):
        result = super().parse(query, **kw_args)
        try:
            _jobspec._require_constraint(result)
        except Error as e:
            error = ConstraintSyntaxError(str(e))
            error.diagnostics = e.diagnostics
            raise error from None
        return result
