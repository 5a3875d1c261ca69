#include <jobspec/render.hpp>

#include <algorithm>
#include <optional>
#include <vector>

#include <boost/json/object.hpp>
#include <fmt/format.h>

#include <jobspec/emit.hpp>
#include <jobspec/text.hpp>

#include "support/utf8.hpp"

namespace jobspec {

namespace {

constexpr std::size_t window_columns = 100;

/// Line starts of a text, computed once, for offset -> line/column lookups.
class LineIndex {
public:
    explicit LineIndex(std::string_view text) : text_(text) {
        starts_.push_back(0);
        for (std::size_t i = 0; i < text.size(); ++i)
            if (text[i] == '\n')
                starts_.push_back(i + 1);
    }

    std::size_t lines() const { return starts_.size(); }
    /// The 0-based line holding byte `offset`.
    std::size_t line_of(std::size_t offset) const {
        return static_cast<std::size_t>(std::upper_bound(starts_.begin(), starts_.end(), offset) -
                                        starts_.begin()) -
               1;
    }
    std::size_t start(std::size_t line) const { return starts_[line]; }
    /// The end of a line, before its newline (and before a '\r' preceding it).
    std::size_t end(std::size_t line) const {
        std::size_t e = line + 1 < starts_.size() ? starts_[line + 1] - 1 : text_.size();
        if (e > starts_[line] && text_[e - 1] == '\r')
            --e;
        return e;
    }
    /// The 1-based column (in code points) of byte `offset`.
    std::size_t column(std::size_t offset) const {
        const std::size_t s = start(line_of(offset));
        return 1 + support::count_code_points(text_.substr(s, offset - s));
    }

private:
    std::string_view text_;
    std::vector<std::size_t> starts_;
};

struct Style {
    bool on;
    std::string_view operator()(std::string_view code) const { return on ? code : ""; }
};
constexpr std::string_view bold = "\x1b[1m";
constexpr std::string_view red = "\x1b[1;31m";
constexpr std::string_view yellow = "\x1b[1;33m";
constexpr std::string_view green = "\x1b[1;32m";
constexpr std::string_view cyan = "\x1b[1;36m";
constexpr std::string_view reset = "\x1b[0m";

/// Moves `i` back to the start of the UTF-8 sequence it is in.
std::size_t char_start(std::string_view s, std::size_t i) {
    while (i > 0 && i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0U) == 0x80U)
        --i;
    return i;
}

/// Blank space as wide as `text` is on a terminal, keeping its tabs so the caret lines up.
void append_blank(std::string& out, std::string_view text) {
    std::size_t start = 0;
    for (std::size_t tab = text.find('\t'); tab != std::string_view::npos;
         start = tab + 1, tab = text.find('\t', start)) {
        out.append(display_width(text.substr(start, tab - start)), ' ');
        out += '\t';
    }
    out.append(display_width(text.substr(start)), ' ');
}

/// The source line with a caret line under [begin, end), windowed on long lines. Control
/// and bidirectional characters are shown escaped, and the caret counts display columns.
/// Returns where the shown part of the line starts, and whether it was cut on the left.
std::pair<std::size_t, bool> snippet(std::string& out, std::string_view source,
                                     const LineIndex& index, SourceRange r, const Style& style) {
    const std::size_t line = index.line_of(r.begin);
    std::size_t from = index.start(line);
    std::size_t to = index.end(line);
    const std::size_t begin = std::min<std::size_t>(r.begin, to);
    const std::size_t end = std::clamp<std::size_t>(r.end, begin, to);
    // Window long lines around the range (byte widths approximate columns here).
    const bool cut_left = begin - from > window_columns / 2;
    if (cut_left)
        from = char_start(source, begin - window_columns / 2);
    const bool cut_right = to - from > window_columns;
    if (cut_right)
        to = char_start(source, std::max(from + window_columns, end));
    const std::string_view prefix = cut_left ? "..." : "";
    out += "  ";
    out += prefix;
    out += visible_text(source.substr(from, to - from));
    out += cut_right ? "...\n" : "\n";
    out += "  ";
    out.append(prefix.size(), ' ');
    append_blank(out, source.substr(from, begin - from));
    const std::size_t width =
        std::max<std::size_t>(1, display_width(source.substr(begin, end - begin)));
    out += style(green);
    out += '^';
    out.append(width - 1, '~');
    out += style(reset);
    out += '\n';
    return {from, cut_left};
}

/// A fix's edits: under the caret line, at their column, the text that replaces what is
/// there (as clang shows a fix-it) when it is one line's text on the shown line; in
/// words otherwise.
void fix_lines(std::string& out, const Diagnostic& d, std::string_view source,
               const LineIndex& index, std::pair<std::size_t, bool> shown, std::size_t first_line,
               const Style& style) {
    const std::size_t line = index.line_of(d.location.range.begin);
    for (const FixIt& f : d.fixes) {
        if (!f.range.known() || f.range.end > source.size() || f.range.begin > f.range.end)
            continue;
        const std::string_view old = source.substr(f.range.begin, f.range.size());
        const bool here = index.line_of(f.range.begin) == line && f.range.begin >= shown.first &&
                          f.range.end <= index.end(line) && !f.replacement.empty() &&
                          f.replacement.find('\n') == std::string::npos;
        if (here) {
            out += "  ";
            out.append(shown.second ? 3 : 0, ' ');
            append_blank(out, source.substr(shown.first, f.range.begin - shown.first));
            out += style(green);
            out += visible_text(f.replacement);
            out += style(reset);
            out += '\n';
            continue;
        }
        const TextPosition at{index.line_of(f.range.begin) + first_line,
                              index.column(f.range.begin)};
        out += fmt::format("  {}fix{}: ", style(cyan), style(reset));
        if (old.empty())
            out += fmt::format("insert '{}' at {}:{}\n", visible_text(f.replacement), at.line,
                               at.column);
        else if (f.replacement.empty())
            out += fmt::format("remove '{}' at {}:{}\n", visible_text(old), at.line, at.column);
        else
            out += fmt::format("replace '{}' with '{}' at {}:{}\n", visible_text(old),
                               visible_text(f.replacement), at.line, at.column);
    }
}

} // namespace

