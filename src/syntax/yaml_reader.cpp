// YAML text -> document tree, from yaml-cpp's parser events (no YAML::Node graph).
#include <charconv>
#include <cmath>
#include <streambuf>
#include <unordered_map>

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

#include "support/input_limit.hpp"
#include "syntax/document_tree.hpp"
#include "syntax/document_builder.hpp"

namespace jobspec::syntax {

namespace {

/// A read-only stream buffer over the text, so yaml-cpp reads it without a copy.
class ViewBuffer : public std::streambuf {
public:
    explicit ViewBuffer(std::string_view text) {
        // std::streambuf wants char*; nothing writes through it.
        char* p = const_cast<char*>(text.data());
        setg(p, p, p + text.size());
    }
};

bool is_core_integer(std::string_view s) {
    std::size_t i = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
    if (i == s.size())
        return false;
    for (; i < s.size(); ++i)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

bool is_core_float(std::string_view s) {
    std::size_t i = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
    const auto digits = [&] {
        const std::size_t start = i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9')
            ++i;
        return i - start;
    };
    const std::size_t whole = digits();
    std::size_t fraction = 0;
    if (i < s.size() && s[i] == '.') {
        ++i;
        fraction = digits();
    }
    if (whole == 0 && fraction == 0)
        return false;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-'))
            ++i;
        if (digits() == 0)
            return false;
    }
    return i == s.size();
}

/// A scalar's value under the YAML 1.2 core schema: plain scalars may be booleans,
/// integers (decimal, 0o, 0x), floats or null; quoted ones are strings; the standard tags
/// (!!str, !!int, ...) force the type. Sets `overflow` for numbers no double holds and
/// `not_json` for .inf and .nan, which JSON cannot write (both then come back as strings).
DocNode resolve_scalar(const std::string& tag, const std::string& value, bool& overflow,
                       bool& not_json) {
    DocNode n;
    const bool plain = tag == "?";
    const std::string_view core = "tag:yaml.org,2002:";
    const std::string_view forced = std::string_view(tag).substr(0, core.size()) == core
                                        ? std::string_view(tag).substr(core.size())
                                        : std::string_view();
    const auto as_string = [&] { return DocNode::of(value); };
    if (!plain && forced.empty())
        return as_string();
    if (forced == "str")
        return as_string();
    if ((plain || forced == "bool") && (value == "true" || value == "True" || value == "TRUE" ||
                                        value == "false" || value == "False" || value == "FALSE")) {
        return DocNode::of(value[0] == 't' || value[0] == 'T');
    }
    if ((plain || forced == "null") &&
        (value == "null" || value == "Null" || value == "NULL" || value == "~" || value.empty()))
        return n;
    if (plain || forced == "int") {
        int base = 10;
        std::string_view digits = value;
        if (value.size() > 2 && value[0] == '0' && (value[1] == 'o' || value[1] == 'x')) {
            base = value[1] == 'o' ? 8 : 16;
            digits.remove_prefix(2);
        } else if (!is_core_integer(value)) {
            digits = {};
        }
        if (!digits.empty()) {
            const char* first = digits.data() + (digits[0] == '+' ? 1 : 0);
            const char* last = digits.data() + digits.size();
            std::int64_t i = 0;
            auto r = std::from_chars(first, last, i, base);
            if (r.ec == std::errc{} && r.ptr == last)
                return DocNode::of(i);
            std::uint64_t u = 0;
            r = std::from_chars(first, last, u, base);
            if (r.ec == std::errc{} && r.ptr == last)
                return DocNode::of(u);
            if (r.ec == std::errc::result_out_of_range) {
                overflow = true;
                return as_string();
            }
        }
    }
    if (plain || forced == "float") {
        const std::string_view v = value;
        const std::string_view unsigned_v = (v[0] == '-' || v[0] == '+') ? v.substr(1) : v;
        if (unsigned_v == ".inf" || unsigned_v == ".Inf" || unsigned_v == ".INF" || v == ".nan" ||
            v == ".NaN" || v == ".NAN") {
            not_json = true;
            return as_string();
        }
        if (is_core_float(v)) {
            const char* first = v.data() + (v[0] == '+' ? 1 : 0);
            double d = 0;
            const auto r = std::from_chars(first, v.data() + v.size(), d);
            if (r.ec == std::errc{})
                return DocNode::of(d);
            overflow = true;
        }
    }
    return as_string();
}

std::size_t count_nodes(const DocNode& n) {
    std::size_t total = 1;
    if (n.is_sequence())
        for (const auto& e : n.elements())
            total += count_nodes(e);
    if (n.is_mapping())
        for (const auto& m : n.members())
            total += count_nodes(m.value);
    return total;
}

/// Builds the document from parser events. Its own findings wait in `findings()`: a YAML
/// syntax error found later explains them better, so the reader keeps them only when the
/// text parses. After a finding that stops the build, events are ignored.
class YamlHandler final : public YAML::EventHandler {
public:
    YamlHandler(std::string_view text, const Limits& limits)
        : text_(text), max_alias_nodes_(limits.max_alias_nodes), findings_(limits.max_diagnostics),
          builder_(limits, findings_) {}

