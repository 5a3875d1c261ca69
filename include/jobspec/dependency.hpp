// RFC 26 dependency URIs: parsing and checking them.
#pragma once

#include <string_view>

#include <jobspec/api.hpp>
#include <jobspec/dependency_model.hpp>
#include <jobspec/dependency_rules.hpp>
#include <jobspec/limits.hpp>
#include <jobspec/result.hpp>

namespace jobspec {

struct DependencyOptions {
    /// Accept schemes jobspec does not know (RFC 26 lets plugins add schemes).
    bool allow_unknown_scheme = false;
    Limits limits;
};

/// Parses an RFC 26 URI, "scheme:value[?key=val[&key=val...]]" with '&' or ';' between
/// options, and checks its scheme's rules (see check_dependency). As flux-core reads it:
/// the scheme in lower case, the value as written, the options' %XX escapes and '+'
/// decoded, a value Python reads as a number a number, a key given twice a list.
/// Example: "string:foo?type=out;scope=user" ->
/// {scheme "string", value "foo", options [type=out, scope=user]}.
JOBSPEC_API Result<Dependency> parse_dependency(std::string_view uri,
                                                const DependencyOptions& options = {});

} // namespace jobspec
