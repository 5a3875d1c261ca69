/* The C API, from C: every function, on good input, bad input and NULL. Built as C11
 * (so nothing C++ can leak through jobspec.h) and run under ASan in CI. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jobspec/jobspec.h>

static int failures = 0;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);               \
            ++failures;                                                                            \
        }                                                                                          \
    } while (0)

/* Checks text the library returned against `expected`, then frees it. */
static void check_text(char* text, const char* expected, int line) {
    if (text == NULL || strcmp(text, expected) != 0) {
        fprintf(stderr, "%s:%d: got '%s', expected '%s'\n", __FILE__, line,
                text != NULL ? text : "(null)", expected);
        ++failures;
    }
    jobspec_free(text);
}
#define CHECK_TEXT(text, expected) check_text((text), (expected), __LINE__)

/* Checks that a call failed with one diagnostic of `code` first, then frees the error. */
static void check_error(jobspec_error* error, const char* code, int line) {
    const char* got = jobspec_error_code(error, 0);
    if (error == NULL || got == NULL || strcmp(got, code) != 0) {
        fprintf(stderr, "%s:%d: got error %s, expected %s\n", __FILE__, line,
                got != NULL ? got : "(none)", code);
        ++failures;
    }
    jobspec_error_free(error);
}
#define CHECK_ERROR(error, code) check_error((error), (code), __LINE__)

static void test_version_and_errors(void) {
    CHECK(strchr(jobspec_version(), '.') != NULL);
    jobspec_free(NULL);

    jobspec_error* error = NULL;
    CHECK(jobspec_shape_to_json("slot=3-1/core", NULL, &error) == NULL);
    CHECK(jobspec_error_count(error) == 1);
    CHECK(strcmp(jobspec_error_code(error, 0), "shape.range-order") == 0);
    CHECK(strstr(jobspec_error_message(error, 0), "below") != NULL);
    CHECK(!jobspec_error_is_warning(error, 0));
    CHECK(jobspec_error_offset(error, 0) == 5);
    CHECK(jobspec_error_length(error, 0) == 3);
    CHECK(jobspec_error_line(error, 0) == 1);
    CHECK(jobspec_error_column(error, 0) == 6);
    CHECK(strcmp(jobspec_error_pointer(error, 0), "") == 0);
    CHECK(jobspec_error_help(error, 0) != NULL);
    char* text = jobspec_error_text(error, NULL, false);
    CHECK(text != NULL && strstr(text, "error[shape.range-order]") != NULL &&
          strstr(text, "     ^~~") != NULL);
    jobspec_free(text);
    text = jobspec_error_text(error, "shape.txt", true);
    CHECK(text != NULL && strstr(text, "\x1b[") != NULL && strstr(text, "shape.txt:1:6") != NULL);
    jobspec_free(text);
    text = jobspec_error_json(error);
    CHECK(text != NULL && strstr(text, "\"code\":\"shape.range-order\"") != NULL &&
          strstr(text, "\"column\":6") != NULL);
    jobspec_free(text);

    /* Past the last diagnostic, and a NULL error. */
    CHECK(jobspec_error_code(error, 1) == NULL);
    CHECK(jobspec_error_message(error, 1) == NULL);
    CHECK(jobspec_error_help(error, 1) == NULL);
    CHECK(jobspec_error_pointer(error, 1) == NULL);
    CHECK(!jobspec_error_is_warning(error, 1));
    CHECK(jobspec_error_offset(error, 1) == -1);
    CHECK(jobspec_error_length(error, 1) == 0);
    CHECK(jobspec_error_line(error, 1) == 0);
    CHECK(jobspec_error_column(error, 1) == 0);
    jobspec_error_free(error);
    CHECK(jobspec_error_count(NULL) == 0);
    CHECK_TEXT(jobspec_error_text(NULL, NULL, false), "");
    CHECK_TEXT(jobspec_error_json(NULL), "[]\n");
    jobspec_error_free(NULL);

    /* Success clears *error; a NULL error pointer is allowed. */
    error = (jobspec_error*)1;
    CHECK_TEXT(jobspec_shape_to_json("core", NULL, &error), "[{\"type\":\"core\",\"count\":1}]\n");
    CHECK(error == NULL);
    CHECK(jobspec_shape_to_json("core=0", NULL, NULL) == NULL);
}

/* The Fluxion dialect: sibling slots may share a label; version 10000 is fluxion.version. */
static void test_dialect(void) {
    const char* format = "{\"version\": %d, \"resources\": ["
                         "{\"type\": \"slot\", \"count\": 1, \"label\": \"a\","
                         " \"with\": [{\"type\": \"core\", \"count\": 1}]},"
                         "{\"type\": \"slot\", \"count\": 1, \"label\": \"a\","
                         " \"with\": [{\"type\": \"gpu\", \"count\": 1}]}],"
                         " \"tasks\": [{\"command\": [\"x\"], \"slot\": \"a\","
                         " \"count\": {\"per_slot\": 1}}], \"attributes\": {\"system\": {\"duration\": 0}}}";
    char doc[512], newer[512];
    snprintf(doc, sizeof doc, format, 9999);
    snprintf(newer, sizeof newer, format, 10000);
    jobspec_error* error = NULL;
    jobspec_options* options = jobspec_options_new();
    CHECK(!jobspec_validate(doc, options, &error));
    CHECK_ERROR(error, "jobspec.duplicate-label");
    CHECK(jobspec_options_set(options, "dialect", "fluxion", &error));
    CHECK(jobspec_validate(doc, options, &error) && error == NULL);
    CHECK(!jobspec_validate(newer, options, &error));
    CHECK_ERROR(error, "fluxion.version");
    jobspec_options_free(options);
}

