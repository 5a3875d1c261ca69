// Why a request does not fit: the words and numbers of jobspec.unsatisfiable and friends.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <jobspec/constraint_model.hpp>
#include <jobspec/diagnostic.hpp>
#include <jobspec/resource_set_model.hpp>

#include "match/placement_units.hpp"

namespace jobspec::match {

/// "1 core", "2 cores", "2 chassis", "2 memories": a count and its noun, singular for one.
std::string counted(std::uint64_t n, std::string_view noun);

/// "8 cores and 1 gpu", "1 gpu", "nothing": what a demand asks.
std::string demand_phrase(const Demand& d);

/// One step of the narrowing from every node to those that can hold a unit: what the
/// nodes left do (a verb phrase, plural and singular), how many are left, and where the
/// request asks it.
struct Narrowing {
    std::string verb;
    std::string verb_one;
    std::uint64_t left = 0;
    std::string pointer;
    SourceRange range;
};

/// The diagnostic for a unit that cannot be met: "asks 4 nodes with 8 cores each: of
/// the 16 nodes, 10 match the constraints, 3 of those have 8 cores", then "; they " and
/// `tail` (a verb phrase, plural and singular, may be empty). The first step is the count of all
/// nodes (its verb, if any, follows "nodes": "with something free"); a later step that leaves as
/// many as the one before is not said. It points at the first step that leaves fewer than `need`,
/// or at the unit when none does.
Diagnostic narrowing_diagnostic(Code code, std::string asks, std::uint64_t need,
                                const std::vector<Narrowing>& steps, const VertexAt& unit,
                                const std::string& tail, const std::string& tail_one);

/// For each term of the constraint (each property on its own), the targets of `r` it
/// removes, as match.constraint notes: "node[4-7] (4 nodes) lack property ssd", at the
/// term's JSON pointer under `pointer` (none when `pointer` is empty, for a constraint
/// that is not the jobspec's), with `from` after ("..., as queue 'batch' requires").
/// Terms that remove nothing say nothing.
void constraint_notes(const Constraint& c, const ResourceSet& r, const std::string& pointer,
                      const std::string& from, Diagnostics& out);

} // namespace jobspec::match
