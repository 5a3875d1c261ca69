#include "command_line.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <vector>

#include <fmt/format.h>

#include <jobspec/suggest.hpp>

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

std::vector<std::string> subcommand_names(const CLI::App& app) {
    std::vector<std::string> names;
    for (const CLI::App* sub : app.get_subcommands({})) {
        names.push_back(sub->get_name());
        for (const auto& alias : sub->get_aliases())
            names.push_back(alias);
    }
    return names;
}

CLI::App* find_subcommand(CLI::App& app, const std::string& name) {
    for (CLI::App* sub : app.get_subcommands({}))
        if (sub->check_name(name))
            return sub;
    return nullptr;
}

std::string did_you_mean(const std::string& word, const std::vector<std::string>& names) {
    const std::vector<std::string_view> candidates(names.begin(), names.end());
    if (const auto near = closest(word, candidates))
        return fmt::format("; did you mean '{}'?", *near);
    return {};
}

/// Where a command line's subcommands lead: the last one named and the index of the
/// first argument after its name (the whole line for the top-level command).
struct Leaf {
    CLI::App* app;
    std::size_t from;
};

/// Whether the option reads the next argument as its value when written alone ("-d ,").
bool takes_value(const CLI::Option& option) {
    return option.get_items_expected_max() > 0;
}

/// The unknown subcommand a command line names, checked before CLI11 sees it (which would
/// only say that a subcommand is required). Fills `chain` with the subcommands it passes
/// and `leaf` with the last.
std::optional<std::string> unknown_subcommand(CLI::App& app, const std::vector<std::string>& args,
                                              std::string& chain, Leaf& leaf) {
    CLI::App* at = &app;
    leaf = {at, 0};
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg == "--")
            return std::nullopt;
        if (arg.size() > 1 && arg.front() == '-') {
            // An option that takes a value written apart ("--diagnostics json") skips it.
            const std::string name = arg.substr(0, arg.find('='));
            const CLI::Option* option = at->get_option_no_throw(name);
            if (option != nullptr && takes_value(*option) && name.size() == arg.size())
                ++i;
            continue;
        }
        if (at->get_subcommands({}).empty())
            return std::nullopt;
        CLI::App* sub = find_subcommand(*at, arg);
        if (sub == nullptr) {
            const std::string help =
                fmt::format("'{} --help' lists the commands", chain.empty() ? app.get_name()
                                                                            : app.get_name() + " " + chain);
            return fmt::format("unknown command '{}'{}\n{}", arg,
                               did_you_mean(arg, subcommand_names(*at)), help);
        }
        chain += (chain.empty() ? "" : " ") + sub->get_name();
        at = sub;
        leaf = {at, i + 1};
    }
    return std::nullopt;
}

/// An argument CLI11 would split as a list ("[1-3]"), guarded so it reaches its option whole.
std::string guarded(std::string arg) {
    if (arg.size() >= 2 && arg.front() == '[' && arg.back() == ']')
        arg.insert(arg.begin(), bracket_guard);
    return arg;
}

/// Hands a command's positionals their arguments at once, taking them out of `args`, when
/// they end in a list (hostlist's SOURCES; idset's OPERATION, then IDSET): CLI11 checks
/// each argument against every option and subcommand, 1,200 instructions an argument,
/// most of the work of `jobspec hostlist` with 100,000 hosts. Everything after "--" is
/// positional (CLI11 2.1 refuses "--" once the list has a value). Takes nothing when
/// CLI11 could read the line otherwise: a command with subcommands or extras, an option
/// it does not know as written, or one that takes more than one value.
void take_positionals(const Leaf& leaf, std::vector<std::string>& args) {
    CLI::App& app = *leaf.app;
    if (!app.get_subcommands({}).empty() || app.get_allow_extras())
        return;
    const auto positionals =
        app.get_options([](const CLI::Option* o) { return o->get_positional(); });
    if (positionals.empty() || positionals.back()->get_items_expected_max() <= 1 ||
        std::any_of(positionals.begin(), positionals.end() - 1,
                    [](const CLI::Option* o) { return o->get_items_expected_max() != 1; }))
        return;
    std::vector<std::string> taken;
    taken.reserve(args.size() - leaf.from);
    std::vector<std::string> rest(args.begin(), args.begin() + static_cast<std::ptrdiff_t>(leaf.from));
    for (std::size_t i = leaf.from; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg.size() < 2 || arg.front() != '-') {
            taken.push_back(guarded(arg));
            continue;
        }
        if (arg == "--") {
            for (++i; i < args.size(); ++i)
                taken.push_back(guarded(args[i]));
            break;
        }
        const std::string name = arg.substr(0, arg.find('='));
        const CLI::Option* option = app.get_option_no_throw(name);
        if (option == nullptr || option->get_positional() || option->get_items_expected_max() > 1)
            return;
        rest.push_back(arg);
        if (takes_value(*option) && name.size() == arg.size() && i + 1 < args.size())
            rest.push_back(args[++i]);
    }
    if (taken.empty())
        return;
    // In the order CLI11 fills them: one value each, then the list the rest.
    std::size_t p = 0;
    for (std::string& value : taken)
        positionals[std::min(p++, positionals.size() - 1)]->add_result(std::move(value));
    args = std::move(rest);
}

