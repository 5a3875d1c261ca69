// Writing models back in the languages people type: a resource list as its RFC 46
// shape, a constraint as its RFC 35 query.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <jobspec/api.hpp>
#include <jobspec/constraint_model.hpp>
#include <jobspec/resource_graph.hpp>
#include <jobspec/result.hpp>

namespace jobspec {

/// Where one part of a written text came from: the JSON pointer of a resource vertex
/// ("/resources/0/with/1") or of a constraint's term ("/and/0", "/properties/1"), below
/// the pointer of what was written, and the bytes of the text that say it.
struct TextSpan {
    std::string pointer;
    std::size_t offset = 0;
    std::size_t length = 0;
};

/// A text written from a model, and the span of each part of it.
struct WrittenText {
    std::string text;
    /// In the order they end in the text: a part after the parts inside it.
    std::vector<TextSpan> spans;
};

/// The RFC 46 shape that compiles back to `resources` (compile_shape with `default_label`
/// gives an equal list): "slot=4{nodelevel}/node{-x}/socket=2+/core=4+". The label of
/// the only slot is left out when it is `default_label`. Fails with shape.unwritable,
/// its pointer at the vertex, for what no shape says: an empty list (`with: []`), a slot
/// with no string label, a number beyond 64-bit integers. `pointer` is where `resources`
/// sits in its document ("/resources"): spans and diagnostics point below it.
JOBSPEC_API Result<WrittenText> shape_of(const ResourceList& resources,
                                         std::string_view default_label = "default",
                                         std::string_view pointer = "");

/// The RFC 35 query (flux's --requires) that compiles to a constraint matching the same
/// execution targets as `constraint`: "ssd and not host:foo[1-3]". For a constraint
/// compiled from a query, parse_constraint_query gives back an equal one. Fails with
/// query.unwritable, its pointer at the term, for what no query says: an operator other
/// than properties, hostlist, ranks, and, or and not; a term with no values; an `and`,
/// `or` or `not` with no constraints; a property the query splits (with a ','); an
/// operand with a control character other than whitespace. Operands are otherwise exact:
/// escape the text before it reaches a terminal (visible_text). `pointer`
/// is where `constraint` sits in its document ("/attributes/system/constraints").
JOBSPEC_API Result<WrittenText> query_of(const Constraint& constraint,
                                         std::string_view pointer = "");

} // namespace jobspec
