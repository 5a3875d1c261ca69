/* Checks a jobspec file (YAML or JSON) with the C API and prints it as canonical JSON.
 *   check-jobspec job.yaml */
#include <stdio.h>
#include <stdlib.h>

#include <jobspec/jobspec.h>

/* The whole file as a NUL-terminated string, or NULL. */
static char* read_file(const char* path) {
    FILE* f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    char* text = NULL;
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (size >= 0 && fseek(f, 0, SEEK_SET) == 0 && (text = malloc((size_t)size + 1)) != NULL) {
        if (fread(text, 1, (size_t)size, f) == (size_t)size) {
            text[size] = '\0';
        } else {
            free(text);
            text = NULL;
        }
    }
    fclose(f);
    return text;
}

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE\n", argv[0]);
        return 2;
    }
    char* text = read_file(argv[1]);
    if (text == NULL) {
        perror(argv[1]);
        return 2;
    }
    jobspec_error* error = NULL;
    char* json = jobspec_check(text, NULL, &error);
    if (json == NULL) {
        char* report = jobspec_error_text(error, argv[1], false);
        fputs(report != NULL ? report : "out of memory\n", stderr);
        jobspec_free(report);
        jobspec_error_free(error);
        free(text);
        return 1;
    }
    fputs(json, stdout);
    jobspec_free(json);
    free(text);
    return 0;
}
