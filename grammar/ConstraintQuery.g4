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

// flux-core's reading of the same language, which jobspec.compat.flux's ConstraintParser
// gives (src/syntax/query_lexer.cpp lexes it with flux's grouping: a WORD is a whole term,
// operator:operand with quoted parts joined, and there are no COLON or QUOTED tokens). flux groups
// differently from RFC 35's precedence: a term written after an expression, with no
// operator, takes everything before it as its left side ("a|b c" is (a|b) and c), and
// `not` or `-` terms written after an operand bind to that operand ("a not b|c" is
// (a and not b) or c). flux's ConstraintParser is the authority for this reading.

fluxQuery      : body=fluxExpr EOF ;

// The first expression, then each juxtaposed operand with the and/or chain after it,
// all taking what came before as their left side.
fluxExpr       : first=fluxOr (continued+=fluxContinued)* ;

fluxContinued  : juxtaposed=fluxOperand (AND ands+=fluxOperand)* (OR ors+=fluxAnd)* ;

fluxOr         : operands+=fluxAnd (OR operands+=fluxAnd)* ;

fluxAnd        : operands+=fluxOperand (AND operands+=fluxOperand)* ;

// An operand and the negated operands written after it (which it is and-ed with).
fluxOperand    : head=fluxPrimary (negations+=fluxNegated)* ;

fluxNegated    : NOT negated=fluxOperand
               | MINUS excluded=WORD (negations+=fluxNegated)*
               ;

fluxPrimary    : negation=fluxNegated
               | LPAREN group=fluxExpr RPAREN
               | single=WORD
               ;
