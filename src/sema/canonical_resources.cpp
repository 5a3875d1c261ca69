#include "sema/canonical_resources.hpp"

#include <algorithm>
#include <array>
#include <map>

#include <fmt/format.h>

#include "support/json_kinds.hpp"
#include "support/json_pointer.hpp"

namespace jobspec::sema {

namespace {

using support::JsonPointer;
using support::PointerScope;

/// RFC 14's vertex keys besides type, count and with, and the JSON kind each must have.
struct KnownKey {
    std::string_view key;
    boost::json::kind kind;
};
constexpr std::array<KnownKey, 4> known_keys = {{
    {"label", boost::json::kind::string},
    {"unit", boost::json::kind::string},
    {"id", boost::json::kind::string},
    {"exclusive", boost::json::kind::bool_},
}};

class ResourceChecker {
public:
    ResourceChecker(std::string_view pointer, Diagnostics& diagnostics, Dialect dialect)
        : pointer_(pointer), diags_(diagnostics), dialect_(dialect),
          in_document_(!pointer.empty()) {}

    void list(const ResourceList& vertices) {
        for (std::size_t i = 0; i < vertices.size(); ++i) {
            PointerScope at(pointer_, i);
            vertex(vertices[i]);
        }
    }

private:
    void report(Code code, std::string message, SourceRange range, std::string help = {}) {
        diags_.add(code, std::move(message), Location{range, pointer_.str()}, std::move(help));
    }

    void vertex(const ResourceVertex& v) {
        for (const auto& p : v.properties)
            property(p);
        if (v.is_slot()) {
            if (v.find("label") == nullptr)
                report(Code::jobspec_slot_label_missing, "slot has no label", v.type_range,
                       "every slot needs a label when there is more than one: slot{NAME} in "
                       "a shape, 'label: NAME' in a jobspec");
            if (!v.has_with)
                report(Code::jobspec_slot_without_with, "slot contains no resources", v.type_range,
                       "a slot needs 'with' (in a shape: slot/core)");
        }
        if (const auto label = v.label(); label && dialect_ != Dialect::fluxion) {
            const auto [it, inserted] = labels_.emplace(std::string(*label), pointer_.str());
            if (!inserted) {
                const VertexProperty* p = v.find("label");
                PointerScope at(pointer_, "label");
                report(Code::jobspec_duplicate_label, fmt::format("duplicate label '{}'", *label),
                       p->value_range,
                       fmt::format("the label is also used at {}{}", it->second,
                                   in_document_ ? " (valid in the Fluxion dialect, where "
                                                  "sibling slots are alternatives)"
                                                : ""));
            }
        }
        if (v.has_with && v.with.empty()) {
            PointerScope at(pointer_, "with");
            report(Code::jobspec_empty_with, "'with' must list at least one vertex", v.range);
        }
        PointerScope at(pointer_, "with");
        list(v.with);
    }

    void property(const VertexProperty& p) {
        PointerScope at(pointer_, p.key);
        const auto known = std::find_if(known_keys.begin(), known_keys.end(),
                                        [&](const KnownKey& k) { return k.key == p.key; });
        if (known == known_keys.end()) {
            if (dialect_ == Dialect::fluxion) // the reader reported it (fluxion.key)
                return;
            report(Code::jobspec_unknown_vertex_key,
                   fmt::format("'{}' is not an RFC 14 vertex key; it is kept as written", p.key),
                   p.key_range);
            return;
        }
        if (p.value.kind() != known->kind)
            report(Code::jobspec_key_type,
                   fmt::format("'{}' must be {}, not {}", p.key, support::describe(known->kind),
                               support::describe(p.value.kind())),
                   p.value_range);
    }

    JsonPointer pointer_;
    Diagnostics& diags_;
    Dialect dialect_;
    /// Whether the vertices are a document's (a shape's have no dialect).
    bool in_document_;
    /// Each label seen, with the pointer of its first vertex.
    std::map<std::string, std::string, std::less<>> labels_;
};

} // namespace

void check_resources(const ResourceList& resources, std::string_view pointer,
                     Diagnostics& diagnostics, Dialect dialect) {
    ResourceChecker(pointer, diagnostics, dialect).list(resources);
}

} // namespace jobspec::sema
