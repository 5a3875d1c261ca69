#include "lower/document_fixes.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include <boost/json/serialize.hpp>
#include <boost/json/string.hpp>

namespace jobspec::lower {

namespace {

using syntax::DocMember;
using syntax::DocNode;

/// The slot mappings under `list` (a resources list), depth first.
void slots_in(const DocNode& list, std::vector<const DocNode*>& out) {
    if (!list.is_sequence())
        return;
    for (const auto& v : list.elements()) {
        if (!v.is_mapping())
            continue;
        const DocMember* type = v.find("type");
        if (type != nullptr && type->value.is_string() && type->value.text() == "slot")
            out.push_back(&v);
        if (const DocMember* with = v.find("with"))
            slots_in(with->value, out);
    }
}

/// Whether the member at `key` is written in block style: only blanks and "- " between
/// the start of its line and the key.
bool block_style(std::string_view text, std::size_t key) {
    const std::size_t line = text.rfind('\n', key == 0 ? 0 : key - 1);
    const std::size_t start = line == std::string_view::npos ? 0 : line + 1;
    return text.substr(start, key - start).find_first_not_of(" -") == std::string_view::npos;
}

/// The label `name` written into `slot` before its first member.
std::optional<FixIt> label_fix(const DocNode& slot, std::string_view text, std::string_view name) {
    if (slot.members().empty())
        return std::nullopt;
    const SourceRange key = slot.members().front().key_range;
    if (!key.known() || key.begin > text.size())
        return std::nullopt;
    const std::string quoted = boost::json::serialize(boost::json::string(name));
    if (!block_style(text, key.begin))
        return FixIt{{key.begin, key.begin}, "\"label\": " + quoted + ", "};
    const std::size_t line = text.rfind('\n', key.begin == 0 ? 0 : key.begin - 1);
    const std::size_t start = line == std::string_view::npos ? 0 : line + 1;
    const std::string indent(key.begin - start, ' ');
    return FixIt{{key.begin, key.begin}, "label: " + quoted + "\n" + indent};
}

/// The edit that removes member `i` of `mapping`, with what separates it from the next
/// member (or, for the last, from the one before).
std::optional<FixIt> removal(const DocNode& mapping, std::size_t i) {
    const auto& members = mapping.members();
    const SourceRange key = members[i].key_range;
    const SourceRange value = members[i].value.range;
    if (!key.known() || !value.known())
        return std::nullopt;
    if (i + 1 < members.size() && members[i + 1].key_range.known())
        return FixIt{{key.begin, members[i + 1].key_range.begin}, ""};
    if (i > 0 && members[i - 1].value.range.known())
        return FixIt{{members[i - 1].value.range.end, value.end}, ""};
    return std::nullopt;
}

const DocNode* member_value(const DocNode& n, std::string_view key) {
    const DocMember* m = n.is_mapping() ? n.find(key) : nullptr;
    return m != nullptr ? &m->value : nullptr;
}

/// For a count holding just per_slot: 1 and total, one of whose keys is at `key`: the
/// edit that removes per_slot.
std::optional<FixIt> per_slot_removal(const DocNode* tasks, SourceRange key) {
    if (tasks == nullptr || !tasks->is_sequence())
        return std::nullopt;
    for (const auto& task : tasks->elements()) {
        const DocNode* count = member_value(task, "count");
        if (count == nullptr || !count->is_mapping() || count->members().size() != 2)
            continue;
        const auto& members = count->members();
        if (members[0].key_range != key && members[1].key_range != key)
            continue;
        const std::size_t i = members[0].key == "per_slot" ? 0 : 1;
        const DocNode& one = members[i].value;
        const bool default_one =
            (one.kind() == DocNode::Kind::integer && one.integer() == 1) ||
            (one.kind() == DocNode::Kind::uinteger && one.uinteger() == 1);
        if (members[i].key == "per_slot" && members[1 - i].key == "total" && default_one)
            return removal(*count, i);
        return std::nullopt;
    }
    return std::nullopt;
}

} // namespace

Diagnostics with_document_fixes(Diagnostics found, const DocNode& root, std::string_view text,
                                std::size_t cap) {
    const bool fixable = std::any_of(found.begin(), found.end(), [](const Diagnostic& d) {
        return d.code == Code::jobspec_unknown_slot || d.code == Code::jobspec_slot_label_missing ||
               d.code == Code::jobspec_task_count;
    });
    if (!fixable)
        return found;
    const DocNode* tasks = member_value(root, "tasks");
    const DocNode* resources = member_value(root, "resources");
    // One task naming a label, and one slot without one.
    std::optional<FixIt> label;
    if (tasks != nullptr && tasks->is_sequence() && tasks->elements().size() == 1 &&
        resources != nullptr) {
        std::vector<const DocNode*> slots;
        slots_in(*resources, slots);
        const DocNode* name = member_value(tasks->elements().front(), "slot");
        if (slots.size() == 1 && slots.front()->find("label") == nullptr && name != nullptr &&
            name->is_string() && !name->text().empty())
            label = label_fix(*slots.front(), text, name->text());
    }
    Diagnostics out(cap);
    for (Diagnostic d : found) {
        if (label && (d.code == Code::jobspec_unknown_slot ||
                      d.code == Code::jobspec_slot_label_missing))
            d.fixes = {*label};
        if (d.code == Code::jobspec_task_count && d.location.range.known())
            if (auto fix = per_slot_removal(tasks, d.location.range))
                d.fixes = {*fix};
        out.add(std::move(d));
    }
    return out;
}

} // namespace jobspec::lower
