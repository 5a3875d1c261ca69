// Sample shapes shared by the shape benchmarks.
#pragma once

#include <string>

namespace bench {

/// RFC 46's example: five vertices, braces, counts with ranges.
inline const std::string small_shape = "slot=4{nodelevel}/node{-x}/socket=2+/core=4+";

/// 50 vertices: a node holding 12 labelled slots of 3 resources each, and a switch.
inline std::string large_shape() {
    std::string s = "[node{-x}/[";
    for (int i = 0; i < 12; ++i) {
        if (i > 0)
            s += ';';
        s += "slot=2{s" + std::to_string(i) + "}/[core=2;gpu=1-4:2:*;memory=4+{unit:GB}]";
    }
    return s + "];switch=2]";
}

} // namespace bench