static void test_options(void) {
    jobspec_error* error = NULL;
    jobspec_options* options = jobspec_options_new();
    CHECK(options != NULL);
    CHECK(jobspec_options_set(options, "counts", "string", &error) && error == NULL);
    CHECK(jobspec_options_set(options, "default-label", "task", &error));
    CHECK_TEXT(jobspec_shape_to_json("slot=2+/core", options, &error),
               "[{\"type\":\"slot\",\"count\":\"2+\",\"label\":\"task\","
               "\"with\":[{\"type\":\"core\",\"count\":1}]}]\n");
    CHECK(jobspec_options_set(options, "pretty", "true", &error));
    char* pretty = jobspec_shape_to_json("core", options, &error);
    CHECK(pretty != NULL && strchr(pretty, '\n') < pretty + strlen(pretty) - 1);
    jobspec_free(pretty);

    CHECK(!jobspec_options_set(options, "colour", "true", &error));
    CHECK(strstr(jobspec_error_message(error, 0), "unknown option") != NULL);
    CHECK_ERROR(error, "api.invalid-argument");
    CHECK(!jobspec_options_set(options, "pretty", "maybe", &error));
    CHECK_ERROR(error, "api.invalid-argument");
    CHECK(!jobspec_options_set(options, "max-depth", "1001", &error));
    CHECK_ERROR(error, "api.invalid-argument");
    CHECK(!jobspec_options_set(options, "max-input-bytes", "0", &error));
    CHECK_ERROR(error, "api.invalid-argument");
    CHECK(!jobspec_options_set(options, "counts", "list", &error));
    CHECK_ERROR(error, "api.invalid-argument");
    CHECK(!jobspec_options_set(options, "format", "xml", &error));
    CHECK_ERROR(error, "api.invalid-argument");
    CHECK(!jobspec_options_set(options, "dialect", "sched", &error));
    CHECK_ERROR(error, "api.invalid-argument");
    CHECK(!jobspec_options_set(NULL, "pretty", "true", &error));
    CHECK_ERROR(error, "api.invalid-argument");
    CHECK(!jobspec_options_set(options, NULL, "true", &error));
    CHECK_ERROR(error, "api.invalid-argument");
    CHECK(!jobspec_options_set(options, "pretty", NULL, &error));
    CHECK_ERROR(error, "api.invalid-argument");

    /* Limits apply: depth 2 stops a three-level shape. */
    CHECK(jobspec_options_set(options, "max-depth", "2", &error));
    CHECK(jobspec_shape_to_json("node/socket/core/pu", options, &error) == NULL);
    CHECK_ERROR(error, "limit.depth");
    CHECK(jobspec_options_set(options, "max-input-bytes", "4", &error));
    CHECK(jobspec_shape_to_json("socket", options, &error) == NULL);
    CHECK_ERROR(error, "limit.input-size");
    CHECK(jobspec_options_set(options, "max-diagnostics", "1", &error));
    CHECK(jobspec_options_set(options, "max-alias-nodes", "10", &error));
    jobspec_options_free(options);
    jobspec_options_free(NULL);
}

static void test_shape_and_compile(void) {
    jobspec_error* error = NULL;
    CHECK_TEXT(
        jobspec_shape_to_json("slot=4{nodelevel}/node{-x}/socket=2+/core=4+", NULL, &error),
        "[{\"type\":\"slot\",\"count\":4,\"label\":\"nodelevel\",\"with\":[{\"type\":"
        "\"node\",\"count\":1,\"exclusive\":false,\"with\":[{\"type\":\"socket\","
        "\"count\":{\"min\":2},\"with\":[{\"type\":\"core\",\"count\":{\"min\":4}}]}]}]}]\n");
    CHECK(jobspec_shape_to_json(NULL, NULL, &error) == NULL);
    CHECK_ERROR(error, "api.invalid-argument");

    /* A warning passes, unless strict. */
    jobspec_options* strict = jobspec_options_new();
    CHECK(jobspec_options_set(strict, "strict", "true", &error));
    char* json = jobspec_shape_to_json("core{colour:red}", NULL, &error);
    CHECK(json != NULL && error == NULL);
    jobspec_free(json);
    CHECK(jobspec_shape_to_json("core{colour:red}", strict, &error) == NULL);
    CHECK(!jobspec_error_is_warning(error, 0));
    CHECK_ERROR(error, "jobspec.unknown-vertex-key");

    /* jobspec_compile: flux's options, as `jobspec compile` reads them. */
    const char* words[] = {"--resources-shape=slot=2/core", "--", "hostname", "-f"};
    json = jobspec_compile("run", words + 1, 3, NULL, NULL, &error);
    CHECK(json != NULL && strstr(json, "\"command\": [\"hostname\", \"-f\"]") != NULL);
    jobspec_free(json);
    json = jobspec_compile("run", words, 4, NULL, NULL, &error);
    CHECK(json != NULL && strstr(json, "\"count\": 2") != NULL);
    jobspec_free(json);
    /* A problem in an option's value points into that value (issue 28). */
    const char* zero[] = {"--env=-*", "--shape", "slot=0/core", "true"};
    CHECK(jobspec_compile("run", zero, 4, NULL, NULL, &error) == NULL);
    CHECK(jobspec_error_count(error) == 1);
    CHECK(strcmp(jobspec_error_source(error, 0), "--resources-shape") == 0);
    CHECK(jobspec_error_offset(error, 0) == 5 && jobspec_error_column(error, 0) == 6);
    CHECK_TEXT(jobspec_error_text(error, NULL, false),
               "error[shape.count-not-positive]: count must be at least 1\n"
               "  --> --resources-shape\n  slot=0/core\n       ^\n");
    jobspec_error_free(error);
    /* With "dialect" "fluxion", what Fluxion's reader refuses in the jobspec built. */
    const char* idset_count[] = {"--resources-shape=slot=1/core=2,4", "true"};
    json = jobspec_compile("run", idset_count, 2, NULL, NULL, &error);
    CHECK(json != NULL && error == NULL);
    jobspec_free(json);
    jobspec_options* fluxion = jobspec_options_new();
    CHECK(jobspec_options_set(fluxion, "dialect", "fluxion", &error));
    CHECK(jobspec_compile("run", idset_count, 2, NULL, fluxion, &error) == NULL);
    CHECK_ERROR(error, "fluxion.count");
    jobspec_options_free(fluxion);
    const char* zeros[] = {"--add-file=z=/dev/zero", "true"};
    CHECK(jobspec_compile("run", zeros, 2, NULL, NULL, &error) == NULL);
    CHECK_ERROR(error, "limit.input-size");
    const char* layout[] = {"-n3", "-N4", "true"};
    CHECK(jobspec_compile("run", layout, 3, NULL, NULL, &error) == NULL);
    CHECK_ERROR(error, "submit.layout");
    const char* bad_option[] = {"--nodes=two", "true"};
    CHECK(jobspec_compile("run", bad_option, 2, NULL, NULL, &error) == NULL);
    CHECK_ERROR(error, "submit.value");
    const char* unknown[] = {"--no-such-option", "true"};
    CHECK(jobspec_compile("submit", unknown, 2, NULL, NULL, &error) == NULL);
    CHECK_ERROR(error, "usage.unknown-option");
    const char* batch[] = {"job.sh"};
    json = jobspec_compile("batch", batch, 1, "#!/bin/sh\n#flux: -N3\nhostname\n", NULL, &error);
    CHECK(json != NULL && strstr(json, "\"type\": \"node\", \"count\": 3") != NULL);
    jobspec_free(json);
    /* Without the script's text, batch reads the file its path names. */
    CHECK(jobspec_compile("batch", batch, 1, NULL, NULL, &error) == NULL);
    CHECK_ERROR(error, "submit.file");
    CHECK(jobspec_compile("srun", batch, 1, NULL, NULL, &error) == NULL);
    CHECK_ERROR(error, "api.invalid-argument");
    CHECK(jobspec_compile("run", NULL, 1, NULL, NULL, &error) == NULL);
    CHECK_ERROR(error, "api.invalid-argument");
    const char* holey[] = {"a", NULL};
    CHECK(jobspec_compile("run", holey, 2, NULL, NULL, &error) == NULL);
    CHECK_ERROR(error, "api.invalid-argument");
    jobspec_options_free(strict);
}

