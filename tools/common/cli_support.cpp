#include "cli_support.hpp"

#include <iostream>

namespace jobspec::cli {

void add_common_options(CLI::App& app, CommonOptions& options, Reporter& reporter) {
    add_report_options(app, reporter);
    app.add_flag("--pretty", options.pretty, "Indent JSON output");
    add_limit_options(app, options.limits);
}

int write_output(std::string_view text, Reporter& reporter) {
    std::cout << text;
    std::cout.flush();
    if (!std::cout)
        return reporter.report(Code::io_unwritable, "cannot write to standard output");
    return exit_ok;
}

} // namespace jobspec::cli
