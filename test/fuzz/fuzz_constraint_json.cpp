// libFuzzer target: RFC 31 constraint JSON, matched against a small R.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <jobspec/constraint.hpp>
#include <jobspec/emit.hpp>
#include <jobspec/render.hpp>

#include "fuzz_checks.hpp"
#include "model/decoders.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const jobspec::ResourceSet r = [] {
        jobspec::ResourceSet set;
        set.add(jobspec::IdSet::range(0, 15), jobspec::IdSet::range(0, 3), {});
        set.set_nodelist(*jobspec::model::decode_hostlist("foo[0-15]"));
        set.set_property("ssd", jobspec::IdSet::range(0, 7));
        return set;
    }();
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto c = jobspec::read_constraint(text);
    fuzz::terminal(jobspec::render_text(c.diagnostics(), text));
    fuzz::json(jobspec::render_json(c.diagnostics(), text));
    if (!c.ok())
        return 0;
    fuzz::json(jobspec::to_json_text(jobspec::to_json_value(c.value())));
    (void)c.value().match(r);
    return 0;
}
