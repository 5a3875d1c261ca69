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

/// The operators outside RFC 31's set in `c`, in the order evaluation meets them.
std::vector<std::string_view> unknown_operators(const Constraint& c);

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
///   hostlist [h...]     members named in any of the hostlists (joined when made)
///   ranks [i...]        members whose rank is in any of the idsets (their union)
///   not [c]             all members but those of c; not [] matches nothing
///   or [...]/and [...]  union/intersection; or [], and [] and {} match everything
/// An operator outside that set matches nothing. `D` gives its Set type, its members
/// (`all()`, `none()`, `having(name)`, `named(hostlist)`, `ranked(idset)`), their algebra
/// (`both`, `either`, `except`) and when a fold is settled (`nothing`, `everything`).
template <class D>
typename D::Set satisfying(const Constraint& c, const D& d) {
    using Op = ConstraintOperator::Kind;
    switch (c.op().kind()) {
    case Op::and_of: {
        auto out = d.all();
        for (const auto& child : c.children()) {
            if (d.nothing(out))
                break;
            out = d.both(out, satisfying(child, d));
        }
        return out;
    }
    case Op::or_of:
        if (c.children().empty())
            return d.all();
        return any_value(c.children(), d,
                         [&](const Constraint& child) { return satisfying(child, d); });
    case Op::not_of:
        return c.children().empty() ? d.none()
                                    : d.except(d.all(), satisfying(c.children().front(), d));
    case Op::properties: {
        auto out = d.all();
        for (const std::string_view value : c.values()) {
            if (d.nothing(out))
                break;
            const bool negated = !value.empty() && value[0] == '^';
            const auto has = d.having(value.substr(negated ? 1 : 0));
            out = negated ? d.except(out, has) : d.both(out, has);
        }
        return out;
    }
    case Op::hostlist:
        return d.named(c.named_hosts());
    case Op::ranks:
        return d.ranked(c.named_ranks());
    case Op::other:
        break;
    }
    return d.none();
}

} // namespace jobspec::model
