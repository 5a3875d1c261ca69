// libFuzzer target: RFC 36 directives of a batch script, each directive's words read as
// flux batch options, and the jobspec compiled from them.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <jobspec/emit.hpp>
#include <jobspec/render.hpp>
#include <jobspec/submit.hpp>

#include "fuzz_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto directives = jobspec::parse_directives(text);
    fuzz::terminal(jobspec::render_text(directives.diagnostics(), text));
    fuzz::json(jobspec::render_json(directives.diagnostics(), text));
    if (!directives.ok())
        return 0;
    jobspec::SubmitOptions options;
    options.command = jobspec::SubmitCommand::batch;
    for (const auto& d : directives.value()) {
        auto next = jobspec::parse_submit_arguments(d.arguments, options);
        if (!next.ok())
            return 0;
        options = std::move(next).value();
    }
    options.script = std::string(text);
    options.resources_json.reset();
    options.add_files.clear();
    options.conf.clear();
    jobspec::SubmitContext context;
    context.cwd = "/";
    auto js = jobspec::compile_submission(options, context);
    if (js.ok())
        fuzz::json(jobspec::to_flux_json_text(js.value()));
    fuzz::terminal(jobspec::render_text(js.diagnostics(), {}));
    return 0;
}
