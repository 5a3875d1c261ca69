#include "lower/constraint_lowering.hpp"
#include "model/decoders.hpp"
#include "support/fix_its.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include <jobspec/hostlist.hpp>
#include <jobspec/idset.hpp>
#include <jobspec/resource_set_model.hpp>
#include <jobspec/suggest.hpp>

namespace jobspec::lower {

namespace {

using support::PointerScope;
using syntax::DocNode;

class ConstraintLowering {
public:
    ConstraintLowering(support::JsonPointer& pointer, Diagnostics& diagnostics, Dialect dialect)
        : ptr_(pointer), diags_(diagnostics), dialect_(dialect) {}

    Constraint read(const DocNode& n) {
        if (!n.is_mapping()) {
            report(Code::constraint_type,
                   fmt::format("a constraint must be a dictionary, not {}",
                               syntax::describe(n.kind())),
                   n.range);
            return {};
        }
        const auto& members = n.members();
        if (members.empty())
            return {};
        if (members.size() > 1)
            report(Code::constraint_arity, "a constraint has one operator", n.range,
                   "combine several with {\"and\": [...]}");
        const auto& [key, key_range, values] = members.front();
        PointerScope at(ptr_, key);
        const ConstraintOperator op(key);
        static const std::vector<std::string_view> operators = {"properties", "hostlist", "ranks",
                                                                "not",        "or",       "and"};
        if (op == ConstraintOperator::Kind::other) {
            const auto near = closest(op.name(), operators);
            report(Code::constraint_unknown_operator,
                   fmt::format("unknown constraint operator '{}'", op.name()), key_range,
                   near ? fmt::format("did you mean '{}'?", *near)
                        : "RFC 31 defines properties, hostlist, ranks, not, or, and",
                   near ? support::replace_word(key_range, op.name(), *near)
                        : std::vector<FixIt>{});
            return {op, {}};
        }
        if (!values.is_sequence()) {
            report(Code::constraint_type,
                   fmt::format("'{}' must have a list of values, not {}", op.name(),
                               syntax::describe(values.kind())),
                   values.range);
            return {op, {}};
        }
        const auto& list = values.elements();
        if (op == ConstraintOperator::Kind::not_of && list.size() > 1)
            report(Code::constraint_arity,
                   fmt::format("'not' negates one constraint, not {}", list.size()), values.range,
                   "wrap several in {\"and\": [...]} or {\"or\": [...]}");
        std::vector<std::string> operands;
        std::vector<Constraint> children;
        for (std::size_t i = 0; i < list.size(); ++i) {
            PointerScope item_at(ptr_, i);
            if (op.logical()) {
                children.push_back(read(list[i]));
                continue;
            }
            if (dialect_ == Dialect::fluxion && op == ConstraintOperator::Kind::ranks &&
                list[i].kind() == DocNode::Kind::integer && list[i].integer() >= 0) {
                operands.push_back(std::to_string(list[i].integer()));
                continue;
            }
            if (!list[i].is_string()) {
                report(Code::constraint_type,
                       fmt::format("'{}' values must be strings, not {}", op.name(),
                                   syntax::describe(list[i].kind())),
                       list[i].range);
                continue;
            }
            value(op.name(), list[i].text(), list[i].range);
            operands.push_back(list[i].text());
        }
        return {op, std::move(operands), std::move(children)};
    }

private:
    void report(Code code, std::string message, SourceRange range, std::string help = {},
                std::vector<FixIt> fixes = {}) {
        diags_.add(code, std::move(message), Location{range, ptr_.str()}, std::move(help),
                   std::move(fixes));
    }

    void value(std::string_view op, const std::string& v, SourceRange range) {
        if (auto problem = operand_problem(op, v))
            report(Code::constraint_value, std::move(*problem), range);
    }

    support::JsonPointer& ptr_;
    Diagnostics& diags_;
    Dialect dialect_;
};

} // namespace

std::optional<std::string> operand_problem(std::string_view op, std::string_view v) {
    if (op == "properties") {
        const std::string_view bare = !v.empty() && v[0] == '^' ? v.substr(1) : v;
        if (!ResourceSet::valid_property_name(bare))
            return fmt::format("'{}' is not a property name", v);
    } else if (op == "hostlist") {
        if (auto h = model::decode_hostlist(v); !h)
            return fmt::format("'{}' is not a hostlist: {}", v, h.error().message);
    } else if (auto r = model::decode_idset(v); !r) {
        return fmt::format("'{}' is not an idset: {}", v, r.error().message);
    }
    return std::nullopt;
}

Constraint lower_constraint(const DocNode& n, support::JsonPointer& pointer,
                            Diagnostics& diagnostics, Dialect dialect) {
    return ConstraintLowering(pointer, diagnostics, dialect).read(n);
}

} // namespace jobspec::lower
