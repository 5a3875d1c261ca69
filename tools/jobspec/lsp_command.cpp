#include "lsp_command.hpp"

#include <algorithm>
#include <csignal>
#include <memory>
#include <unistd.h>

#include "protocol.hpp"
#include "server.hpp"

namespace jobspec::cli {

namespace {

int run_lsp(const lsp::ServerOptions& options, Reporter& reporter) {
    // A client that goes away is the end of the session, not a signal.
    std::signal(SIGPIPE, SIG_IGN);
    lsp::MessageReader in(STDIN_FILENO, lsp::reader_limits(options));
    lsp::MessageWriter out(STDOUT_FILENO);
    const lsp::SessionEnd end = lsp::serve(in, out, options);
    if (!end.error.empty())
        return std::max(end.status,
                        reporter.report(Code::io_unreadable, end.error,
                                        "'jobspec lsp' is started by an editor, which speaks "
                                        "the protocol to it (docs/EDITORS.md)"));
    return end.status;
}

} // namespace

Command add_lsp_command(CLI::App& parent, Reporter& reporter) {
    auto options = std::make_shared<lsp::ServerOptions>();
    CLI::App* app = parent.add_subcommand(
        "lsp", "Serve editors: a Language Server Protocol server on standard input and output");
    add_report_options(*app, reporter);
    add_dialect_option(*app, options->dialect);
    add_limit_options(*app, options->limits);
    add_vertex_limit_option(*app, options->limits);
    add_constraint_limit_option(*app, options->limits);
    app->footer(
        R"(An editor starts 'jobspec lsp' and speaks the Language Server Protocol (3.17) with it
over standard input and output; it is not run by hand. Each document the editor opens is
checked as you type, with the same diagnostics and codes as the commands:
  a batch script (*.sh, *.bash, *.batch, *.flux, or a '#!' first line or '#flux:' line)
                  its RFC 36 '#flux:' directives, as 'jobspec compile --batch'
  a jobspec       (*.yaml, *.yml, *.json) as 'jobspec validate'
  a shape         (*.shape) as 'jobspec shape'
else by the editor's language id (sh, bash: a script; yaml, json: a jobspec; shape).

What the editor gets: diagnostics where the problem is; quick fixes (code actions) for
those that carry a certain fix, such as ',' for ';' in a shape; on hover, a directive
option's usage, what an RFC 14 key or a count means ("2+": at least 2), and on a
diagnostic what its code means ('jobspec explain'); completion of the options in a
'#flux:' directive, system attributes after '--setattr=system.', dependency schemes
after '--dependency=', and resource types in a jobspec's 'type:' and in a shape.

A document longer than --max-input-bytes gets one limit.input-size diagnostic and only
its first max-input-bytes + 1 bytes are kept; a message that would take more than twice
that and 1 MiB is refused. Edits that come faster than they are checked are all applied
before the next check. What the editor should know but cannot be answered (a
notification it sent was wrong) is sent to it as a log message.

How editors start it: docs/EDITORS.md shows Neovim's and Emacs's setup; any LSP client
needs only the command, e.g. in Neovim: vim.lsp.start_client{cmd = {'jobspec', 'lsp'}}.

Exit status: 0 after the client's 'shutdown' and 'exit', 1 on 'exit' without
'shutdown' or when standard input ends first, 2 for a bad command line or an input that
is not the protocol (no message header in twice --max-input-bytes and 1 MiB, or 100 bad
messages in a row; reported as io.unreadable).)");
    return Command{app, [options, &reporter] { return run_lsp(*options, reporter); }};
}

} // namespace jobspec::cli
