#include "lower/submission_cc.hpp"

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "model/decoders.hpp"
#include "support/python_numbers.hpp"
#include "syntax/submit_arguments.hpp"

namespace jobspec::lower {

namespace {

/// --cc/--bcc: "{cc}" in the command and the option values becomes the first id.
std::optional<std::string> with_cc(const std::string& text, std::uint64_t id, Diagnostics& d) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text.compare(i, 2, "{{") == 0 || text.compare(i, 2, "}}") == 0) {
            out += text.substr(i, 2);
            ++i;
        } else if (text[i] == '{') {
            const auto close = text.find('}', i);
            const std::string field =
                close == std::string::npos ? "" : text.substr(i + 1, close - i - 1);
            if (field == "cc") {
                out += std::to_string(id);
            } else if (field.rfind("cc:", 0) == 0 && support::python_int(field.substr(3))) {
                const std::string spec = field.substr(3);
                const bool zero = spec[0] == '0';
                const auto width = static_cast<std::size_t>(*support::python_int(spec));
                std::string digits = std::to_string(id);
                if (digits.size() < width)
                    digits.insert(0, width - digits.size(), zero ? '0' : ' ');
                out += digits;
            } else {
                d.add(Code::submit_value, fmt::format("Invalid replacement string in '{}'", text));
                return std::nullopt;
            }
            i = close;
        } else if (text[i] == '}') {
            d.add(Code::submit_value, fmt::format("Invalid replacement string in '{}'", text));
            return std::nullopt;
        } else {
            out += text[i];
        }
    }
    return out;
}

/// The first id of --cc/--bcc, if any (an empty idset is none).
std::optional<std::optional<std::uint64_t>> first_cc(const SubmitOptions& o, Diagnostics& d) {
    if (o.cc && o.bcc && !o.cc->empty() && !o.bcc->empty()) {
        d.add(Code::submit_value, "specify only one of --cc or --bcc");
        return std::nullopt;
    }
    const auto& text = o.cc && !o.cc->empty() ? o.cc : o.bcc;
    if (!text || text->empty())
        return std::optional<std::uint64_t>();
    auto ids = model::decode_idset(*text);
    if (!ids || ids->ranges().empty()) {
        d.add(Code::submit_value, fmt::format("IDset(): Invalid argument: {}", *text));
        return std::nullopt;
    }
    return std::optional<std::uint64_t>(ids->ranges().front().first);
}

} // namespace

std::optional<std::optional<std::uint64_t>> apply_cc(SubmitOptions& o, Diagnostics& d) {
    const auto id = first_cc(o, d);
    if (!id || !*id)
        return id;
    const auto one = [&](std::string& s) {
        auto r = with_cc(s, **id, d);
        if (r)
            s = std::move(*r);
        return r.has_value();
    };
    if (!std::all_of(o.arguments.begin(), o.arguments.end(), one) ||
        !syntax::for_each_cc_value(o, one))
        return std::nullopt;
    return id;
}

} // namespace jobspec::lower
