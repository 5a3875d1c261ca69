#include <jobspec/suggest.hpp>

#include <algorithm>
#include <numeric>

namespace jobspec {

namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    std::iota(row.begin(), row.end(), std::size_t{0});
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] =
                std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

} // namespace

std::optional<std::string_view> closest(std::string_view word,
                                        const std::vector<std::string_view>& candidates) {
    if (word.size() > 64)
        return std::nullopt;
    std::optional<std::string_view> best;
    std::size_t best_distance = 3;
    for (const auto c : candidates) {
        const std::size_t d = edit_distance(word, c);
        if (d < best_distance && 2 * d < std::max(word.size(), c.size())) {
            best = c;
            best_distance = d;
        }
    }
    return best;
}

} // namespace jobspec