static const char* v1_yaml = "version: 1\n"
                             "resources:\n"
                             "  - type: slot\n"
                             "    count: 1\n"
                             "    label: default\n"
                             "    with:\n"
                             "      - type: core\n"
                             "        count: 1\n"
                             "tasks:\n"
                             "  - command: [app]\n"
                             "    slot: default\n"
                             "    count: {per_slot: 1}\n"
                             "attributes:\n"
                             "  system:\n"
                             "    duration: 0\n";

static void test_check(void) {
    jobspec_error* error = NULL;
    char* json = jobspec_check(v1_yaml, NULL, &error);
    CHECK(json != NULL && strncmp(json, "{\"version\":1,\"resources\":", 25) == 0);
    jobspec_free(json);

    /* The same document as JSON, read back. */
    jobspec_options* options = jobspec_options_new();
    CHECK(jobspec_options_set(options, "v1", "true", &error));
    CHECK(jobspec_options_set(options, "format", "json", &error));
    json = jobspec_check(v1_yaml, NULL, &error);
    char* again = jobspec_check(json, options, &error);
    CHECK(again != NULL && strcmp(json, again) == 0);
    jobspec_free(json);
    jobspec_free(again);
    CHECK(jobspec_check(v1_yaml, options, &error) == NULL);
    CHECK_ERROR(error, "jobspec.json-syntax");

    /* Every problem at once, each with its pointer and, from YAML, line and column. */
    const char* bad = "version: 1\nresources:\n  - type: slot\n    count: 0\n";
    CHECK(jobspec_check(bad, NULL, &error) == NULL);
    const size_t n = jobspec_error_count(error);
    CHECK(n == 5);
    CHECK(strcmp(jobspec_error_code(error, n - 1), "jobspec.count-not-positive") == 0);
    CHECK(strcmp(jobspec_error_pointer(error, n - 1), "/resources/0/count") == 0);
    CHECK(jobspec_error_line(error, n - 1) == 4);
    CHECK(jobspec_error_column(error, n - 1) == 12);
    CHECK_ERROR(error, "jobspec.missing-key");
    CHECK(jobspec_check(NULL, NULL, &error) == NULL);
    CHECK_ERROR(error, "api.invalid-argument");
    jobspec_options_free(options);

    /* Its resources written back as a shape, and a document no shape is read from. */
    CHECK_TEXT(jobspec_shape_of(v1_yaml, NULL, &error), "slot/core");
    jobspec_options* task = jobspec_options_new();
    CHECK(jobspec_options_set(task, "default-label", "task", &error));
    CHECK_TEXT(jobspec_shape_of(v1_yaml, task, &error), "slot{default}/core");
    jobspec_options_free(task);
    CHECK(jobspec_shape_of(bad, NULL, &error) == NULL);
    CHECK_ERROR(error, "jobspec.missing-key");
}

/* The verdict alone, and the errors on one line, as the jobtap plugin reports them. */
static void test_validate(void) {
    jobspec_error* error = NULL;
    CHECK(jobspec_validate(v1_yaml, NULL, &error));
    CHECK(error == NULL);
    const char* bad = "{\"version\": 1, \"resources\": [{\"type\": \"slot\", \"count\": 0}]}";
    CHECK(!jobspec_validate(bad, NULL, &error));
    CHECK_TEXT(jobspec_error_summary(error, 0),
               "jobspec.slot-label-missing at /resources/0: slot has no label; "
               "jobspec.slot-without-with at /resources/0: slot contains no resources; "
               "jobspec.count-not-positive at /resources/0/count: 'count' must be at least 1, "
               "not 0; and 2 more");
    CHECK_TEXT(jobspec_error_summary(error, 75),
               "jobspec.slot-label-missing at /resources/0: slot has no label; and 4 more");
    CHECK_TEXT(jobspec_error_summary(NULL, 0), "");
    jobspec_error_free(error);

    /* Warnings pass, unless "strict". */
    const char* warned = "{\"version\": 1, \"resources\": [{\"type\": \"slot\", \"count\": 1, "
                         "\"label\": \"a\", \"with\": [{\"type\": \"core\", \"count\": 1}]}], "
                         "\"tasks\": [{\"command\": [\"x\"], \"slot\": \"a\", \"count\": "
                         "{\"per_slot\": 1}}], \"attributes\": {\"system\": {\"fooo\": 1}}}";
    CHECK(jobspec_validate(warned, NULL, &error));
    jobspec_options* options = jobspec_options_new();
    CHECK(jobspec_options_set(options, "strict", "true", &error));
    CHECK(!jobspec_validate(warned, options, &error));
    CHECK_TEXT(jobspec_error_summary(error, 0),
               "jobspec.unknown-system-attribute at /attributes/system/fooo: system attribute "
               "'fooo' is not one RFC 14 defines; it is kept");
    jobspec_error_free(error);
    CHECK(jobspec_options_set(options, "max-input-bytes", "10", &error));
    CHECK(!jobspec_validate(v1_yaml, options, &error));
    CHECK_ERROR(error, "limit.input-size");
    CHECK(!jobspec_validate(NULL, NULL, &error));
    CHECK_ERROR(error, "api.invalid-argument");
    jobspec_options_free(options);

    /* "flux-instance": what a Flux instance cannot hold, ranks past its size among it. */
    const char* ranked = "{\"version\": 1, \"resources\": [{\"type\": \"slot\", \"count\": 1, "
                         "\"label\": \"a\", \"with\": [{\"type\": \"core\", \"count\": 1}]}], "
                         "\"tasks\": [{\"command\": [\"x\"], \"slot\": \"a\", \"count\": "
                         "{\"per_slot\": 1}}], \"attributes\": {\"system\": {\"constraints\": "
                         "{\"ranks\": [\"7\"]}}}}";
    options = jobspec_options_new();
    CHECK(jobspec_validate(ranked, options, &error));
    CHECK(jobspec_options_set(options, "flux-instance", "true", &error));
    CHECK(jobspec_validate(ranked, options, &error));
    CHECK(jobspec_options_set(options, "flux-instance", "8", &error));
    CHECK(jobspec_validate(ranked, options, &error));
    CHECK(jobspec_options_set(options, "flux-instance", "7", &error));
    CHECK(!jobspec_validate(ranked, options, &error));
    CHECK_ERROR(error, "flux.rank-range");
    CHECK(!jobspec_options_set(options, "flux-instance", "some", &error));
    CHECK_ERROR(error, "api.invalid-argument");
    CHECK(jobspec_options_set(options, "flux-instance", "false", &error));
    CHECK(jobspec_validate(ranked, options, &error));
    CHECK(jobspec_options_set(options, "max-constraint-terms", "1", &error));
    CHECK(!jobspec_validate(ranked, options, &error));
    CHECK_ERROR(error, "limit.constraint-terms");
    CHECK(jobspec_options_set(options, "max-vertices", "1", &error));
    CHECK(!jobspec_validate(v1_yaml, options, &error));
    CHECK_ERROR(error, "limit.vertices");
    jobspec_options_free(options);
    CHECK(JOBSPEC_FLUX_VERDICT_BYTES == 159);
}

