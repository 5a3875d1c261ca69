#include <jobspec/version.hpp>

namespace jobspec {

const char* library_version() noexcept {
    return version_string;
}

} // namespace jobspec
