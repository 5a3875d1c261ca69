#include "fix_command.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include <jobspec/document_check.hpp>
#include <jobspec/input.hpp>
#include <jobspec/render.hpp>
#include <jobspec/text.hpp>

#include "file_output.hpp"

namespace jobspec::cli {

namespace {

struct FixArgs {
    CommonOptions common;
    std::vector<std::string> paths;
    bool dry_run = false;
    std::string kind;
    std::string dialect = "rfc";
};

/// One edit of a fix, with the diagnostic it fixes.
struct Edit {
    std::size_t begin;
    std::size_t end;
    std::string replacement;
    Code code;
};

/// Each byte offset of a batch script as checked (CR LF and lone CR read as LF, as flux
/// reads scripts) -> its offset in the file; offsets.size() is the checked text's + 1.
std::vector<std::size_t> offsets_in_file(std::string_view text) {
    std::vector<std::size_t> at;
    at.reserve(text.size() + 1);
    for (std::size_t i = 0; i < text.size(); ++i) {
        at.push_back(i);
        if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n')
            ++i;
    }
    at.push_back(text.size());
    return at;
}

/// The edits of the diagnostics' fixes that are into `text` itself, in order, without
/// overlaps (of two that overlap, the first is kept; the other is found again next round).
std::vector<Edit> edits_of(const Diagnostics& found, std::string_view text, DocumentKind kind) {
    const bool mapped =
        kind == DocumentKind::batch_script && text.find('\r') != std::string_view::npos;
    const std::vector<std::size_t> at = mapped ? offsets_in_file(text) : std::vector<std::size_t>{};
    const std::size_t size = mapped ? at.size() - 1 : text.size();
    std::vector<Edit> edits;
    for (const auto& d : found) {
        if (d.location.source)
            continue;
        for (const auto& f : d.fixes)
            if (f.range.known() && f.range.begin <= f.range.end && f.range.end <= size)
                edits.push_back({mapped ? at[f.range.begin] : f.range.begin,
                                 mapped ? at[f.range.end] : f.range.end, f.replacement, d.code});
    }
    std::stable_sort(edits.begin(), edits.end(),
                     [](const Edit& a, const Edit& b) { return a.begin < b.begin; });
    std::vector<Edit> kept;
    for (auto& e : edits) {
        // One fix of two diagnostics (a label both were missing) is made once.
        const bool again = !kept.empty() && e.begin == kept.back().begin &&
                           e.end == kept.back().end && e.replacement == kept.back().replacement;
        if (!again && (kept.empty() || e.begin >= kept.back().end))
            kept.push_back(std::move(e));
    }
    return kept;
}

std::string applied(std::string_view text, const std::vector<Edit>& edits) {
    std::string out;
    std::size_t from = 0;
    for (const auto& e : edits) {
        out.append(text.substr(from, e.begin - from));
        out += e.replacement;
        from = e.end;
    }
    out.append(text.substr(from));
    return out;
}

/// What an edit did, for people: "LINE:COLUMN: CODE: replaced ',' with ';'".
std::string described(const Edit& e, std::string_view text) {
    const TextPosition p = text_position(text, e.begin);
    const std::string_view old = text.substr(e.begin, e.end - e.begin);
    std::string what = old.empty() ? fmt::format("inserted '{}'", e.replacement)
                       : e.replacement.empty()
                           ? fmt::format("removed '{}'", old)
                           : fmt::format("replaced '{}' with '{}'", old, e.replacement);
    return visible_text(fmt::format("{}:{}: {}: {}", p.line, p.column, code_name(e.code), what));
}

std::vector<std::string_view> lines_of(std::string_view text) {
    std::vector<std::string_view> lines;
    for (std::size_t start = 0; start < text.size();) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

/// A unified diff of `before` and `after` as one hunk from the first line that differs
/// to the last, with three lines of context (what `patch` reads).
std::string unified_diff(std::string_view before, std::string_view after, std::string_view name) {
    const auto a = lines_of(before);
    const auto b = lines_of(after);
    std::size_t head = 0;
    while (head < a.size() && head < b.size() && a[head] == b[head])
        ++head;
    std::size_t tail = 0;
    while (tail < a.size() - head && tail < b.size() - head &&
           a[a.size() - 1 - tail] == b[b.size() - 1 - tail])
        ++tail;
    if (head == a.size() && head == b.size())
        return {};
    const std::size_t context = 3;
    const std::size_t first = head > context ? head - context : 0;
    const std::size_t a_end = std::min(a.size(), a.size() - tail + context);
    const std::size_t b_end = std::min(b.size(), b.size() - tail + context);
    std::string out = fmt::format("--- {0}\n+++ {0}\n@@ -{1},{2} +{3},{4} @@\n", visible_text(name),
                                  first + 1, a_end - first, first + 1, b_end - first);
    for (std::size_t i = first; i < head; ++i)
        out += fmt::format(" {}\n", visible_text(a[i]));
    for (std::size_t i = head; i < a.size() - tail; ++i)
        out += fmt::format("-{}\n", visible_text(a[i]));
    for (std::size_t i = head; i < b.size() - tail; ++i)
        out += fmt::format("+{}\n", visible_text(b[i]));
    for (std::size_t i = b.size() - tail; i < b_end; ++i)
        out += fmt::format(" {}\n", visible_text(b[i]));
    return out;
}

/// Fixes one file; its exit status.
int fix_one(const std::string& path, const FixArgs& args, Reporter& out, std::string& printed) {
    int status = exit_ok;
    // A file is read only when it is a regular one of one link: what is written in its
    // place is then all there was (no link or FIFO is written through, none waited on).
    std::optional<RegularFile> file;
    std::optional<std::string> read;
    if (path == "-") {
        read = out.read(path, args.common.limits, status, true);
    } else if (auto regular = read_regular_file(path, InputOptions{args.common.limits, true});
               regular.ok()) {
        file = std::move(regular).value();
        read = file->text;
    } else {
        status = std::max(status, out.report(regular.diagnostics(), {}, path));
    }
    if (!read)
        return status;
    const std::string name(input_name(path));
    const std::optional<DocumentKind> kind = document_kind(path, *read, args.kind);
    if (!kind)
        return out.usage(Code::usage_option_value, fmt::format("cannot tell what '{}' holds", name),
                         "name it *.sh, *.yaml, *.json or *.shape, or give --kind");
    const Dialect dialect = dialect_named(args.dialect).value_or(Dialect::rfc);
    std::string text = *read;
    // Fixes can reveal others (a second mistake read once the first is fixed): a few
    // rounds, each on the text the last one made.
    constexpr int rounds = 8;
    Diagnostics left;
    std::string said; // the edits, said once they are made
    for (int round = 0;; ++round) {
        left = check_document(*kind, text, {args.common.limits, dialect}).diagnostics();
        const auto edits = edits_of(left, text, *kind);
        if (edits.empty() || round == rounds)
            break;
        for (const auto& e : edits)
            said += fmt::format("{}:{}\n", visible_text(name), described(e, text));
        text = applied(text, edits);
    }
    if (text != *read) {
        if (args.dry_run) {
            printed += said + unified_diff(*read, text, name);
        } else if (path == "-") {
            printed += said + text;
        } else if (auto problem = replace_regular_file(path, *file, text)) {
            return std::max(status,
                            out.report(Code::io_unwritable,
                                       fmt::format("cannot write '{}': {}", name, *problem)));
        } else {
            printed += said;
        }
    }
    // What no fix is certain for, in the text as fixed.
    const int s = out.report(left, text, path);
    if (s != exit_ok && left.has_errors())
        printed +=
            fmt::format("{}: {} error{} without a certain fix{}\n", visible_text(name),
                        left.error_count(), left.error_count() == 1 ? "" : "s",
                        text != *read && !args.dry_run ? " (the fixes above are written)" : "");
    return std::max(status, s);
}

int run_fix(const FixArgs& args, Reporter& out) {
    int status = exit_ok;
    std::string printed;
    for (const auto& path : args.paths)
        status = std::max(status, fix_one(path, args, out, printed));
    if (!printed.empty())
        status = std::max(status, write_output(printed, out));
    return status;
}

} // namespace

Command add_fix_command(CLI::App& parent, Reporter& reporter) {
    auto args = std::make_shared<FixArgs>();
    CLI::App* app = parent.add_subcommand(
        "fix", "Apply the certain fixes to batch scripts, jobspecs and shape files");
    app->add_option("FILE", args->paths,
                    "Files to fix ('-' reads standard input and prints "
                    "the fixed text)")
        ->required();
    app->add_flag("--dry-run", args->dry_run, "Print a unified diff instead of writing");
    app->add_option("--kind", args->kind, "What the files hold, whatever their names say")
        ->check(CLI::IsMember({"batch", "jobspec", "shape"}));
    app->add_option("--dialect", args->dialect, "Check jobspecs by RFC 14 or Fluxion's rules")
        ->check(CLI::IsMember({"rfc", "fluxion"}))
        ->capture_default_str();
    add_common_options(*app, args->common, reporter);
    app->footer(
        R"(Checks each file as the editor integration does (batch scripts as 'jobspec compile
--batch' reads their #flux: directives; jobspecs as 'jobspec validate'; shapes as
'jobspec shape'), applies every fix that is certain (those shown under a caret), and
checks again, a few rounds. Prints each edit as FILE:LINE:COLUMN: CODE: what changed,
then reports what is left that no fix is certain for, in the text as fixed, and says
so. A file that cannot be read completely (unreadable, over --max-input-bytes) is
never written. 'jobspec --fix FILE' is the same command.

Only a regular file with one link is fixed: a symbolic link (give its target), a FIFO, a
device, a directory or a file with several hard links is refused, and so is a file its
permissions do not let you write (root too, for a file no one may write). The fixed text
goes into a new file made beside it (mkstemp), with the file's mode, owner and group,
which then takes its place; nothing is ever written through a name that already exists.

The kind of a file is --kind when given, else it comes from its name (*.sh and other
scripts, *.yaml, *.yml, *.json, *.shape), else from its text (#! or #flux: lines: a
batch script; '{', '---', 'version:' or 'resources:' first: a jobspec).

Examples:
  jobspec --fix job.sh
  jobspec fix --dry-run job.yaml resources.shape

Exit status: 0 every file is valid now (warnings may be left), 1 errors are left, 2
misuse or a file that cannot be read or written.)");
    return Command{app, [args, &reporter] { return run_fix(*args, reporter); }};
}

} // namespace jobspec::cli
