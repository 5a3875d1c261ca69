// RFC 31 evaluated once, for any domain: R's execution targets as sets, or one vertex of
// a Fluxion graph at a time.
#pragma once

#include <string_view>
#include <utility>
#include <vector>

#include <jobspec/constraint_model.hpp>
#include <jobspec/hostlist.hpp>
#include <jobspec/idset.hpp>

namespace jobspec::model {

/// A constraint made ready to evaluate: its operator's kind (decided when the Constraint
/// was made), each property split from its '^', each hostlist and idset decoded (a value
/// that does not decode names nothing).
/// It views the names of the Constraint it is made from, which must outlive it.
struct CompiledConstraint {
    using Op = ConstraintOperator::Kind;
    Op op = Op::and_of;
    /// The operator as written, when it is outside RFC 31's set.
    std::string_view unknown_name;
    /// A property's name and whether it is negated ("^ssd").
    std::vector<std::pair<std::string_view, bool>> properties;
    std::vector<Hostlist> hosts;
    std::vector<IdSet> ranks;
    std::vector<CompiledConstraint> children;

    explicit CompiledConstraint(const Constraint& c);
};

/// The operators outside RFC 31's set in `c`, in the order evaluation meets them.
std::vector<std::string_view> unknown_operators(const CompiledConstraint& c);

/// The members of `d` that any of `values` picks (`pick(value)`), or none.
template <class D, class Values, class Pick>
typename D::Set any_value(const Values& values, const D& d, Pick pick) {
    auto out = d.none();
    for (const auto& v : values) {
        if (d.everything(out))
            break;
        out = d.either(out, pick(v));
    }
    return out;
}

/// The members of domain `d` that satisfy `c` (RFC 31, docs of Constraint::match):
///   properties [a, ^b]  members with every property a and none of b
///   hostlist [h...]     members named in any of the hostlists
///   ranks [i...]        members whose rank is in any of the idsets
///   not [c]             all members but those of c; not [] matches nothing
///   or [...]/and [...]  union/intersection; or [], and [] and {} match everything
/// An operator outside that set matches nothing. `D` gives its Set type, its members
/// (`all()`, `none()`, `having(name)`, `named(hostlist)`, `ranked(idset)`), their algebra
/// (`both`, `either`, `except`) and when a fold is settled (`nothing`, `everything`).
template <class D>
typename D::Set satisfying(const CompiledConstraint& c, const D& d) {
    using Op = CompiledConstraint::Op;
    switch (c.op) {
    case Op::and_of: {
        auto out = d.all();
        for (const auto& child : c.children) {
            if (d.nothing(out))
                break;
            out = d.both(out, satisfying(child, d));
        }
        return out;
    }
    case Op::or_of:
        if (c.children.empty())
            return d.all();
        return any_value(c.children, d,
                         [&](const CompiledConstraint& child) { return satisfying(child, d); });
    case Op::not_of:
        return c.children.empty() ? d.none() : d.except(d.all(), satisfying(c.children.front(), d));
    case Op::properties: {
        auto out = d.all();
        for (const auto& [name, negated] : c.properties) {
            if (d.nothing(out))
                break;
            out = negated ? d.except(out, d.having(name)) : d.both(out, d.having(name));
        }
        return out;
    }
    case Op::hostlist:
        return any_value(c.hosts, d, [&](const Hostlist& h) { return d.named(h); });
    case Op::ranks:
        return any_value(c.ranks, d, [&](const IdSet& ids) { return d.ranked(ids); });
    case Op::other:
        break;
    }
    return d.none();
}

} // namespace jobspec::model
