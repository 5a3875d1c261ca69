// The UTF-8 pass: every string of a jobspec built in code is text JSON can carry.
#pragma once

#include <jobspec/diagnostic.hpp>
#include <jobspec/jobspec_model.hpp>

namespace jobspec::sema {

/// Checks that every string of `jobspec` is well-formed UTF-8: resource types and vertex
/// values, task commands and slots, task and jobspec attributes (keys and values, at any
/// depth). Each bad one is jobspec.invalid-utf8 with its JSON pointer and the offset of
/// its first bad byte. Documents read from text need no such pass (the readers reject the
/// text); requests and jobspecs made in code do.
void check_text_encoding(const Jobspec& jobspec, Diagnostics& diagnostics);

} // namespace jobspec::sema
