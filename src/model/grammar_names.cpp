// The grammars' names, as the tools and the playground spell them.
#include <jobspec/grammar_view_model.hpp>

namespace jobspec {

std::string_view grammar_name(Grammar grammar) noexcept {
    switch (grammar) {
    case Grammar::shape:
        return "shape";
    case Grammar::dependency:
        return "dependency";
    case Grammar::directives:
        return "directives";
    case Grammar::constraint:
        break;
    }
    return "constraint";
}

} // namespace jobspec
