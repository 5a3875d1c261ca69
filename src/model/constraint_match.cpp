// Constraint::match: RFC 31 evaluated on sets of R's execution targets.
#include <jobspec/constraint_model.hpp>

#include <fmt/format.h>

#include "model/constraint_evaluation.hpp"

namespace jobspec {

namespace {

/// R's execution targets as the domain of model::satisfying: a property is its rank
/// idset, a hostlist the ranks of its hosts.
class Ranks {
public:
    using Set = IdSet;

    explicit Ranks(const ResourceSet& r) : r_(r), all_(r.ranks()) {}

    IdSet all() const { return all_; }
    IdSet none() const { return {}; }
    IdSet having(std::string_view name) const {
        const auto it = r_.properties().find(name);
        return it == r_.properties().end() ? IdSet{} : it->second;
    }
    IdSet named(const Hostlist& hosts) const { return r_.ranks_of(hosts); }
    IdSet ranked(const IdSet& ids) const { return ids.intersected(all_); }
    static IdSet both(const IdSet& a, const IdSet& b) { return a.intersected(b); }
    static IdSet either(const IdSet& a, const IdSet& b) { return a.united(b); }
    static IdSet except(const IdSet& a, const IdSet& b) { return a.without(b); }
    static bool nothing(const IdSet& s) { return s.empty(); }
    static bool everything(const IdSet&) { return false; }

private:
    const ResourceSet& r_;
    const IdSet all_;
};

} // namespace

Result<IdSet> Constraint::match(const ResourceSet& r) const {
    Diagnostics d;
    for (const auto name : model::unknown_operators(*this))
        d.add(Code::constraint_unmatchable,
              fmt::format("'{}' is not an RFC 31 operator, so it cannot match resources", name));
    if (d.has_errors())
        return Result<IdSet>(std::move(d));
    return model::satisfying(*this, Ranks(r));
}

} // namespace jobspec
