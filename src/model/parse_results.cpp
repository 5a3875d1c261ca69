// The codecs' public parse functions (IdSet::parse, Hostlist::parse, parse_fluid): the
// model's decoders, their failure as a diagnostic.
#include <jobspec/fluid.hpp>
#include <jobspec/hostlist.hpp>
#include <jobspec/idset.hpp>

#include "model/decoders.hpp"

namespace jobspec {

Result<IdSet> IdSet::parse(std::string_view text) {
    return model::as_result(model::decode_idset(text));
}

Result<Hostlist> Hostlist::parse(std::string_view text) {
    return model::as_result(model::decode_hostlist(text));
}

Result<DecodedFluid> parse_fluid(std::string_view text) {
    return model::as_result(model::decode_fluid(text));
}

} // namespace jobspec
