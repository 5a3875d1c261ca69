// R (RFC 20 version 1) document tree -> ResourceSet.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <jobspec/diagnostic.hpp>
#include <jobspec/resource_set_model.hpp>

#include "syntax/document_tree.hpp"

namespace jobspec::lower {

/// R is JSON read as flux-core reads it: a repeated key keeps its last value; its
/// problems have R.* codes.
inline constexpr syntax::JsonDialect r_dialect{"R",
                                               "R",
                                               "R is not valid JSON",
                                               Code::R_json_syntax,
                                               Code::R_duplicate_key,
                                               Code::R_json_syntax,
                                               true};

/// An RFC 22 idset string of R (or of Flux's resource configuration) named `what`, or
/// nothing, with R.type (not a string) or R.idset reported at `pointer` and the node's range.
std::optional<IdSet> read_r_idset(const syntax::DocNode& v, std::string_view what,
                                  std::string pointer, Diagnostics& diagnostics);

/// "'NAME' is not a property name (...)": RFC 20's rule, for R.property-name.
std::string not_a_property_name(std::string_view name);

/// One R document tree as a resource set, with every check RFC 20 asks for (R.*
/// diagnostics with pointers and the tree's ranges), Fluxion's JGF in its scheduling key
/// read into fluxion_graph (graph.*). A JGF document (lower_fluxion_graph) is R too: its
/// nodes the execution (model::execution_of), the graph its scheduling key. The set is
/// meaningful only when no error was added.
ResourceSet lower_resource_set(const syntax::DocNode& r, Diagnostics& diagnostics);

/// R's scheduling key (a dictionary: RFC 20's writer, and RFC 49's entries when the
/// writer is TreePool, which go to into.treepool typed) into `into`, as
/// lower_resource_set reads it: what a configuration's scheduling file holds.
/// R.type and R.scheduling at pointers under /scheduling; `into` unchanged then.
void lower_scheduling(const syntax::DocNode& scheduling, ResourceSet& into,
                      Diagnostics& diagnostics);

} // namespace jobspec::lower
