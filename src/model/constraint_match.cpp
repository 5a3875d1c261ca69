// Constraint::match: RFC 31 evaluated on sets of execution targets.
#include <jobspec/constraint_model.hpp>

#include <fmt/format.h>

#include "model/decoders.hpp"
#include <jobspec/hostlist.hpp>

namespace jobspec {

namespace {

class Matcher {
public:
    Matcher(const ResourceSet& r, Diagnostics& diagnostics)
        : r_(r), all_(r.ranks()), diags_(diagnostics) {}

    IdSet match(const Constraint& c) {
        if (c.op == "and" || c.op == "or") {
            IdSet result = c.op == "and" ? all_ : IdSet{};
            if (c.children.empty())
                return all_;
            for (const auto& child : c.children)
                result =
                    c.op == "and" ? result.intersected(match(child)) : result.united(match(child));
            return result;
        }
        if (c.op == "not")
            return c.children.empty() ? IdSet{} : all_.without(match(c.children.front()));
        if (c.op == "properties")
            return properties(c.values);
        if (c.op == "hostlist") {
            IdSet out;
            for (const auto& v : c.values)
                if (auto h = model::decode_hostlist(v))
                    out = out.united(r_.ranks_of(*h));
            return out;
        }
        if (c.op == "ranks") {
            IdSet out;
            for (const auto& v : c.values)
                if (auto ids = model::decode_idset(v))
                    out = out.united(*ids);
            return out.intersected(all_);
        }
        diags_.add(
            Code::constraint_unmatchable,
            fmt::format("'{}' is not an RFC 31 operator, so it cannot match resources", c.op));
        return {};
    }

private:
    IdSet properties(const std::vector<std::string>& names) {
        IdSet out = all_;
        for (const auto& name : names) {
            const bool negated = !name.empty() && name[0] == '^';
            const std::string_view bare =
                negated ? std::string_view(name).substr(1) : std::string_view(name);
            const auto it = r_.properties().find(bare);
            const IdSet have = it == r_.properties().end() ? IdSet{} : it->second;
            out = negated ? out.without(have) : out.intersected(have);
        }
        return out;
    }

    const ResourceSet& r_;
    const IdSet all_;
    Diagnostics& diags_;
};

} // namespace

Result<IdSet> Constraint::match(const ResourceSet& r) const {
    Diagnostics d;
    IdSet out = Matcher(r, d).match(*this);
    if (d.has_errors())
        return Result<IdSet>(std::move(d));
    return out;
}

} // namespace jobspec
