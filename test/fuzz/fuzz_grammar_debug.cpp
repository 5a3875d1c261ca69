// libFuzzer target: the grammar debugger on all three grammars with every view. The first
// byte chooses the grammar and the options; the rest is the text.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <jobspec/grammar_view.hpp>

#include "syntax/ast_printer.hpp"
#include "syntax/grammar_debug.hpp"

#include "fuzz_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0)
        return 0;
    using jobspec::Grammar;
    const Grammar grammars[] = {Grammar::shape, Grammar::dependency, Grammar::constraint,
                                Grammar::directives};
    jobspec::InspectOptions options;
    options.trace = (data[0] & 4) != 0;
    options.ambiguities = (data[0] & 8) != 0;
    options.sll = (data[0] & 16) != 0;
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    const auto parse = jobspec::syntax::debug_parse(grammars[data[0] % 4], text, options);
    fuzz::terminal(jobspec::tokens_text(parse.tokens));
    if (parse.tree) {
        fuzz::terminal(jobspec::tree_text(*parse.tree, true));
        fuzz::utf8(jobspec::tree_dot(*parse.tree));
    }
    fuzz::terminal(jobspec::syntax::ast_text(parse.ast, true));
    fuzz::terminal(jobspec::diagnostics_text(parse.diagnostics));
    return 0;
}
