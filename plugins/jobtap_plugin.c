/* jobspec.so: a jobtap plugin that checks each job's jobspec in the job manager with
 * jobspec's RFC 14 rules (and RFC 25's with v1), and rejects a job that breaks one with
 * a line naming each problem's diagnostic code and JSON pointer. A thin adapter: the
 * job's JSON in, jobspec_validate() of the C API, the verdict out.
 *
 *   flux jobtap load /path/to/jobspec.so [v1=true] [dialect=fluxion] [strict=true] ...
 *   [job-manager]
 *   plugins = [ { load = "/path/to/jobspec.so", conf = { v1 = true } } ]
 *
 * Configuration (all optional): v1, strict (booleans), dialect ("rfc", or "fluxion" for
 * what Fluxion reads: jobspec validate --dialect), and the limits of `jobspec
 * validate`: max-input-bytes (default 10 MiB, job-ingest's buffer), max-depth,
 * max-vertices, max-constraint-terms, max-diagnostics, max-alias-nodes (positive
 * integers). An unknown key or a bad value fails the load, with the reason in the
 * broker's log (flux dmesg). What the instance cannot hold is always refused
 * (`jobspec validate --flux-instance=SIZE`, flux.* codes).
 *
 * The job manager hands plugins the jobspec with attributes.system.environment removed,
 * so the environment is the one part this plugin cannot check (docs/FLUX.md).
 */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <flux/core.h>
#include <flux/jobtap.h>
#include <jansson.h>

#include <jobspec/jobspec.h>

/* job-ingest's default buffer-size: a larger jobspec cannot be submitted anyway. */
#define DEFAULT_MAX_INPUT_BYTES "10485760"

static const char* const option_names[] = {
    "v1",
    "dialect",
    "strict",
    "max-input-bytes",
    "max-depth",
    "max-diagnostics",
    "max-alias-nodes",
    "max-vertices",
    "max-constraint-terms",
    NULL,
};

static bool known_option(const char* name) {
    for (const char* const* n = option_names; *n != NULL; n++)
        if (strcmp(*n, name) == 0)
            return true;
    return false;
}

/* A configuration value as the text jobspec_options_set() takes: true/false, an integer,
 * or a string as given. NULL for another type (an array, a table, a real). */
static char* option_text(json_t* value) {
    char number[32];
    if (json_is_boolean(value))
        return strdup(json_is_true(value) ? "true" : "false");
    if (json_is_integer(value)) {
        snprintf(number, sizeof number, "%lld", (long long)json_integer_value(value));
        return strdup(number);
    }
    if (json_is_string(value))
        return strdup(json_string_value(value));
    return NULL;
}

/* Reads the plugin's configuration into `options`; false, with the reason logged, for an
 * unknown key or a value the option does not take. */
static bool configure(flux_plugin_t* p, jobspec_options* options) {
    flux_t* h = flux_jobtap_get_flux(p);
    const char* conf = flux_plugin_get_conf(p);
    json_error_t json_error;
    json_t* object;
    const char* key;
    json_t* value;
    bool ok = true;

    /* What this instance cannot hold is refused too (flux.*), ranks it does not have
     * among it. */
    const char* size = flux_attr_get(h, "size");
    if (!jobspec_options_set(options, "max-input-bytes", DEFAULT_MAX_INPUT_BYTES, NULL) ||
        !jobspec_options_set(options, "flux-instance", size != NULL ? size : "true", NULL))
        return false;
    if (conf == NULL)
        return true;
    if (!(object = json_loads(conf, 0, &json_error))) {
        flux_log(h, LOG_ERR, "jobspec.so: unreadable configuration: %s", json_error.text);
        return false;
    }
    if (!json_is_object(object)) {
        flux_log(h, LOG_ERR, "jobspec.so: the configuration is not a table");
        json_decref(object);
        return false;
    }
    json_object_foreach(object, key, value) {
        char* text = option_text(value);
        jobspec_error* error = NULL;
        if (!known_option(key)) {
            char names[256] = "";
            for (const char* const* n = option_names; *n != NULL; n++) {
                if (n != option_names)
                    strncat(names, ", ", sizeof names - strlen(names) - 1);
                strncat(names, *n, sizeof names - strlen(names) - 1);
            }
            flux_log(h, LOG_ERR, "jobspec.so: unknown key '%s' (%s)", key, names);
            ok = false;
        } else if (text == NULL || !jobspec_options_set(options, key, text, &error)) {
            flux_log(h, LOG_ERR, "jobspec.so: %s: %s", key,
                     error != NULL ? jobspec_error_message(error, 0)
                                   : "a boolean, integer or string is needed");
            ok = false;
        }
        jobspec_error_free(error);
        free(text);
    }
    json_decref(object);
    return ok;
}

/* Checks the jobspec in `args`; rejects the job with one line when it breaks a rule. */
static int check(flux_plugin_t* p, flux_plugin_arg_t* args, const jobspec_options* options) {
    json_t* jobspec = NULL;
    jobspec_error* error = NULL;
    char* text;
    char* line;
    int rc;

    if (flux_plugin_arg_unpack(args, FLUX_PLUGIN_ARG_IN, "{s:o}", "jobspec", &jobspec) < 0)
        return flux_jobtap_reject_job(p, args, "jobspec.so: the job has no jobspec");
    if (!(text = json_dumps(jobspec, JSON_COMPACT)))
        return flux_jobtap_reject_job(p, args, "jobspec.so: cannot encode the jobspec");
    if (jobspec_validate(text, options, &error)) {
        free(text);
        return 0;
    }
    free(text);
    /* Fails closed: without memory for the message, the job is still rejected. */
    line = jobspec_error_summary(error, JOBSPEC_FLUX_VERDICT_BYTES);
    rc = flux_jobtap_reject_job(
        p, args, "%s", line != NULL && *line != '\0' ? line : "jobspec.so: cannot check the job");
    jobspec_free(line);
    jobspec_error_free(error);
    return rc;
}

static int job_state(flux_plugin_arg_t* args) {
    int state = 0;
    if (flux_plugin_arg_unpack(args, FLUX_PLUGIN_ARG_IN, "{s:i}", "state", &state) < 0)
        return -1;
    return state;
}

/* A new job is checked in job.create, which comes before every job.validate callback,
 * flux-core's own included: a problem both would find is then reported by jobspec, with
 * its code. job.create also announces jobs already accepted (after a restart, or when
 * the plugin is loaded): those are left alone. */
static int create_cb(flux_plugin_t* p, const char* topic, flux_plugin_arg_t* args, void* data) {
    const int state = job_state(args);
    (void)topic;
    if (state > 0 && state != FLUX_JOB_STATE_NEW)
        return 0;
    return check(p, args, data);
}

/* job.validate: a new job was checked in job.create; this is an update (flux update),
 * whose args hold the jobspec as it would become. */
static int validate_cb(flux_plugin_t* p, const char* topic, flux_plugin_arg_t* args, void* data) {
    (void)topic;
    if (job_state(args) == FLUX_JOB_STATE_NEW)
        return 0;
    return check(p, args, data);
}

static void options_free(void* options) {
    jobspec_options_free(options);
}

int flux_plugin_init(flux_plugin_t* p) {
    jobspec_options* options = jobspec_options_new();
    if (options == NULL || flux_plugin_aux_set(p, "jobspec::options", options, options_free) < 0) {
        jobspec_options_free(options);
        return -1;
    }
    if (!configure(p, options))
        return -1;
    if (flux_plugin_add_handler(p, "job.create", create_cb, options) < 0)
        return -1;
    return flux_plugin_add_handler(p, "job.validate", validate_cb, options);
}
