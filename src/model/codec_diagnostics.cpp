// IdSet and Hostlist parse errors as diagnostics.
#include <jobspec/hostlist.hpp>
#include <jobspec/idset.hpp>

namespace jobspec {

namespace {

template <class Error>
Diagnostic diagnostic(Code code, const Error& error) {
    Diagnostic d;
    d.code = code;
    d.severity = default_severity(code);
    d.message = error.message;
    d.location.range = SourceRange{static_cast<std::uint32_t>(error.offset),
                                   static_cast<std::uint32_t>(error.offset + error.length)};
    return d;
}

} // namespace

Diagnostic to_diagnostic(const IdSet::Error& error) {
    switch (error.kind) {
    case IdSet::ErrorKind::leading_zero:
        return diagnostic(Code::idset_leading_zero, error);
    case IdSet::ErrorKind::overflow:
        return diagnostic(Code::idset_overflow, error);
    case IdSet::ErrorKind::order:
        return diagnostic(Code::idset_order, error);
    case IdSet::ErrorKind::syntax:
        break;
    }
    return diagnostic(Code::idset_syntax, error);
}

Diagnostic to_diagnostic(const Hostlist::Error& error) {
    switch (error.kind) {
    case Hostlist::ErrorKind::order:
        return diagnostic(Code::hostlist_order, error);
    case Hostlist::ErrorKind::overflow:
        return diagnostic(Code::hostlist_overflow, error);
    case Hostlist::ErrorKind::syntax:
        break;
    }
    return diagnostic(Code::hostlist_syntax, error);
}

} // namespace jobspec
