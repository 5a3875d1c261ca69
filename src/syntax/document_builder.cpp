#include "syntax/document_builder.hpp"

#include <fmt/format.h>

#include "support/json_pointer.hpp"

namespace jobspec::syntax {

namespace {

constexpr std::size_t index_threshold = 16;

} // namespace

bool DocBuilder::begin(DocNode::Kind kind, SourceRange range) {
    if (stack_.size() >= max_depth_) {
        diags_.add(Code::limit_depth,
                   fmt::format("nesting is deeper than the limit of {}", max_depth_),
                   Location{range, pointer()});
        return false;
    }
    Frame f;
    f.node = DocNode::make(kind, range);
    stack_.push_back(std::move(f));
    return true;
}

void DocBuilder::key(std::string key, SourceRange range) {
    Frame& f = stack_.back();
    f.key = std::move(key);
    f.key_range = range;
    f.has_key = true;
}

bool DocBuilder::expecting_key() const noexcept {
    return !stack_.empty() && stack_.back().node.is_mapping() && !stack_.back().has_key;
}

bool DocBuilder::duplicate(Frame& f) const {
    auto& members = f.node.members();
    if (members.size() < index_threshold) {
        for (const auto& m : members)
            if (m.key == f.key)
                return true;
        return false;
    }
    if (f.index.empty())
        for (const auto& m : members)
            f.index.insert(m.key);
    return !f.index.insert(f.key).second;
}

void DocBuilder::value(DocNode node) {
    if (stack_.empty()) {
        root_ = std::move(node);
        return;
    }
    Frame& f = stack_.back();
    if (f.node.is_sequence()) {
        f.node.elements().push_back(std::move(node));
        return;
    }
    if (duplicate(f)) {
        diags_.add(duplicate_key_, fmt::format("duplicate key '{}'", f.key),
                   Location{f.key_range, pointer()},
                   keep_last_ ? "the last value is the one kept"
                              : "the first value is the one kept");
        if (keep_last_)
            for (auto& m : f.node.members())
                if (m.key == f.key) {
                    m.key_range = f.key_range;
                    m.value = std::move(node);
                    break;
                }
    } else {
        f.node.members().push_back(DocMember{std::move(f.key), f.key_range, std::move(node)});
    }
    f.key.clear();
    f.has_key = false;
}

void DocBuilder::end() {
    DocNode done = std::move(stack_.back().node);
    stack_.pop_back();
    value(std::move(done));
}

std::string DocBuilder::pointer() const {
    support::JsonPointer p;
    for (const auto& f : stack_) {
        if (f.node.is_sequence())
            p.push(f.node.elements().size());
        else if (f.has_key)
            p.push(f.key);
    }
    return p.str();
}

} // namespace jobspec::syntax
