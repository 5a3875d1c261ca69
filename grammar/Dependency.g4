// RFC 26 dependency URIs: "scheme:value?key=val&key=val" ("afterok:ƒ2oLkTLb",
// "string:foo?type=out;scope=user", "singleton").
//
// The tokens come from the hand-written token source in src/syntax/dependency_lexer.cpp,
// because what a character means depends on where it is:
//
//   NAME   the scheme: a letter, then letters, digits, '-', '_', '+' and '.'.
//   TEXT   after ':', everything up to '?' (a value may hold ':', '-', '.', UTF-8);
//          in the options, everything up to '=', '&' or ';'.
//          %XX escapes in TEXT are decoded by the AST builder.
parser grammar Dependency;

// Labels name what the AST builder reads; the parser fills them without a parse tree.

tokens { NAME, COLON, TEXT, QUESTION, EQUALS, AMP, SEMI }

// A scheme, its value, and options after '?' separated by '&' or ';'.
dependency : scheme=NAME (colon=COLON value=TEXT?)? (QUESTION options=query)? EOF ;

query      : params+=param ((AMP | SEMI) params+=param)* ;

// key=value; the value may be empty.
param      : key=TEXT equals=EQUALS value=TEXT? ;
