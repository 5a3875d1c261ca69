// Looking inside the parsers: how jobspec reads a shape, a dependency URI, a constraint
// query or a batch script's directives, token by token and rule by rule (what
// jobspec-grammar and the playground show).
#pragma once

#include <string_view>

#include <jobspec/api.hpp>
#include <jobspec/grammar_view_model.hpp>
#include <jobspec/grammar_view_text.hpp>

namespace jobspec {

/// Reads `text` with `grammar` through the same code jobspec uses, and records what
/// happened. Bad input gives diagnostics, never an exception.
JOBSPEC_API GrammarInspection inspect_grammar(Grammar grammar, std::string_view text,
                                              const InspectOptions& options = {});

} // namespace jobspec