std::string render_text(const Diagnostics& diagnostics, std::string_view source,
                        const RenderOptions& options) {
    const LineIndex input_index(source);
    const Style style{options.color};
    std::string out;
    for (const auto& d : diagnostics) {
        const bool error = d.severity == Severity::error;
        out += fmt::format("{}{}{}[{}]: {}{}{}\n", style(error ? red : yellow),
                           error ? "error" : "warning", style(reset), d.code_name(), style(bold),
                           visible_text(d.message), style(reset));
        // The text the range is in: the diagnostic's own (an option's value), or the input.
        const SourceText* own = d.location.source.get();
        const std::string_view text = own != nullptr ? std::string_view(own->text) : source;
        const std::optional<LineIndex> own_index =
            own != nullptr ? std::optional<LineIndex>(std::in_place, text) : std::nullopt;
        const LineIndex& index = own_index ? *own_index : input_index;
        const std::string_view name = own != nullptr ? std::string_view(own->name)
                                                     : options.source_name;
        // A line of a longer input (options.first_line > 1) is placed like a multi-line one.
        const std::size_t first_line = own != nullptr ? 1 : options.first_line;
        const bool multiline = index.lines() > 1 || first_line > 1;
        const SourceRange r = d.location.range;
        const bool has_range = r.known() && r.begin <= text.size();
        if ((!name.empty() || multiline) && (has_range || !d.location.pointer.empty())) {
            out += "  --> ";
            out += name.empty() ? "<input>" : visible_text(name);
            // A name alone says where a one-line text is (an option's value).
            if (has_range && (own == nullptr || multiline))
                out += fmt::format(":{}:{}", index.line_of(r.begin) + first_line,
                                   index.column(r.begin));
            if (!d.location.pointer.empty())
                out += fmt::format(" at {}", visible_text(d.location.pointer));
            out += '\n';
        }
        if (has_range)
            fix_lines(out, d, text, index, snippet(out, text, index, r, style), first_line,
                      style);
        if (!d.help.empty())
            out += fmt::format("  {}help{}: {}\n", style(cyan), style(reset),
                               visible_text(d.help));
    }
    return out;
}