/* Reading files: the same bounded reader and io.* codes as the jobspec command. */
static void test_read_file(void) {
    jobspec_error* error = NULL;
    char path[] = "/tmp/capi-test-XXXXXX";
    const int fd = mkstemp(path);
    CHECK(fd >= 0);
    FILE* f = fdopen(fd, "w");
    fputs("version: 1\n", f);
    fclose(f);
    CHECK_TEXT(jobspec_read_file(path, NULL, &error), "version: 1\n");
    CHECK(error == NULL);

    jobspec_options* options = jobspec_options_new();
    CHECK(jobspec_options_set(options, "max-input-bytes", "10", &error));
    CHECK(jobspec_read_file(path, options, &error) == NULL);
    CHECK_ERROR(error, "limit.input-size");
    CHECK(jobspec_read_file("/dev/zero", options, &error) == NULL);
    CHECK_ERROR(error, "limit.input-size");
    jobspec_options_free(options);

    /* A batch script named by its path is read as the jobspec command reads it, its
     * directives' problems pointing into it. */
    f = fopen(path, "w");
    fputs("#!/bin/sh\r\n#flux: -N2\r\n#flux: --bogus\r\n", f);
    fclose(f);
    const char* batch[] = {path};
    CHECK(jobspec_compile("batch", batch, 1, NULL, NULL, &error) == NULL);
    CHECK(strcmp(jobspec_error_code(error, 0), "directive.option") == 0);
    CHECK(strcmp(jobspec_error_source(error, 0), path) == 0);
    CHECK(jobspec_error_line(error, 0) == 3 && jobspec_error_column(error, 0) == 7);
    jobspec_error_free(error);

    f = fopen(path, "w");
    fputs(" \n", f);
    fclose(f);
    CHECK(jobspec_read_file(path, NULL, &error) == NULL);
    CHECK_ERROR(error, "io.empty");
    f = fopen(path, "w");
    fwrite("a\0b", 1, 3, f);
    fclose(f);
    CHECK(jobspec_read_file(path, NULL, &error) == NULL);
    CHECK_ERROR(error, "io.unreadable");
    remove(path);
    CHECK(jobspec_read_file(path, NULL, &error) == NULL);
    CHECK_ERROR(error, "io.unreadable");
    CHECK(jobspec_read_file("/tmp", NULL, &error) == NULL);
    CHECK_ERROR(error, "io.unreadable");
    CHECK(jobspec_read_file(NULL, NULL, &error) == NULL);
    CHECK_ERROR(error, "api.invalid-argument");
}

static void test_dependency_and_ids(void) {
    jobspec_error* error = NULL;
    CHECK_TEXT(jobspec_dependency_to_json("afterok:ƒ2oLkTLb", NULL, &error),
               "{\"scheme\":\"afterok\",\"value\":\"ƒ2oLkTLb\"}\n");
    CHECK(jobspec_dependency_to_json("later:1", NULL, &error) == NULL);
    CHECK_ERROR(error, "dependency.unknown-scheme");
    jobspec_options* options = jobspec_options_new();
    CHECK(jobspec_options_set(options, "allow-unknown-scheme", "true", &error));
    CHECK_TEXT(jobspec_dependency_to_json("later:1", options, &error),
               "{\"scheme\":\"later\",\"value\":\"1\"}\n");
    jobspec_options_free(options);
    CHECK(jobspec_dependency_to_json(NULL, NULL, &error) == NULL);
    CHECK_ERROR(error, "api.invalid-argument");

    uint64_t id = 0;
    CHECK(jobspec_id_decode("ƒ2oLkTLb", &id, &error) && error == NULL);
    CHECK(id == 68484595712ULL);
    CHECK_TEXT(jobspec_id_encode(id, "dothex", &error), "0000.000f.f200.0000");
    CHECK_TEXT(jobspec_id_encode(id, "f58", &error), "ƒ2oLkTLb");
    CHECK(jobspec_id_decode("0x1g", &id, &error) == false);
    CHECK(jobspec_error_offset(error, 0) == 3);
    CHECK_ERROR(error, "fluid.character");
    CHECK(jobspec_id_decode(NULL, &id, &error) == false);
    CHECK_ERROR(error, "api.invalid-argument");
    CHECK(jobspec_id_decode("1", NULL, &error) == false);
    CHECK_ERROR(error, "api.invalid-argument");
    CHECK(jobspec_id_encode(1, "base64", &error) == NULL);
    CHECK_ERROR(error, "api.invalid-argument");
    CHECK(jobspec_id_encode(1, NULL, &error) == NULL);
    CHECK_ERROR(error, "api.invalid-argument");
}

