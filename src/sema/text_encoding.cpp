#include "sema/text_encoding.hpp"
#include <jobspec/text.hpp>

#include <fmt/format.h>

#include "support/json_pointer.hpp"
#include "support/utf8.hpp"

namespace jobspec::sema {

namespace {

using support::PointerScope;

class EncodingPass {
public:
    explicit EncodingPass(Diagnostics& diagnostics) : diagnostics_(diagnostics) {}

    void text(std::string_view s) {
        const std::size_t bad = find_invalid_utf8(s);
        if (bad == std::string_view::npos)
            return;
        diagnostics_.add(Code::jobspec_invalid_utf8,
                         fmt::format("'{}' is not valid UTF-8: byte 0x{:02x} at offset {}",
                                     pointer_.str(), static_cast<unsigned char>(s[bad]), bad),
                         Location{{}, pointer_.str()});
    }

    void value(const boost::json::value& v) {
        if (v.is_string()) {
            text(v.get_string());
        } else if (v.is_array()) {
            const auto& a = v.get_array();
            for (std::size_t i = 0; i < a.size(); ++i) {
                const PointerScope at(pointer_, i);
                value(a[i]);
            }
        } else if (v.is_object()) {
            for (const auto& member : v.get_object()) {
                text(member.key());
                const PointerScope at(pointer_, member.key());
                value(member.value());
            }
        }
    }

    void resources(const ResourceList& list) {
        for (std::size_t i = 0; i < list.size(); ++i) {
            const PointerScope at(pointer_, i);
            {
                const PointerScope type(pointer_, "type");
                text(list[i].type);
            }
            for (const auto& p : list[i].properties) {
                text(p.key);
                const PointerScope key(pointer_, p.key);
                value(p.value);
            }
            const PointerScope with(pointer_, "with");
            resources(list[i].with);
        }
    }

    void tasks(const std::vector<Task>& tasks) {
        for (std::size_t i = 0; i < tasks.size(); ++i) {
            const PointerScope at(pointer_, i);
            for (std::size_t j = 0; j < tasks[i].command.size(); ++j) {
                const PointerScope arg(pointer_, "command", j);
                text(tasks[i].command[j]);
            }
            if (tasks[i].slot) {
                const PointerScope slot(pointer_, "slot");
                text(*tasks[i].slot);
            }
            if (tasks[i].attributes) {
                const PointerScope attributes(pointer_, "attributes");
                value(*tasks[i].attributes);
            }
        }
    }

    support::JsonPointer& pointer() noexcept { return pointer_; }

private:
    Diagnostics& diagnostics_;
    support::JsonPointer pointer_;
};

} // namespace

void check_text_encoding(const Jobspec& jobspec, Diagnostics& diagnostics) {
    EncodingPass pass(diagnostics);
    {
        const PointerScope at(pass.pointer(), "resources");
        pass.resources(jobspec.resources);
    }
    {
        const PointerScope at(pass.pointer(), "tasks");
        pass.tasks(jobspec.tasks);
    }
    const PointerScope at(pass.pointer(), "attributes");
    pass.value(jobspec.attributes);
}

} // namespace jobspec::sema
