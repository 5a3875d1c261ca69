// libFuzzer target: the grammar debugger on all three grammars with every view. The first
// byte chooses the grammar and the options; the rest is the text.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "emit/debug_text.hpp"
#include "syntax/grammar_debug.hpp"

#include "fuzz_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0)
        return 0;
    using jobspec::syntax::Grammar;
    const Grammar grammars[] = {Grammar::shape, Grammar::dependency, Grammar::constraint};
    jobspec::syntax::DebugOptions options;
    options.trace = (data[0] & 4) != 0;
    options.diagnostic_mode = (data[0] & 8) != 0;
    options.sll = (data[0] & 16) != 0;
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    const auto parse = jobspec::syntax::debug_parse(grammars[data[0] % 3], text, options);
    fuzz::terminal(jobspec::emit::tokens_text(parse.tokens));
    if (parse.tree) {
        fuzz::terminal(jobspec::emit::tree_text(*parse.tree, true));
        fuzz::utf8(jobspec::emit::tree_dot(*parse.tree));
    }
    fuzz::terminal(jobspec::emit::ast_text(parse.ast, true));
    fuzz::terminal(jobspec::emit::diagnostics_text(parse.diagnostics));
    return 0;
}
