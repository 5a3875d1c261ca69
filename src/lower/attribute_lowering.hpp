// Attribute values, document tree -> typed model: the one place RFC 14's attribute types
// are read and checked, for documents, for attributes set on a command line, and for
// jobspecs built in code.
#pragma once

#include <optional>
#include <string_view>

#include <jobspec/attributes.hpp>
#include <jobspec/diagnostic.hpp>
#include <jobspec/jobspec_model.hpp>

#include "support/json_pointer.hpp"
#include "syntax/document_tree.hpp"

namespace jobspec::lower {

/// Which dictionary an attribute is in: the rules differ.
enum class AttributeScope : std::uint8_t {
    system, ///< attributes.system: RFC 14's keys have their types
    task,   ///< a task's attributes: environment is an Environment, others are strings
};

/// The value of attribute `key` in `scope` read from `n`, in its type (see
/// AttributeValue), with its structure checked: for system attributes the RFC 14 types
/// (numbers, strings, environment dictionaries of strings or null, RFC 26 dependency
/// objects with string scheme and value, RFC 31 constraints, job fields that are strings,
/// shell options that are a dictionary, files a dictionary); for task attributes an
/// environment, or a string. Reports jobspec.key-type, jobspec.dependency and constraint.*
/// at `pointer` (the attribute's own) with the ranges `n` has, and returns nothing after
/// an error. Keys RFC 14 does not define come back as JSON, unchecked. The dialect is
/// the constraints' (lower_constraint).
std::optional<AttributeValue> lower_attribute(std::string_view key, const syntax::DocNode& n,
                                              AttributeScope scope, support::JsonPointer& pointer,
                                              Diagnostics& diagnostics,
                                              Dialect dialect = Dialect::rfc);

/// A whole dictionary of attributes, in the order written; an entry whose value has an
/// error is kept as the JSON written (see AttributeList).
AttributeList lower_attribute_list(const syntax::DocNode& n, AttributeScope scope,
                                   support::JsonPointer& pointer, Diagnostics& diagnostics,
                                   Dialect dialect = Dialect::rfc);

/// The checks lower_attribute makes, run over a jobspec built in code: each attribute
/// holding JSON (job, shell, files, task attributes, or a typed one set as JSON) is
/// checked as if it had been read, and one holding a typed value that is not its key's
/// type (a string for duration) is jobspec.key-type. Without source ranges.
void check_attribute_structure(const Jobspec& jobspec, Diagnostics& diagnostics);

} // namespace jobspec::lower
