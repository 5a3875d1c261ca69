// Walking a hostlist front to back, taking or skipping hosts run by run.
#pragma once

#include <cstdint>

#include <jobspec/hostlist.hpp>

namespace jobspec::model {

/// A position in a hostlist that moves forward only. Taking n hosts appends the runs (or
/// parts of runs) that hold them, so a pass over the whole list costs its runs, not its
/// hosts.
class HostCursor {
public:
    explicit HostCursor(const Hostlist& hosts) : runs_(hosts.runs()) {}

    /// Moves past `n` hosts.
    void skip(std::uint64_t n) { walk(n, nullptr); }
    /// Appends the next `n` hosts to `out` (fewer when the list ends).
    void take(std::uint64_t n, Hostlist& out) { walk(n, &out); }

private:
    void walk(std::uint64_t n, Hostlist* out) {
        while (n > 0 && run_ < runs_.size()) {
            const Hostlist::Run& run = runs_[run_];
            const std::uint64_t left = run.size() - offset_;
            const std::uint64_t step = n < left ? n : left;
            if (out != nullptr) {
                Hostlist::Run part = run;
                if (run.numbered) {
                    part.first = run.first + offset_;
                    part.last = part.first + step - 1;
                }
                out->append(std::move(part));
            }
            n -= step;
            offset_ += step;
            if (offset_ == run.size()) {
                ++run_;
                offset_ = 0;
            }
        }
    }

    const std::vector<Hostlist::Run>& runs_;
    std::size_t run_ = 0;
    std::uint64_t offset_ = 0;
};

} // namespace jobspec::model
