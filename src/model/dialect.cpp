// The dialects' names, as the tools and APIs spell them.
#include <jobspec/jobspec_model.hpp>

namespace jobspec {

std::optional<Dialect> dialect_named(std::string_view name) noexcept {
    if (name == "rfc")
        return Dialect::rfc;
    if (name == "fluxion")
        return Dialect::fluxion;
    return std::nullopt;
}

} // namespace jobspec
