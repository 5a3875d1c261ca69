#include "lower/expect_kind.hpp"

#include <fmt/format.h>

namespace jobspec::lower {

bool expect_kind(const syntax::DocNode& n, syntax::DocNode::Kind kind, std::string_view what,
                 const support::JsonPointer& at, Diagnostics& diagnostics) {
    using Kind = syntax::DocNode::Kind;
    if (n.kind() == kind || (kind == Kind::integer && n.kind() == Kind::uinteger) ||
        (kind == Kind::real && n.is_number()))
        return true;
    diagnostics.add(Code::jobspec_key_type,
                    fmt::format("{} must be {}, not {}", what, syntax::describe(kind),
                                syntax::describe(n.kind())),
                    Location{n.range, at.str()});
    return false;
}

} // namespace jobspec::lower
