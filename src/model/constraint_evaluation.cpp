// A constraint made ready to evaluate, and the operators no evaluation knows.
#include "model/constraint_evaluation.hpp"

#include <algorithm>

#include "model/decoders.hpp"

namespace jobspec {

Constraint::Constraint(ConstraintOperator op, std::vector<std::string> values,
                       std::vector<Constraint> children)
    : op_(std::move(op)), values_(std::move(values)), children_(std::move(children)) {
    std::vector<IdSet> ranks;
    for (const auto& v : values_) {
        if (op_ == ConstraintOperator::Kind::hostlist) {
            if (auto h = model::decode_hostlist(v))
                named_hosts_.append(*h);
        } else if (op_ == ConstraintOperator::Kind::ranks) {
            if (auto ids = model::decode_idset(v))
                ranks.push_back(std::move(*ids));
        }
    }
    named_ranks_ = IdSet::union_of(ranks);
}

namespace model {

namespace {

void collect_unknown(const Constraint& c, std::vector<std::string_view>& out) {
    if (c.op() == ConstraintOperator::Kind::other)
        out.push_back(c.op().name());
    // `not` evaluates its first constraint only (lowering allows no other).
    const std::size_t n = c.op() == ConstraintOperator::Kind::not_of
                              ? std::min<std::size_t>(c.children().size(), 1)
                              : c.children().size();
    for (std::size_t i = 0; i < n; ++i)
        collect_unknown(c.children()[i], out);
}

} // namespace

std::vector<std::string_view> unknown_operators(const Constraint& c) {
    std::vector<std::string_view> out;
    collect_unknown(c, out);
    return out;
}

} // namespace model

} // namespace jobspec