std::string render_line(const Diagnostics& diagnostics, std::size_t max_bytes,
                        std::size_t max_shown) {
    const Severity shown_severity =
        diagnostics.has_errors() ? Severity::error : Severity::warning;
    std::vector<std::string> parts;
    for (const auto& d : diagnostics) {
        if (d.severity != shown_severity)
            continue;
        std::string part(d.code_name());
        if (!d.location.pointer.empty())
            part += fmt::format(" at {}", visible_text(d.location.pointer));
        part += ": ";
        part += visible_text(d.message);
        parts.push_back(std::move(part));
    }
    const auto more = [&](std::size_t shown) {
        return shown < parts.size() ? fmt::format("{}and {} more", shown > 0 ? "; " : "",
                                                  parts.size() - shown)
                                    : std::string();
    };
    const auto fits = [&](std::size_t size) { return max_bytes == 0 || size <= max_bytes; };
    std::string out;
    std::size_t shown = 0;
    for (; shown < parts.size() && shown < max_shown; ++shown) {
        const std::size_t size =
            out.size() + (shown > 0 ? 2 : 0) + parts[shown].size() + more(shown + 1).size();
        if (!fits(size))
            break;
        out += shown > 0 ? "; " : "";
        out += parts[shown];
    }
    if (shown == 0 && !parts.empty() && max_bytes > 0) {
        // Not even one fits: as much of the first as there is room for.
        const std::string tail = "..." + more(1);
        std::size_t room = max_bytes > tail.size() ? max_bytes - tail.size() : 0;
        while (room > 0 && room < parts[0].size() &&
               (static_cast<unsigned char>(parts[0][room]) & 0xC0U) == 0x80U)
            --room; // keep whole UTF-8 sequences
        return parts[0].substr(0, room) + tail;
    }
    return out + more(shown);
}

boost::json::array diagnostics_to_json(const Diagnostics& diagnostics, std::string_view source,
                                       std::string_view file, std::size_t first_line) {
    const LineIndex input_index(source);
    boost::json::array a;
    for (const auto& d : diagnostics) {
        boost::json::object o;
        const SourceText* own = d.location.source.get();
        if (own != nullptr)
            o.emplace(own->file ? "file" : "source", own->name);
        else if (!file.empty())
            o.emplace("file", file);
        o.emplace("severity", d.severity == Severity::error ? "error" : "warning");
        o.emplace("code", d.code_name());
        o.emplace("message", d.message);
        const std::string_view text = own != nullptr ? std::string_view(own->text) : source;
        const std::optional<LineIndex> own_index =
            own != nullptr ? std::optional<LineIndex>(std::in_place, text) : std::nullopt;
        const LineIndex& index = own_index ? *own_index : input_index;
        const SourceRange r = d.location.range;
        if (r.known() && r.begin <= text.size()) {
            o.emplace("offset", r.begin);
            o.emplace("length", r.size());
            o.emplace("line", index.line_of(r.begin) + (own != nullptr ? 1 : first_line));
            o.emplace("column", index.column(r.begin));
        }
        if (!d.location.pointer.empty())
            o.emplace("pointer", d.location.pointer);
        if (!d.help.empty())
            o.emplace("help", d.help);
        boost::json::array fixes;
        for (const FixIt& f : d.fixes) {
            if (!f.range.known() || f.range.end > text.size() || f.range.begin > f.range.end)
                continue;
            fixes.push_back(boost::json::object{
                {"offset", f.range.begin},
                {"length", f.range.size()},
                {"line", index.line_of(f.range.begin) + (own != nullptr ? 1 : first_line)},
                {"column", index.column(f.range.begin)},
                {"replacement", f.replacement}});
        }
        if (!fixes.empty())
            o.emplace("fixes", std::move(fixes));
        a.push_back(std::move(o));
    }
    return a;
}

std::string render_json(const Diagnostics& diagnostics, std::string_view source,
                        std::string_view file) {
    return to_json_text(diagnostics_to_json(diagnostics, source, file));
}

TextPosition text_position(std::string_view source, std::size_t offset) {
    if (offset > source.size())
        return {};
    const LineIndex index(source);
    return {index.line_of(offset) + 1, index.column(offset)};
}

} // namespace jobspec
