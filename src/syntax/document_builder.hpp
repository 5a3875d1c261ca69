// Building a document tree from a reader's events: nesting, keys, duplicates, depth.
#pragma once

#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "syntax/document_tree.hpp"

namespace jobspec::syntax {

/// Assembles a DocNode from begin/key/value/end calls in document order. Reports
/// limit.depth past the depth limit and `duplicate_key` (jobspec.duplicate-key unless
/// the reader says otherwise) for a repeated key: the first value is kept, or with
/// `keep_last` the last (as JSON readers that allow repeats do); both readers use it so
/// they agree on these rules.
class DocBuilder {
public:
    DocBuilder(const Limits& limits, Diagnostics& diagnostics,
               Code duplicate_key = Code::jobspec_duplicate_key, bool keep_last = false)
        : max_depth_(limits.effective_depth()), diags_(diagnostics), duplicate_key_(duplicate_key),
          keep_last_(keep_last) {}

    /// Opens a sequence or mapping; false (with limit.depth reported) past the limit.
    bool begin(DocNode::Kind kind, SourceRange range);
    /// Sets the key of the next value in the open mapping.
    void key(std::string key, SourceRange range);
    /// Adds a finished node (a scalar, or a copy made for a YAML alias).
    void value(DocNode node);
    /// Closes the innermost open sequence or mapping.
    void end();

    /// Whether a mapping is open and waiting for a key.
    bool expecting_key() const noexcept;
    std::size_t depth() const noexcept { return stack_.size(); }
    /// The root once everything is closed.
    std::optional<DocNode> finish() { return std::move(root_); }
    /// The JSON pointer of the value about to be added.
    std::string pointer() const;
    /// The node being built at that depth (0 is the outermost), for YAML anchors.
    const DocNode& open_node(std::size_t depth) const noexcept { return stack_[depth].node; }

private:
    struct Frame {
        DocNode node;
        std::string key;
        SourceRange key_range;
        bool has_key = false;
        /// Keys seen, kept only once a mapping is large, so duplicate checks stay linear.
        std::unordered_set<std::string> index;
    };
    bool duplicate(Frame& frame) const;

    std::size_t max_depth_;
    Diagnostics& diags_;
    Code duplicate_key_;
    bool keep_last_;
    std::vector<Frame> stack_;
    std::optional<DocNode> root_;
};

} // namespace jobspec::syntax
