// RFC 31 constraint JSON -> Constraint, with checks and JSON pointers.
#include <jobspec/constraint.hpp>

#include <fmt/format.h>

#include <jobspec/hostlist.hpp>

#include "support/input_limit.hpp"
#include "support/json_kinds.hpp"
#include "support/json_parse.hpp"
#include "support/json_pointer.hpp"
#include <jobspec/suggest.hpp>

namespace jobspec {

namespace {

using support::JsonPointer;
using support::PointerScope;

class ConstraintReader {
public:
    ConstraintReader(std::string_view pointer, Diagnostics& diagnostics)
        : ptr_(pointer), diags_(diagnostics) {}

    Constraint read(const boost::json::value& v) {
        if (!v.is_object()) {
            report(Code::constraint_type, fmt::format("a constraint must be a dictionary, not {}",
                                                      support::describe(v.kind())));
            return {};
        }
        const auto& o = v.get_object();
        if (o.empty())
            return Constraint{"and", {}, {}};
        if (o.size() > 1)
            report(Code::constraint_arity, "a constraint has one operator",
                   "combine several with {\"and\": [...]}");
        const auto& [key, values] = *o.begin();
        PointerScope at(ptr_, key);
        Constraint c{std::string(key), {}, {}};
        static const std::vector<std::string_view> operators = {"properties", "hostlist", "ranks",
                                                                "not",        "or",       "and"};
        if (std::find(operators.begin(), operators.end(), c.op) == operators.end()) {
            const auto near = closest(c.op, operators);
            report(Code::constraint_unknown_operator,
                   fmt::format("unknown constraint operator '{}'", c.op),
                   near ? fmt::format("did you mean '{}'?", *near)
                        : "RFC 31 defines properties, hostlist, ranks, not, or, and");
            return c;
        }
        if (!values.is_array()) {
            report(Code::constraint_type, fmt::format("'{}' must have a list of values, not {}",
                                                      c.op, support::describe(values.kind())));
            return c;
        }
        const auto& list = values.get_array();
        if (c.op == "not" && list.size() > 1)
            report(Code::constraint_arity,
                   fmt::format("'not' negates one constraint, not {}", list.size()),
                   "wrap several in {\"and\": [...]} or {\"or\": [...]}");
        for (std::size_t i = 0; i < list.size(); ++i) {
            PointerScope item_at(ptr_, i);
            if (c.logical()) {
                c.children.push_back(read(list[i]));
                continue;
            }
            if (!list[i].is_string()) {
                report(Code::constraint_type, fmt::format("'{}' values must be strings, not {}",
                                                          c.op, support::describe(list[i].kind())));
                continue;
            }
            value(c.op, std::string(list[i].get_string()));
            c.values.emplace_back(list[i].get_string());
        }
        return c;
    }

private:
    void report(Code code, std::string message, std::string help = {}) {
        diags_.add(code, std::move(message), Location{{}, ptr_.str()}, std::move(help));
    }

    void value(const std::string& op, const std::string& v) {
        if (op == "properties") {
            const std::string_view bare =
                !v.empty() && v[0] == '^' ? std::string_view(v).substr(1) : v;
            if (!ResourceSet::valid_property_name(bare))
                report(Code::constraint_value, fmt::format("'{}' is not a property name", v));
        } else if (op == "hostlist") {
            if (auto h = Hostlist::parse(v); !h)
                report(Code::constraint_value,
                       fmt::format("'{}' is not a hostlist: {}", v, h.error().message));
        } else if (auto r = IdSet::parse(v); !r) {
            report(Code::constraint_value,
                   fmt::format("'{}' is not an idset: {}", v, r.error().message));
        }
    }

    JsonPointer ptr_;
    Diagnostics& diags_;
};

} // namespace

Result<Constraint> constraint_from_json(const boost::json::value& value, std::string_view pointer) {
    Diagnostics diagnostics;
    Constraint c = ConstraintReader(pointer, diagnostics).read(value);
    if (diagnostics.has_errors())
        return Result<Constraint>(std::move(diagnostics));
    return {std::move(c), std::move(diagnostics)};
}

Result<Constraint> read_constraint(std::string_view text, const Limits& limits) {
    Diagnostics diagnostics;
    if (!support::within_input_limit(text, limits, "constraint", diagnostics) ||
        !support::valid_utf8(text, Code::constraint_type, "the constraint", diagnostics))
        return Result<Constraint>(std::move(diagnostics));
    boost::json::error_code ec;
    const auto v = support::parse_json(text, ec, limits.effective_depth());
    if (ec) {
        diagnostics.add(ec == boost::json::error::too_deep ? Code::limit_depth
                                                           : Code::constraint_type,
                        fmt::format("the constraint is not valid JSON: {}", ec.message()));
        return Result<Constraint>(std::move(diagnostics));
    }
    return constraint_from_json(v);
}

} // namespace jobspec
