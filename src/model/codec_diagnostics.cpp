// Every codec condition and its diagnostic code, in one place, and codec errors as
// diagnostics (the public parse functions that report them are in api/codecs.cpp).
#include "model/codec_codes.hpp"

namespace jobspec {

namespace model {

Code code_of(model::IdSetError kind) noexcept {
    switch (kind) {
    case model::IdSetError::leading_zero:
        return Code::idset_leading_zero;
    case model::IdSetError::overflow:
        return Code::idset_overflow;
    case model::IdSetError::order:
        return Code::idset_order;
    case model::IdSetError::syntax:
        break;
    }
    return Code::idset_syntax;
}

Code code_of(model::HostlistError kind) noexcept {
    switch (kind) {
    case model::HostlistError::order:
        return Code::hostlist_order;
    case model::HostlistError::overflow:
        return Code::hostlist_overflow;
    case model::HostlistError::syntax:
        break;
    }
    return Code::hostlist_syntax;
}

Code code_of(model::FluidError::Kind kind) noexcept {
    using K = model::FluidError::Kind;
    switch (kind) {
    case K::character:
        return Code::fluid_character;
    case K::format:
        return Code::fluid_format;
    case K::unknown_word:
        return Code::fluid_unknown_word;
    case K::word_count:
        return Code::fluid_word_count;
    case K::overflow:
        return Code::fluid_overflow;
    case K::empty:
        break;
    }
    return Code::fluid_empty;
}

Code code_of(model::CountError kind, CountLanguage language) noexcept {
    using K = model::CountError;
    const bool shape = language == CountLanguage::shape;
    switch (kind) {
    case K::syntax:
        break;
    case K::empty:
        return shape ? Code::shape_count_empty : Code::jobspec_count_empty;
    case K::leading_zero:
        return shape ? Code::shape_leading_zero : Code::jobspec_leading_zero;
    case K::not_positive:
        return shape ? Code::shape_count_not_positive : Code::jobspec_count_not_positive;
    case K::overflow:
        return Code::limit_integer;
    case K::idset_order:
        return shape ? Code::shape_idset_order : Code::jobspec_idset_order;
    case K::range_order:
        return shape ? Code::shape_range_order : Code::jobspec_range_order;
    case K::operand:
        return shape ? Code::shape_range_operand : Code::jobspec_range_operand;
    case K::unknown_operator:
        return shape ? Code::shape_range_operator : Code::jobspec_range_operator;
    case K::power_minimum:
        return shape ? Code::shape_range_min : Code::jobspec_range_min;
    }
    return shape ? Code::shape_count_syntax : Code::jobspec_count_syntax;
}

namespace {

Diagnostic diagnostic(Code code, std::string message, std::size_t offset, std::size_t length) {
    Diagnostic d;
    d.code = code;
    d.severity = default_severity(code);
    d.message = std::move(message);
    d.location.range = SourceRange{static_cast<std::uint32_t>(offset),
                                   static_cast<std::uint32_t>(offset + length)};
    return d;
}

} // namespace

Diagnostic to_diagnostic(const IdSetCodecError& error) {
    return diagnostic(code_of(error.kind), error.message, error.offset, error.length);
}

Diagnostic to_diagnostic(const HostlistCodecError& error) {
    return diagnostic(code_of(error.kind), error.message, error.offset, error.length);
}

Diagnostic to_diagnostic(const FluidError& error) {
    return diagnostic(code_of(error.kind), error.message, error.offset, error.length);
}

} // namespace model

} // namespace jobspec
