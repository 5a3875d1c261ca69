// A program built against the installed library through jobspec.pc (C++ API).
#include <cstdio>

#include <jobspec/jobspec.hpp>

int main() {
    const auto shape = jobspec::compile_shape("slot=2/core=4");
    const auto bad = jobspec::compile_shape("slot=3-1/core");
    if (!shape || bad || bad.diagnostics()[0].code_name() != "shape.range-order")
        return 1;
    std::printf("%s %s", jobspec::library_version(),
                jobspec::to_json_text(jobspec::to_json_value(shape.value())).c_str());
    return 0;
}
