// Hostlist: an RFC 29 ordered list of host names, stored compressed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <jobspec/api.hpp>
#include <jobspec/diagnostic.hpp>
#include <jobspec/result.hpp>
#include <jobspec/idset.hpp>

namespace jobspec {

/// An ordered list of host names with repeats allowed (RFC 29), stored as runs of
/// prefix + zero-padded number + suffix, so "node[0-99999]" costs one run. Names are
/// expanded only when asked for, one at a time.
class JOBSPEC_API Hostlist {
public:
    /// Consecutive hosts prefix<first>suffix .. prefix<last>suffix (numbers zero-padded to
    /// `width` digits), or one host with no number (`numbered` false, the name in prefix).
    struct Run {
        std::string prefix;
        std::string suffix;
        std::uint64_t first = 0;
        std::uint64_t last = 0;
        std::uint8_t width = 0;
        bool numbered = true;
        /// The hosts the run names; a run of every number (0-max_host_number, which only set
        /// algebra can make) saturates at UINT64_MAX.
        std::uint64_t size() const noexcept {
            return !numbered ? 1 : last - first == UINT64_MAX ? UINT64_MAX : last - first + 1;
        }
        friend bool operator==(const Run&, const Run&) = default;
    };

    /// The largest number a host name may have. RFC 29 sets no bound; flux-core's hosts
    /// are numbered with 64 bits.
    static constexpr std::uint64_t max_host_number = UINT64_MAX;

    Hostlist() = default;

    /// Parses comma-separated hostlist expressions, prefix[idlist]suffix, where the idlist
    /// may repeat ids, list them in any order and use ranges, and the first id's leading
    /// zeros set the width of all ("[00-2]" is 00,01,02). "" is the empty list.
    /// Fails with hostlist.syntax, hostlist.order (a range that ends below its start:
    /// "foo[5-3]") or hostlist.overflow (a number above max_host_number, or the one range
    /// of 2^64 hosts, 0-max_host_number), its range the offending part of `text`.
    /// Example: parse("foo[0-2]-eth2,bar") -> foo0-eth2, foo1-eth2, foo2-eth2, bar.
    static Result<Hostlist> parse(std::string_view text);

    /// The shortest hostlist string for the list, in order: runs that share prefix,
    /// suffix and width go in one bracket. Example: {foo1, foo2, foo3, foo7} -> "foo[1-3,7]".
    std::string encode() const;

    /// Appends one host name; its last run of digits is the number ("node007" extends a
    /// run of node005,node006). Amortised constant time.
    void append(std::string_view host);
    /// Appends all of another hostlist.
    void append(const Hostlist& other);
    /// Appends a run, extending the last one when it continues it (same prefix, suffix and
    /// the next number printed alike). Never expands the run.
    void append(Run run);

    /// The number of hosts (saturates at UINT64_MAX).
    std::uint64_t count() const noexcept;
    bool empty() const noexcept { return runs_.empty(); }
    /// The i-th host (from 0), or nothing past the end.
    std::optional<std::string> nth(std::uint64_t index) const;
    /// The position of the first occurrence of a host, or nothing.
    std::optional<std::uint64_t> find(std::string_view host) const;
    /// The hosts at these positions (from 0), in order, in one pass over the runs.
    Hostlist pick(const IdSet& positions) const;
    /// Every host name, in order. Expands the whole list: mind count() first.
    std::vector<std::string> expand() const;

    /// A sorted copy, repeats kept: by the name's text before its number and after it,
    /// then by number and zero padding; a name without digits before the numbered names
    /// of the same prefix. For names whose number ends them this is flux-core's order.
    /// Computed on ranges, never name by name, except that each repeated host costs a run.
    /// Example: {n10, n2-ib, n9, n, n10-ib} -> n, n9, n10, n2-ib, n10-ib.
    Hostlist sorted() const;
    /// A sorted copy without repeats.
    Hostlist unique() const;
    /// Set algebra on the hosts; results are sorted and without repeats.
    Hostlist united(const Hostlist& other) const;
    Hostlist intersected(const Hostlist& other) const;
    Hostlist without(const Hostlist& other) const;
    /// This list, in order, without one occurrence of a host (its first) for each time
    /// `hosts` names it. Example: {a, b, a, c} removed {a, c} -> {b, a}.
    Hostlist removed(const Hostlist& hosts) const;
    /// This list, in order, without any occurrence of the hosts of `hosts`.
    Hostlist excluding(const Hostlist& hosts) const;

    const std::vector<Run>& runs() const noexcept { return runs_; }
    friend bool operator==(const Hostlist&, const Hostlist&) = default;

private:
    std::vector<Run> runs_;
};

} // namespace jobspec
