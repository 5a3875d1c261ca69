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

    void attribute(const boost::json::value& v) { value(v); }
    void attribute(const Number&) {}
    void attribute(const std::string& s) { text(s); }
    void attribute(const Environment& env) {
        for (const auto& var : env) {
            text(var.name);
            const PointerScope name(pointer_, var.name);
            if (var.value)
                text(*var.value);
        }
    }
    void attribute(const std::vector<Dependency>& dependencies) {
        for (std::size_t i = 0; i < dependencies.size(); ++i) {
            const PointerScope at(pointer_, i);
            const Dependency& d = dependencies[i];
            {
                const PointerScope scheme(pointer_, "scheme");
                text(d.scheme);
            }
            {
                const PointerScope value_at(pointer_, "value");
                text(d.value);
            }
            for (const auto& o : d.options) {
                text(o.key);
                const PointerScope key(pointer_, o.key);
                value(o.value);
            }
        }
    }
    void attribute(const Constraint& c) {
        text(c.op().name());
        const PointerScope op(pointer_, c.op().name());
        if (c.logical()) {
            for (std::size_t i = 0; i < c.children().size(); ++i) {
                const PointerScope at(pointer_, i);
                attribute(c.children()[i]);
            }
            return;
        }
        for (std::size_t i = 0; i < c.values().size(); ++i) {
            const PointerScope at(pointer_, i);
            text(c.values()[i]);
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
                attribute_list(*tasks[i].attributes);
            }
        }
    }

    void attribute_list(const AttributeList& list) {
        for (const auto& a : list.entries) {
            text(a.key);
            const PointerScope key(pointer_, a.key);
            std::visit([&](const auto& v) { attribute(v); }, a.value);
        }
    }

    void attributes(const Attributes& a) {
        if (a.system) {
            const PointerScope system(pointer_, "system");
            attribute_list(*a.system);
        }
        if (a.user) {
            const PointerScope user(pointer_, "user");
            value(*a.user);
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
    pass.attributes(jobspec.attributes);
}

} // namespace jobspec::sema
