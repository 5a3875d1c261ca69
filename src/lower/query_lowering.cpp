#include "lower/query_lowering.hpp"
#include "model/decoders.hpp"
#include "support/utf8.hpp"
#include "support/fix_its.hpp"

#include <array>

#include <fmt/format.h>

#include <jobspec/hostlist.hpp>
#include <jobspec/suggest.hpp>

namespace jobspec::lower {

namespace {

using syntax::QueryNode;

class QueryLowering {
public:
    QueryLowering(const QueryOptions& options, Diagnostics& diagnostics)
        : options_(options), diags_(diagnostics) {}

    Constraint node(const QueryNode& n) {
        switch (n.kind) {
        case QueryNode::Kind::term:
            return term(n);
        case QueryNode::Kind::not_:
            return {"not", {}, {node(n.children.front())}};
        case QueryNode::Kind::or_:
            return logical("or", n);
        case QueryNode::Kind::and_: {
            Constraint c = logical("and", n);
            return in_requires_dialect() ? combine_properties(c) : c;
        }
        }
        return {};
    }

private:
    bool in_requires_dialect() const { return !options_.default_operator.has_value(); }

    void report(Code code, std::string message, SourceRange range, std::string help = {},
                std::vector<FixIt> fixes = {}) {
        diags_.add(code, std::move(message), Location{range, {}}, std::move(help), std::move(fixes));
    }

    Constraint logical(const char* op, const QueryNode& n) {
        std::vector<Constraint> children;
        children.reserve(n.children.size());
        for (const auto& child : n.children)
            children.push_back(node(child));
        return {op, {}, std::move(children)};
    }

    /// --requires: the properties terms of an AND become one, at the first one's place;
    /// an AND left with one constraint is that constraint.
    static Constraint combine_properties(const Constraint& c) {
        std::vector<Constraint> kept;
        std::optional<std::size_t> properties;
        std::vector<std::string> merged;
        for (const auto& child : c.children()) {
            if (child.op() != requires_dialect.split) {
                kept.push_back(child);
                continue;
            }
            if (!properties) {
                properties = kept.size();
                kept.push_back(child);
            }
            merged.insert(merged.end(), child.values().begin(), child.values().end());
        }
        if (properties)
            kept[*properties] = Constraint{kept[*properties].op(), std::move(merged)};
        if (kept.size() == 1)
            return std::move(kept.front());
        return {c.op(), {}, std::move(kept)};
    }

    Constraint term(const QueryNode& n) {
        if (!in_requires_dialect()) {
            check_operator(n);
            return {n.op.empty() ? *options_.default_operator : n.op, {n.operand}};
        }
        const std::string op(n.op.empty() ? requires_dialect.bare
                                          : requires_dialect.operator_of(n.op));
        if (op.empty()) {
            static const std::vector<std::string_view> known = [] {
                std::vector<std::string_view> names = {"properties", "hostlist", "ranks"};
                for (const auto& [alias, _] : requires_dialect.aliases)
                    names.push_back(alias);
                return names;
            }();
            const auto near = closest(n.op, known);
            report(Code::query_unknown_operator,
                   fmt::format("unknown constraint operator '{}'", n.op), n.op_range,
                   near ? fmt::format("did you mean '{}'?", *near)
                        : "use properties (the default), host or hostlist, rank or ranks",
                   near ? support::replace_word(n.op_range, n.op, *near) : std::vector<FixIt>{});
            return {"properties", {}};
        }
        std::vector<std::string> values;
        if (op == requires_dialect.split) {
            std::size_t start = 0;
            while (start <= n.operand.size()) {
                const std::size_t comma =
                    std::min(n.operand.find(requires_dialect.separator, start), n.operand.size());
                property(n, n.operand.substr(start, comma - start), start, values);
                start = comma + 1;
            }
        } else if (op == "hostlist") {
            if (auto h = model::decode_hostlist(n.operand); !h)
                value_error(
                    n, h.error().offset, h.error().length,
                    fmt::format("'{}' is not a hostlist: {}", n.operand, h.error().message));
            values.push_back(n.operand);
        } else {
            if (auto r = model::decode_idset(n.operand); !r)
                value_error(
                    n, r.error().offset, r.error().length,
                    fmt::format("'{}' is not an idset of ranks: {}", n.operand, r.error().message));
            values.push_back(n.operand);
        }
        return {op, std::move(values)};
    }

    /// An operator is made of word characters and . + @ -, as flux-core requires (RFC 35
    /// says only STRING; its examples keep to these), and is not one of RFC 31's logical
    /// operators (a quoted 'not:x' would otherwise turn into one).
    void check_operator(const QueryNode& n) {
        if (n.op == "and" || n.op == "or" || n.op == "not") {
            report(Code::query_syntax,
                   fmt::format("'{}' is a logical operator, not a term's operator", n.op),
                   n.op_range, "an RFC 31 constraint uses and, or and not for itself");
            return;
        }
        if (const auto bad = invalid_operator_character(n.op)) {
            SourceRange at = n.op_range;
            if (at.known())
                at = SourceRange{
                    at.begin + static_cast<std::uint32_t>(bad->offset),
                    at.begin + static_cast<std::uint32_t>(bad->offset + bad->character.size())};
            report(Code::query_syntax,
                   fmt::format("invalid character '{}' in operator '{}'", bad->character, n.op), at,
                   "an operator is letters, digits and _ . + @ -");
        }
    }

    void property(const QueryNode& n, const std::string& name, std::size_t offset,
                  std::vector<std::string>& values) {
        const std::string_view bare =
            !name.empty() && name[0] == '^' ? std::string_view(name).substr(1) : name;
        if (!ResourceSet::valid_property_name(bare)) {
            value_error(
                n, offset, name.size(),
                name.empty()
                    ? std::string("empty property name")
                    : fmt::format("'{}' is not a property name (none of ! & ' \" ^ ` | ( ))",
                                  name));
            return;
        }
        values.push_back(name);
    }

    /// A bad operand, pointing into it when its text is shown as is.
    void value_error(const QueryNode& n, std::size_t offset, std::size_t length,
                     std::string message) {
        SourceRange at = n.operand_range;
        const std::uint32_t start =
            at.begin + (n.quoted ? 1 : 0) + static_cast<std::uint32_t>(offset);
        if (at.known())
            at = SourceRange{start,
                             start + static_cast<std::uint32_t>(std::max<std::size_t>(length, 1))};
        report(Code::query_value, std::move(message), at);
    }

    const QueryOptions& options_;
    Diagnostics& diags_;
};

} // namespace

Constraint lower_query(const syntax::QueryNode& query, const QueryOptions& options,
                       Diagnostics& diagnostics) {
    return QueryLowering(options, diagnostics).node(query);
}

} // namespace jobspec::lower
