// document_keys: a jobspec document's keys and where they are, for an editor.
#include <jobspec/document_check.hpp>

#include <string>

#include "syntax/document_tree.hpp"

namespace jobspec {

namespace {

using syntax::DocNode;

void collect(const DocNode& node, std::vector<DocumentKey>& out) {
    if (node.is_sequence()) {
        for (const auto& element : node.elements())
            collect(element, out);
        return;
    }
    if (!node.is_mapping())
        return;
    for (const auto& member : node.members()) {
        DocumentKey key{member.key, member.key_range, member.value.range, std::nullopt, false};
        const DocNode& v = member.value;
        switch (v.kind()) {
        case DocNode::Kind::null:
            key.null = true;
            break;
        case DocNode::Kind::string:
            key.value = v.text();
            break;
        case DocNode::Kind::integer:
            key.value = std::to_string(v.integer());
            break;
        case DocNode::Kind::uinteger:
            key.value = std::to_string(v.uinteger());
            break;
        default:
            break;
        }
        out.push_back(std::move(key));
        collect(v, out);
    }
}

} // namespace

std::vector<DocumentKey> document_keys(std::string_view text, const Limits& limits) {
    Diagnostics ignored(1);
    const auto tree = syntax::read_document(text, DocumentFormat::automatic, limits, ignored);
    std::vector<DocumentKey> out;
    if (tree)
        collect(*tree, out);
    return out;
}

} // namespace jobspec
