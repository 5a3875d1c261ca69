// RFC 36 submission directives: the lines of a batch script, each a directive
// ("# flux: -N4 --queue=batch"), a line of a multi-line value, or any other line.
// The tokens come from the lexer grammar DirectiveLexer.g4 (its modes follow the lines).
//
// What the grammar does not say, the builder (src/syntax/directive_builder.cpp) checks
// after parsing, because each rule compares a line with earlier lines, which a
// context-free grammar cannot express:
//   - every directive has the sentinel (prefix and tag) of the first one;
//   - directives stop at the first line that is not blank and does not start with the
//     prefix (its trailing blanks removed), and a directive after that is an orphan;
//   - a multi-line value goes on only over directive lines;
//   - as in flux, a line's triple quotes pair up when there is an even number of a kind,
//     and any other triple quote must end the line.
// It also reports the malformed values the lexer marks (UNCLOSED_QUOTE, BACKSLASH,
// AFTER_TRIPLE), so that every byte sequence parses and errors read as flux's do.
parser grammar Directives;

options { tokenVocab = DirectiveLexer; }

// Labels name what the builder reads; the parser fills them without a parse tree.

script    : lines+=line (NEWLINE lines+=line)* EOF ;

// A line inside a multi-line value has its text in one token (quoted); a directive's
// value is shell words.
line      : prefix=PREFIX? (tag=TAG (quoted=(LITERAL | CLOSE_DOUBLE | CLOSE_SINGLE) | body=value)
                           | other=OTHER OTHER?)? ;

// Word parts next to each other make one word; blanks and punctuation separate words,
// and a run of punctuation is a word of its own.
value     : (items+=(BLANK | PUNCTUATION | BARE | ESCAPED | SINGLE_QUOTED | DOUBLE_QUOTED
                    | TRIPLE_QUOTED))*
            ( comment=COMMENT
            | open=(OPEN_DOUBLE | OPEN_SINGLE) after=AFTER_TRIPLE?
            | unclosed=UNCLOSED_QUOTE
            | backslash=BACKSLASH
            )? ;