static void test_idset(void) {
    jobspec_error* error = NULL;
    jobspec_idset* a = jobspec_idset_parse("[1-3,7]", &error);
    CHECK(a != NULL && error == NULL);
    CHECK_TEXT(jobspec_idset_encode(a), "1-3,7");
    CHECK(jobspec_idset_count(a) == 4);
    CHECK(jobspec_idset_contains(a, 2) && !jobspec_idset_contains(a, 4));
    CHECK(jobspec_idset_first(a) == 1);
    CHECK(jobspec_idset_next(a, 3) == 7);
    CHECK(jobspec_idset_next(a, 7) == -1);

    jobspec_idset* b = jobspec_idset_new();
    CHECK(jobspec_idset_first(b) == -1);
    CHECK(jobspec_idset_insert(b, 3, 9));
    CHECK(!jobspec_idset_insert(b, 5, 4));
    CHECK(!jobspec_idset_insert(b, 0, UINT64_MAX));
    CHECK(!jobspec_idset_insert(NULL, 0, 1));
    jobspec_idset_erase(b, 5, 5);
    jobspec_idset_erase(NULL, 5, 5);
    CHECK_TEXT(jobspec_idset_encode(b), "3-4,6-9");

    jobspec_idset* u = jobspec_idset_union(a, b);
    jobspec_idset* i = jobspec_idset_intersect(a, b);
    jobspec_idset* d = jobspec_idset_difference(a, b);
    CHECK_TEXT(jobspec_idset_encode(u), "1-4,6-9");
    CHECK_TEXT(jobspec_idset_encode(i), "3,7");
    CHECK_TEXT(jobspec_idset_encode(d), "1-2");
    CHECK(!jobspec_idset_equal(a, b));
    jobspec_idset* a2 = jobspec_idset_union(d, i);
    CHECK(jobspec_idset_equal(a, a2));
    CHECK(jobspec_idset_equal(NULL, NULL));
    CHECK_TEXT(jobspec_idset_encode(NULL), "");
    CHECK(jobspec_idset_count(NULL) == 0);

    CHECK(jobspec_idset_parse("3,1", &error) == NULL);
    CHECK(jobspec_error_offset(error, 0) == 2);
    CHECK_ERROR(error, "idset.order");
    CHECK(jobspec_idset_parse("01", &error) == NULL);
    CHECK_ERROR(error, "idset.leading-zero");
    CHECK(jobspec_idset_parse("99999999999999999999", &error) == NULL);
    CHECK_ERROR(error, "idset.overflow");
    CHECK(jobspec_idset_parse("1-", &error) == NULL);
    CHECK_ERROR(error, "idset.syntax");
    CHECK(jobspec_idset_parse(NULL, &error) == NULL);
    CHECK_ERROR(error, "api.invalid-argument");

    jobspec_idset_free(a);
    jobspec_idset_free(a2);
    jobspec_idset_free(b);
    jobspec_idset_free(u);
    jobspec_idset_free(i);
    jobspec_idset_free(d);
    jobspec_idset_free(NULL);
}

static void test_hostlist(void) {
    jobspec_error* error = NULL;
    jobspec_hostlist* a = jobspec_hostlist_parse("node[3,1-2],login1", &error);
    CHECK(a != NULL && error == NULL);
    CHECK(jobspec_hostlist_count(a) == 4);
    CHECK_TEXT(jobspec_hostlist_encode(a), "node[3,1-2],login1");
    CHECK_TEXT(jobspec_hostlist_nth(a, 1), "node1");
    CHECK(jobspec_hostlist_nth(a, 4) == NULL);
    CHECK(jobspec_hostlist_find(a, "login1") == 3);
    CHECK(jobspec_hostlist_find(a, "node9") == -1);
    CHECK(jobspec_hostlist_find(a, NULL) == -1);

    jobspec_hostlist* sorted = jobspec_hostlist_sort(a, false);
    CHECK_TEXT(jobspec_hostlist_encode(sorted), "login1,node[1-3]");
    CHECK(jobspec_hostlist_append(a, "node1", &error));
    CHECK(jobspec_hostlist_count(a) == 5);
    jobspec_hostlist* unique = jobspec_hostlist_sort(a, true);
    CHECK(jobspec_hostlist_count(unique) == 4);
    CHECK(!jobspec_hostlist_append(a, "node[5-3]", &error));
    CHECK(jobspec_hostlist_count(a) == 5);
    CHECK_ERROR(error, "hostlist.order");
    CHECK(!jobspec_hostlist_append(NULL, "node1", &error));
    CHECK_ERROR(error, "api.invalid-argument");
    CHECK(!jobspec_hostlist_append(a, NULL, &error));
    CHECK_ERROR(error, "api.invalid-argument");

    jobspec_hostlist* b = jobspec_hostlist_new();
    CHECK(jobspec_hostlist_count(b) == 0);
    CHECK(jobspec_hostlist_append(b, "node[2-5]", &error));
    jobspec_hostlist* u = jobspec_hostlist_union(a, b);
    jobspec_hostlist* i = jobspec_hostlist_intersect(a, b);
    jobspec_hostlist* d = jobspec_hostlist_difference(a, b);
    CHECK_TEXT(jobspec_hostlist_encode(u), "login1,node[1-5]");
    CHECK_TEXT(jobspec_hostlist_encode(i), "node[2-3]");
    CHECK_TEXT(jobspec_hostlist_encode(d), "login1,node1");

    CHECK(jobspec_hostlist_parse("node[1-", &error) == NULL);
    CHECK_ERROR(error, "hostlist.syntax");
    CHECK(jobspec_hostlist_parse("n[99999999999999999999]", &error) == NULL);
    CHECK_ERROR(error, "hostlist.overflow");
    CHECK(jobspec_hostlist_parse(NULL, &error) == NULL);
    CHECK_ERROR(error, "api.invalid-argument");

    jobspec_hostlist_free(a);
    jobspec_hostlist_free(b);
    jobspec_hostlist_free(sorted);
    jobspec_hostlist_free(unique);
    jobspec_hostlist_free(u);
    jobspec_hostlist_free(i);
    jobspec_hostlist_free(d);
    jobspec_hostlist_free(NULL);
}

static const char* r_json = "{\"version\":1,\"execution\":{\"R_lite\":["
                            "{\"rank\":\"0-3\",\"children\":{\"core\":\"0-7\",\"gpu\":\"0-1\"}}],"
                            "\"nodelist\":[\"node[0-3]\"],\"properties\":{\"ssd\":\"2-3\"},"
                            "\"starttime\":0,\"expiration\":0}}";

static void test_rset(void) {
    jobspec_error* error = NULL;
    jobspec_rset* r = jobspec_rset_read(r_json, NULL, &error);
    CHECK(r != NULL && error == NULL);
    CHECK(jobspec_rset_count(r, "rank") == 4);
    CHECK(jobspec_rset_count(r, "core") == 32);
    CHECK(jobspec_rset_count(r, "gpu") == 8);
    CHECK(jobspec_rset_count(r, "node") == 0);
    CHECK(jobspec_rset_count(r, NULL) == 0);
    CHECK_TEXT(jobspec_rset_summary(r), "rank[0-3]/core[0-7],gpu[0-1]");

    jobspec_idset* ranks = jobspec_rset_ranks(r);
    CHECK_TEXT(jobspec_idset_encode(ranks), "0-3");
    jobspec_hostlist* nodes = jobspec_rset_nodelist(r);
    CHECK_TEXT(jobspec_hostlist_encode(nodes), "node[0-3]");

    /* Written and read back, it is the same R. */
    char* json = jobspec_rset_json(r, NULL);
    jobspec_rset* again = jobspec_rset_read(json, NULL, &error);
    CHECK(again != NULL);
    CHECK_TEXT(jobspec_rset_json(again, NULL), json);
    jobspec_free(json);

    jobspec_idset* low = jobspec_idset_parse("0-1", &error);
    jobspec_rset* front = jobspec_rset_filter(r, low);
    jobspec_rset* back = jobspec_rset_difference(r, front);
    CHECK(jobspec_rset_count(back, "rank") == 2);
    CHECK(jobspec_rset_includes(r, front) && !jobspec_rset_includes(front, r));
    jobspec_rset* common = jobspec_rset_intersect(r, front);
    CHECK(jobspec_rset_count(common, "rank") == 2);
    jobspec_rset* whole = jobspec_rset_union(front, back, &error);
    CHECK(whole != NULL && error == NULL && jobspec_rset_includes(whole, r));
    CHECK(jobspec_rset_union(r, front, &error) == NULL);
    CHECK_ERROR(error, "R.overlap");

    jobspec_options* options = jobspec_options_new();
    CHECK(jobspec_options_set(options, "pretty", "true", &error));
    json = jobspec_rset_json(r, options);
    CHECK(json != NULL && strstr(json, "\n  \"execution\"") != NULL);
    jobspec_free(json);
    jobspec_options_free(options);

    CHECK(jobspec_rset_read("{\"version\":2}", NULL, &error) == NULL);
    CHECK_ERROR(error, "R.version");
    CHECK(jobspec_rset_read("{", NULL, &error) == NULL);
    CHECK_ERROR(error, "R.json-syntax");
    CHECK(jobspec_rset_read(NULL, NULL, &error) == NULL);
    CHECK_ERROR(error, "api.invalid-argument");
    CHECK(jobspec_rset_count(NULL, "rank") == 0);

    jobspec_rset_free(r);
    jobspec_rset_free(again);
    jobspec_rset_free(front);
    jobspec_rset_free(back);
    jobspec_rset_free(common);
    jobspec_rset_free(whole);
    jobspec_rset_free(NULL);
    jobspec_idset_free(low);
    jobspec_idset_free(ranks);
    jobspec_hostlist_free(nodes);
}

