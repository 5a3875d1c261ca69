// Diagnostics: what every stage of jobspec reports instead of throwing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <jobspec/api.hpp>

namespace jobspec {

/// How bad a diagnostic is. Warnings never stop a result from being produced.
enum class Severity : std::uint8_t { error, warning };

/// The stable diagnostic codes, one per rule (see diagnostic_codes.def).
enum class Code : std::uint16_t {
#define JOBSPEC_DIAGNOSTIC(id, name, severity) id,
#include <jobspec/diagnostic_codes.def>
#undef JOBSPEC_DIAGNOSTIC
};

/// How many codes there are; Code values run from 0 to code_count - 1.
inline constexpr std::size_t code_count = 0
#define JOBSPEC_DIAGNOSTIC(id, name, severity) +1 // NOLINT(bugprone-macro-parentheses)
#include <jobspec/diagnostic_codes.def>
#undef JOBSPEC_DIAGNOSTIC
    ;

/// The dotted name of a code, e.g. "shape.range-order". Never empty.
JOBSPEC_API std::string_view code_name(Code code) noexcept;

/// The code with that dotted name, or nothing for an unknown name.
JOBSPEC_API std::optional<Code> code_from_name(std::string_view name) noexcept;

/// The severity a code has unless a caller changes it (see Diagnostics::promote_warnings).
JOBSPEC_API Severity default_severity(Code code) noexcept;

/// What a code means, with a failing example and its fix, as Markdown (the code's
/// section of docs/CODES.md; `jobspec explain CODE` prints it). Empty for a code the
/// document does not explain (a test keeps that from happening).
JOBSPEC_API std::string_view explanation(Code code) noexcept;

/// A half-open byte range [begin, end) of the source text; offsets count from 0.
/// A default-constructed range is unknown (the diagnostic has no text position).
struct JOBSPEC_API SourceRange {
    static constexpr std::uint32_t unknown = UINT32_MAX;
    std::uint32_t begin = unknown;
    std::uint32_t end = unknown;

    bool known() const noexcept { return begin != unknown; }
    std::uint32_t size() const noexcept { return known() ? end - begin : 0; }
    /// This range moved right by `offset` bytes (unknown stays unknown).
    SourceRange shifted(std::size_t offset) const noexcept;
    friend bool operator==(const SourceRange&, const SourceRange&) = default;
};

/// A text a diagnostic points into that is not the input its caller holds: the value
/// of a command-line option, say, when the caller compiled a whole command line.
struct SourceText {
    /// What the text is, shown as "--> NAME" ("--resources-shape", "job.sh").
    std::string name;
    std::string text;
    /// Whether NAME names a file (a batch script) rather than an option.
    bool file = false;
};

/// Where a diagnostic points: a byte range of the source text, a JSON pointer
/// (RFC 6901, e.g. "/resources/0/count") into the document, or both. The range is into
/// `source` when there is one, else into the input the caller gave.
struct Location {
    SourceRange range;
    std::string pointer;
    std::shared_ptr<const SourceText> source;

    Location() = default;
    Location(SourceRange range_, std::string pointer_ = {},
             std::shared_ptr<const SourceText> source_ = {})
        : range(range_), pointer(std::move(pointer_)), source(std::move(source_)) {}
};

/// A suggested edit that fixes what a diagnostic reports: replace the bytes `range` of
/// the text the diagnostic points into (its location's source, else the caller's input)
/// with `replacement`. An empty range inserts; an empty replacement deletes.
struct FixIt {
    SourceRange range;
    std::string replacement;
    friend bool operator==(const FixIt&, const FixIt&) = default;
};

/// One finding: a stable code, its severity, a short lowercase message without a
/// trailing period, where it is, an optional hint ("did you mean ..."), and the edits
/// that certainly fix it, if there are any (all of them together make one fix).
struct Diagnostic {
    Code code{};
    Severity severity = Severity::error;
    std::string message;
    Location location;
    std::string help;
    std::vector<FixIt> fixes;

    std::string_view code_name() const noexcept { return jobspec::code_name(code); }
    /// Moves the range and the fixes right by `offset` bytes, for a text found inside a
    /// longer one.
    void shift(std::size_t offset) noexcept {
        location.range = location.range.shifted(offset);
        for (auto& f : fixes)
            f.range = f.range.shifted(offset);
    }
};

/// An ordered collection of diagnostics, capped so hostile input cannot make it grow
/// without bound: past `cap` errors one limit.diagnostics error is added and the rest dropped.
class JOBSPEC_API Diagnostics {
public:
    explicit Diagnostics(std::size_t cap = 100) : cap_(cap) {}

    /// Adds a diagnostic with the code's default severity.
    void add(Code code, std::string message, Location location = {}, std::string help = {},
             std::vector<FixIt> fixes = {});
    void add(Diagnostic diagnostic);
    /// Appends all of `other` (respecting this collection's cap).
    void append(const Diagnostics& other);
    /// Appends all of `other`, found in `source`: each one with a known range and no
    /// source of its own points into it, so a renderer shows that text with a caret.
    void append(const Diagnostics& other, const std::shared_ptr<const SourceText>& source);

    bool has_errors() const noexcept { return errors_ > 0; }
    std::size_t error_count() const noexcept { return errors_; }
    bool empty() const noexcept { return items_.empty(); }
    std::size_t size() const noexcept { return items_.size(); }
    const Diagnostic& operator[](std::size_t i) const { return items_[i]; }
    auto begin() const noexcept { return items_.begin(); }
    auto end() const noexcept { return items_.end(); }

    /// Orders diagnostics by source position (unknown positions last, then by pointer),
    /// keeping the order of equal positions.
    void sort_by_position();
    /// Turns every warning into an error (the CLI's --strict).
    void promote_warnings();

private:
    std::vector<Diagnostic> items_;
    std::size_t cap_;
    std::size_t errors_ = 0;
    bool capped_ = false;
};

} // namespace jobspec
