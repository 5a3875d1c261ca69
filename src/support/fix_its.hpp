// Fix-its that replace a word: a misspelt name with the one meant.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <jobspec/diagnostic.hpp>

namespace jobspec::support {

/// The edit that writes `meant` where `word` is written at `written`: the range itself
/// when it holds just the word, or inside its quotes when it holds the word quoted
/// ("afterokk" in JSON); no edit when the range is unknown or holds something else (an
/// escape), so that a fix is only offered where it is certain.
inline std::vector<FixIt> replace_word(SourceRange written, std::string_view word,
                                       std::string_view meant) {
    if (!written.known())
        return {};
    if (written.size() == word.size())
        return {FixIt{written, std::string(meant)}};
    if (written.size() == word.size() + 2)
        return {FixIt{{written.begin + 1, written.end - 1}, std::string(meant)}};
    return {};
}

} // namespace jobspec::support
