// RFC 46 resource shapes: "slot=4{nodelevel}/node{-x}/socket=2+/core=4+".
//
// The tokens come from the hand-written token source in src/syntax/shape_lexer.cpp,
// because shape tokens depend on their context in ways a lexer grammar expresses badly:
//
//   COUNT   the text right after '=': an integer, RFC 22 idset or RFC 45 range, optionally
//           in [ ] (e.g. "4", "4,9,16,25", "[1-4:2:*]"); decoded by jobspec::Count::parse.
//   NAME    an unquoted word. Types and keys stop at  [ ] { } ; , / = : "  and whitespace
//           (types also at ', as flux-core's do), and never start with '+' or '-' (those
//           are PLUS and MINUS, the boolean signs). An unquoted type "slot" is the slot in
//           any case (SLOT, Slot), as flux-core reads it.
//           After ':' inside braces, and inside a value array, a word is a value and may
//           also hold  : / = ; + -  ("unit:GB", "offset:-1", "url:http://x/y").
//   STRING  a JSON string in double quotes, with JSON escapes, or text in single quotes
//           as written up to the next ' (flux-core's quoting; no escapes).
//   Whitespace between tokens is skipped. Nesting depth is limited before parsing.
parser grammar Shape;

tokens {
    LBRACK, RBRACK, LBRACE, RBRACE, SEMI, COMMA, SLASH, EQUALS, COLON, PLUS, MINUS,
    NAME, STRING, COUNT
}

// Labels name what the AST builder reads (src/syntax/shape_ast_builder.cpp): the parser
// fills them even when it builds no parse tree, which is how jobspec runs it.

shape  : body=list EOF ;

// A level of the graph: vertices in [ ] separated by ';', or one vertex alone.
// An empty [ ] is accepted here and reported by the AST builder (shape.empty-list).
list   : LBRACK (vertices+=vertex (SEMI vertices+=vertex)*)? RBRACK
       | vertices+=vertex
       ;

// type=count{dict}/with-list; for a slot the first dict entry is its label.
vertex : kind=name (EQUALS amount=count)? props=dict? (SLASH inner=list)? ;

count  : text=COUNT ;

dict   : LBRACE (items+=item (COMMA items+=item)*)? RBRACE ;

// key:value, or a boolean key: "key" and "+key" are true, "-key" is false.
item   : key=name COLON val=value
       | sign=(PLUS | MINUS)? key=name
       ;

name   : text=(NAME | STRING) ;

// A JSON value; unquoted words become numbers, booleans, null or strings.
value  : text=(NAME | STRING) | object=dict | elements=array ;

array  : LBRACK (values+=value (COMMA values+=value)*)? RBRACK ;
