// shape_of: a resource list written back as the RFC 46 shape that compiles to it.
#include <jobspec/write_back.hpp>

#include <cstdint>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "emit/written_words.hpp"
#include "support/chars.hpp"
#include "support/json_pointer.hpp"
#include "support/json_string.hpp"
#include "support/json_text.hpp"

namespace jobspec {

namespace {

std::size_t count_slots(const ResourceList& list) {
    std::size_t n = 0;
    for (const auto& v : list)
        n += (v.is_slot() ? 1 : 0) + count_slots(v.with);
    return n;
}

/// Whether `type` must be quoted to stay itself: an unquoted "Slot" or "SLOT" is read as
/// the slot (flux-core's reading), and a quoted one is the type as written.
bool slot_lookalike(std::string_view type) {
    return type != "slot" && support::equals_ignoring_case(type, "slot");
}

class ShapeWriter {
public:
    ShapeWriter(std::string_view default_label, bool one_slot, std::string_view pointer)
        : default_label_(default_label), one_slot_(one_slot), pointer_(pointer) {}

    void list(const ResourceList& vertices, SourceRange where) {
        if (vertices.empty()) {
            unwritable("a shape has no empty list of vertices", where);
            return;
        }
        const bool bracketed = vertices.size() > 1;
        if (bracketed)
            out_.text += '[';
        for (std::size_t i = 0; i < vertices.size(); ++i) {
            if (i)
                out_.text += ';';
            support::PointerScope at(pointer_, i);
            vertex(vertices[i]);
        }
        if (bracketed)
            out_.text += ']';
    }

    Result<WrittenText> finish() && {
        if (diagnostics_.has_errors())
            return Result<WrittenText>(std::move(diagnostics_));
        return {std::move(out_), std::move(diagnostics_)};
    }

private:
    void vertex(const ResourceVertex& v) {
        const std::size_t start = out_.text.size();
        if (slot_lookalike(v.type))
            support::append_json_quoted(out_.text, v.type);
        else
            emit::append_name(out_.text, v.type);
        count(v.count);
        braces(v);
        if (v.has_with || !v.with.empty()) {
            out_.text += '/';
            support::PointerScope at(pointer_, "with");
            list(v.with, v.range);
        } else if (v.is_slot()) {
            unwritable("a slot holds what follows its '/'; this one holds nothing", v.range);
        }
        out_.spans.push_back({pointer_.str(), start, out_.text.size() - start});
    }

    void count(const Count& c) {
        if (c.is_fixed()) {
            if (c.fixed() != 1)
                out_.text += fmt::format("={}", c.fixed());
        } else if (c.is_range()) {
            const CountRange& r = c.range();
            out_.text += '=' + r.format();
            // "2+" and "2+:1" compile to different ranges: the second shows its step.
            if (r.explicit_step && !r.max && r.op == RangeOperator::add && r.operand == 1)
                out_.text += ":1";
        } else {
            // An idset of one interval reads as a range ("1-3"): its first id apart keeps
            // it a set ("1,2-3"), as a one-id set is the fixed count it equals.
            const IdSet& s = c.idset();
            std::string text = s.format();
            if (text.find(',') == std::string::npos && s.count() > 1) {
                const std::uint64_t second = s.first() + 1;
                text = second == s.last() ? fmt::format("{},{}", s.first(), second)
                                          : fmt::format("{},{}-{}", s.first(), second, s.last());
            }
            out_.text += '=' + text;
        }
    }

    void braces(const ResourceVertex& v) {
        std::string items;
        const auto label = v.find("label");
        if (v.is_slot()) {
            if (!label || !label->value.is_string()) {
                unwritable("a slot's label is a string in a shape",
                           label ? label->value_range : v.range);
                return;
            }
            const std::string_view text = label->value.get_string();
            if (!one_slot_ || text != default_label_ || v.properties.size() > 1)
                emit::append_name(items, text);
        }
        for (const auto& p : v.properties) {
            if (v.is_slot() && &p == label)
                continue;
            if (!items.empty())
                items += ',';
            if (p.key == "exclusive" && p.value.is_bool()) {
                items += p.value.get_bool() ? "x" : "-x";
            } else if (p.value.is_bool() && p.key != "x") {
                items += p.value.get_bool() ? "" : "-";
                emit::append_name(items, p.key);
            } else {
                // A key "x" is quoted, or it would be read as exclusive.
                if (p.key == "x")
                    support::append_json_quoted(items, p.key);
                else
                    emit::append_name(items, p.key);
                items += ':';
                support::PointerScope at(pointer_, p.key);
                value(items, p.value, p.value_range);
            }
        }
        if (!items.empty())
            out_.text += '{' + items + '}';
    }

    /// A key's value: words for what reads back as itself, JSON strings otherwise, and
    /// objects in the braces' own syntax.
    void value(std::string& into, const boost::json::value& v, SourceRange where) {
        switch (v.kind()) {
        case boost::json::kind::string:
            emit::append_value_word(into, v.get_string());
            return;
        case boost::json::kind::uint64:
            if (v.get_uint64() > static_cast<std::uint64_t>(INT64_MAX)) {
                unwritable(fmt::format("a shape's numbers are 64-bit integers; {} "
                                       "is beyond them",
                                       v.get_uint64()),
                           where);
                return;
            }
            into += std::to_string(v.get_uint64());
            return;
        case boost::json::kind::array: {
            into += '[';
            const auto& a = v.get_array();
            for (std::size_t i = 0; i < a.size(); ++i) {
                if (i)
                    into += ',';
                support::PointerScope at(pointer_, i);
                value(into, a[i], where);
            }
            into += ']';
            return;
        }
        case boost::json::kind::object: {
            into += '{';
            bool first = true;
            for (const auto& [key, member] : v.get_object()) {
                if (!first)
                    into += ',';
                first = false;
                emit::append_name(into, key);
                into += ':';
                support::PointerScope at(pointer_, std::string_view(key));
                value(into, member, where);
            }
            into += '}';
            return;
        }
        default: // null, booleans and numbers: their JSON words read back as themselves
            support::append_json_text(into, v);
        }
    }

    void unwritable(std::string message, SourceRange where) {
        diagnostics_.add(Code::shape_unwritable, std::move(message),
                         Location{where, pointer_.str()});
    }

    std::string_view default_label_;
    bool one_slot_;
    support::JsonPointer pointer_;
    WrittenText out_;
    Diagnostics diagnostics_;
};

} // namespace

Result<WrittenText> shape_of(const ResourceList& resources, std::string_view default_label,
                             std::string_view pointer) {
    ShapeWriter writer(default_label, count_slots(resources) == 1, pointer);
    writer.list(resources, {});
    return std::move(writer).finish();
}

} // namespace jobspec
