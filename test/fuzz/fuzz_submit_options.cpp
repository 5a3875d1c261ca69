// libFuzzer target: a flux submission command line (one word per line, the first byte
// choosing run, submit, batch or alloc) read as flux reads it, and the jobspec compiled
// from it. A file a word names holds the text after the path's last '/'.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <jobspec/emit.hpp>
#include <jobspec/render.hpp>
#include <jobspec/submit.hpp>

#include "fuzz_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0)
        return 0;
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    std::vector<std::string> words;
    for (std::size_t start = 0; start <= text.size();) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        words.emplace_back(text.substr(start, end - start));
        start = end + 1;
    }
    jobspec::SubmitOptions start;
    start.command = static_cast<jobspec::SubmitCommand>(data[0] % 4);
    jobspec::SubmitContext context;
    context.cwd = "/";
    context.environment = {{"PATH", "/bin"}, {"HOME", "/"}};
    // Every file holds its own name after the last '/', so the input chooses the content.
    context.read_file = [](std::string_view path, std::size_t max_bytes) {
        jobspec::SubmitFile file;
        file.content = std::string(path.substr(path.rfind('/') + 1));
        file.mode = 0100644;
        file.too_large = file.content.size() > max_bytes;
        return file;
    };
    auto options = jobspec::read_submission(words, start, context, std::string_view("#!/bin/sh\n"));
    fuzz::terminal(jobspec::render_text(options.diagnostics(), {}));
    fuzz::json(jobspec::render_json(options.diagnostics(), {}));
    if (!options.ok())
        return 0;
    auto js = jobspec::compile_submission(options.value(), context);
    fuzz::terminal(jobspec::render_text(js.diagnostics(), {}));
    if (js.ok())
        fuzz::json(jobspec::to_flux_json_text(js.value()));
    return 0;
}
