// Which diagnostic code each codec condition has: the one table for idsets, hostlists,
// counts and FLUIDs (the public to_diagnostic functions and the lowering passes use it).
#pragma once

#include <jobspec/count.hpp>
#include <jobspec/diagnostic.hpp>
#include <jobspec/fluid.hpp>
#include <jobspec/hostlist.hpp>
#include <jobspec/idset.hpp>

namespace jobspec::model {

/// Where a count was written: shape strings report shape.* codes, documents jobspec.*.
enum class CountLanguage : std::uint8_t { shape, jobspec };

Code code_of(IdSet::ErrorKind kind) noexcept;
Code code_of(Hostlist::ErrorKind kind) noexcept;
Code code_of(FluidError::Kind kind) noexcept;
/// limit.integer for overflow in both languages.
Code code_of(Count::ErrorKind kind, CountLanguage language) noexcept;

} // namespace jobspec::model
