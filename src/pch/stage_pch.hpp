// The headers most of the library's translation units include, compiled once per stage
// when precompiled headers are on (-Db_pch=true: CI's sanitizer and TSan trees, the wheel
// and the subproject test; at -O0 reading headers is most of the work). Off by default,
// so that build/ still finds a translation unit that forgot an include.

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <fmt/format.h>
