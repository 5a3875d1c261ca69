// Reentrancy: the same 10,000 inputs compiled on 8 threads at once (first, while ANTLR's
// shared DFA cache is still cold) must give exactly what one thread gives. Run it under
// -Db_sanitize=thread to have ThreadSanitizer watch the locks too.
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include <jobspec/jobspec.hpp>

namespace {

/// What one input compiles to: its JSON text, or its diagnostics' codes and positions.
std::string outcome(const jobspec::Diagnostics& diagnostics, const std::string& json) {
    std::string out = json;
    for (const auto& d : diagnostics)
        out += std::string(" ") + std::string(d.code_name()) + "@" +
               std::to_string(d.location.range.begin);
    return out;
}

template <class T>
std::string json_or_errors(const jobspec::Result<T>& r) {
    return outcome(r.diagnostics(), r.ok()
                                        ? jobspec::to_json_text(jobspec::to_json_value(r.value()))
                                        : std::string("error"));
}

std::string compile_one(const std::string& input) {
    const char kind = input[0];
    const std::string_view text = std::string_view(input).substr(1);
    switch (kind) {
    case 's':
        return json_or_errors(jobspec::compile_shape(text));
    case 'd':
        return json_or_errors(jobspec::parse_dependency(text));
    case 'c':
        return json_or_errors(jobspec::parse_constraint_query(text));
    case 'j':
        return json_or_errors(jobspec::read_jobspec(text));
    case 'i': {
        auto fluid = jobspec::parse_fluid(text);
        return outcome(fluid.diagnostics(),
                       fluid.ok()
                           ? jobspec::encode_fluid(fluid.value().id, jobspec::FluidEncoding::words)
                           : "error");
    }
    case 'h': {
        auto hosts = jobspec::Hostlist::parse(text);
        return hosts ? hosts.value().sorted().encode() : "error";
    }
    default:
        return "unknown kind";
    }
}

/// 10,000 inputs over every parser: valid ones of many shapes, and invalid ones.
std::vector<std::string> inputs() {
    std::vector<std::string> out;
    for (int i = 0; out.size() < 10000; ++i) {
        const std::string n = std::to_string(i % 97 + 1);
        switch (i % 12) {
        case 0:
            out.push_back("sslot=" + n + "{nodelevel}/node{-x}/socket=2+/core=" + n + "+");
            break;
        case 1:
            out.push_back("snode=" + n + "/[slot{a" + n + "}/[core=" + n + ";gpu=1-" + n +
                          "];memory=" + n + "{unit:GB}]");
            break;
        case 2:
            out.push_back("sslot=" + n + "/core{color:red,x}/[;]" + n);
            break;
        case 3:
            out.push_back("dafterok:" + std::to_string(i * 7919));
            break;
        case 4:
            out.push_back("dstring:x" + n + "?type=" + (i % 2 ? "out" : "sideways") +
                          "&scope=user");
            break;
        case 5:
            out.push_back("cssd" + n + " and not host:foo[1-" + n + "] or rank:" + n);
            break;
        case 6:
            out.push_back("c(a | b" + n + ") -x:\"y " + n + "\" and or");
            break;
        case 7:
            out.push_back("jversion: 1\nresources:\n  - type: slot\n    count: " + n +
                          "\n    label: task\n    with:\n      - type: core\n        count: " + n +
                          "\ntasks:\n  - command: [app]\n    slot: task\n    count: "
                          "{per_slot: 1}\nattributes: {system: {duration: " +
                          n + "}}\n");
            break;
        case 8:
            out.push_back(R"(j{"version": 1, "resources": [{"type": "node", "count": )" + n +
                          R"(}], "tasks": [], "attributes": {}})");
            break;
        case 9:
            out.push_back("i" + std::to_string(i) + "0000" + n);
            break;
        case 10:
            out.push_back("ifoo-bar-" + n);
            break;
        default:
            out.push_back("hnode[" + n + "-200],node" + n + ",rack" + n + "-[1-3]");
            break;
        }
    }
    return out;
}

} // namespace

int main() {
    const std::vector<std::string> all = inputs();
    constexpr unsigned threads = 8;
    std::vector<std::vector<std::string>> parallel(threads);
    {
        std::vector<std::thread> pool;
        for (unsigned t = 0; t < threads; ++t) {
            pool.emplace_back([&all, &out = parallel[t], t] {
                out.resize(all.size());
                // Each thread walks the inputs from a different start, so different
                // parsers and DFA states are being built at the same moment.
                for (std::size_t k = 0; k < all.size(); ++k) {
                    const std::size_t i = (k + t * all.size() / threads) % all.size();
                    out[i] = compile_one(all[i]);
                }
            });
        }
        for (auto& thread : pool)
            thread.join();
    }
    std::size_t mismatches = 0;
    std::size_t errors = 0;
    for (std::size_t i = 0; i < all.size(); ++i) {
        const std::string expected = compile_one(all[i]);
        errors += expected.find(" ") != std::string::npos || expected.rfind("error", 0) == 0;
        for (unsigned t = 0; t < threads; ++t) {
            if (parallel[t][i] != expected && mismatches++ < 10)
                std::fprintf(stderr, "input %zu on thread %u: got %s, expected %s\n", i, t,
                             parallel[t][i].c_str(), expected.c_str());
        }
    }
    std::printf("%zu inputs x %u threads, %zu with diagnostics: %zu mismatches\n", all.size(),
                threads, errors, mismatches);
    // The inputs must exercise both paths, or the comparison proves little.
    if (errors < all.size() / 10 || errors > all.size() * 9 / 10) {
        std::fprintf(stderr, "expected a mix of valid and invalid inputs\n");
        return 1;
    }
    return mismatches == 0 ? 0 : 1;
}
