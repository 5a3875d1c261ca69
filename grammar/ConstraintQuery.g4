// RFC 35 constraint queries: "ssd and not host:foo[1-3]", "(a|-b)&c".
//
// The tokens come from the hand-written token source in src/syntax/query_lexer.cpp:
//
//   WORD    a run of characters other than whitespace ( ) & | ' " — an operator before
//           COLON, an operand after it or alone. "and", "or" and "not" on their own are
//           AND, OR and NOT instead; after a COLON an operand may hold ':' too.
//   QUOTED  an operand in single or double quotes (whitespace and ( ) & | allowed).
//   COLON   the ':' that ends an operator.
//   AND     & && and      OR  | || or      NOT  not      MINUS  '-' before a term
parser grammar ConstraintQuery;

tokens { WORD, QUOTED, COLON, AND, OR, NOT, MINUS, LPAREN, RPAREN }

// Labels name what the AST builder reads (src/syntax/query_parser.cpp): the parser fills
// them even when it builds no parse tree, which is how jobspec runs it.

query    : body=orExpr EOF ;

// Precedence: not binds tightest, then and (written, or implied by whitespace), then or.
orExpr   : operands+=andExpr (OR operands+=andExpr)* ;

andExpr  : operands+=unary (AND? operands+=unary)* ;

unary    : NOT negated=unary
         | LPAREN group=orExpr RPAREN
         | MINUS excluded=term
         | single=term
         ;

// operator:operand, or an operand alone (the default operator).
term     : (op=WORD COLON)? operand=(WORD | QUOTED) ;
