// flux-core's reading of constraint queries, for drop-ins: syntax only.
#include <jobspec/flux_query.hpp>

#include "syntax/flux_query_parser.hpp"

namespace jobspec {

FluxQuery read_flux_query(std::string_view query, const Limits& limits) {
    return syntax::parse_flux_query(query, limits);
}

} // namespace jobspec
