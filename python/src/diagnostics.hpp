// Diagnostics into Python: errors raise jobspec.Error, warnings go through `warnings`.
#pragma once

#include <string_view>
#include <utility>

#include <jobspec/diagnostic.hpp>
#include <jobspec/result.hpp>
#include <pybind11/pybind11.h>

namespace jobspec::python {

/// The diagnostics as a list of dicts (code, severity, message, offset, length, line,
/// column, pointer, help; positions None where unknown), positions counted in `source`.
pybind11::list diagnostic_list(const Diagnostics& diagnostics, std::string_view source);

/// The diagnostics as a list of jobspec.Diagnostic objects.
pybind11::list diagnostic_objects(const Diagnostics& diagnostics, std::string_view source);

/// Raises jobspec.Error carrying the diagnostics; its message is their caret rendering.
[[noreturn]] void raise_error(const Diagnostics& diagnostics, std::string_view source);

/// One jobspec.JobspecWarning per warning in `diagnostics`, not issued.
pybind11::list warning_objects(const Diagnostics& diagnostics, std::string_view source);

/// Issues one jobspec.JobspecWarning per warning in `diagnostics` (none if there are none).
void issue_warnings(const Diagnostics& diagnostics, std::string_view source);

/// The value of `result`: raises for errors (warnings too when `strict`), and issues its
/// warnings unless `quiet`.
template <class T>
T take(Result<T>&& result, std::string_view source, bool strict = false, bool quiet = false) {
    if (strict && !result.diagnostics().empty())
        result.diagnostics().promote_warnings();
    if (!result.ok() || result.diagnostics().has_errors())
        raise_error(result.diagnostics(), source);
    if (!quiet && !result.diagnostics().empty())
        issue_warnings(result.diagnostics(), source);
    return std::move(result).value();
}

} // namespace jobspec::python
