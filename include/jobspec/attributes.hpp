// A jobspec's attributes (RFC 14): the system attributes RFC 14 defines, read once into
// their types with their source ranges; everything else as the JSON it was written as.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <jobspec/api.hpp>
#include <jobspec/constraint_model.hpp>
#include <jobspec/dependency_model.hpp>
#include <jobspec/diagnostic.hpp>

namespace jobspec {

/// A number as a document wrote it, so that it is written back the same way: an integer
/// (unsigned only above INT64_MAX) or a floating-point number.
struct JOBSPEC_API Number {
    std::variant<std::int64_t, std::uint64_t, double> value = std::int64_t{0};

    Number() = default;
    Number(std::int64_t v) : value(v) {}
    Number(std::uint64_t v) : value(v) {}
    Number(double v) : value(v) {}

    double to_double() const noexcept;
    friend bool operator==(const Number&, const Number&) = default;
};

/// One entry of an environment dictionary (attributes.system.environment, or a task's):
/// a value to set, or none (null in the document: unset the variable, RFC 14).
struct EnvironmentVariable {
    std::string name;
    std::optional<std::string> value;
    SourceRange name_range;
    SourceRange value_range;
};

using Environment = std::vector<EnvironmentVariable>;

/// The value of one attribute. RFC 14's system attributes have their types:
///   duration, preemptible-after   Number (seconds)
///   cwd, queue, bank, project     std::string
///   environment                   Environment
///   dependencies                  std::vector<Dependency> (RFC 26)
///   constraints                   Constraint (RFC 31)
/// and every other attribute (job, shell, files, keys RFC 14 does not define, all user
/// and task attributes but a task's environment) is the JSON value written.
using AttributeValue = std::variant<boost::json::value, Number, std::string, Environment,
                                    std::vector<Dependency>, Constraint>;

/// One attribute: its key, value, and where both are (unknown when not read from text).
struct Attribute {
    std::string key;
    AttributeValue value;
    SourceRange key_range;
    SourceRange value_range;
};

/// A dictionary of attributes in the order written (attributes.system, or a task's
/// attributes), and where the dictionary is. An attribute whose value a reader found
/// wrong is kept as the JSON written, so that its key is still known to be there.
struct JOBSPEC_API AttributeList {
    std::vector<Attribute> entries;
    SourceRange range;
    /// False when the reader found something that is not a dictionary where this one
    /// should be: the list is empty, and checks of what it holds would mislead.
    bool readable = true;

    /// The attribute with that key, or nullptr.
    const Attribute* find(std::string_view key) const noexcept;
    /// Sets `key` to `value`: replaces the value of an attribute with that key, or adds
    /// one at the end.
    void set(std::string key, AttributeValue value);
    bool empty() const noexcept { return entries.empty(); }

    /// The value of `key` when it has type T (see AttributeValue), else nullptr.
    template <class T>
    const T* get(std::string_view key) const noexcept {
        const Attribute* a = find(key);
        return a != nullptr ? std::get_if<T>(&a->value) : nullptr;
    }
};

/// A jobspec's `attributes` (RFC 14): `system` and `user`, each present or not.
struct JOBSPEC_API Attributes {
    std::optional<AttributeList> system;
    std::optional<boost::json::object> user;
    SourceRange range;
    /// Whether the document wrote `attributes: null`, which RFC 14 allows and flux-core's
    /// job manager cannot read.
    bool null = false;

    /// attributes.system.duration in seconds, or nothing when it is not set.
    std::optional<double> duration() const noexcept;
    /// attributes.system.dependencies, or nullptr.
    const std::vector<Dependency>* dependencies() const noexcept;
    /// attributes.system.constraints, or nullptr.
    const Constraint* constraints() const noexcept;
    /// attributes.system.environment, or nullptr.
    const Environment* environment() const noexcept;
    /// attributes.system, made when it is not there yet.
    AttributeList& system_list();
};

/// The type RFC 14 gives a system attribute's value: the index of its AttributeValue
/// alternative (0, JSON, for keys with no type of their own).
JOBSPEC_API std::size_t system_attribute_type(std::string_view key) noexcept;

/// The system attributes this library knows: RFC 14's (duration, environment, cwd,
/// dependencies, constraints, job, shell, files) and those flux sets (queue, bank,
/// project, preemptible-after).
JOBSPEC_API const std::vector<std::string_view>& system_attribute_names();

} // namespace jobspec
