// query_of: a constraint written back as the RFC 35 query (flux's --requires) that
// compiles to it.
#include <jobspec/write_back.hpp>

#include <cctype>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "support/json_pointer.hpp"

namespace jobspec {

namespace {

/// Where a term is written, which decides whether it needs parentheses: `and` binds
/// tighter than `or`, `not` tighter than both, and a group the query keeps apart (an
/// `and` inside an `and`) must be written as one.
enum class Context { top, and_, or_, not_ };

/// Whether the query lexer would read `s` as one operand by itself: no whitespace or
/// ( ) & | ' " that end a word, not a word of its own (and, or, not) and no leading '-'
/// (a negation).
bool bare_operand(std::string_view s) {
    if (s.empty() || s.front() == '-' || s == "and" || s == "or" || s == "not")
        return false;
    for (unsigned char c : s)
        if (c <= ' ' || c == '(' || c == ')' || c == '&' || c == '|' || c == '\'' || c == '"')
            return false;
    return true;
}

class QueryWriter {
public:
    explicit QueryWriter(std::string_view pointer) : pointer_(pointer) {}

    void term(const Constraint& c, Context context) {
        const std::size_t start = out_.text.size();
        if (c.op() == ConstraintOperator::Kind::and_of ||
            c.op() == ConstraintOperator::Kind::or_of) {
            logical(c, context);
        } else if (c.op() == ConstraintOperator::Kind::not_of) {
            negation(c);
        } else if (c.op() == ConstraintOperator::Kind::properties) {
            properties(c, context);
        } else if (c.op() == ConstraintOperator::Kind::hostlist ||
                   c.op() == ConstraintOperator::Kind::ranks) {
            targets(c, context);
        } else {
            unwritable(fmt::format("a query has no operator '{}' (properties, hostlist, ranks, "
                                   "and, or, not)",
                                   c.op().name()));
        }
        out_.spans.push_back({pointer_.str(), start, out_.text.size() - start});
    }

    Result<WrittenText> finish() && {
        if (diagnostics_.has_errors())
            return Result<WrittenText>(std::move(diagnostics_));
        return {std::move(out_), std::move(diagnostics_)};
    }

private:
    void logical(const Constraint& c, Context context) {
        if (c.children().empty()) {
            unwritable(fmt::format("a query has no '{}' of nothing", c.op().name()));
            return;
        }
        const bool is_or = c.op() == ConstraintOperator::Kind::or_of;
        const Context inner = is_or ? Context::or_ : Context::and_;
        // One constraint is written as itself, where it stands. Several are grouped under
        // another operator, and under their own, which the query keeps apart: only an
        // `and` inside an `or` needs no parentheses.
        const bool grouped = c.children().size() > 1 && context != Context::top &&
                             !(context == Context::or_ && !is_or);
        if (grouped)
            out_.text += '(';
        for (std::size_t i = 0; i < c.children().size(); ++i) {
            if (i)
                out_.text += is_or ? " or " : " and ";
            support::PointerScope at(pointer_, c.op().name(), i);
            term(c.children()[i], c.children().size() > 1 ? inner : context);
        }
        if (grouped)
            out_.text += ')';
    }

    void negation(const Constraint& c) {
        if (c.children().size() != 1) {
            unwritable("a query's 'not' negates one constraint");
            return;
        }
        out_.text += "not ";
        support::PointerScope at(pointer_, "not", std::size_t{0});
        term(c.children().front(), Context::not_);
    }

    /// Properties as words joined by `and`, which the query merges into one term.
    void properties(const Constraint& c, Context context) {
        if (c.values().empty()) {
            unwritable("a query has no properties term without properties");
            return;
        }
        const bool grouped = c.values().size() > 1 && context == Context::not_;
        if (grouped)
            out_.text += '(';
        for (std::size_t i = 0; i < c.values().size(); ++i) {
            if (i)
                out_.text += " and ";
            support::PointerScope at(pointer_, "properties", i);
            const std::string& name = c.values()[i];
            if (name.empty() || name.find(',') != std::string::npos) {
                unwritable(fmt::format("a query splits properties at ','; no term says the "
                                       "property '{}'",
                                       name));
                continue;
            }
            // flux's query reads a term's operator up to its first ':', quoted or not: a
            // property with one is written after its operator.
            if (name.find(':') != std::string::npos)
                out_.text += "properties:";
            const std::size_t start = out_.text.size();
            operand(name);
            out_.spans.push_back({pointer_.str(), start, out_.text.size() - start});
        }
        if (grouped)
            out_.text += ')';
    }

    /// host:H and rank:I; several values are any of them, an `or` of one term each.
    void targets(const Constraint& c, Context context) {
        if (c.values().empty()) {
            unwritable(fmt::format("a query has no {} term without values", c.op().name()));
            return;
        }
        const bool grouped =
            c.values().size() > 1 && (context == Context::not_ || context == Context::and_);
        if (grouped)
            out_.text += '(';
        for (std::size_t i = 0; i < c.values().size(); ++i) {
            if (i)
                out_.text += " or ";
            support::PointerScope at(pointer_, c.op().name(), i);
            out_.text += c.op() == ConstraintOperator::Kind::hostlist ? "host:" : "rank:";
            const std::size_t start = out_.text.size();
            operand(c.values()[i]);
            out_.spans.push_back({pointer_.str(), start, out_.text.size() - start});
        }
        if (grouped)
            out_.text += ')';
    }

    /// An operand bare, or in the quotes it does not hold. Its text is kept exact (a bidi
    /// control or a CR too: whoever shows the query to a terminal escapes it, as the CLI
    /// and why do); a control character the lexer refuses has no query.
    void operand(std::string_view text) {
        for (const char c : text)
            if ((static_cast<unsigned char>(c) < 0x20 &&
                 !std::isspace(static_cast<unsigned char>(c))) ||
                c == 0x7F) {
                unwritable(fmt::format("a query holds no control character, as its lexer "
                                       "refuses them; this operand has U+{:04X}",
                                       static_cast<unsigned>(static_cast<unsigned char>(c))));
                return;
            }
        if (bare_operand(text)) {
            out_.text += text;
            return;
        }
        const bool has_single = text.find('\'') != std::string_view::npos;
        if (has_single && text.find('"') != std::string_view::npos) {
            unwritable(fmt::format("a query quotes an operand in ' or \"; '{}' holds both", text));
            return;
        }
        const char quote = has_single ? '"' : '\'';
        out_.text += quote;
        out_.text += text;
        out_.text += quote;
    }

    void unwritable(std::string message) {
        diagnostics_.add(Code::query_unwritable, std::move(message), Location{{}, pointer_.str()});
    }

    support::JsonPointer pointer_;
    WrittenText out_;
    Diagnostics diagnostics_;
};

} // namespace

Result<WrittenText> query_of(const Constraint& constraint, std::string_view pointer) {
    QueryWriter writer(pointer);
    writer.term(constraint, Context::top);
    return std::move(writer).finish();
}

} // namespace jobspec
