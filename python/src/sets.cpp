// IdSet (RFC 22), Hostlist (RFC 29) and ResourceSet (RFC 20 R) as immutable Python values.
#include <cstdint>
#include <string>

#include <jobspec/emit.hpp>
#include <jobspec/hostlist.hpp>
#include <jobspec/idset.hpp>
#include <jobspec/limits.hpp>
#include <jobspec/resource_config.hpp>
#include <jobspec/resource_set.hpp>
#include <pybind11/operators.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "convert.hpp"
#include "diagnostics.hpp"
#include "gil.hpp"

namespace py = pybind11;

namespace jobspec::python {

namespace {

IdSet make_idset(py::handle ids) {
    if (PyUnicode_Check(ids.ptr())) {
        const auto text = ids.cast<std::string_view>();
        return take(IdSet::parse(text), text);
    }
    if (py::isinstance<IdSet>(ids))
        return ids.cast<IdSet>();
    IdSet set;
    for (auto id : ids) {
        // Python's own errors for what is not an id: TypeError, ValueError, OverflowError.
        if (!PyLong_Check(id.ptr()) || PyBool_Check(id.ptr()))
            throw py::type_error("an id is an int, not " +
                                 std::string(Py_TYPE(id.ptr())->tp_name));
        const auto v = py::reinterpret_borrow<py::int_>(id);
        if (v < py::int_(0))
            throw py::value_error("an id is a non-negative integer, not " +
                                  py::str(id).cast<std::string>());
        if (v > py::int_(Limits::max_integer)) {
            PyErr_SetString(PyExc_OverflowError,
                            ("ids are at most 2**63-1, not " + py::str(id).cast<std::string>())
                                .c_str());
            throw py::error_already_set();
        }
        set.insert(v.cast<std::uint64_t>());
    }
    return set;
}

Hostlist make_hostlist(py::handle hosts) {
    if (PyUnicode_Check(hosts.ptr())) {
        const auto text = hosts.cast<std::string_view>();
        return take(Hostlist::parse(text), text);
    }
    if (py::isinstance<Hostlist>(hosts))
        return hosts.cast<Hostlist>();
    Hostlist list;
    for (auto host : hosts)
        list.append(host.cast<std::string_view>());
    return list;
}

ResourceSet make_resource_set(py::handle r) {
    if (py::isinstance<ResourceSet>(r))
        return r.cast<ResourceSet>();
    if (PyUnicode_Check(r.ptr())) {
        const auto text = r.cast<std::string_view>();
        return take(without_gil([&] { return read_resource_set(text); }), text);
    }
    const boost::json::value value = to_json(r);
    return take(without_gil([&] { return resource_set_from_json(value); }), "");
}

/// R's compact JSON text as `jobspec R encode` writes it, without the final newline.
std::string text_of(const ResourceSet& r) {
    std::string text = to_json_text(to_json_value(r));
    text.pop_back();
    return text;
}

std::size_t length(std::uint64_t count) {
    if (count > static_cast<std::uint64_t>(PY_SSIZE_T_MAX)) {
        PyErr_SetString(PyExc_OverflowError, "too many members for len()");
        throw py::error_already_set();
    }
    return static_cast<std::size_t>(count);
}

/// The host names of a Hostlist one at a time, without expanding the list.
struct HostIterator {
    Hostlist hosts;
    std::size_t run = 0;
    std::uint64_t offset = 0;

