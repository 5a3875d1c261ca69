// What the shared library exports: it is built with hidden visibility, and only
// declarations marked JOBSPEC_API (the public API) are visible to programs using it.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define JOBSPEC_API __attribute__((visibility("default")))
#else
#define JOBSPEC_API
#endif
