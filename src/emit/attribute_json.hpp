// Attributes and tasks as RFC 14 writes them: shared by the jobspec writers (RFC 14's
// order, and flux's submission order).
#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <jobspec/emit.hpp>

namespace jobspec::emit {

/// An attribute's value as RFC 14 writes it (numbers as written, environments as
/// dictionaries, dependencies and constraints as their objects).
boost::json::value attribute_value(const AttributeValue& value);

/// A dictionary of attributes, in its order.
boost::json::object attribute_list_value(const AttributeList& list);

/// A task: command, slot, count, distribution, attributes.
boost::json::value task_value(const Task& task);

} // namespace jobspec::emit
