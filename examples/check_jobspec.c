/* Checks a jobspec file (YAML or JSON) with the C API and prints it as canonical JSON.
 *   check-jobspec [-o NAME=VALUE]... FILE      (FILE "-" reads standard input)
 * -o sets a jobspec_options option, e.g. -o v1=true or -o max-input-bytes=4096. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jobspec/jobspec.h>

/* Prints an error's diagnostics as the jobspec command does (JSON with
 * JOBSPEC_DIAGNOSTICS=json), frees it, and returns 1 (the exit status for invalid input). */
static int report(jobspec_error* error, const char* source_name) {
    const char* format = getenv("JOBSPEC_DIAGNOSTICS");
    const bool json = format != NULL && strcmp(format, "json") == 0;
    char* text = json ? jobspec_error_json(error) : jobspec_error_text(error, source_name, false);
    fputs(text != NULL ? text : "out of memory", stderr);
    if (json || text == NULL)
        fputc('\n', stderr);
    jobspec_free(text);
    jobspec_error_free(error);
    return 1;
}

int main(int argc, char** argv) {
    jobspec_options* options = jobspec_options_new();
    jobspec_error* error = NULL;
    const char* path = NULL;
    int status = 0;
    for (int i = 1; i < argc && status == 0; ++i) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            char* name = argv[++i];
            char* value = strchr(name, '=');
            if (value != NULL)
                *value++ = '\0';
            if (!jobspec_options_set(options, name, value != NULL ? value : "true", &error))
                status = report(error, NULL);
        } else if (path == NULL) {
            path = argv[i];
        } else {
            path = NULL;
            break;
        }
    }
    if (status == 0 && path == NULL) {
        fprintf(stderr, "usage: %s [-o NAME=VALUE]... FILE\n", argv[0]);
        status = 2;
    }
    char* text = status == 0 ? jobspec_read_file(path, options, &error) : NULL;
    if (status == 0 && text == NULL)
        status = report(error, NULL) + 1; /* unreadable: 2, as the jobspec command says */
    char* json = status == 0 ? jobspec_check(text, options, &error) : NULL;
    if (status == 0 && json == NULL)
        status = report(error, path);
    if (json != NULL)
        puts(json);
    jobspec_free(json);
    jobspec_free(text);
    jobspec_options_free(options);
    return status;
}
