// libFuzzer target: RFC 35 queries in both dialects (what compiles must read back as
// JSON), and flux's reading (its steps must fold to one value over its terms).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <jobspec/constraint.hpp>
#include <jobspec/emit.hpp>
#include <jobspec/render.hpp>
#include <jobspec/text.hpp>

#include "fuzz_checks.hpp"
#include "syntax/flux_query_parser.hpp"

namespace {

void flux_reading(std::string_view text) {
    const auto q = jobspec::syntax::parse_flux_query(text);
    fuzz::terminal(jobspec::render_text(q.diagnostics, text));
    for (const auto& term : q.terms) {
        if (term.text.empty() || jobspec::find_invalid_utf8(term.text) != std::string_view::npos)
            std::abort();
        // MiniConstraintParser checks a term by valid_constraint_operand and trusts it: it
        // must say what constraint_from_json says of the term alone.
        const std::size_t colon = term.text.find(':');
        const std::string op =
            colon == std::string::npos ? "properties" : term.text.substr(0, colon);
        const std::string value =
            colon == std::string::npos ? term.text : term.text.substr(colon + 1);
        boost::json::object alone;
        alone[op] = boost::json::array{boost::json::string(value)};
        if (jobspec::valid_constraint_operand(op, value) !=
            jobspec::constraint_from_json(alone).ok())
            std::abort();
    }
    if (q.error) {
        if (!q.steps.empty() || q.diagnostics.empty() || q.terms_before_error > q.terms.size())
            std::abort();
        return;
    }
    std::size_t depth = 0;
    std::uint32_t next_term = 0;
    for (const auto& step : q.steps) {
        using S = jobspec::syntax::FluxQueryStep::Kind;
        if (step.kind == S::term) {
            if (step.term != next_term++)
                std::abort();
            ++depth;
        } else if (step.kind == S::not_ ? depth < 1 : depth-- < 2) {
            std::abort();
        }
    }
    if (depth != 1 || next_term != q.terms.size())
        std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    flux_reading(text);
    for (const bool plain : {false, true}) {
        jobspec::QueryOptions options;
        if (plain)
            options.default_operator = "name";
        auto c = jobspec::parse_constraint_query(text, options);
        fuzz::terminal(jobspec::render_text(c.diagnostics(), text));
        fuzz::json(jobspec::render_json(c.diagnostics(), text));
        if (!c.ok())
            continue;
        const auto json = jobspec::to_json_value(c.value());
        fuzz::json(jobspec::to_json_text(json));
        if (!plain) {
            auto back = jobspec::constraint_from_json(json);
            if (!back.ok() || !(back.value() == c.value()))
                std::abort();
        }
    }
    return 0;
}
