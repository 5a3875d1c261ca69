// RFC 49's TreePool scheduling key, as R's rank operations change it.
#pragma once

#include <functional>

#include <boost/json/value.hpp>

#include <jobspec/idset.hpp>

namespace jobspec::model {

/// Whether R's scheduling key is TreePool's (RFC 49: writer "TreePool").
bool is_treepool(const boost::json::value& scheduling);

/// A TreePool scheduling key with each children entry's ranks passed through `ranks`
/// (RFC 49: trimmed to an allocation's ranks, or renumbered for a sub-instance); entries
/// left with no rank are dropped, and the topology is carried unchanged. Any other
/// scheduling key is returned as it is (it is its writer's to change).
boost::json::value treepool_mapped(const boost::json::value& scheduling,
                                   const std::function<IdSet(const IdSet&)>& ranks);

} // namespace jobspec::model