    std::string next() {
        const auto& runs = hosts.runs();
        if (run >= runs.size())
            throw py::stop_iteration();
        const Hostlist::Run& r = runs[run];
        std::string name = r.prefix;
        if (r.numbered) {
            std::string number = std::to_string(r.first + offset);
            if (number.size() < r.width)
                name.append(r.width - number.size(), '0');
            name += number;
        }
        name += r.suffix;
        if (++offset >= r.size()) {
            ++run;
            offset = 0;
        }
        return name;
    }
};

void bind_idset(py::module_& m) {
    py::class_<IdSet>(m, "IdSet", R"(An RFC 22 set of non-negative integer ids.

IdSet("1-3,5"), IdSet([5, 1, 2]) or IdSet(). Immutable and hashable: len, iteration in
ascending order, `in`, ==, <=/< (subset), |, &, -, ^, and str() gives the canonical RFC 22
string ("1-3,5"). A malformed string raises jobspec.Error.)")
        .def(py::init([](py::handle ids) { return make_idset(ids); }), py::arg("ids") = "")
        .def("__str__", &IdSet::format)
        .def("__repr__", [](const IdSet& s) { return "IdSet('" + s.format() + "')"; })
        .def("__len__", [](const IdSet& s) { return length(s.count()); })
        .def("__bool__", [](const IdSet& s) { return !s.empty(); })
        .def(
            "__iter__", [](const IdSet& s) { return py::make_iterator(s.begin(), s.end()); },
            py::keep_alive<0, 1>())
        .def("__contains__",
             [](const IdSet& s, py::handle id) {
                 if (!PyLong_Check(id.ptr()) || PyBool_Check(id.ptr()))
                     return false;
                 int overflow = 0;
                 const long long v = PyLong_AsLongLongAndOverflow(id.ptr(), &overflow);
                 return overflow == 0 && v >= 0 && s.contains(static_cast<std::uint64_t>(v));
             })
        .def("__hash__", [](const IdSet& s) { return py::hash(py::str(s.format())); })
        .def(py::self == py::self)
        .def(py::self != py::self)
        .def("__or__", &IdSet::united)
        .def("__and__", &IdSet::intersected)
        .def("__sub__", &IdSet::without)
        .def("__xor__",
             [](const IdSet& a, const IdSet& b) { return a.without(b).united(b.without(a)); })
        .def("__le__", [](const IdSet& a, const IdSet& b) { return b.includes(a); })
        .def("__ge__", [](const IdSet& a, const IdSet& b) { return a.includes(b); })
        .def("__lt__", [](const IdSet& a, const IdSet& b) { return b.includes(a) && a != b; })
        .def("__gt__", [](const IdSet& a, const IdSet& b) { return a.includes(b) && a != b; })
        .def("isdisjoint", [](const IdSet& a, const IdSet& b) { return !a.intersects(b); })
        .def_property_readonly(
            "ranges",
            [](const IdSet& s) {
                py::list out;
                for (const auto& r : s.ranges())
                    out.append(py::make_tuple(r.first, r.last));
                return out;
            },
            "The ids as inclusive (first, last) ranges, ascending.")
        .def(py::pickle([](const IdSet& s) { return s.format(); },
                        [](const std::string& text) { return take(IdSet::parse(text), text); }));
}

void bind_hostlist(py::module_& m) {
    py::class_<HostIterator>(m, "_HostIterator")
        .def("__iter__", [](HostIterator& it) -> HostIterator& { return it; })
        .def("__next__", &HostIterator::next);
    py::class_<Hostlist>(m, "Hostlist", R"(An RFC 29 ordered list of host names (repeats allowed).

Hostlist("foo[1-3],bar") or Hostlist(["foo1", "foo2"]). Immutable and hashable: len,
iteration and indexing in order, `in`, ==, + (concatenation), |, &, - (set algebra, sorted
and without repeats), and str() gives the shortest RFC 29 string ("foo[1-3],bar").
A malformed string raises jobspec.Error.)")
        .def(py::init([](py::handle hosts) { return make_hostlist(hosts); }), py::arg("hosts") = "")
        .def("__str__", &Hostlist::encode)
        .def("__repr__", [](const Hostlist& h) { return "Hostlist('" + h.encode() + "')"; })
        .def("__len__", [](const Hostlist& h) { return length(h.count()); })
        .def("__bool__", [](const Hostlist& h) { return !h.empty(); })
        .def("__iter__", [](const Hostlist& h) { return HostIterator{h}; })
        .def("__getitem__",
             [](const Hostlist& h, const py::slice& slice) {
                 // As a list slices: a new Hostlist of the hosts picked, in their order.
                 py::ssize_t start = 0, stop = 0, step = 0, count = 0;
                 if (!slice.compute(static_cast<py::ssize_t>(length(h.count())), &start, &stop,
                                    &step, &count))
                     throw py::error_already_set();
                 if (step > 0) {
                     IdSet positions;
                     if (step == 1 && count > 0)
                         positions.insert(static_cast<std::uint64_t>(start),
                                          static_cast<std::uint64_t>(start + count - 1));
                     else
                         for (py::ssize_t i = 0; i < count; ++i)
                             positions.insert(static_cast<std::uint64_t>(start + i * step));
                     return h.pick(positions);
                 }
                 Hostlist out;
                 for (py::ssize_t i = 0; i < count; ++i)
                     out.append(*h.nth(static_cast<std::uint64_t>(start + i * step)));
                 return out;
             })
        .def("__getitem__",
             [](const Hostlist& h, std::int64_t i) {
                 const auto n = static_cast<std::int64_t>(h.count());
                 const auto host = h.nth(static_cast<std::uint64_t>(i < 0 ? i + n : i));
                 if ((i < 0 && i + n < 0) || !host)
                     throw py::index_error("hostlist index out of range");
                 return *host;
             })
        .def("__contains__",
             [](const Hostlist& h, py::handle host) {
                 return PyUnicode_Check(host.ptr()) &&
                        h.find(host.cast<std::string_view>()).has_value();
             })
        .def("index",
             [](const Hostlist& h, std::string_view host) {
                 const auto i = h.find(host);
                 if (!i)
                     throw py::value_error("'" + std::string(host) + "' is not in the hostlist");
                 return *i;
             })
        .def("__hash__", [](const Hostlist& h) { return py::hash(py::str(h.encode())); })
        .def(py::self == py::self)
        .def(py::self != py::self)
        .def("__add__",
             [](const Hostlist& a, const Hostlist& b) {
                 Hostlist sum = a;
                 sum.append(b);
                 return sum;
             })
        .def("__or__", &Hostlist::united)
        .def("__and__", &Hostlist::intersected)
        .def("__sub__", &Hostlist::without)
        .def("sorted", &Hostlist::sorted, "A sorted copy, repeats kept (flux-core's order).")
        .def("unique", &Hostlist::unique, "A sorted copy without repeats.")
        .def(py::pickle(
            [](const Hostlist& h) { return h.encode(); },
            [](const std::string& text) { return take(Hostlist::parse(text), text); }));
}

void bind_resource_set(py::module_& m) {
    py::class_<ResourceSet>(m, "ResourceSet", R"(RFC 20 R (version 1): ranks with cores and GPUs.

ResourceSet(r) from R's JSON text or a dict, or from Fluxion's resource graph (JGF, as
R with the graph as its scheduling key: docs/FLUXION.md). Immutable and hashable: len (ranks), iteration
over the ranks, `in` (a rank), ==, | & - (flux R's set operations), <= (every core and GPU
on the same rank), and str() gives R's JSON text. Invalid R raises jobspec.Error.)")
        .def(py::init([](py::handle r) { return make_resource_set(r); }), py::arg("r"))
        .def("__str__", &text_of)
        .def("__repr__", [](const ResourceSet& r) { return "ResourceSet('" + r.summary() + "')"; })
        .def(
            "to_dict", [](const ResourceSet& r) { return to_python(to_json_value(r)); },
            "R as a dict (version 1, execution with R_lite and nodelist).")
        .def("__len__", [](const ResourceSet& r) { return length(r.count_ranks()); })
        .def("__bool__", [](const ResourceSet& r) { return !r.empty(); })
        .def("__iter__", [](const ResourceSet& r) { return py::iter(py::cast(r.ranks())); })
        .def("__contains__",
             [](const ResourceSet& r, py::handle rank) {
                 return py::cast(r.ranks()).attr("__contains__")(rank).cast<bool>();
             })
        .def("__eq__", [](const ResourceSet& a,
                          const ResourceSet& b) { return to_json_value(a) == to_json_value(b); })
        .def("__ne__", [](const ResourceSet& a,
                          const ResourceSet& b) { return to_json_value(a) != to_json_value(b); })
        .def("__hash__", [](const ResourceSet& r) { return py::hash(py::str(text_of(r))); })
        .def("__or__", &ResourceSet::united)
        .def("__and__", &ResourceSet::intersected)
        .def("__sub__", &ResourceSet::without)
        .def("__le__", [](const ResourceSet& a, const ResourceSet& b) { return b.includes(a); })
        .def("__ge__", [](const ResourceSet& a, const ResourceSet& b) { return a.includes(b); })
        .def(
            "append",
            [](const ResourceSet& a, const ResourceSet& b) { return take(a.appended(b), ""); },
            "Both sets (flux R append); raises jobspec.Error when a core or GPU is in both.")
        .def_property_readonly("ranks", &ResourceSet::ranks)
        .def_property_readonly("nodelist", &ResourceSet::nodelist)
        .def_property_readonly("cores", &ResourceSet::count_cores, "How many cores in all.")
        .def_property_readonly("gpus", &ResourceSet::count_gpus, "How many GPUs in all.")
        .def_property_readonly(
            "properties",
            [](const ResourceSet& r) {
                py::dict out;
                for (const auto& [name, ranks] : r.properties())
                    out[py::str(name)] = py::cast(ranks);
                return out;
            },
            "Property name -> the IdSet of ranks that have it.")
        .def_readonly("nslots", &ResourceSet::nslots)
        .def_readonly("starttime", &ResourceSet::starttime)
        .def_readonly("expiration", &ResourceSet::expiration)
        .def("summary", &ResourceSet::summary)
        .def(
            "filtered",
            [](const ResourceSet& r, py::handle ranks) { return r.filtered(make_idset(ranks)); },
            py::arg("ranks"), "Only the resources of these ranks (an IdSet or its string).")
        .def("remapped", &ResourceSet::remapped,
             "Ranks renumbered 0..n-1 and each rank's cores 0..k-1.")
        .def(
            "reranked",
            [](const ResourceSet& r, py::handle hosts) {
                return take(r.reranked(make_hostlist(hosts)), "");
            },
            py::arg("hosts"), "Ranks renumbered in the order of `hosts` (a Hostlist or string).")
        .def(
            "verify",
            [](const ResourceSet& expected, const ResourceSet& actual) {
                return diagnostic_objects(expected.verify(actual), "");
            },
            py::arg("actual"),
            "Checks one rank's resources as found against this set: a list of "
            "jobspec.Diagnostic, empty when the rank has everything it should.")
        .def(py::pickle(
            &text_of, [](const std::string& text) { return take(read_resource_set(text), text); }));
}

/// `flux R parse-config PATH`.
void bind_resource_config(py::module_& m) {
    m.def("_parse_config",
          [](const std::string& path) { return take(read_resource_config_at(path), ""); });
}

} // namespace

void bind_sets(py::module_& m) {
    bind_idset(m);
    bind_hostlist(m);
    bind_resource_set(m);
    bind_resource_config(m);
}

} // namespace jobspec::python
