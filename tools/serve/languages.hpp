// The languages the playground knows: one table entry each, with its options, example and
// what it compiles to. The page builds its language picker and option controls from this
// table (GET /api/v1/languages), so a new language is one new entry here.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <jobspec/diagnostic.hpp>
#include <jobspec/grammar_view.hpp>
#include <jobspec/jobspec_model.hpp>
#include <jobspec/limits.hpp>

namespace jobspec::serve {

enum class OptionKind : std::uint8_t { flag, choice, text };

/// An option of a language, mirroring one of the CLI's.
struct OptionSpec {
    /// Its name in requests ("v1").
    std::string_view name;
    /// The command-line option it stands for ("--v1").
    std::string_view cli;
    /// What it does, for people.
    std::string_view label;
    OptionKind kind = OptionKind::flag;
    /// For a choice, the values it takes; the first is the default.
    std::vector<std::string_view> choices = {};
};

/// A request's option values, already checked against the language's OptionSpecs:
/// flags are present or not, a choice is one of its values, text is as given.
struct Settings {
    std::map<std::string, std::string, std::less<>> values;

    bool flag(std::string_view name) const { return values.contains(name); }
    /// The value given, else a choice's default, else "".
    std::string_view value(const OptionSpec& spec) const;
};

/// What the CLI would do with the text: its standard output (empty unless it succeeds),
/// its diagnostics and its exit status (0 ok, 1 invalid input, 2 misuse).
struct Outcome {
    int status = 0;
    std::string output;
    Diagnostics diagnostics;
};

using Compiler = Outcome (*)(std::string_view text, const Settings& settings, const Limits& limits);

struct Language {
    std::string_view name;
    /// For people: "Shape (RFC 46)".
    std::string_view title;
    /// The command whose output and diagnostics `compile` gives, the text standing for
    /// TEXT (an argument) or for standard input (-).
    std::string_view cli;
    std::string_view example;
    std::vector<OptionSpec> options;
    /// The grammar whose tokens and parse tree the text has, if any.
    std::optional<Grammar> grammar;
    Compiler compile = nullptr;
    /// The resource graph as DOT in `output`, as `jobspec graph` draws it; null when the
    /// language has no resources to draw.
    Compiler graph = nullptr;
    /// An R to match a document against (`jobspec match`); empty when the language is
    /// not a jobspec.
    std::string_view match_example;
    /// A picture jobspec draws itself, as SVG in `output` (the forecast's schedule, as
    /// `jobspec forecast --svg` draws it); null when the language has none.
    Compiler picture = nullptr;
};

/// Every language, in the order the page lists them.
const std::vector<Language>& languages();

/// The language named `name`, or null.
const Language* find_language(std::string_view name);

/// The jobspec language's --dialect (rfc, fluxion), which `match` takes too.
const OptionSpec& dialect_option();
/// The dialect a request's settings name (rfc when none).
Dialect dialect_of(const Settings& settings);

/// Options every language takes: --pretty and --strict.
const std::vector<OptionSpec>& common_options();

/// The exit status the CLI gives for these diagnostics: 2 for usage.*, io.unreadable and
/// io.unwritable errors, else 1 for any error, else 0.
int exit_status(const Diagnostics& diagnostics);

} // namespace jobspec::serve
