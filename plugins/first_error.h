/* The code of the first error of a jobspec_error: its diagnostics list the reading's
 * warnings before the error that failed the call. */
#ifndef JOBSPEC_PLUGIN_FIRST_ERROR_H
#define JOBSPEC_PLUGIN_FIRST_ERROR_H

#include <stdbool.h>
#include <stddef.h>

#include <jobspec/jobspec.h>

/* The code of the first diagnostic that is not a warning, or "" (NULL error, none). */
static inline const char* first_error_code(const jobspec_error* error) {
    for (size_t i = 0; error != NULL && i < jobspec_error_count(error); i++)
        if (!jobspec_error_is_warning(error, i))
            return jobspec_error_code(error, i);
    return "";
}

#endif
