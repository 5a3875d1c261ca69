// The explanations of a request that does not fit, in words and numbers.
#include "match/match_explanation.hpp"

#include <fmt/format.h>

namespace jobspec::match {

std::string counted(std::uint64_t n, std::string_view noun) {
    if (n == 1 || noun.ends_with('s')) // "1 core", "2 chassis"
        return fmt::format("{} {}", n, noun);
    if (noun.ends_with('y') && noun.size() > 1 &&
        std::string_view("aeiou").find(noun[noun.size() - 2]) == std::string_view::npos)
        return fmt::format("{} {}ies", n, noun.substr(0, noun.size() - 1)); // "2 memories"
    return fmt::format("{} {}s", n, noun);
}

std::string demand_phrase(const Demand& d) {
    if (d.cores > 0 && d.gpus > 0)
        return counted(d.cores, "core") + " and " + counted(d.gpus, "gpu");
    if (d.gpus > 0)
        return counted(d.gpus, "gpu");
    return d.cores > 0 ? counted(d.cores, "core") : "nothing";
}

Diagnostic narrowing_diagnostic(Code code, std::string asks, std::uint64_t need,
                                const std::vector<Narrowing>& steps, const VertexAt& unit,
                                const std::string& tail, const std::string& tail_one) {
    Diagnostic d;
    d.code = code;
    d.severity = default_severity(code);
    d.location = Location(unit.vertex->range, unit.pointer);
    bool placed = steps[0].left < need;
    std::string said;
    std::size_t shown = 0;
    std::uint64_t last = steps[0].left;
    for (std::size_t i = 1; i < steps.size(); ++i) {
        const bool fails = !placed && steps[i].left < need;
        if (fails) {
            d.location = Location(steps[i].range, steps[i].pointer);
            placed = true;
        }
        if (steps[i].left == steps[i - 1].left && !fails)
            continue;
        said += fmt::format(", {}{} {}", steps[i].left, shown == 0 ? "" : " of those",
                            steps[i].left == 1 ? steps[i].verb_one : steps[i].verb);
        last = steps[i].left;
        ++shown;
    }
    const std::string all =
        counted(steps[0].left, "node") + (steps[0].verb.empty() ? "" : " " + steps[0].verb);
    const std::string& verb = last == 1 ? tail_one : tail;
    if (shown == 0)
        d.message = fmt::format("{}: there {} {}{}", asks, steps[0].left == 1 ? "is" : "are", all,
                                verb.empty() ? "" : ", which " + verb);
    else
        d.message = fmt::format("{}: of the {}{}{}", asks, all, said,
                                verb.empty() ? "" : (last == 1 ? "; it " : "; they ") + verb);
    return d;
}

namespace {

/// The hosts of these ranks of `r` ("node[4-7]"), or "rank 4-7" when R names none.
std::string targets(const ResourceSet& r, const IdSet& ranks) {
    const Hostlist hosts = r.filtered(ranks).nodelist();
    const std::string name = hosts.empty() ? "rank " + ranks.format() : hosts.encode();
    return fmt::format("{} ({})", name, counted(ranks.count(), "node"));
}

std::string values_text(const std::vector<std::string>& values) {
    std::string out;
    for (const auto& v : values)
        out += (out.empty() ? "" : ",") + v;
    return out;
}

/// What the targets a term removes have in common: "lack property ssd".
std::string removed_because(const Constraint& c) {
    if (c.op() == ConstraintOperator::Kind::properties && c.values().size() == 1) {
        const std::string& p = c.values()[0];
        return p.starts_with('^') ? "have property " + p.substr(1) : "lack property " + p;
    }
    if (c.op() == ConstraintOperator::Kind::properties)
        return "lack properties " + values_text(c.values());
    if (c.op() == ConstraintOperator::Kind::hostlist)
        return "are not in hostlist " + values_text(c.values());
    if (c.op() == ConstraintOperator::Kind::ranks)
        return "are not rank " + values_text(c.values());
    if (c.op() == ConstraintOperator::Kind::not_of && c.children().size() == 1 &&
        !c.children()[0].logical())
        return fmt::format("are excluded by not {}:{}", c.children()[0].op().name(),
                           values_text(c.children()[0].values()));
    return fmt::format("do not satisfy its '{}'", c.op().name());
}

void note(const Constraint& term, const ResourceSet& r, const std::string& pointer,
          const std::string& from, Diagnostics& out) {
    auto matched = term.match(r);
    if (!matched.ok())
        return;
    const IdSet removed = r.ranks().without(matched.value());
    if (removed.empty())
        return;
    out.add(Code::match_constraint,
            fmt::format("{} {}{}", targets(r, removed), removed_because(term),
                        from.empty() ? "" : ", as " + from + " requires"),
            Location({}, pointer));
}

} // namespace

void constraint_notes(const Constraint& c, const ResourceSet& r, const std::string& pointer,
                      const std::string& from, Diagnostics& out) {
    const auto under = [&](std::string_view key, std::size_t i) {
        return pointer.empty() ? pointer : fmt::format("{}/{}/{}", pointer, key, i);
    };
    if (c.op() == ConstraintOperator::Kind::and_of) {
        for (std::size_t i = 0; i < c.children().size(); ++i)
            constraint_notes(c.children()[i], r, under("and", i), from, out);
        return;
    }
    if (c.op() == ConstraintOperator::Kind::properties && c.values().size() > 1) {
        for (std::size_t i = 0; i < c.values().size(); ++i)
            note(Constraint{"properties", {c.values()[i]}}, r, under("properties", i), from, out);
        return;
    }
    note(c, r, pointer, from, out);
}

} // namespace jobspec::match