    DocBuilder& builder() { return builder_; }
    const Diagnostics& findings() const { return findings_; }

    void OnDocumentStart(const YAML::Mark&) override {}
    void OnDocumentEnd() override {}

    void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
        if (stopped_)
            return;
        if (builder_.expecting_key()) {
            builder_.key("null", at(mark, 1));
            return;
        }
        DocNode n;
        n.range = at(mark, 1);
        add(std::move(n), anchor);
    }

    void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                  const std::string& value) override {
        if (stopped_)
            return;
        const SourceRange range = scalar_range(mark, value);
        if (builder_.expecting_key()) {
            builder_.key(value, range);
            return;
        }
        bool overflow = false;
        bool not_json = false;
        DocNode n = resolve_scalar(tag, value, overflow, not_json);
        if (overflow)
            findings_.add(Code::limit_integer, fmt::format("number '{}' is out of range", value),
                          Location{range, builder_.pointer()}, "quote it to keep it as a string");
        if (not_json)
            findings_.add(
                Code::jobspec_yaml_not_json,
                fmt::format("'{}' has no JSON form, and jobspec must convert to JSON", value),
                Location{range, builder_.pointer()}, "quote it to keep it as a string");
        n.range = range;
        add(std::move(n), anchor);
    }

    void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
        if (stopped_)
            return;
        const SourceRange range = at(mark, 1);
        for (const auto& open : open_anchors_)
            if (open.first == anchor)
                return stop(Code::jobspec_yaml_alias, "alias refers to a node that contains it",
                            range);
        const auto it = anchors_.find(anchor);
        if (it == anchors_.end())
            return stop(Code::jobspec_yaml_alias, "alias refers to an unknown anchor", range);
        alias_nodes_ += count_nodes(it->second);
        if (alias_nodes_ > max_alias_nodes_)
            return stop(Code::limit_aliases,
                        fmt::format("aliases expand to more than {} nodes", max_alias_nodes_),
                        range);
        if (builder_.expecting_key()) {
            if (!it->second.is_string())
                return stop(Code::jobspec_yaml_syntax, "a mapping key must be a scalar", range);
            builder_.key(it->second.text(), range);
            return;
        }
        DocNode copy = it->second;
        copy.range = range;
        builder_.value(std::move(copy));
    }

    void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                         YAML::EmitterStyle::value) override {
        open(DocNode::Kind::sequence, mark, anchor);
    }
    void OnSequenceEnd() override {
        if (!stopped_)
            close();
    }
    void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                    YAML::EmitterStyle::value) override {
        open(DocNode::Kind::mapping, mark, anchor);
    }
    void OnMapEnd() override {
        if (!stopped_)
            close();
    }

