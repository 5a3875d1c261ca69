#include "syntax/submit_arguments.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include <fmt/format.h>

#include <jobspec/suggest.hpp>

#include "support/python_numbers.hpp"

namespace jobspec::syntax {

namespace {

enum Commands : unsigned {
    run = 1,
    submit = 2,
    batch = 4,
    alloc = 8,
    tasks = 3,
    slots = 12,
    all = 15
};

enum class Arity { flag, value, optional };

using Setter = void (*)(SubmitOptions&, std::string);
/// Calls the edit on each value the option stored, stopping at the first false.
using ValueWalk = bool (*)(SubmitOptions&, const ValueEdit&);

/// One option of the flux commands: its names, whether it takes a value, which commands
/// have it, and what it does to the options.
struct OptionSpec {
    std::array<std::string_view, 3> longs;
    char short_name;
    Arity arity;
    unsigned commands;
    Setter set;
    /// The values flux's --cc substitutes "{cc}" into, when this option's are.
    ValueWalk cc = nullptr;
};

template <std::optional<std::string> SubmitOptions::*Field>
bool walk_one(SubmitOptions& o, const ValueEdit& edit) {
    return !(o.*Field) || edit(*(o.*Field));
}

template <std::vector<std::string> SubmitOptions::*Field>
bool walk_all(SubmitOptions& o, const ValueEdit& edit) {
    for (auto& value : o.*Field)
        if (!edit(value))
            return false;
    return true;
}

bool walk_dependencies(SubmitOptions& o, const ValueEdit& edit) {
    for (auto& [is_begin, value] : o.dependencies)
        if (!is_begin && !edit(value))
            return false;
    return true;
}

template <std::optional<std::string> SubmitOptions::*Field>
void store(SubmitOptions& o, std::string v) {
    o.*Field = std::move(v);
}

template <std::vector<std::string> SubmitOptions::*Field>
void append(SubmitOptions& o, std::string v) {
    (o.*Field).push_back(std::move(v));
}

template <bool SubmitOptions::*Field>
void set_flag(SubmitOptions& o, std::string) {
    o.*Field = true;
}

void ignore(SubmitOptions&, std::string) {}

/// An option whose value is kept in Field (the last one given); `cc`: --cc substitutes
/// "{cc}" into it.
template <std::optional<std::string> SubmitOptions::*Field>
constexpr OptionSpec stored(std::array<std::string_view, 3> longs, char short_name,
                            unsigned commands, bool cc = true) {
    return {longs,    short_name,   Arity::value,
            commands, store<Field>, cc ? walk_one<Field> : nullptr};
}

/// An option whose every value is kept in Field, in order.
template <std::vector<std::string> SubmitOptions::*Field>
constexpr OptionSpec appended(std::array<std::string_view, 3> longs, char short_name,
                              unsigned commands, bool cc = true) {
    return {longs,    short_name,    Arity::value,
            commands, append<Field>, cc ? walk_all<Field> : nullptr};
}

/// A flag that sets Field.
template <bool SubmitOptions::*Field>
constexpr OptionSpec flag(std::array<std::string_view, 3> longs, char short_name,
                          unsigned commands) {
    return {longs, short_name, Arity::flag, commands, set_flag<Field>};
}

const std::array option_specs{
    stored<&SubmitOptions::bank>({"bank"}, 'B', all),
    stored<&SubmitOptions::queue>({"queue"}, 'q', all),
    stored<&SubmitOptions::time_limit>({"time-limit"}, 't', all),
    stored<&SubmitOptions::urgency>({"urgency"}, 0, all),
    stored<&SubmitOptions::job_name>({"job-name"}, 0, all),
    appended<&SubmitOptions::setopts>({"setopt"}, 'o', all),
    appended<&SubmitOptions::setattrs>({"setattr"}, 'S', all),
    appended<&SubmitOptions::add_files>({"add-file"}, 0, all, false),
    OptionSpec{{"dependency"},
               0,
               Arity::value,
               all,
               [](SubmitOptions& o, std::string v) { o.dependencies.emplace_back(false, v); },
               walk_dependencies},
    appended<&SubmitOptions::requires_terms>({"requires", "require"}, 0, all),
    OptionSpec{{"begin-time"},
               0,
               Arity::value,
               all,
               [](SubmitOptions& o, std::string v) { o.dependencies.emplace_back(true, v); }},
    appended<&SubmitOptions::environment_rules>({"env"}, 0, all),
    OptionSpec{{"env-remove"},
               0,
               Arity::value,
               all,
               [](SubmitOptions& o, std::string v) { o.environment_rules.push_back("-" + v); },
               walk_all<&SubmitOptions::environment_rules>},
    OptionSpec{{"env-file"},
               0,
               Arity::value,
               all,
               [](SubmitOptions& o, std::string v) { o.environment_rules.push_back("^" + v); },
               walk_all<&SubmitOptions::environment_rules>},
    appended<&SubmitOptions::rlimits>({"rlimit"}, 0, all, false),
    stored<&SubmitOptions::input>({"input"}, 0, all),
    stored<&SubmitOptions::output>({"output"}, 0, all),
    stored<&SubmitOptions::error>({"error"}, 0, all),
    flag<&SubmitOptions::unbuffered>({"unbuffered"}, 'u', all),
    flag<&SubmitOptions::label_io>({"label-io"}, 'l', all),
    stored<&SubmitOptions::cwd>({"cwd"}, 0, all),
    appended<&SubmitOptions::flags>({"flags"}, 0, all),
    stored<&SubmitOptions::signal>({"signal"}, 0, all),
    OptionSpec{{"dry-run", "dry"}, 0, Arity::flag, all, ignore},
    OptionSpec{{"quiet"}, 0, Arity::flag, all, ignore},
    flag<&SubmitOptions::debug_emulate>({"debug-emulate"}, 0, all),
    stored<&SubmitOptions::resources_shape>({"resources-shape", "shape"}, 0, all, false),
    stored<&SubmitOptions::resources_json>({"resources-json"}, 0, all, false),
    flag<&SubmitOptions::environment_none>({"env-none"}, 0, all),
    stored<&SubmitOptions::nodes>({"nodes"}, 'N', all),
    flag<&SubmitOptions::exclusive>({"exclusive"}, 'x', all),
    stored<&SubmitOptions::ntasks>({"ntasks"}, 'n', tasks),
    stored<&SubmitOptions::cores_per_task>({"cores-per-task"}, 'c', tasks),
    stored<&SubmitOptions::gpus_per_task>({"gpus-per-task"}, 'g', tasks),
    stored<&SubmitOptions::cores>({"cores"}, 0, tasks),
    stored<&SubmitOptions::tasks_per_node>({"tasks-per-node"}, 0, tasks),
    stored<&SubmitOptions::tasks_per_core>({"tasks-per-core"}, 0, tasks),
    stored<&SubmitOptions::gpus_per_node>({"gpus-per-node"}, 0, tasks),
    stored<&SubmitOptions::taskmap>({"taskmap"}, 0, tasks),
    OptionSpec{{"verbose"}, 'v', Arity::flag, tasks | alloc, ignore},
    OptionSpec{{"wait-event"}, 0, Arity::value, tasks, ignore},
    stored<&SubmitOptions::cc>({"cc"}, 0, submit, false),
    stored<&SubmitOptions::bcc>({"bcc"}, 0, submit, false),
    OptionSpec{{"progress"}, 0, Arity::flag, submit, ignore},
    OptionSpec{{"jps"}, 0, Arity::flag, submit, ignore},
    stored<&SubmitOptions::ntasks>({"nslots"}, 'n', slots),
    stored<&SubmitOptions::cores_per_task>({"cores-per-slot"}, 'c', slots),
    stored<&SubmitOptions::gpus_per_task>({"gpus-per-slot"}, 'g', slots),
    appended<&SubmitOptions::broker_opts>({"broker-opts", "broker-opt"}, 0, slots, false),
    appended<&SubmitOptions::conf>({"conf"}, 0, slots, false),
    OptionSpec{{"dump"}, 0, Arity::optional, slots, store<&SubmitOptions::dump>},
    OptionSpec{{"add-brokers"},
               0,
               Arity::value,
               slots,
               [](SubmitOptions& o, std::string v) {
                   // Checked by valid_value; anything else would be a usage error already.
                   o.add_brokers = support::python_int(v).value_or(0);
               }},
    flag<&SubmitOptions::wrap>({"wrap"}, 0, batch),
    flag<&SubmitOptions::background>({"bg"}, 0, alloc),
};

unsigned command_bit(SubmitCommand c) {
    switch (c) {
    case SubmitCommand::run:
        return run;
    case SubmitCommand::submit:
        return submit;
    case SubmitCommand::batch:
        return batch;
    case SubmitCommand::alloc:
        return alloc;
    }
    return run;
}

const OptionSpec* find_long(std::string_view name, unsigned bit) {
    for (const auto& spec : option_specs)
        if ((spec.commands & bit) != 0)
            for (const auto& l : spec.longs)
                if (!l.empty() && l == name)
                    return &spec;
    return nullptr;
}

std::optional<std::string_view> misspelt(std::string_view name, unsigned bit) {
    if (name.empty() || find_long(name, bit) != nullptr)
        return std::nullopt;
    std::vector<std::string_view> names;
    for (const auto& spec : option_specs)
        if ((spec.commands & bit) != 0)
            for (const auto& l : spec.longs)
                if (!l.empty())
                    names.push_back(l);
    return closest(name, names);
}

/// "did you mean '--NAME'?" for an unknown `--word[=value]`, or "".
std::string did_you_mean(std::string_view word, unsigned bit) {
    if (!word.starts_with("--"))
        return {};
    const auto near = misspelt(word.substr(2, word.find('=') - 2), bit);
    return near ? fmt::format("did you mean '--{}'?", *near) : std::string();
}

const OptionSpec* find_short(char name, unsigned bit) {
    for (const auto& spec : option_specs)
        if ((spec.commands & bit) != 0 && spec.short_name == name)
            return &spec;
    return nullptr;
}

/// "-5", "-3.5", "-.5": words argparse takes for negative numbers, not options.
bool negative_number(std::string_view w) {
    if (w.size() < 2 || w[0] != '-')
        return false;
    w.remove_prefix(1);
    const auto digits = [](std::string_view s) {
        return !s.empty() &&
               std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    const auto dot = w.find('.');
    if (dot == std::string_view::npos)
        return digits(w);
    return (dot == 0 || digits(w.substr(0, dot))) && digits(w.substr(dot + 1));
}

/// A word argparse reads as an option rather than a value (its _parse_optional, without
/// abbreviations as flux sets allow_abbrev=False): one starting with '-' unless it is a
/// negative number or holds a space; with a space only when it names an option of
/// `bit`'s command before an '=' ("--begin-time=1 2", "-n=4 x"), or starts with one's
/// short name ("-n 4").
bool option_like(std::string_view w, unsigned bit) {
    if (w.size() < 2 || w[0] != '-' || negative_number(w))
        return false;
    if (w.find(' ') == std::string_view::npos)
        return true;
    const std::string_view name = w.substr(0, w.find('='));
    if (name.size() > 2 && name[1] == '-' && find_long(name.substr(2), bit) != nullptr)
        return true;
    return w[1] != '-' && find_short(w[1], bit) != nullptr;
}

std::size_t span(const std::vector<std::string>& words, std::size_t i, unsigned bit) {
    const std::string& w = words[i];
    if (w == "--" || w.empty() || w[0] != '-' || w == "-" || negative_number(w))
        return 0;
    const OptionSpec* spec = nullptr;
    if (w.rfind("--", 0) == 0 && w.find('=') == std::string::npos)
        spec = find_long(std::string_view(w).substr(2), bit);
    else if (w.size() == 2 && w[1] != '-')
        spec = find_short(w[1], bit);
    if (spec == nullptr || spec->arity == Arity::flag)
        return 1;
    if (spec->arity == Arity::value)
        return std::min<std::size_t>(2, words.size() - i);
    return i + 1 < words.size() && !option_like(words[i + 1], bit) ? 2 : 1;
}

std::string display(const OptionSpec& spec) {
    std::string longs = fmt::format("--{}", spec.longs[0]);
    if (spec.short_name != 0)
        return fmt::format("-{}/{}", spec.short_name, longs);
    return longs;
}

class Reader {
public:
    Reader(const std::vector<std::string>& words, SubmitOptions& options, Diagnostics& d,
           const std::vector<std::vector<std::uint32_t>>* origins = nullptr)
        : words_(words), origins_(origins), options_(options), diags_(d),
          bit_(command_bit(options.command)) {}

    /// One option by its long name, as `--name=value` (or `--name`) would set it.
    void named(std::string_view name, const std::optional<std::string>& value) {
        const auto* spec = find_long(name, bit_);
        if (spec == nullptr) {
            diags_.add(Code::usage_unknown_option, fmt::format("unrecognized arguments: --{}", name),
                       {}, did_you_mean(fmt::format("--{}", name), bit_));
        } else if (spec->arity == Arity::flag && value) {
            diags_.add(
                Code::usage_option_value,
                fmt::format("argument {}: ignored explicit argument '{}'", display(*spec), *value));
        } else if (spec->arity == Arity::flag) {
            spec->set(options_, {});
        } else if (value) {
            assign(*spec, *value);
        } else if (spec->arity == Arity::optional) {
            spec->set(options_, "flux-{{jobid}}-dump.tgz");
        } else {
            diags_.add(Code::usage_missing_argument,
                       fmt::format("argument {}: expected one argument", display(*spec)));
        }
    }

    void read() {
        const std::size_t end = split();
        for (std::size_t i = 0; i < end && !diags_.has_errors(); ++i)
            i = word(i, end);
        if (!unknown_.empty())
            diags_.add(Code::usage_unknown_option,
                       fmt::format("unrecognized arguments: {}", unknown_), {}, unknown_help_);
        std::vector<std::string> command(words_.begin() + static_cast<std::ptrdiff_t>(end),
                                         words_.end());
        if (!command.empty() && command.front() == "--" && options_.command != SubmitCommand::alloc)
            command.erase(command.begin());
        options_.arguments = std::move(command);
    }

private:
    /// The index of the first word of the command part.
    std::size_t split() const {
        std::size_t i = 0;
        while (i < words_.size()) {
            const std::size_t n = span(words_, i, bit_);
            if (n == 0)
                return i;
            i += n;
        }
        return words_.size();
    }

    /// Reads the option word at `i`; returns the index of the last word it used.
    std::size_t word(std::size_t i, std::size_t end) {
        const std::string& w = words_[i];
        if (w.rfind("--", 0) == 0)
            return long_option(i, end);
        std::size_t at = 1;
        while (at < w.size()) {
            const auto* spec = find_short(w[at], bit_);
            if (spec == nullptr) {
                unknown(w);
                return i;
            }
            ++at;
            if (spec->arity == Arity::flag) {
                if (at < w.size() && find_short(w[at], bit_) == nullptr) {
                    diags_.add(Code::usage_option_value,
                               fmt::format("argument {}: ignored explicit argument '{}'",
                                           display(*spec), w.substr(at)));
                    return i;
                }
                spec->set(options_, {});
                continue;
            }
            if (at < w.size()) {
                const std::size_t from = w[at] == '=' ? at + 1 : at;
                assign(*spec, w.substr(from), i, from);
                return i;
            }
            return separate_value(*spec, i, end);
        }
        return i;
    }

    std::size_t long_option(std::size_t i, std::size_t end) {
        const std::string& w = words_[i];
        const auto eq = w.find('=');
        const std::string_view name =
            std::string_view(w).substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
        const auto* spec = find_long(name, bit_);
        if (spec == nullptr) {
            unknown(w);
            return i;
        }
        if (eq != std::string::npos) {
            if (spec->arity == Arity::flag) {
                diags_.add(Code::usage_option_value,
                           fmt::format("argument {}: ignored explicit argument '{}'",
                                       display(*spec), w.substr(eq + 1)));
                return i;
            }
            assign(*spec, w.substr(eq + 1), i, eq + 1);
            return i;
        }
        if (spec->arity == Arity::flag) {
            spec->set(options_, {});
            return i;
        }
        if (spec->arity == Arity::optional) {
            if (i + 1 < end && !option_like(words_[i + 1], bit_)) {
                spec->set(options_, words_[i + 1]);
                return i + 1;
            }
            spec->set(options_, "flux-{{jobid}}-dump.tgz");
            return i;
        }
        return separate_value(*spec, i, end);
    }

    std::size_t separate_value(const OptionSpec& spec, std::size_t i, std::size_t end) {
        if (i + 1 >= end || option_like(words_[i + 1], bit_) || words_[i + 1] == "--") {
            diags_.add(Code::usage_missing_argument,
                       fmt::format("argument {}: expected one argument", display(spec)),
                       place(i, 0, words_[i].size()));
            return i;
        }
        assign(spec, words_[i + 1], i + 1, 0);
        return i + 1;
    }

    /// Sets an option's value, which batch and alloc check first for their counts. The
    /// value is bytes [from, from + its size) of the word at `word`, when it is in one.
    void assign(const OptionSpec& spec, std::string value, std::size_t word = std::string::npos,
                std::size_t from = 0) {
        if (!valid_value(spec, value, place(word, from, value.size())))
            return;
        note_origin(spec, value, word, from);
        spec.set(options_, std::move(value));
    }

    /// The script offsets of bytes [from, from + size) of the word at `word`, when the
    /// words are a directive's and that word has a place there; else nothing.
    const std::uint32_t* read_at(std::size_t word, std::size_t from, std::size_t size) const {
        if (origins_ == nullptr || word >= origins_->size() || word >= words_.size() || size == 0)
            return nullptr;
        const auto& at = (*origins_)[word];
        if (at.size() != words_[word].size() || from + size > at.size())
            return nullptr;
        return at.data() + from;
    }

    /// Where those bytes were read in the script; else nowhere.
    Location place(std::size_t word, std::size_t from, std::size_t size) const {
        const std::uint32_t* at = read_at(word, from, size);
        return at == nullptr ? Location{} : Location{SourceRange{at[0], at[size - 1] + 1}};
    }

    /// Keeps where a value read from a directive's word is in its script.
    void note_origin(const OptionSpec& spec, const std::string& value, std::size_t word,
                     std::size_t from) {
        if (const std::uint32_t* at = read_at(word, from, value.size()))
            options_.value_origins.push_back(
                {std::string(spec.longs[0]), value, {at, at + value.size()}});
    }

    /// batch and alloc convert their counts while parsing.
    bool valid_value(const OptionSpec& spec, const std::string& value, Location where) {
        const bool count = spec.longs[0] == "nslots" || spec.longs[0] == "cores-per-slot" ||
                           spec.longs[0] == "gpus-per-slot" || spec.longs[0] == "add-brokers" ||
                           (spec.longs[0] == "nodes" && (bit_ & slots) != 0);
        if (!count)
            return true;
        std::string_view v = value;
        while (!v.empty() && (v.front() == ' ' || v.front() == '\t' || v.front() == '\n'))
            v.remove_prefix(1);
        while (!v.empty() && (v.back() == ' ' || v.back() == '\t' || v.back() == '\n'))
            v.remove_suffix(1);
        if (!v.empty() && (v[0] == '+' || v[0] == '-'))
            v.remove_prefix(1);
        bool ok = !v.empty() && v.size() < 18 && v.front() != '_' && v.back() != '_' &&
                  v.find("__") == std::string_view::npos;
        for (char c : v)
            ok = ok && ((c >= '0' && c <= '9') || c == '_');
        if (!ok)
            diags_.add(Code::usage_option_value,
                       fmt::format("argument {}: invalid int value: '{}'", display(spec), value),
                       std::move(where));
        return ok;
    }

    void unknown(const std::string& w) {
        if (!unknown_.empty())
            unknown_ += ' ';
        unknown_ += w;
        if (unknown_help_.empty())
            unknown_help_ = did_you_mean(w, bit_);
    }

    const std::vector<std::string>& words_;
    const std::vector<std::vector<std::uint32_t>>* origins_;
    SubmitOptions& options_;
    Diagnostics& diags_;
    unsigned bit_;
    std::string unknown_;
    std::string unknown_help_;
};

} // namespace

void read_submit_arguments(const std::vector<std::string>& words, SubmitOptions& options,
                           Diagnostics& diagnostics,
                           const std::vector<std::vector<std::uint32_t>>* origins) {
    Reader(words, options, diagnostics, origins).read();
}

std::size_t submit_option_span(const std::vector<std::string>& words, std::size_t at,
                               SubmitCommand command) {
    return at < words.size() ? span(words, at, command_bit(command)) : 0;
}

void set_submit_option(SubmitOptions& options, std::string_view name,
                       const std::optional<std::string>& value, Diagnostics& diagnostics) {
    const std::vector<std::string> none;
    Reader(none, options, diagnostics).named(name, value);
}

bool for_each_cc_value(SubmitOptions& options, const ValueEdit& edit) {
    std::vector<ValueWalk> walked;
    for (const auto& spec : option_specs) {
        if (spec.cc == nullptr || std::find(walked.begin(), walked.end(), spec.cc) != walked.end())
            continue;
        walked.push_back(spec.cc);
        if (!spec.cc(options, edit))
            return false;
    }
    return true;
}

std::optional<std::string_view> misspelt_long_option(std::string_view name,
                                                     SubmitCommand command) {
    return misspelt(name, command_bit(command));
}

std::vector<std::string> submit_option_usages(SubmitCommand command) {
    std::vector<std::string> out;
    for (const auto& spec : option_specs) {
        if ((spec.commands & command_bit(command)) == 0)
            continue;
        std::string usage = spec.short_name != 0 ? fmt::format("-{}, ", spec.short_name) : "";
        usage += fmt::format("--{}", spec.longs[0]);
        usage += spec.arity == Arity::value      ? "=VALUE"
                 : spec.arity == Arity::optional ? "[=VALUE]"
                                                 : "";
        out.push_back(std::move(usage));
    }
    return out;
}

} // namespace jobspec::syntax