static void test_allocate(void) {
    jobspec_error* error = NULL;
    jobspec_rset* r = jobspec_rset_read(r_json, NULL, &error);
    /* Two nodes with ssd (ranks 2-3), each giving its slot 4 cores and a gpu. */
    const char* format =
        "{\"version\": 1, \"resources\": [{\"type\": \"node\", \"count\": %d, \"with\": ["
        "{\"type\": \"slot\", \"count\": 1, \"label\": \"task\", \"with\": ["
        "{\"type\": \"core\", \"count\": 4}, {\"type\": \"gpu\", \"count\": 1}]}]}],"
        " \"tasks\": [{\"command\": [\"x\"], \"slot\": \"task\","
        " \"count\": {\"per_slot\": 1}}], \"attributes\": {\"system\": {\"duration\": 0,"
        " \"constraints\": {\"properties\": [\"ssd\"]}}}}";
    char two[640], three[640];
    snprintf(two, sizeof two, format, 2);
    snprintf(three, sizeof three, format, 3);
    jobspec_rset* allocation = jobspec_allocate(two, r, NULL, &error);
    CHECK(allocation != NULL && error == NULL);
    CHECK_TEXT(jobspec_rset_summary(allocation), "rank[2-3]/core[0-3],gpu0");
    CHECK(jobspec_allocate(three, r, NULL, &error) == NULL);
    CHECK_ERROR(error, "jobspec.unsatisfiable");
    CHECK(jobspec_allocate(two, NULL, NULL, &error) == NULL);
    CHECK_ERROR(error, "api.invalid-argument");

    /* Fluxion's resource graph (JGF) read as R: the job is placed on the graph. */
    const char* graph =
        "{\"graph\": {\"nodes\": ["
        "{\"id\": \"0\", \"metadata\": {\"type\": \"cluster\", \"paths\": {\"containment\": \"/c\"}}},"
        "{\"id\": \"1\", \"metadata\": {\"type\": \"node\", \"rank\": 0, \"paths\": {\"containment\": \"/c/n0\"}}},"
        "{\"id\": \"2\", \"metadata\": {\"type\": \"core\", \"id\": 0, \"paths\": {\"containment\": \"/c/n0/c0\"}}}],"
        " \"edges\": [{\"source\": \"0\", \"target\": \"1\"}, {\"source\": \"1\", \"target\": \"2\"}]}}";
    const char* one_core =
        "{\"version\": 1, \"resources\": [{\"type\": \"slot\", \"count\": 1, \"label\": \"task\","
        " \"with\": [{\"type\": \"core\", \"count\": 1}]}], \"tasks\": [{\"command\": [\"x\"],"
        " \"slot\": \"task\", \"count\": {\"per_slot\": 1}}], \"attributes\": {\"system\": {\"duration\": 0}}}";
    jobspec_rset* on_graph = jobspec_rset_read(graph, NULL, &error);
    CHECK(on_graph != NULL && error == NULL);
    jobspec_rset* placed = jobspec_allocate(one_core, on_graph, NULL, &error);
    CHECK(placed != NULL && error == NULL);
    CHECK_TEXT(jobspec_rset_summary(placed), "rank0/core0");
    jobspec_rset_free(placed);
    jobspec_rset_free(on_graph);

    /* In the Fluxion dialect an xor_slot's choices are tried in Fluxion's order: four
     * gpus a node cannot be had, 8 cores can. */
    const char* xor_slots =
        "{\"version\": 9999, \"resources\": [{\"type\": \"node\", \"count\": 1, \"with\": ["
        "{\"type\": \"xor_slot\", \"count\": 1, \"label\": \"g\", \"with\": ["
        "{\"type\": \"core\", \"count\": 1}, {\"type\": \"gpu\", \"count\": 4}]},"
        "{\"type\": \"xor_slot\", \"count\": 1, \"label\": \"c\", \"with\": ["
        "{\"type\": \"core\", \"count\": 8}]}]}],"
        " \"tasks\": [{\"command\": [\"x\"], \"slot\": \"default\","
        " \"count\": {\"per_slot\": 1}}], \"attributes\": {\"system\": {\"duration\": 0}}}";
    CHECK(jobspec_allocate(xor_slots, r, NULL, &error) == NULL);
    CHECK_ERROR(error, "jobspec.unknown-slot"); /* RFC 14: tasks name a labelled slot */
    jobspec_options* options = jobspec_options_new();
    CHECK(jobspec_options_set(options, "dialect", "fluxion", &error));
    jobspec_rset* chosen = jobspec_allocate(xor_slots, r, options, &error);
    CHECK(chosen != NULL && error == NULL);
    CHECK_TEXT(jobspec_rset_summary(chosen), "rank0/core[0-7]");
    jobspec_options_free(options);
    jobspec_rset_free(chosen);

    /* What is free now: only node[0-1] have their gpus free, so two nodes with ssd wait. */
    const char* free_json = "{\"version\":1,\"execution\":{\"R_lite\":["
                            "{\"rank\":\"0-1\",\"children\":{\"core\":\"0-7\",\"gpu\":\"0-1\"}},"
                            "{\"rank\":\"2-3\",\"children\":{\"core\":\"0-7\"}}],"
                            "\"nodelist\":[\"node[0-3]\"]}}";
    jobspec_rset* free = jobspec_rset_read(free_json, NULL, &error);
    CHECK(free != NULL);
    CHECK(jobspec_allocate_now(two, r, free, NULL, &error) == NULL);
    CHECK_ERROR(error, "match.pending");
    jobspec_rset* now = jobspec_allocate_now(two, r, NULL, NULL, &error);
    CHECK(now != NULL && error == NULL);
    jobspec_rset_free(now);
    jobspec_rset_free(free);

    /* A queue whose hosts are node[0-1]: the ssd nodes are not in it. */
    char conf[] = "/tmp/capi-queue-XXXXXX";
    CHECK(mkdtemp(conf) != NULL);
    char path[64];
    snprintf(path, sizeof path, "%s/queues.toml", conf);
    FILE* f = fopen(path, "w");
    fputs("[queues.small]\nhosts = \"node[0-1]\"\n", f);
    fclose(f);
    options = jobspec_options_new();
    CHECK(jobspec_options_set(options, "config", conf, &error));
    CHECK(jobspec_options_set(options, "queue", "small", &error));
    CHECK(jobspec_allocate(two, r, options, &error) == NULL);
    CHECK_ERROR(error, "jobspec.unsatisfiable");
    CHECK(jobspec_options_set(options, "queue", "big", &error));
    CHECK(jobspec_allocate(two, r, options, &error) == NULL);
    CHECK_ERROR(error, "match.queue");
    jobspec_options_free(options);
    remove(path);
    rmdir(conf);

    /* The same queue from a configuration already read, as a running instance's. */
    options = jobspec_options_new();
    CHECK(jobspec_options_set(options, "config-json",
                              "{\"queues\": {\"small\": {\"hosts\": \"node[0-1]\"}}}", &error));
    CHECK(jobspec_options_set(options, "queue", "small", &error));
    CHECK(jobspec_allocate(two, r, options, &error) == NULL);
    CHECK_ERROR(error, "jobspec.unsatisfiable");
    CHECK(jobspec_options_set(options, "config-json", "{\"queues\": [1]}", &error));
    CHECK(jobspec_allocate(two, r, options, &error) == NULL);
    CHECK_ERROR(error, "match.queue");
    jobspec_options_free(options);
    jobspec_rset_free(allocation);
    jobspec_rset_free(r);
}

