#include "lower/count_codes.hpp"

namespace jobspec::lower {

Code count_error_code(Count::ErrorKind kind, CountLanguage language) noexcept {
    using K = Count::ErrorKind;
    const bool shape = language == CountLanguage::shape;
    switch (kind) {
    case K::syntax:
        return shape ? Code::shape_count_syntax : Code::jobspec_count_syntax;
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

} // namespace jobspec::lower
