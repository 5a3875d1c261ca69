#include "graphviz.hpp"

#include <chrono>

#include "cli_support.hpp"
#include "file_output.hpp"
#include "graphviz_svg.hpp"

namespace jobspec::cli {

namespace {

/// How long dot may take, and how large its picture may be, for a file asked for on the
/// command line: far beyond any picture jobspec draws, but never without end.
constexpr std::chrono::minutes dot_time_limit{5};
constexpr std::size_t max_svg_bytes = std::size_t{256} << 20;

} // namespace

int write_svg(std::string_view dot_text, const std::string& path, Reporter& reporter) {
    const Picture picture = render_svg(dot_text, dot_time_limit, max_svg_bytes);
    if (!picture.ok())
        return reporter.usage(Code::io_unwritable, "cannot draw " + path + ": " + picture.error,
                              picture.error.find("not installed") != std::string::npos
                                  ? "or print the DOT text and render it elsewhere"
                                  : "");
    if (const auto problem = write_new_file(path, picture.svg))
        return reporter.usage(Code::io_unwritable, "cannot write " + path + ": " + *problem);
    return exit_ok;
}

} // namespace jobspec::cli
