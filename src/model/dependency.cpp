#include <jobspec/dependency_model.hpp>

#include <algorithm>

namespace jobspec {

std::string_view DependencyOption::text() const noexcept {
    return value.is_string() ? std::string_view(value.get_string()) : std::string_view();
}

const DependencyOption* Dependency::option(std::string_view key) const noexcept {
    const auto it = std::find_if(options.begin(), options.end(),
                                 [&](const DependencyOption& o) { return o.key == key; });
    return it == options.end() ? nullptr : &*it;
}

DependencySet::AddResult DependencySet::add(std::string_view description) {
    const auto it = satisfied_.find(description);
    if (it == satisfied_.end()) {
        satisfied_.emplace(std::string(description), false);
        ++outstanding_;
        return AddResult::added;
    }
    return it->second ? AddResult::error : AddResult::duplicate;
}

DependencySet::RemoveResult DependencySet::remove(std::string_view description) {
    const auto it = satisfied_.find(description);
    if (it == satisfied_.end())
        return RemoveResult::unknown;
    if (it->second)
        return RemoveResult::duplicate;
    it->second = true;
    --outstanding_;
    return RemoveResult::removed;
}

} // namespace jobspec
