// A constraint made ready to evaluate, and the operators no evaluation knows.
#include "model/constraint_evaluation.hpp"

#include <algorithm>

#include "model/decoders.hpp"

namespace jobspec::model {

namespace {

void collect_unknown(const CompiledConstraint& c, std::vector<std::string_view>& out) {
    if (c.op == CompiledConstraint::Op::other)
        out.push_back(c.unknown_name);
    // `not` evaluates its first constraint only (lowering allows no other).
    const std::size_t n = c.op == CompiledConstraint::Op::not_of
                              ? std::min<std::size_t>(c.children.size(), 1)
                              : c.children.size();
    for (std::size_t i = 0; i < n; ++i)
        collect_unknown(c.children[i], out);
}

} // namespace

CompiledConstraint::CompiledConstraint(const Constraint& c) : op(c.op.kind()) {
    if (op == Op::other)
        unknown_name = c.op.name();
    for (const auto& v : c.values) {
        if (op == Op::properties) {
            const bool negated = !v.empty() && v[0] == '^';
            properties.emplace_back(std::string_view(v).substr(negated ? 1 : 0), negated);
        } else if (op == Op::hostlist) {
            if (auto h = decode_hostlist(v))
                hosts.push_back(std::move(*h));
        } else if (op == Op::ranks) {
            if (auto ids = decode_idset(v))
                ranks.push_back(std::move(*ids));
        }
    }
    children.reserve(c.children.size());
    for (const auto& child : c.children)
        children.emplace_back(child);
}

std::vector<std::string_view> unknown_operators(const CompiledConstraint& c) {
    std::vector<std::string_view> out;
    collect_unknown(c, out);
    return out;
}

} // namespace jobspec::model
