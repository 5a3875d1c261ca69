// Compiles a resource shape to its RFC 14 resource list with the C++ API.
//   compile-shape 'slot=4{nodelevel}/node{-x}/socket=2+/core=4+'
#include <cstdio>

#include <jobspec/jobspec.hpp>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s SHAPE\n", argv[0]);
        return 2;
    }
    jobspec::ShapeOptions options;
    options.default_label = "task";
    const auto result = jobspec::compile_shape(argv[1], options);
    // Errors, and warnings that come with a value, point at the shape with a caret.
    std::fputs(jobspec::render_text(result.diagnostics(), argv[1]).c_str(), stderr);
    if (!result)
        return 1;
    std::puts(jobspec::to_json_text(jobspec::to_json_value(result.value()), true).c_str());
    return 0;
}
