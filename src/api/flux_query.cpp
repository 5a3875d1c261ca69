// flux-core's reading of constraint queries, for drop-ins: syntax, then the caller's fold.
#include <jobspec/flux_query.hpp>

#include "syntax/flux_query_parser.hpp"

namespace jobspec {

std::optional<FluxQueryStop> fold_flux_query(std::string_view query, FluxQueryFold& fold,
                                             const Limits& limits) {
    syntax::FluxQuery read = syntax::parse_flux_query(query, limits);
    if (read.error) {
        for (std::size_t i = 0; i < read.terms_before_error; ++i)
            fold.term(read.terms[i]);
        return FluxQueryStop{std::move(*read.error), std::move(read.diagnostics)};
    }
    using Kind = syntax::FluxQueryStep::Kind;
    for (const syntax::FluxQueryStep& step : read.steps) {
        switch (step.kind) {
        case Kind::term:
            fold.term(read.terms[step.term]);
            break;
        case Kind::not_:
            fold.negate();
            break;
        case Kind::and_:
        case Kind::or_:
            fold.combine(step.kind == Kind::and_);
            break;
        }
    }
    return std::nullopt;
}

} // namespace jobspec
