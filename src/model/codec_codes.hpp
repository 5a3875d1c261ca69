// Which diagnostic code each codec condition has: the one table for idsets, hostlists,
// counts and FLUIDs (the public parse functions, to_diagnostic and the lowering passes use it).
#pragma once

#include <jobspec/diagnostic.hpp>

#include "model/decoders.hpp"

namespace jobspec::model {

/// Where a count was written: shape strings report shape.* codes, documents jobspec.*.
enum class CountLanguage : std::uint8_t { shape, jobspec };

Code code_of(IdSetError kind) noexcept;
Code code_of(HostlistError kind) noexcept;
Code code_of(FluidError::Kind kind) noexcept;
/// limit.integer for overflow in both languages.
Code code_of(CountError kind, CountLanguage language) noexcept;

} // namespace jobspec::model
