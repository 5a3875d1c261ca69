// The RFC 31 constraint: its value, and matching it against R.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <jobspec/api.hpp>
#include <jobspec/hostlist.hpp>
#include <jobspec/idset.hpp>
#include <jobspec/limits.hpp>
#include <jobspec/resource_set_model.hpp>
#include <jobspec/result.hpp>

namespace jobspec {

/// A constraint's operator, decided once from its name: one of RFC 31's, or another name
/// (RFC 35's plain language takes any operator), kept as written.
class ConstraintOperator {
public:
    enum class Kind : std::uint8_t { and_of, or_of, not_of, properties, hostlist, ranks, other };

    ConstraintOperator() = default;
    // From its name, as written: implicit, so that {"properties", {...}} reads as RFC 31.
    ConstraintOperator(std::string_view name) : kind_(kind_of(name)) { // NOLINT
        if (kind_ == Kind::other)
            other_ = name;
    }
    ConstraintOperator(const char* name) : ConstraintOperator(std::string_view(name)) {} // NOLINT
    ConstraintOperator(const std::string& name)                                          // NOLINT
        : ConstraintOperator(std::string_view(name)) {}

    Kind kind() const noexcept { return kind_; }
    /// Its name: RFC 31's word, or the other name as written.
    std::string_view name() const noexcept {
        switch (kind_) {
        case Kind::and_of:
            return "and";
        case Kind::or_of:
            return "or";
        case Kind::not_of:
            return "not";
        case Kind::properties:
            return "properties";
        case Kind::hostlist:
            return "hostlist";
        case Kind::ranks:
            return "ranks";
        case Kind::other:
            break;
        }
        return other_;
    }
    bool logical() const noexcept {
        return kind_ == Kind::and_of || kind_ == Kind::or_of || kind_ == Kind::not_of;
    }

    friend bool operator==(const ConstraintOperator&, const ConstraintOperator&) = default;
    friend bool operator==(const ConstraintOperator& a, Kind b) noexcept { return a.kind_ == b; }

private:
    static constexpr Kind kind_of(std::string_view name) noexcept {
        if (name == "and")
            return Kind::and_of;
        if (name == "or")
            return Kind::or_of;
        if (name == "not")
            return Kind::not_of;
        if (name == "properties")
            return Kind::properties;
        if (name == "hostlist")
            return Kind::hostlist;
        if (name == "ranks")
            return Kind::ranks;
        return Kind::other;
    }

    Kind kind_ = Kind::and_of;
    std::string other_;
};

/// An RFC 31 constraint: an operator with its values ({"properties": ["ssd"]}), or a
/// logical one over constraints ({"not": [...]}, {"or": [...]}, {"and": [...]}). The empty
/// object {} is an `and` with no children (it matches everything).
/// It is made once, with its operands ready to evaluate: the values of `hostlist` decoded
/// as RFC 29 hostlists and those of `ranks` as RFC 22 idsets, each joined into one, so
/// that no match decodes them again. To change a constraint, make a new one.
class JOBSPEC_API Constraint {
public:
    /// {}: an `and` of nothing.
    Constraint() = default;
    /// `values` are those of properties, hostlist, ranks or another operator; `children`
    /// the constraints of not, or and and. A hostlist or ranks value that does not decode
    /// names nothing (the readers refuse it with a located diagnostic first).
    Constraint(ConstraintOperator op, std::vector<std::string> values,
               std::vector<Constraint> children = {});

    const ConstraintOperator& op() const noexcept { return op_; }
    const std::vector<std::string>& values() const noexcept { return values_; }
    const std::vector<Constraint>& children() const noexcept { return children_; }
    bool logical() const noexcept { return op_.logical(); }
    /// The hosts a `hostlist` constraint names: its values decoded and joined, in order.
    const Hostlist& named_hosts() const noexcept { return named_hosts_; }
    /// The ranks a `ranks` constraint names: the union of its values decoded.
    const IdSet& named_ranks() const noexcept { return named_ranks_; }

    /// The execution targets of `r` that satisfy the constraint, computed on sets (a
    /// property is its rank idset, a hostlist the ranks of its hosts, not a complement):
    ///   properties [a, ^b]  ranks with every property a and none of b
    ///   hostlist [h...]     ranks whose host is in any of the hostlists
    ///   ranks [i...]        ranks in any of the idsets
    ///   not [c]             all ranks but those of c; not [] matches nothing
    ///   or [...]/and [...]  union/intersection; or [], and [] and {} match everything
    /// Fails (constraint.unmatchable) for an operator outside RFC 31's set.
    Result<IdSet> match(const ResourceSet& r) const;

    /// Equal when written alike: the same operator, values and children.
    friend bool operator==(const Constraint& a, const Constraint& b) noexcept {
        return a.op_ == b.op_ && a.values_ == b.values_ && a.children_ == b.children_;
    }

private:
    ConstraintOperator op_;
    std::vector<std::string> values_;
    std::vector<Constraint> children_;
    Hostlist named_hosts_;
    IdSet named_ranks_;
};

/// flux's --requires dialect (its MiniConstraintParser's configuration): how a query's
/// terms become RFC 31 terms. One table, for jobspec's reader and the Python drop-in.
struct RequiresDialect {
    /// The operator of a bare term.
    std::string_view bare = "properties";
    /// Other names of RFC 31's operators.
    std::array<std::pair<std::string_view, std::string_view>, 3> aliases{
        {{"host", "hostlist"}, {"hosts", "hostlist"}, {"rank", "ranks"}}};
    /// The operator whose operand splits on `separator` into values, and whose terms
    /// joined by AND merge into one.
    std::string_view split = "properties";
    char separator = ',';

    /// RFC 31's operator `name` stands for (itself when it is one), or "" for none.
    constexpr std::string_view operator_of(std::string_view name) const noexcept {
        if (name == "properties" || name == "hostlist" || name == "ranks")
            return name;
        for (const auto& [alias, op] : aliases)
            if (alias == name)
                return op;
        return {};
    }
};
inline constexpr RequiresDialect requires_dialect{};

/// A character that cannot be in a term's operator: its byte offset and itself.
struct OperatorCharacter {
    std::size_t offset = 0;
    std::string character;
};

/// The first character of `op` that cannot be in a term's operator (RFC 35: letters,
/// digits and _ . + @ -, letters and digits as Python's `\w` knows them in a str), or
/// nothing. A byte that is not UTF-8 is itself the answer. `letter_or_digit` says which
/// code points beyond ASCII are letters or digits: by default those of Unicode's
/// categories L* and N* in utf8proc's Unicode; a Python binding passes its interpreter's
/// (whose Unicode may be older), so that it answers exactly as Python's `\w` there.
JOBSPEC_API std::optional<OperatorCharacter>
invalid_operator_character(std::string_view op, bool (*letter_or_digit)(char32_t) = nullptr);

/// How a query is read.
struct QueryOptions {
    /// Nothing: the dialect of `--requires`, where a bare operand is a property, `host`
    /// and `hosts` mean hostlist, `rank` means ranks, properties split on ',' and
    /// properties joined by AND combine into one term, and only RFC 31's operators are
    /// accepted. An operator name: RFC 35's plain language with that default operator
    /// and any operator taken as written (RFC 35's examples use "name").
    std::optional<std::string> default_operator;
    Limits limits;
};

} // namespace jobspec