/* flux R parse-config: a directory's *.toml files merged in name order. */
static void test_parse_config(void) {
    char dir[] = "/tmp/capi-config-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char a[64], b[64], other[64];
    snprintf(a, sizeof a, "%s/a.toml", dir);
    snprintf(b, sizeof b, "%s/b.toml", dir);
    snprintf(other, sizeof other, "%s/notes.txt", dir);
    FILE* f = fopen(a, "w");
    fputs("[[resource.config]]\nhosts = \"foo[0-2]\"\ncores = \"0-1\"\n", f);
    fclose(f);
    f = fopen(b, "w");
    fputs("[[resource.config]]\nhosts = \"foo0\"\ncores = \"0-\"\n", f);
    fclose(f);
    f = fopen(other, "w");
    fputs("not configuration\n", f);
    fclose(f);
    jobspec_error* error = NULL;
    /* b.toml's array replaces a.toml's, and its idset is bad, located in b.toml. */
    CHECK(jobspec_rset_parse_config(dir, NULL, &error) == NULL);
    CHECK_ERROR(error, "R.idset");
    remove(b);
    jobspec_rset* r = jobspec_rset_parse_config(dir, NULL, &error);
    CHECK(r != NULL && error == NULL);
    CHECK_TEXT(jobspec_rset_summary(r), "rank[0-2]/core[0-1]");
    jobspec_rset* one = jobspec_rset_parse_config(a, NULL, &error);
    CHECK(one != NULL && jobspec_rset_includes(one, r) && jobspec_rset_includes(r, one));
    CHECK(jobspec_rset_parse_config(b, NULL, &error) == NULL);
    CHECK_ERROR(error, "io.unreadable");
    CHECK(jobspec_rset_parse_config(NULL, NULL, &error) == NULL);
    CHECK_ERROR(error, "api.invalid-argument");
    jobspec_rset_free(r);
    jobspec_rset_free(one);
    remove(a);
    remove(other);
    remove(dir);
}

static void test_constraint(void) {
    jobspec_error* error = NULL;
    jobspec_constraint* c = jobspec_constraint_parse("ssd and not host:node3", NULL, &error);
    CHECK(c != NULL && error == NULL);
    CHECK_TEXT(jobspec_constraint_json(c, NULL),
               "{\"and\":[{\"properties\":[\"ssd\"]},{\"not\":[{\"hostlist\":[\"node3\"]}]}]}\n");
    jobspec_rset* r = jobspec_rset_read(r_json, NULL, &error);
    jobspec_idset* match = jobspec_constraint_match(c, r, &error);
    CHECK_TEXT(jobspec_idset_encode(match), "2");
    jobspec_idset_free(match);

    char* json = jobspec_constraint_json(c, NULL);
    jobspec_constraint* read = jobspec_constraint_read(json, NULL, &error);
    CHECK(read != NULL);
    CHECK_TEXT(jobspec_constraint_json(read, NULL), json);
    jobspec_free(json);

    jobspec_options* options = jobspec_options_new();
    CHECK(jobspec_options_set(options, "default-operator", "name", &error));
    jobspec_constraint* named = jobspec_constraint_parse("foo", options, &error);
    CHECK_TEXT(jobspec_constraint_json(named, NULL), "{\"name\":[\"foo\"]}\n");
    CHECK(jobspec_constraint_match(named, r, &error) == NULL);
    CHECK_ERROR(error, "constraint.unmatchable");
    /* Written back as a --requires query, where one says it. */
    CHECK_TEXT(jobspec_constraint_query(c, &error), "ssd and not host:node3");
    CHECK(jobspec_constraint_query(named, &error) == NULL);
    CHECK(strcmp(jobspec_error_pointer(error, 0), "") == 0);
    CHECK_ERROR(error, "query.unwritable");

    CHECK(jobspec_constraint_parse("ssd and (", NULL, &error) == NULL);
    CHECK(jobspec_error_offset(error, 0) >= 0);
    CHECK_ERROR(error, "query.syntax");
    CHECK(jobspec_constraint_read("{\"and\":3}", NULL, &error) == NULL);
    CHECK_ERROR(error, "constraint.type");
    CHECK(jobspec_constraint_read("{\"color\":[\"red\"]}", NULL, &error) == NULL);
    CHECK_ERROR(error, "constraint.unknown-operator");
    CHECK(jobspec_constraint_parse(NULL, NULL, &error) == NULL);
    CHECK_ERROR(error, "api.invalid-argument");
    CHECK(jobspec_constraint_read(NULL, NULL, &error) == NULL);
    CHECK_ERROR(error, "api.invalid-argument");
    CHECK(jobspec_constraint_match(NULL, r, &error) == NULL);
    CHECK_ERROR(error, "api.invalid-argument");
    CHECK(jobspec_constraint_match(c, NULL, &error) == NULL);
    CHECK_ERROR(error, "api.invalid-argument");
    CHECK(jobspec_constraint_json(NULL, NULL) == NULL);

    jobspec_options_free(options);
    jobspec_constraint_free(c);
    jobspec_constraint_free(read);
    jobspec_constraint_free(named);
    jobspec_constraint_free(NULL);
    jobspec_rset_free(r);
}

