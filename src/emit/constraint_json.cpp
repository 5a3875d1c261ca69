// A constraint as its RFC 31 JSON object.
#include <jobspec/emit.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

namespace jobspec {

boost::json::value to_json_value(const Constraint& constraint) {
    boost::json::object o;
    if (constraint.op() == ConstraintOperator::Kind::and_of && constraint.children().empty())
        return o;
    boost::json::array values;
    if (constraint.logical())
        for (const auto& child : constraint.children())
            values.push_back(to_json_value(child));
    else
        for (const auto& v : constraint.values())
            values.emplace_back(v);
    o.emplace(constraint.op().name(), std::move(values));
    return o;
}

} // namespace jobspec
