#include <jobspec/diagnostic.hpp>

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "support/explanations.hpp"

namespace jobspec {

namespace {

struct CodeInfo {
    std::string_view name;
    Severity severity;
};

constexpr std::array code_table = {
#define JOBSPEC_DIAGNOSTIC(id, name, severity) CodeInfo{name, Severity::severity},
#include <jobspec/diagnostic_codes.def>
#undef JOBSPEC_DIAGNOSTIC
};

} // namespace

std::string_view code_name(Code code) noexcept {
    return code_table[static_cast<std::size_t>(code)].name;
}

Severity default_severity(Code code) noexcept {
    return code_table[static_cast<std::size_t>(code)].severity;
}

std::optional<Code> code_from_name(std::string_view name) noexcept {
    for (std::size_t i = 0; i < code_table.size(); ++i)
        if (code_table[i].name == name)
            return static_cast<Code>(i);
    return std::nullopt;
}

std::string_view explanation(Code code) noexcept {
    const std::string_view name = code_name(code);
    for (const auto& e : support::explanations())
        if (e.code == name)
            return e.text;
    return {};
}

SourceRange SourceRange::shifted(std::size_t offset) const noexcept {
    if (!known())
        return *this;
    return {static_cast<std::uint32_t>(begin + offset), static_cast<std::uint32_t>(end + offset)};
}

void Diagnostics::add(Code code, std::string message, Location location, std::string help,
                      std::vector<FixIt> fixes) {
    add(Diagnostic{code, default_severity(code), std::move(message), std::move(location),
                   std::move(help), std::move(fixes)});
}

void Diagnostics::add(Diagnostic diagnostic) {
    if (capped_)
        return;
    if (items_.size() >= cap_) {
        capped_ = true;
        ++errors_;
        items_.push_back(Diagnostic{Code::limit_diagnostics,
                                    Severity::error,
                                    fmt::format("too many diagnostics; stopped after {}", cap_),
                                    {},
                                    {},
                                    {}});
        return;
    }
    if (diagnostic.severity == Severity::error)
        ++errors_;
    items_.push_back(std::move(diagnostic));
}

void Diagnostics::append(const Diagnostics& other) {
    for (const auto& d : other)
        add(d);
}

void Diagnostics::append(const Diagnostics& other,
                         const std::shared_ptr<const SourceText>& source) {
    for (Diagnostic d : other) {
        if (d.location.range.known() && !d.location.source)
            d.location.source = source;
        add(std::move(d));
    }
}

void Diagnostics::sort_by_position() {
    std::stable_sort(items_.begin(), items_.end(), [](const Diagnostic& a, const Diagnostic& b) {
        const auto& ra = a.location.range;
        const auto& rb = b.location.range;
        if (ra.known() != rb.known())
            return ra.known();
        if (ra.known() && ra.begin != rb.begin)
            return ra.begin < rb.begin;
        if (!ra.known())
            return a.location.pointer < b.location.pointer;
        return false;
    });
}

void Diagnostics::promote_warnings() {
    for (auto& d : items_) {
        if (d.severity == Severity::warning) {
            d.severity = Severity::error;
            ++errors_;
        }
    }
}

} // namespace jobspec
