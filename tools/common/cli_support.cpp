#include "cli_support.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <unistd.h>

#include <jobspec/render.hpp>

namespace jobspec::cli {

namespace {

// Marks an argument CLI11 would split as a list; the mark comes off before any check.
constexpr char bracket_guard = '\x1F';

void keep_brackets(CLI::App& app) {
    const CLI::Validator unguard(
        [](std::string& value) {
            if (!value.empty() && value.front() == bracket_guard)
                value.erase(0, 1);
            return std::string();
        },
        "");
    for (CLI::Option* option : app.get_options())
        option->transform(unguard);
    for (CLI::App* sub : app.get_subcommands({}))
        keep_brackets(*sub);
}

} // namespace

void parse_command_line(CLI::App& app, int argc, char** argv) {
    keep_brackets(app);
    std::vector<std::string> args;
    for (int i = argc - 1; i > 0; --i) {
        std::string arg = argv[i];
        if (arg.size() >= 2 && arg.front() == '[' && arg.back() == ']')
            arg.insert(arg.begin(), bracket_guard);
        args.push_back(std::move(arg));
    }
    app.parse(args);
}

void add_common_options(CLI::App& app, CommonOptions& options) {
    add_report_options(app, options, "--diagnostics");
    app.add_flag("--strict", options.strict, "Treat warnings as errors (exit 1)");
    app.add_flag("--pretty", options.pretty, "Indent JSON output");
    add_limit_options(app, options.limits);
}

void add_report_options(CLI::App& app, CommonOptions& options, const std::string& format_flag) {
    app.add_option(format_flag, options.diagnostics,
                   "How problems are printed on stderr: text (with carets) or json")
        ->check(CLI::IsMember({"text", "json"}))
        ->capture_default_str();
    app.add_option(
           "--color", options.color,
           "Colour diagnostics: auto (on a terminal, unless NO_COLOR is set), always, never")
        ->check(CLI::IsMember({"auto", "always", "never"}))
        ->capture_default_str();
}

void add_limit_options(CLI::App& app, Limits& limits) {
    app.add_option("--max-depth", limits.max_depth, "Deepest nesting accepted (at most 1000)")
        ->check(CLI::Range(std::size_t{1}, Limits::depth_ceiling))
        ->capture_default_str();
    app.add_option("--max-input-bytes", limits.max_input_bytes, "Largest input accepted, in bytes")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    app.add_option("--max-diagnostics", limits.max_diagnostics,
                   "Most problems reported before stopping")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
}

std::optional<std::string> read_argument(const std::string& argument) {
    if (argument != "-")
        return argument;
    std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    if (std::cin.bad()) {
        std::cerr << program_invocation_short_name << ": cannot read standard input\n";
        return std::nullopt;
    }
    // A trailing newline from `echo` or a file is not part of the input.
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
        text.pop_back();
    return text;
}

std::optional<std::string> read_file(const std::string& path) {
    if (path == "-") {
        std::string text((std::istreambuf_iterator<char>(std::cin)),
                         std::istreambuf_iterator<char>());
        if (std::cin.bad()) {
            std::cerr << program_invocation_short_name << ": cannot read standard input\n";
            return std::nullopt;
        }
        return text;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::cerr << program_invocation_short_name << ": cannot open '" << path
                  << "': " << std::strerror(errno) << "\n";
        return std::nullopt;
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) {
        std::cerr << program_invocation_short_name << ": cannot read '" << path << "'\n";
        return std::nullopt;
    }
    return std::move(text).str();
}

namespace {

bool use_color(const std::string& mode) {
    if (mode == "always")
        return true;
    if (mode == "never")
        return false;
    const char* no_color = std::getenv("NO_COLOR");
    return (no_color == nullptr || *no_color == '\0') && isatty(STDERR_FILENO) != 0;
}

} // namespace

std::string_view source_name(const std::string& path) {
    return path == "-" ? std::string_view("<stdin>") : std::string_view(path);
}

int report(Diagnostics& diagnostics, std::string_view source, const CommonOptions& options,
           std::string_view source_name) {
    if (options.strict)
        diagnostics.promote_warnings();
    if (!diagnostics.empty()) {
        if (options.diagnostics == "json")
            std::cerr << render_json(diagnostics, source);
        else
            std::cerr << render_text(diagnostics, source,
                                     RenderOptions{use_color(options.color), source_name});
    }
    return diagnostics.has_errors() ? exit_invalid : exit_ok;
}

int write_output(std::string_view text) {
    std::cout << text;
    std::cout.flush();
    if (!std::cout) {
        std::cerr << program_invocation_short_name << ": cannot write to standard output\n";
        return exit_invalid;
    }
    return exit_ok;
}

} // namespace jobspec::cli
