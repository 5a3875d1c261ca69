// JSON text to Boost.JSON values, with floating-point numbers read exactly.
#pragma once

#include <cstddef>
#include <string_view>

#include <boost/json/storage_ptr.hpp>
#include <boost/json/value.hpp>

namespace jobspec::support {

/// The double nearest to `number` (JSON number text), or `fallback` when it is out of
/// range or not a number from_chars reads. Boost.JSON 1.81 may be an ulp or more off.
double exact_double(std::string_view number, double fallback) noexcept;

/// Parses JSON like boost::json::parse, allowing nesting up to `max_depth`, except that
/// every floating-point number is read correctly rounded, so that writing it back in its
/// shortest form gives the same text; a number too large for a double is an error
/// (exponent_overflow) rather than infinity. On error sets `ec` and returns null. With `used`,
/// the text may go on after the document (several documents one after another): *used is
/// set to the bytes read, or to where the error is.
boost::json::value parse_json(std::string_view text, boost::json::error_code& ec,
                              std::size_t max_depth, boost::json::storage_ptr sp = {},
                              std::size_t* used = nullptr);

} // namespace jobspec::support
