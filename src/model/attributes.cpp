#include <jobspec/attributes.hpp>

#include <algorithm>
#include <array>
#include <type_traits>
#include <utility>

namespace jobspec {

double Number::to_double() const noexcept {
    return std::visit([](auto v) { return static_cast<double>(v); }, value);
}

const Attribute* AttributeList::find(std::string_view key) const noexcept {
    const auto it = std::find_if(entries.begin(), entries.end(),
                                 [&](const Attribute& a) { return a.key == key; });
    return it == entries.end() ? nullptr : &*it;
}

void AttributeList::set(std::string key, AttributeValue value) {
    const auto it = std::find_if(entries.begin(), entries.end(),
                                 [&](const Attribute& a) { return a.key == key; });
    if (it != entries.end())
        it->value = std::move(value);
    else
        entries.push_back({std::move(key), std::move(value), {}, {}});
}

std::optional<double> Attributes::duration() const noexcept {
    if (!system)
        return std::nullopt;
    if (const auto* n = system->get<Number>("duration"))
        return n->to_double();
    return std::nullopt;
}

const std::vector<Dependency>* Attributes::dependencies() const noexcept {
    return system ? system->get<std::vector<Dependency>>("dependencies") : nullptr;
}

const Constraint* Attributes::constraints() const noexcept {
    return system ? system->get<Constraint>("constraints") : nullptr;
}

const Environment* Attributes::environment() const noexcept {
    return system ? system->get<Environment>("environment") : nullptr;
}

AttributeList& Attributes::system_list() {
    if (!system)
        system.emplace();
    return *system;
}

namespace {

/// The index of T among AttributeValue's alternatives.
template <class T, std::size_t I = 0>
constexpr std::size_t alternative() {
    if constexpr (std::is_same_v<std::variant_alternative_t<I, AttributeValue>, T>)
        return I;
    else
        return alternative<T, I + 1>();
}

} // namespace

const std::vector<std::string_view>& system_attribute_names() {
    static const std::vector<std::string_view> names = {
        "duration", "environment",       "cwd",   "dependencies", "constraints", "job",
        "shell",    "files",             "queue", "bank",         "project",
        "preemptible-after"};
    return names;
}

std::size_t system_attribute_type(std::string_view key) noexcept {
    struct Typed {
        std::string_view key;
        std::size_t index;
    };
    static constexpr std::array<Typed, 9> typed = {{
        {"duration", alternative<Number>()},
        {"preemptible-after", alternative<Number>()},
        {"cwd", alternative<std::string>()},
        {"queue", alternative<std::string>()},
        {"bank", alternative<std::string>()},
        {"project", alternative<std::string>()},
        {"environment", alternative<Environment>()},
        {"dependencies", alternative<std::vector<Dependency>>()},
        {"constraints", alternative<Constraint>()},
    }};
    for (const auto& t : typed)
        if (t.key == key)
            return t.index;
    return 0;
}

} // namespace jobspec