/// The deepest subcommand CLI11 parsed into, and the names leading to it.
CLI::App* chosen(CLI::App& app, std::string& chain) {
    CLI::App* at = &app;
    for (;;) {
        const auto parsed = at->get_subcommands();
        if (parsed.empty())
            return at;
        at = parsed.front();
        chain += (chain.empty() ? "" : " ") + at->get_name();
    }
}

std::vector<std::string> option_names(const CLI::App& app) {
    std::vector<std::string> names;
    for (const CLI::Option* option : app.get_options()) {
        for (const auto& l : option->get_lnames())
            names.push_back("--" + l);
        for (const auto& s : option->get_snames())
            names.push_back("-" + s);
    }
    return names;
}

std::string lowercase_first(std::string s) {
    if (!s.empty() && (s.size() < 2 || !std::isupper(static_cast<unsigned char>(s[1]))))
        s.front() = static_cast<char>(std::tolower(static_cast<unsigned char>(s.front())));
    return s;
}

int report_parse_error(const CLI::ParseError& e, CLI::App& app, Reporter& reporter) {
    std::string chain;
    CLI::App* at = chosen(app, chain);
    reporter.set_command(chain);
    const std::string help = fmt::format("'{} --help' lists the options", reporter.prefix());
    if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
        const auto extras = at->remaining();
        const std::string& first = extras.empty() ? std::string() : extras.front();
        if (!first.empty() && first.front() == '-' && first != "-")
            return reporter.usage(Code::usage_unknown_option,
                                  fmt::format("unknown option '{}'{}", first,
                                              did_you_mean(first.substr(0, first.find('=')),
                                                           option_names(*at))),
                                  help);
        return reporter.usage(Code::usage_extra_argument,
                              fmt::format("unexpected argument '{}'", first), help);
    }
    if (dynamic_cast<const CLI::RequiredError*>(&e) != nullptr) {
        if (!at->get_subcommands({}).empty()) {
            std::string names;
            for (const CLI::App* sub : at->get_subcommands({}))
                names += (names.empty() ? "" : ", ") + sub->get_name();
            return reporter.usage(Code::usage_missing_argument,
                                  fmt::format("a command is required: {}", names),
                                  fmt::format("'{} --help' lists the commands", reporter.prefix()));
        }
        return reporter.usage(Code::usage_missing_argument, lowercase_first(e.what()), help);
    }
    if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr)
        return reporter.usage(Code::usage_missing_argument, lowercase_first(e.what()), help);
    if (dynamic_cast<const CLI::ExcludesError*>(&e) != nullptr ||
        dynamic_cast<const CLI::RequiresError*>(&e) != nullptr)
        return reporter.usage(Code::usage_conflict, lowercase_first(e.what()), help);
    return reporter.usage(Code::usage_option_value, lowercase_first(e.what()), help);
}

} // namespace

std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv, Reporter& reporter) {
    reporter.scan_arguments(argc, argv);
    keep_brackets(app);
    std::vector<std::string> forward;
    forward.reserve(static_cast<std::size_t>(std::max(argc, 1)));
    for (int i = 1; i < argc; ++i)
        forward.emplace_back(argv[i]);
    std::string chain;
    Leaf leaf{};
    if (const auto unknown = unknown_subcommand(app, forward, chain, leaf)) {
        reporter.set_command(chain);
        const auto newline = unknown->find('\n');
        return reporter.usage(Code::usage_unknown_command, unknown->substr(0, newline),
                              unknown->substr(newline + 1));
    }
    take_positionals(leaf, forward);
    // CLI11 takes the arguments last first.
    std::vector<std::string> args;
    args.reserve(forward.size());
    for (auto it = forward.rbegin(); it != forward.rend(); ++it)
        args.push_back(guarded(std::move(*it)));
    try {
        app.parse(args);
    } catch (const CLI::Success& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        return report_parse_error(e, app, reporter);
    }
    chain.clear();
    chosen(app, chain);
    reporter.set_command(chain);
    return std::nullopt;
}

