// The parts of the _jobspec extension module, one function per area.
#pragma once

#include <pybind11/pybind11.h>

namespace jobspec::python {

void bind_documents(pybind11::module_& m);   // shapes, jobspec, compile, workflows
void bind_constraints(pybind11::module_& m); // constraints, dependencies, job ids
void bind_flux_constraint(pybind11::module_& m); // the drop-in ConstraintParser
void bind_sets(pybind11::module_& m);        // IdSet, Hostlist, ResourceSet
void bind_forecast(pybind11::module_& m);    // when each pending job starts

} // namespace jobspec::python
