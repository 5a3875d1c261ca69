// Limits that keep hostile input from exhausting the stack, memory or time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace jobspec {

/// Per-call limits. Exceeding one is a limit.* diagnostic, never a crash.
/// Integers are always limited to 2^63-1 (JSON interoperability), see max_integer.
struct Limits {
    /// Largest accepted input text, in bytes (limit.input-size).
    std::size_t max_input_bytes = std::size_t{1} << 20;
    /// Deepest accepted nesting of lists, dictionaries and `/` levels (limit.depth).
    /// Values above depth_ceiling are treated as depth_ceiling.
    std::size_t max_depth = 64;
    /// Most diagnostics kept from one call; later ones are dropped (limit.diagnostics).
    /// At most diagnostics_ceiling.
    std::size_t max_diagnostics = 100;
    /// Most nodes YAML aliases may add by expansion, so "billion laughs" documents
    /// stop early (limit.aliases).
    std::size_t max_alias_nodes = 10000;
    /// Most resource vertices a jobspec or shape may have, counted at every level
    /// (limit.vertices).
    std::size_t max_vertices = 1000;
    /// Most terms a constraint may have, an RFC 31 object or an RFC 35 query: each
    /// operator and each of its values is one (limit.constraint-terms).
    std::size_t max_constraint_terms = 1000;

    /// The hard ceiling on max_depth: recursion this deep fits in a 1 MiB thread stack.
    static constexpr std::size_t depth_ceiling = 1000;
    /// The hard ceiling on max_diagnostics: each is a few hundred bytes of output (and of
    /// memory, for a JSON report), and a stream of bad lines could otherwise make
    /// gigabytes of them.
    static constexpr std::size_t diagnostics_ceiling = 100000;
    /// The largest integer any count or id may have.
    static constexpr std::uint64_t max_integer = INT64_MAX;

    std::size_t effective_depth() const noexcept {
        return max_depth < depth_ceiling ? max_depth : depth_ceiling;
    }

    /// Sets the limit named as on the command line ("max-input-bytes", "max-depth",
    /// "max-diagnostics", "max-alias-nodes", "max-vertices", "max-constraint-terms"; '_'
    /// may stand for '-') to `value`. False,
    /// changing nothing, for another name, for 0, for a depth above depth_ceiling or
    /// diagnostics above diagnostics_ceiling.
    bool set(std::string_view name, std::uint64_t value) noexcept {
        const auto is = [name](std::string_view wanted) {
            if (name.size() != wanted.size())
                return false;
            for (std::size_t i = 0; i < name.size(); ++i)
                if (name[i] != wanted[i] && !(name[i] == '_' && wanted[i] == '-'))
                    return false;
            return true;
        };
        std::size_t* field = is("max-input-bytes")        ? &max_input_bytes
                             : is("max-depth")            ? &max_depth
                             : is("max-diagnostics")      ? &max_diagnostics
                             : is("max-alias-nodes")      ? &max_alias_nodes
                             : is("max-vertices")         ? &max_vertices
                             : is("max-constraint-terms") ? &max_constraint_terms
                                                          : nullptr;
        if (field == nullptr || value == 0 || value > SIZE_MAX ||
            (field == &max_depth && value > depth_ceiling) ||
            (field == &max_diagnostics && value > diagnostics_ceiling))
            return false;
        *field = static_cast<std::size_t>(value);
        return true;
    }
};

} // namespace jobspec
