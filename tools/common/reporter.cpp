#include "reporter.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <unistd.h>

#include <jobspec/emit.hpp>
#include <jobspec/input.hpp>
#include <jobspec/render.hpp>
#include <jobspec/text.hpp>

namespace jobspec::cli {

namespace {

/// Misuse (exit 2): a bad command line, or an input or output the system refuses.
bool is_usage(Code code) {
    return code == Code::io_unreadable || code == Code::io_unwritable || code == Code::io_not_regular ||
           code_name(code).substr(0, 6) == "usage.";
}

} // namespace

Reporter::Reporter(std::string program) : program_(std::move(program)) {}

void Reporter::scan_arguments(int argc, char** argv) {
    if (const char* format = std::getenv("JOBSPEC_DIAGNOSTICS");
        format != nullptr && std::strcmp(format, "json") == 0)
        options_.format = "json";
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--")
            break;
        if (arg == "--diagnostics=json" || (arg == "--diagnostics" && i + 1 < argc &&
                                            std::strcmp(argv[i + 1], "json") == 0))
            options_.format = "json";
    }
}

void Reporter::set_command(std::string command) {
    command_ = std::move(command);
}

std::string Reporter::prefix() const {
    return command_.empty() ? program_ : program_ + " " + command_;
}

bool Reporter::color() const {
    if (options_.color == "always")
        return true;
    if (options_.color == "never")
        return false;
    const char* no_color = std::getenv("NO_COLOR");
    return (no_color == nullptr || *no_color == '\0') && isatty(STDERR_FILENO) != 0;
}

int Reporter::report(Diagnostics& diagnostics, std::string_view source, std::string_view path,
                     std::size_t first_line) {
    if (options_.strict)
        diagnostics.promote_warnings();
    int status = exit_ok;
    for (const auto& d : diagnostics) {
        if (d.severity != Severity::error)
            continue;
        if (is_usage(d.code))
            status = exit_usage;
        else if (status == exit_ok)
            status = exit_invalid;
    }
    if (diagnostics.empty())
        return status;
    if (json()) {
        const std::string_view file = path == "-" ? std::string_view() : path;
        for (auto& d : diagnostics_to_json(diagnostics, source, file, first_line))
            collected_.push_back(std::move(d));
    } else {
        const std::string_view name = path.empty() ? std::string_view() : input_name(path);
        std::cerr << render_text(diagnostics, source, RenderOptions{color(), name, first_line});
    }
    return status;
}

int Reporter::report(Code code, std::string message, std::string help) {
    Diagnostics d;
    d.add(code, std::move(message), {}, std::move(help));
    return report(d);
}

int Reporter::usage(Code code, std::string message, std::string help) {
    if (json())
        return report(code, std::move(message), std::move(help));
    std::cerr << visible_text(prefix()) << ": " << visible_text(message) << "\n";
    if (!help.empty())
        std::cerr << "  help: " << visible_text(help) << "\n";
    return exit_usage;
}

std::optional<std::string> Reporter::read(std::string_view path, const Limits& limits,
                                          int& status, bool allow_empty) {
    auto text = read_input(path, InputOptions{limits, allow_empty});
    if (!text.ok()) {
        status = std::max(status, report(text.diagnostics(), {}, path));
        return std::nullopt;
    }
    return std::move(text).value();
}

std::optional<std::string> Reporter::argument(const std::string& argument, const Limits& limits,
                                              int& status) {
    if (argument != "-")
        return argument;
    auto text = read("-", limits, status);
    // A trailing newline from `echo` or a file is not part of the input.
    while (text && !text->empty() && (text->back() == '\n' || text->back() == '\r'))
        text->pop_back();
    return text;
}

int Reporter::finish(int status) {
    if (json()) {
        std::cerr << to_json_text(collected_);
        collected_.clear();
    }
    return status;
}

} // namespace jobspec::cli
