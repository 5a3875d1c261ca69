// compile_jobspec: a request (shape or srun-style options) -> checked jobspec.
#include <jobspec/compile.hpp>

#include <ctime>

#include <fmt/format.h>

#include <jobspec/emit.hpp>
#include <jobspec/shape.hpp>

#include "lower/request_lowering.hpp"
#include "sema/canonical_jobspec.hpp"
#include "sema/text_encoding.hpp"
#include "sema/v1_pass.hpp"
#include "syntax/document.hpp"
#include "support/numbers.hpp"

namespace jobspec {

namespace {

/// Resources from a shape; the task runs in its only slot.
bool from_shape(const JobRequest& r, Jobspec& js, Task& task, Diagnostics& d) {
    if (r.nodes || r.exclusive || r.cores_per_task != 1 || r.gpus_per_task != 0) {
        d.add(Code::jobspec_request, "a shape replaces -N, -c, -g and -x; give one or the other");
        return false;
    }
    ShapeOptions options;
    options.default_label = r.slot_label;
    options.limits = r.limits;
    auto shape = compile_shape(*r.shape, options);
    if (!shape.ok()) {
        d.append(shape.diagnostics());
        return false;
    }
    // Its warnings come again from the canonical pass over the whole jobspec.
    js.resources = std::move(shape).value();
    std::vector<std::string_view> labels;
    const auto collect = [&](const auto& self, const ResourceList& list) -> void {
        for (const auto& v : list) {
            if (v.is_slot())
                if (auto label = v.label())
                    labels.push_back(*label);
            self(self, v.with);
        }
    };
    collect(collect, js.resources);
    if (labels.size() != 1) {
        d.add(Code::jobspec_request,
              fmt::format("the shape has {} slots; the task needs exactly one", labels.size()), {},
              "write one slot in the shape, e.g. slot=4/core=2");
        return false;
    }
    task.slot = std::string(labels.front());
    if (r.tasks) {
        task.count.kind = TaskCount::Kind::total;
        task.count.count = *r.tasks;
    }
    return true;
}

} // namespace

Result<Jobspec> compile_jobspec(const JobRequest& request, bool v1) {
    Diagnostics d(request.limits.max_diagnostics);
    Jobspec js;
    Task task;
    task.slot = request.slot_label;
    task.command = request.command;
    if (request.command.empty())
        d.add(Code::jobspec_request, "no command to run", {}, "give it after '--'");
    const bool options_path = !request.shape.has_value();
    const bool built =
        options_path ? lower::lower_request_resources(request, js, task, d)
                     : from_shape(request, js, task, d);
    if (!built || d.has_errors())
        return Result<Jobspec>(std::move(d));
    js.tasks.push_back(std::move(task));
    js.attributes = lower::lower_request_attributes(request, d);
    if (d.has_errors())
        return Result<Jobspec>(std::move(d));

    sema::check_text_encoding(js, d);
    sema::check_canonical(js, d);
    if (v1 || options_path)
        sema::check_v1(js, d);
    if (d.has_errors())
        return Result<Jobspec>(std::move(d));
    return {std::move(js), std::move(d)};
}

std::optional<double> parse_duration(std::string_view text) {
    double scale = 1;
    if (!text.empty()) {
        switch (text.back()) {
        case 's':
            text.remove_suffix(1);
            break;
        case 'm':
            scale = 60;
            text.remove_suffix(1);
            break;
        case 'h':
            scale = 3600;
            text.remove_suffix(1);
            break;
        case 'd':
            scale = 86400;
            text.remove_suffix(1);
            break;
        default:
            break;
        }
    }
    const auto value = support::parse_non_negative(text);
    if (!value)
        return std::nullopt;
    return *value * scale;
}

std::optional<double> parse_begin_time(std::string_view text) {
    if (text.find('-') == std::string_view::npos)
        return support::parse_non_negative(text);
    std::size_t pos = 0;
    const auto number = [&](std::size_t digits, int low, int high) -> std::optional<int> {
        if (pos + digits > text.size())
            return std::nullopt;
        int v = 0;
        for (std::size_t i = 0; i < digits; ++i) {
            const char c = text[pos + i];
            if (c < '0' || c > '9')
                return std::nullopt;
            v = v * 10 + (c - '0');
        }
        pos += digits;
        if (v < low || v > high)
            return std::nullopt;
        return v;
    };
    const auto expect = [&](char c) { return pos < text.size() && text[pos++] == c; };
    std::tm tm{};
    const auto year = number(4, 1970, 9999);
    if (!year || !expect('-'))
        return std::nullopt;
    const auto month = number(2, 1, 12);
    if (!month || !expect('-'))
        return std::nullopt;
    const auto day = number(2, 1, 31);
    if (!day)
        return std::nullopt;
    tm.tm_year = *year - 1900;
    tm.tm_mon = *month - 1;
    tm.tm_mday = *day;
    double fraction = 0;
    if (pos < text.size() && (text[pos] == 'T' || text[pos] == ' ')) {
        ++pos;
        const auto hour = number(2, 0, 23);
        if (!hour || !expect(':'))
            return std::nullopt;
        const auto minute = number(2, 0, 59);
        if (!minute)
            return std::nullopt;
        tm.tm_hour = *hour;
        tm.tm_min = *minute;
        if (pos < text.size() && text[pos] == ':') {
            ++pos;
            const auto second = number(2, 0, 60);
            if (!second)
                return std::nullopt;
            tm.tm_sec = *second;
            if (pos < text.size() && text[pos] == '.') {
                const std::size_t start = pos;
                ++pos;
                while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9')
                    ++pos;
                const auto f = support::parse_non_negative(text.substr(start, pos - start));
                if (!f || pos == start + 1)
                    return std::nullopt;
                fraction = *f;
            }
        }
    }
    std::time_t t = 0;
    if (pos == text.size()) {
        tm.tm_isdst = -1;
        t = std::mktime(&tm); // no zone: local time
    } else {
        int offset = 0;
        if (text[pos] == 'Z') {
            ++pos;
        } else if (text[pos] == '+' || text[pos] == '-') {
            const int sign = text[pos++] == '-' ? -1 : 1;
            const auto hours = number(2, 0, 23);
            if (!hours || !expect(':'))
                return std::nullopt;
            const auto minutes = number(2, 0, 59);
            if (!minutes)
                return std::nullopt;
            offset = sign * (*hours * 3600 + *minutes * 60);
        }
        if (pos != text.size())
            return std::nullopt;
        t = timegm(&tm) - offset;
    }
    if (t < 0)
        return std::nullopt;
    return static_cast<double>(t) + fraction;
}

boost::json::value attribute_value(std::string_view text) {
    Diagnostics ignored;
    if (auto node = syntax::read_json(text, Limits{}, ignored))
        return node->to_json();
    return boost::json::value(text);
}

} // namespace jobspec
