// Which characters a constraint term's operator may hold (RFC 35).
#include <jobspec/constraint_model.hpp>

#include <algorithm>

#include "support/utf8.hpp"

namespace jobspec {

namespace {

/// The length of the letter, digit or '_' at `pos` (0 for anything else), with
/// `letter_or_digit` judging what is not ASCII when given.
std::size_t word_length(std::string_view op, std::size_t pos, bool (*letter_or_digit)(char32_t)) {
    if (letter_or_digit == nullptr || static_cast<unsigned char>(op[pos]) < 0x80)
        return support::word_char_length(op, pos);
    const std::size_t length = support::utf8_sequence_length(op, pos);
    return length > 0 && letter_or_digit(support::decode_utf8(op, pos, length)) ? length : 0;
}

} // namespace

std::optional<OperatorCharacter> invalid_operator_character(std::string_view op,
                                                            bool (*letter_or_digit)(char32_t)) {
    for (std::size_t i = 0; i < op.size();) {
        const char c = op[i];
        if (const std::size_t word = word_length(op, i, letter_or_digit); word > 0)
            i += word;
        else if (c == '.' || c == '+' || c == '@' || c == '-')
            ++i;
        else
            return OperatorCharacter{
                i, std::string(op.substr(
                       i, std::max<std::size_t>(support::utf8_sequence_length(op, i), 1)))};
    }
    return std::nullopt;
}

} // namespace jobspec
