/* A program built against the installed library through jobspec.pc (C API). */
#include <stdio.h>

#include <jobspec/jobspec.h>

int main(void) {
    jobspec_error* error = NULL;
    char* json = jobspec_shape_to_json("slot=2/core=4", NULL, &error);
    if (json == NULL)
        return 1;
    printf("%s %s", jobspec_version(), json);
    jobspec_free(json);
    return 0;
}
