// RFC 36 submission directives: the tokens of a batch script, read byte by byte (the
// character stream gives each byte as a symbol 0-255, so offsets are byte offsets and
// any bytes lex). Bytes 0x80-0xFF count as word characters, as letters of UTF-8 text do.
//
// What a byte means depends on where the line is, so the lexer has modes:
//
//   DEFAULT_MODE  the start of a line: PREFIX (non-word bytes), then TAG ("flux:" or
//                 "FLUX:", the sentinel's end) or OTHER (any other line).
//   VALUE         a directive's value, split as POSIX shell words (Python's shlex with
//                 punctuation_chars): BLANK, COMMENT, PUNCTUATION runs, and the parts of
//                 words: BARE text, ESCAPED bytes, SINGLE_QUOTED and DOUBLE_QUOTED strings
//                 (a backslash escapes the quote and itself), TRIPLE_QUOTED text (literal,
//                 from a triple quote to the line's last one of the same kind). A triple
//                 quote that ends the line, OPEN_DOUBLE or OPEN_SINGLE, opens a value that
//                 goes on over the next directive lines.
//   IN_DOUBLE     the start of a line inside a """ value (IN_SINGLE: '''): PREFIX, TAG,
//   DOUBLE_LINE   then the line's text taken literally: LITERAL, or CLOSE_DOUBLE when its
//                 only """ ends it. Any other line ends the value (an error, reported by
//                 the builder).
//   OTHER_LINE    the rest of a line that is not a directive.
//
// Three tokens stand for malformed values, so that the builder reports them in flux's
// words: UNCLOSED_QUOTE (a quote without its closing one), BACKSLASH (a backslash at the
// end), AFTER_TRIPLE (text after a triple quote that is not closed on its line).
lexer grammar DirectiveLexer;

// Newlines are the one token every mode shares.
NEWLINE        : '\n' ;
PREFIX         : NON_WORD+ ;
TAG            : ('flux:' | 'FLUX:') -> mode(VALUE) ;
// One byte only: "flux:" (five bytes) is then always the longer match.
OTHER          : WORD_BYTE -> mode(OTHER_LINE) ;

mode OTHER_LINE;
OTHER_TEXT     : ~'\n'+ -> type(OTHER) ;
OTHER_END      : '\n' -> type(NEWLINE), mode(DEFAULT_MODE) ;

mode VALUE;
BLANK          : [ \t\r]+ ;
// A comment that ends with a lone """ still opens a multi-line value, as in flux.
OPEN_DOUBLE    : ('#' NO_DOUBLE_TRIPLE)? '"""' -> mode(AFTER_OPEN_DOUBLE) ;
OPEN_SINGLE    : ('#' NO_SINGLE_TRIPLE)? '\'\'\'' -> mode(AFTER_OPEN_SINGLE) ;
COMMENT        : '#' ~'\n'* ;
PUNCTUATION    : [();<>|&]+ ;
BARE           : ~[ \t\r\n#();<>|&'"\\]+ ;
ESCAPED        : '\\' ~'\n' ;
SINGLE_QUOTED  : '\'' (~['\\\n] | '\\' ~'\n')* '\'' ;
DOUBLE_QUOTED  : '"' (~["\\\n] | '\\' ~'\n')* '"' ;
TRIPLE_QUOTED  : '"""' ~'\n'* '"""' | '\'\'\'' ~'\n'* '\'\'\'' ;
UNCLOSED_QUOTE : '\'' (~['\\\n] | '\\' ~'\n')* '\\'? | '"' (~["\\\n] | '\\' ~'\n')* '\\'? ;
BACKSLASH      : '\\' ;
VALUE_END      : '\n' -> type(NEWLINE), mode(DEFAULT_MODE) ;

mode AFTER_OPEN_DOUBLE;
OPENED_DOUBLE  : '\n' -> type(NEWLINE), mode(IN_DOUBLE) ;
AFTER_TRIPLE   : ~'\n'+ -> mode(VALUE) ;

mode AFTER_OPEN_SINGLE;
OPENED_SINGLE  : '\n' -> type(NEWLINE), mode(IN_SINGLE) ;
AFTER_TRIPLE_S : ~'\n'+ -> type(AFTER_TRIPLE), mode(VALUE) ;

mode IN_DOUBLE;
DOUBLE_PREFIX  : NON_WORD+ -> type(PREFIX) ;
DOUBLE_TAG     : ('flux:' | 'FLUX:') -> type(TAG), mode(DOUBLE_LINE) ;
DOUBLE_OTHER   : WORD_BYTE -> type(OTHER), mode(OTHER_LINE) ;
DOUBLE_BREAK   : '\n' -> type(NEWLINE), mode(DEFAULT_MODE) ;

mode DOUBLE_LINE;
// Defined before LITERAL: when both match the whole line, the line closes the value.
CLOSE_DOUBLE   : NO_DOUBLE_TRIPLE '"""' -> mode(VALUE) ;
LITERAL        : ~'\n'+ ;
DOUBLE_NEXT    : '\n' -> type(NEWLINE), mode(IN_DOUBLE) ;

mode IN_SINGLE;
SINGLE_PREFIX  : NON_WORD+ -> type(PREFIX) ;
SINGLE_TAG     : ('flux:' | 'FLUX:') -> type(TAG), mode(SINGLE_LINE) ;
SINGLE_OTHER   : WORD_BYTE -> type(OTHER), mode(OTHER_LINE) ;
SINGLE_BREAK   : '\n' -> type(NEWLINE), mode(DEFAULT_MODE) ;

mode SINGLE_LINE;
CLOSE_SINGLE   : NO_SINGLE_TRIPLE '\'\'\'' -> mode(VALUE) ;
SINGLE_LITERAL : ~'\n'+ -> type(LITERAL) ;
SINGLE_NEXT    : '\n' -> type(NEWLINE), mode(IN_SINGLE) ;

// Letters, digits and '_' (Python's \w), and every byte of a multi-byte UTF-8 character.
fragment WORD_BYTE : [0-9A-Za-z_\u0080-\u00FF] ;
fragment NON_WORD  : [\u0000-\u0009\u000B-\u002F\u003A-\u0040\u005B-\u005E\u0060\u007B-\u007F] ;
// Text on one line without three quotes of the kind in a row (and not ending in one).
fragment NO_DOUBLE_TRIPLE : (~["\n] | '"' ~["\n] | '""' ~["\n])* ;
fragment NO_SINGLE_TRIPLE : (~['\n] | '\'' ~['\n] | '\'\'' ~['\n])* ;