/* A forecast's JSON in pieces (the jobtap plugin's answer) is its whole JSON. */
static void test_forecast_pieces(void) {
    static const char* one_core =
        "{\"version\":1,\"resources\":[{\"type\":\"slot\",\"count\":1,\"label\":"
        "\"task\",\"with\":[{\"type\":\"core\",\"count\":COUNT}]}],\"tasks\":[{"
        "\"command\":[\"app\"],\"slot\":\"task\",\"count\":{\"per_slot\":1}}],"
        "\"attributes\":{\"system\":{\"duration\":10}}}";
    char small[512], huge[512];
    const char* at = strstr(one_core, "COUNT");
    snprintf(small, sizeof small, "%.*s1%s", (int)(at - one_core), one_core, at + 5);
    snprintf(huge, sizeof huge, "%.*s999%s", (int)(at - one_core), one_core, at + 5);
    jobspec_error* error = NULL;
    jobspec_rset* r = jobspec_rset_read(r_json, NULL, &error);
    jobspec_instance* instance = jobspec_instance_new(NULL);
    CHECK(jobspec_instance_set_resources(instance, r, NULL, &error));
    CHECK(jobspec_instance_set_scheduler(instance, "sched-simple", NULL, NULL, &error));
    CHECK(jobspec_instance_add_running(instance, 1, r_json, 100, &error));
    CHECK(jobspec_instance_add_pending(instance, 2, small, "sched", 16, 16, 1, NULL, &error));
    CHECK(jobspec_instance_add_pending(instance, 3, huge, "sched", 16, 16, 2, NULL, &error));
    CHECK(error == NULL);
    /* A job in depend waits for what its jobspec lists, as flux-core names it. */
    char waits[600];
    const char* attrs = strstr(small, "\"attributes\"");
    snprintf(waits, sizeof waits,
             "%.*s\"attributes\":{\"system\":{\"duration\":10,\"dependencies\":[{"
             "\"scheme\":\"afterany\",\"value\":\"f3\"}]}}}",
             (int)(attrs - small), small);
    CHECK(jobspec_instance_add_pending(instance, 9, waits, "depend", 0, 16, 3, NULL, &error));
    char* state = jobspec_instance_json(instance, 50);
    CHECK(state != NULL && strstr(state, "\"dependencies\":[\"after-finish=f3\"]") != NULL);
    jobspec_free(state);
    CHECK(jobspec_instance_update_pending(instance, 9, "priority", 0, 16));
    state = jobspec_instance_json(instance, 50);
    CHECK(state != NULL && strstr(state, "after-finish=f3") == NULL);
    jobspec_free(state);
    CHECK(jobspec_instance_remove(instance, 9));
    jobspec_forecast* f = jobspec_forecast_start(instance, 50);
    CHECK(jobspec_forecast_head_json(f) == NULL); /* not done yet */
    CHECK(jobspec_forecast_job_json(f, 0, 0) == NULL);
    while (!jobspec_forecast_advance(f, 1000)) {
    }
    CHECK(jobspec_forecast_count(f) == 2);
    char* whole = jobspec_forecast_json(f, NULL);
    char* head = jobspec_forecast_head_json(f);
    char* jobs[2] = {jobspec_forecast_job_json(f, 0, 0), jobspec_forecast_job_json(f, 1, 0)};
    CHECK(jobspec_forecast_job_json(f, 2, 0) == NULL);
    char joined[8192];
    if (whole != NULL && head != NULL && jobs[0] != NULL && jobs[1] != NULL) {
        size_t head_end = strlen(head);
        while (head_end > 0 && head[head_end - 1] != '}')
            --head_end;
        snprintf(joined, sizeof joined, "%.*s,\"jobs\":[%s,%s]}", (int)(head_end - 1), head,
                 jobs[0], jobs[1]);
        size_t whole_end = strlen(whole);
        while (whole_end > 0 && whole[whole_end - 1] == '\n')
            --whole_end;
        CHECK(strlen(joined) == whole_end && strncmp(joined, whole, whole_end) == 0);
        CHECK(strstr(head, "\"scheduler\":\"sched-simple\"") != NULL);
        CHECK(strstr(jobs[0], "\"eta\":1") != NULL); /* after job 1 ends, at 100 */
        CHECK(strstr(jobs[1], "\"verdict\":\"never\"") != NULL);
        CHECK(strstr(jobs[1], "\"diagnostics\":[]") == NULL);
    } else {
        CHECK(!"every piece written");
    }
    char* bare = jobspec_forecast_job_json(f, 1, JOBSPEC_FORECAST_NO_DIAGNOSTICS);
    CHECK(bare != NULL && strstr(bare, "\"diagnostics\":[]") != NULL &&
          strstr(bare, "\"verdict\":\"never\"") != NULL);
    char* ascii = jobspec_forecast_job_json(f, 0, JOBSPEC_FORECAST_ASCII_IDS);
    CHECK(ascii != NULL && strncmp(ascii, "{\"id\":\"f", 8) == 0);
    CHECK(jobs[0] != NULL && strncmp(jobs[0], "{\"id\":\"\xc6\x92", 9) == 0);
    CHECK(jobspec_forecast_head_json(NULL) == NULL && jobspec_forecast_job_json(NULL, 0, 0) == NULL);
    jobspec_free(whole);
    jobspec_free(head);
    jobspec_free(jobs[0]);
    jobspec_free(jobs[1]);
    jobspec_free(bare);
    jobspec_free(ascii);
    jobspec_forecast_free(f);
    jobspec_instance_free(instance);
    jobspec_rset_free(r);
}

int main(void) {
    test_version_and_errors();
    test_options();
    test_dialect();
    test_shape_and_compile();
    test_check();
    test_validate();
    test_read_file();
    test_dependency_and_ids();
    test_idset();
    test_hostlist();
    test_rset();
    test_allocate();
    test_parse_config();
    test_constraint();
    test_forecast_pieces();
    if (failures > 0) {
        fprintf(stderr, "%d checks failed\n", failures);
        return 1;
    }
    puts("C API: all checks passed");
    return 0;
}
