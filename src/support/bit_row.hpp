// A row of bits, one per index, with the first set bit after or the last before an index
// found a word at a time.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace jobspec::support {

class BitRow {
public:
    BitRow() = default;
    /// `size` bits, all clear.
    explicit BitRow(std::size_t size) : words_(size / 64 + 1, 0), size_(size) {}

    std::size_t size() const noexcept { return size_; }
    /// How many bits are set.
    std::size_t count() const noexcept { return count_; }
    bool test(std::size_t i) const noexcept { return (words_[i / 64] >> (i % 64)) & 1U; }
    void set(std::size_t i, bool on) noexcept {
        const std::uint64_t bit = std::uint64_t{1} << (i % 64);
        std::uint64_t& word = words_[i / 64];
        count_ += static_cast<std::size_t>(on) - static_cast<std::size_t>((word & bit) != 0);
        word = on ? word | bit : word & ~bit;
    }
    /// The first set bit at or after i, or size().
    std::size_t next(std::size_t i) const noexcept {
        while (i < size_) {
            const std::uint64_t word = words_[i / 64] >> (i % 64);
            if (word != 0)
                return std::min(size_, i + static_cast<std::size_t>(std::countr_zero(word)));
            i = (i / 64 + 1) * 64;
        }
        return size_;
    }
    /// The last set bit before i, or size() when there is none.
    std::size_t prev(std::size_t i) const noexcept {
        while (i > 0) {
            const std::size_t last = i - 1;
            const std::uint64_t word = words_[last / 64] << (63 - last % 64);
            if (word != 0)
                return last - static_cast<std::size_t>(std::countl_zero(word));
            i = last / 64 * 64;
        }
        return size_;
    }

private:
    std::vector<std::uint64_t> words_;
    std::size_t size_ = 0;
    std::size_t count_ = 0;
};

} // namespace jobspec::support
