#include "explain_command.hpp"

#include <memory>
#include <string>
#include <vector>

#include <jobspec/diagnostic.hpp>
#include <jobspec/suggest.hpp>

namespace jobspec::cli {

namespace {

struct ExplainArgs {
    std::string code;
};

int run_explain(const ExplainArgs& args, Reporter& reporter) {
    if (args.code.empty()) {
        std::string out;
        for (std::size_t i = 0; i < code_count; ++i) {
            const auto code = static_cast<Code>(i);
            out += std::string(code_name(code)) +
                   (default_severity(code) == Severity::warning ? " (warning)\n" : "\n");
        }
        return write_output(out, reporter);
    }
    // "error[shape.range-order]" as copied from a diagnostic works too.
    std::string name = args.code;
    if (const auto open = name.find('['); open != std::string::npos && name.back() == ']')
        name = name.substr(open + 1, name.size() - open - 2);
    const auto code = code_from_name(name);
    if (!code) {
        std::vector<std::string_view> names;
        for (std::size_t i = 0; i < code_count; ++i)
            names.push_back(code_name(static_cast<Code>(i)));
        const auto near = closest(name, names);
        return reporter.usage(Code::usage_option_value,
                              "unknown code '" + name + "'" +
                                  (near ? "; did you mean '" + std::string(*near) + "'?" : ""),
                              "'jobspec explain' lists the codes");
    }
    return write_output(std::string(code_name(*code)) + "\n\n" + std::string(explanation(*code)),
                        reporter);
}

} // namespace

Command add_explain_command(CLI::App& parent, Reporter& reporter) {
    auto args = std::make_shared<ExplainArgs>();
    CLI::App* app = parent.add_subcommand(
        "explain", "Explain a diagnostic code, with a failing example and its fix");
    app->add_option("CODE", args->code,
                    "A code such as shape.range-order (or error[shape.range-order] as "
                    "printed); without it, list every code");
    add_report_options(*app, reporter);
    app->footer(R"(Every code jobspec and jobspec-grammar report is explained in docs/CODES.md; this
prints the same text.

Examples:
  jobspec explain shape.range-order
  jobspec explain                      one code a line, warnings marked

Exit status: 0 success, 2 an unknown code.)");
    return Command{app, [args, &reporter] { return run_explain(*args, reporter); }};
}

} // namespace jobspec::cli