private:
    void stop(Code code, std::string message, SourceRange range) {
        findings_.add(code, std::move(message), Location{range, builder_.pointer()});
        stopped_ = true;
    }

    SourceRange at(const YAML::Mark& mark, std::size_t length) const {
        if (mark.pos < 0 || static_cast<std::size_t>(mark.pos) > text_.size())
            return {};
        const auto begin = static_cast<std::uint32_t>(mark.pos);
        const auto end = static_cast<std::uint32_t>(
            std::min(text_.size(), static_cast<std::size_t>(begin) + length));
        return {begin, end};
    }

    /// A scalar's range: its plain text, or its quotes and what they hold, on one line.
    SourceRange scalar_range(const YAML::Mark& mark, const std::string& value) const {
        SourceRange r = at(mark, 1);
        if (!r.known() || r.begin >= text_.size())
            return r;
        const char q = text_[r.begin];
        if (q != '"' && q != '\'') {
            if (text_.substr(r.begin, value.size()) == value)
                r.end = r.begin + static_cast<std::uint32_t>(value.size());
            return r;
        }
        for (std::size_t i = r.begin + 1; i < text_.size() && text_[i] != '\n'; ++i) {
            if (q == '"' && text_[i] == '\\') {
                ++i;
            } else if (text_[i] == q) {
                if (q == '\'' && i + 1 < text_.size() && text_[i + 1] == '\'') {
                    ++i;
                    continue;
                }
                r.end = static_cast<std::uint32_t>(i + 1);
                break;
            }
        }
        return r;
    }

    void add(DocNode node, YAML::anchor_t anchor) {
        if (anchor != YAML::NullAnchor)
            anchors_[anchor] = node;
        builder_.value(std::move(node));
    }

    void open(DocNode::Kind kind, const YAML::Mark& mark, YAML::anchor_t anchor) {
        if (stopped_)
            return;
        const SourceRange range = at(mark, 1);
        if (builder_.expecting_key())
            return stop(Code::jobspec_yaml_syntax, "a mapping key must be a scalar", range);
        if (!builder_.begin(kind, range)) {
            stopped_ = true;
            return;
        }
        if (anchor != YAML::NullAnchor)
            open_anchors_.emplace_back(anchor, builder_.depth());
    }

    void close() {
        if (!open_anchors_.empty() && open_anchors_.back().second == builder_.depth()) {
            anchors_[open_anchors_.back().first] = builder_.open_node(builder_.depth() - 1);
            open_anchors_.pop_back();
        }
        builder_.end();
    }

    std::string_view text_;
    std::size_t max_alias_nodes_;
    Diagnostics findings_;
    DocBuilder builder_;
    bool stopped_ = false;
    std::unordered_map<YAML::anchor_t, DocNode> anchors_;
    /// Anchored collections still being read, with the builder depth they opened at.
    std::vector<std::pair<YAML::anchor_t, std::size_t>> open_anchors_;
    std::size_t alias_nodes_ = 0;
};

/// Counts the documents after the first, without building anything.
class DocumentCounter final : public YAML::EventHandler {
public:
    void OnDocumentStart(const YAML::Mark&) override {}
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
    void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
    void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  const std::string&) override {}
    void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                         YAML::EmitterStyle::value) override {}
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                    YAML::EmitterStyle::value) override {}
    void OnMapEnd() override {}
};

SourceRange mark_range(const YAML::Mark& mark, std::string_view text) {
    if (mark.pos < 0 || static_cast<std::size_t>(mark.pos) > text.size())
        return {};
    const auto at = static_cast<std::uint32_t>(mark.pos);
    return {at, at + (at < text.size() ? 1U : 0U)};
}

} // namespace

std::optional<DocNode> read_yaml(std::string_view text, const Limits& limits,
                                 Diagnostics& diagnostics) {
    if (!support::within_input_limit(text, limits, "document", diagnostics) ||
        !support::valid_utf8(text, Code::jobspec_invalid_utf8, "the document", diagnostics))
        return std::nullopt;
    const std::size_t errors_before = diagnostics.error_count();
    ViewBuffer buffer(text);
    std::istream in(&buffer);
    YamlHandler handler(text, limits);
    try {
        YAML::Parser parser(in);
        if (!parser.HandleNextDocument(handler)) {
            diagnostics.add(Code::jobspec_yaml_syntax, "the document is empty",
                            Location{SourceRange{0, 0}, {}});
            return std::nullopt;
        }
        DocumentCounter counter;
        if (parser.HandleNextDocument(counter))
            diagnostics.add(Code::jobspec_yaml_documents,
                            "a jobspec is one YAML document, but there are more", Location{},
                            "remove the '---' that starts the next document");
    } catch (const YAML::DeepRecursion& e) {
        diagnostics.add(Code::limit_depth, "nesting is too deep for the YAML parser",
                        Location{mark_range(e.mark, text), {}});
        return std::nullopt;
    } catch (const YAML::Exception& e) {
        diagnostics.add(Code::jobspec_yaml_syntax, fmt::format("invalid YAML: {}", e.msg),
                        Location{mark_range(e.mark, text), {}});
        return std::nullopt;
    } catch (const std::exception& e) {
        diagnostics.add(Code::jobspec_yaml_syntax, fmt::format("invalid YAML: {}", e.what()),
                        Location{SourceRange{0, 0}, {}});
        return std::nullopt;
    }
    diagnostics.append(handler.findings());
    if (diagnostics.error_count() > errors_before)
        return std::nullopt;
    return handler.builder().finish();
}

} // namespace jobspec::syntax