int command_word(int argc, char** argv) {
    int i = 1;
    while (i < argc) {
        const std::string_view w = argv[i];
        if (w == "--strict" || w.rfind("--color=", 0) == 0 || w.rfind("--diagnostics=", 0) == 0)
            ++i;
        else if ((w == "--color" || w == "--diagnostics") && i + 1 < argc)
            i += 2;
        else
            break;
    }
    return i;
}

void add_report_options(CLI::App& app, Reporter& reporter) {
    ReportOptions& options = reporter.options();
    app.add_option("--diagnostics", options.format,
                   "How problems are printed on stderr: text (with carets) or json (one JSON "
                   "array for the whole run, see docs/DIAGNOSTICS.md)")
        ->check(CLI::IsMember(diagnostics_formats))
        ->capture_default_str();
    app.add_option(
           "--color", options.color,
           "Colour diagnostics: auto (on a terminal, unless NO_COLOR is set), always, never")
        ->check(CLI::IsMember(color_modes))
        ->capture_default_str();
    app.add_flag("--strict", options.strict, "Treat warnings as errors (exit 1)");
}

void add_dialect_option(CLI::App& app, Dialect& dialect) {
    app.add_option_function<std::string>(
           "--dialect", [&dialect](const std::string& name) { dialect = *dialect_named(name); },
           "Whose rules jobspec documents are read by: rfc (RFC 14), or fluxion (what "
           "Fluxion, flux-sched's scheduler, reads: versions 1-9999, sibling slots and "
           "xor_slot sharing labels, task slots unchecked; and what it refuses, as fluxion.* "
           "errors)")
        ->check(CLI::IsMember({"rfc", "fluxion"}))
        ->default_str("rfc");
}

void add_limit_options(CLI::App& app, Limits& limits) {
    app.add_option("--max-depth", limits.max_depth, "Deepest nesting accepted (at most 1000)")
        ->check(whole_number(1, Limits::depth_ceiling))
        ->capture_default_str();
    app.add_option("--max-input-bytes", limits.max_input_bytes, "Largest input accepted, in bytes")
        ->check(whole_number(1))
        ->capture_default_str();
    app.add_option("--max-diagnostics", limits.max_diagnostics,
                   "Most problems reported before stopping (at most 100000)")
        ->check(whole_number(1, Limits::diagnostics_ceiling))
        ->capture_default_str();
}

void add_vertex_limit_option(CLI::App& app, Limits& limits) {
    app.add_option("--max-vertices", limits.max_vertices,
                   "Most resource vertices a jobspec or shape may have, at every level")
        ->check(whole_number(1))
        ->capture_default_str();
}

void add_constraint_limit_option(CLI::App& app, Limits& limits) {
    app.add_option("--max-constraint-terms", limits.max_constraint_terms,
                   "Most terms a constraint may have (each operator and each value is one)")
        ->check(whole_number(1))
        ->capture_default_str();
}

CLI::Validator whole_number(std::uint64_t min, std::uint64_t max) {
    const std::string range = max == Limits::max_integer
                                  ? fmt::format("of at least {}", min)
                                  : fmt::format("from {} to {}", min, max);
    return CLI::Validator(
        [min, max, range](const std::string& text) {
            std::uint64_t value = 0;
            const char* end = text.data() + text.size();
            const auto [ptr, ec] = std::from_chars(text.data(), end, value);
            if (text.empty() || ptr != end || ec == std::errc::invalid_argument)
                return fmt::format("must be a whole number {}, not '{}'", range, text);
            if (ec == std::errc::result_out_of_range || value > max)
                return max == Limits::max_integer
                           ? fmt::format("'{}' is too large: the most is {}", text, max)
                           : fmt::format("must be a whole number {}, not '{}'", range, text);
            if (value < min)
                return fmt::format("must be a whole number {}, not '{}'", range, text);
            return std::string();
        },
        fmt::format("a whole number {}", range));
}

} // namespace jobspec::cli
