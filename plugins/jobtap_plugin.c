/* jobspec.so: a jobtap plugin that checks each job's jobspec in the job manager with
 * jobspec's RFC 14 rules (and RFC 25's with v1), and rejects a job that breaks one with
 * a line naming each problem's diagnostic code and JSON pointer. A thin adapter: the
 * job's JSON in, jobspec_validate() of the C API, the verdict out. It also says why each
 * pending job waits and when it will start (pending_reasons.c: jobspec's forecast, as
 * annotations), and with never=true rejects a job that can never run on the instance's
 * resources (instance_view.c keeps them).
 *
 *   flux jobtap load /path/to/jobspec.so [v1=true] [dialect=fluxion] [strict=true] ...
 *   [job-manager]
 *   plugins = [ { load = "/path/to/jobspec.so", conf = { v1 = true } } ]
 *
 * Configuration (all optional): v1, strict (booleans), dialect ("rfc", or "fluxion" for
 * what Fluxion reads: jobspec validate --dialect), and the limits of `jobspec
 * validate`: max-input-bytes (default 10 MiB, job-ingest's buffer), max-depth,
 * max-vertices, max-constraint-terms, max-diagnostics, max-alias-nodes (positive
 * integers), max-match-steps (the budget of each placement in the job manager, default
 * 100000, about 1.6 ms); never, down-is-never (booleans: reject at submission a job that
 * cannot run on all of the instance's resources, or on those that are up), reasons
 * (boolean, default true: annotate pending jobs with why they wait and when they start)
 * reason-depth (no reasons while more jobs than this wait for the scheduler, held
 * ones and those of stopped queues not counted; default 10000) and reason-share (the
 * most of the job manager's time the reasons' forecasts take on average, in percent,
 * from 1 to 100; default 10). An unknown key or a bad
 * value fails the load, with the reason in the broker's log (flux dmesg). What the
 * instance cannot hold is always refused (`jobspec validate --flux-instance=SIZE`,
 * flux.* codes).
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

#include "first_error.h"
#include "instance_view.h"
#include "pending_reasons.h"

/* job-ingest's default buffer-size: a larger jobspec cannot be submitted anyway. */
#define DEFAULT_MAX_INPUT_BYTES "10485760"
#define DEFAULT_REASON_DEPTH 10000
#define DEFAULT_REASON_SHARE 10
/* The most steps one placement may take in the job manager (a never=true check at
 * submission, a forecast's explanation of a job that does not start): about 1.6 ms on
 * the test machine (16 ns a step, docs/PERFORMANCE.md), so that a slice of the forecast
 * stays within 5 ms. */
#define DEFAULT_MAX_MATCH_STEPS "100000"

/* What the plugin holds: the options jobspecs are read with (and the instance's
 * configuration, for queues), and what is known of the instance. */
struct plugin {
    jobspec_options* options;
    bool never;         /* reject a job that can never run here */
    bool down_is_never; /* ... on the resources that are up */
    bool reasons;
    int reason_depth;
    int reason_share;
    struct instance_view* view;
    struct pending_reasons* pending;
};

/* The plugin's own keys; every other one is a jobspec_options_set() option. */
static const char* const plugin_names[] = {"never",        "down-is-never", "reasons",
                                           "reason-depth", "reason-share",  NULL};

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
    "max-match-steps",
    NULL,
};

static bool among(const char* const* names, const char* name) {
    for (const char* const* n = names; *n != NULL; n++)
        if (strcmp(*n, name) == 0)
            return true;
    return false;
}

/* `names`, comma-separated, after what `out` holds. */
static void append_names(char* out, size_t size, const char* const* names) {
    for (const char* const* n = names; *n != NULL; n++) {
        if (out[0] != '\0')
            strncat(out, ", ", size - strlen(out) - 1);
        strncat(out, *n, size - strlen(out) - 1);
    }
}

/* `value` into `out` if it is an integer from `least` to `most`; false otherwise. */
static bool integer_in(json_t* value, int least, int most, int* out) {
    if (!json_is_integer(value) || json_integer_value(value) < least ||
        json_integer_value(value) > most)
        return false;
    *out = (int)json_integer_value(value);
    return true;
}

/* A plugin key's value into `plugin`; false if the value is not of its type. */
static bool set_plugin_key(struct plugin* plugin, const char* key, json_t* value) {
    if (strcmp(key, "reason-depth") == 0)
        return integer_in(value, 0, 100000, &plugin->reason_depth);
    if (strcmp(key, "reason-share") == 0)
        return integer_in(value, 1, 100, &plugin->reason_share);
    if (!json_is_boolean(value))
        return false;
    if (strcmp(key, "never") == 0)
        plugin->never = json_is_true(value);
    else if (strcmp(key, "down-is-never") == 0)
        plugin->down_is_never = json_is_true(value);
    else
        plugin->reasons = json_is_true(value);
    return true;
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

/* Reads the plugin's configuration into `plugin`; false, with the reason logged, for an
 * unknown key or a value the option does not take. */
static bool configure(flux_plugin_t* p, struct plugin* plugin) {
    jobspec_options* options = plugin->options;
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
        !jobspec_options_set(options, "max-match-steps", DEFAULT_MAX_MATCH_STEPS, NULL) ||
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
        if (among(plugin_names, key)) {
            if (!set_plugin_key(plugin, key, value)) {
                flux_log(h, LOG_ERR, "jobspec.so: %s: %s", key,
                         strcmp(key, "reason-depth") == 0   ? "an integer from 0 to 100000"
                         : strcmp(key, "reason-share") == 0 ? "an integer from 1 to 100"
                                                            : "a boolean is needed");
                ok = false;
            }
        } else if (!among(option_names, key)) {
            char names[320] = "";
            append_names(names, sizeof names, option_names);
            append_names(names, sizeof names, plugin_names);
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

/* Rejects the job with one line: the summary of `error`, or `fallback`. */
static int reject(flux_plugin_t* p, flux_plugin_arg_t* args, const jobspec_error* error,
                  const char* fallback) {
    char* line = jobspec_error_summary(error, JOBSPEC_FLUX_VERDICT_BYTES);
    int rc = flux_jobtap_reject_job(p, args, "%s", line != NULL && *line != '\0' ? line : fallback);
    jobspec_free(line);
    return rc;
}

/* never=true: rejects the job when it cannot run on the instance's resources (those that
 * are up, with down-is-never), as jobspec's explanation says. Until the resources are
 * known (just after loading) and for failures other than jobspec.unsatisfiable, the job
 * is accepted: this check must never stop a job the scheduler could run. */
static int check_feasible(flux_plugin_t* p, flux_plugin_arg_t* args, const struct plugin* plugin,
                          const char* text) {
    const jobspec_rset* r = plugin->down_is_never ? instance_view_up(plugin->view)
                                                  : instance_view_all(plugin->view);
    jobspec_error* error = NULL;
    jobspec_rset* alloc;
    int rc = 0;
    if (r == NULL)
        return 0;
    if ((alloc = jobspec_allocate(text, r, plugin->options, &error)) == NULL &&
        strcmp(first_error_code(error), "jobspec.unsatisfiable") == 0)
        rc = reject(p, args, error, "jobspec.so: the job can never run here");
    jobspec_rset_free(alloc);
    jobspec_error_free(error);
    return rc;
}

/* Checks the jobspec in `args`; rejects the job with one line when it breaks a rule (or,
 * with never, cannot run here). */
static int check(flux_plugin_t* p, flux_plugin_arg_t* args, const struct plugin* plugin) {
    json_t* jobspec = NULL;
    jobspec_error* error = NULL;
    char* text;
    int rc;

    if (flux_plugin_arg_unpack(args, FLUX_PLUGIN_ARG_IN, "{s:o}", "jobspec", &jobspec) < 0)
        return flux_jobtap_reject_job(p, args, "jobspec.so: the job has no jobspec");
    if (!(text = json_dumps(jobspec, JSON_COMPACT)))
        return flux_jobtap_reject_job(p, args, "jobspec.so: cannot encode the jobspec");
    if (jobspec_validate(text, plugin->options, &error))
        rc = plugin->never ? check_feasible(p, args, plugin, text) : 0;
    else /* Fails closed: without memory for the message, the job is still rejected. */
        rc = reject(p, args, error, "jobspec.so: cannot check the job");
    free(text);
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
 * the plugin is loaded): those are left alone, but followed for reasons. */
static int create_cb(flux_plugin_t* p, const char* topic, flux_plugin_arg_t* args, void* data) {
    struct plugin* plugin = data;
    const int state = job_state(args);
    if (state > 0 && state != FLUX_JOB_STATE_NEW) {
        if (plugin->pending != NULL)
            pending_reasons_job(plugin->pending, topic, args);
        return 0;
    }
    return check(p, args, plugin);
}

/* job.validate: a new job was checked in job.create; this is an update (flux update),
 * whose args hold the jobspec as it would become. */
static int validate_cb(flux_plugin_t* p, const char* topic, flux_plugin_arg_t* args, void* data) {
    (void)topic;
    if (job_state(args) == FLUX_JOB_STATE_NEW)
        return 0;
    return check(p, args, data);
}

/* Jobs come, change and go; allocations and frees change what is free. */
static int state_cb(flux_plugin_t* p, const char* topic, flux_plugin_arg_t* args, void* data) {
    struct plugin* plugin = data;
    (void)p;
    if (plugin->pending != NULL)
        pending_reasons_job(plugin->pending, topic, args);
    if (strcmp(topic, "job.state.run") == 0 || strcmp(topic, "job.inactive-add") == 0)
        instance_view_refresh(plugin->view);
    return 0;
}

/* The instance's configuration, for the queues a job is matched in: only when it has
 * queues, so that a job without them is not slowed by reading it. */
static int conf_update_cb(flux_plugin_t* p, const char* topic, flux_plugin_arg_t* args,
                          void* data) {
    struct plugin* plugin = data;
    json_t* conf = NULL;
    char* text = NULL;
    bool ok;
    (void)topic;
    if (flux_plugin_arg_unpack(args, FLUX_PLUGIN_ARG_IN, "{s:o}", "conf", &conf) < 0)
        return flux_jobtap_error(p, args, "jobspec.so: conf.update without a configuration");
    if (json_object_get(conf, "queues") != NULL && !(text = json_dumps(conf, JSON_COMPACT)))
        return flux_jobtap_error(p, args, "jobspec.so: cannot encode the configuration");
    ok = jobspec_options_set(plugin->options, "config-json", text != NULL ? text : "", NULL);
    free(text);
    return ok ? 0 : -1;
}

/* flux jobtap query jobspec.so: what the plugin knows of the instance, and its last
 * forecast. */
static int query_cb(flux_plugin_t* p, const char* topic, flux_plugin_arg_t* args, void* data) {
    struct plugin* plugin = data;
    json_t* out = plugin->pending != NULL ? pending_reasons_query(plugin->pending) : NULL;
    int rc = 0;
    (void)topic;
    if (out != NULL)
        rc = flux_plugin_arg_pack(args, FLUX_PLUGIN_ARG_OUT, "{s:o}", "jobspec", out);
    else
        rc = flux_jobtap_error(p, args, "jobspec.so: no forecast here (reasons=false)");
    return rc < 0 ? -1 : 0;
}

static bool never_wanted(void* arg) {
    (void)arg;
    return false;
}

static void plugin_free(void* data) {
    struct plugin* plugin = data;
    pending_reasons_destroy(plugin->pending);
    instance_view_destroy(plugin->view);
    jobspec_options_free(plugin->options);
    free(plugin);
}

int flux_plugin_init(flux_plugin_t* p) {
    struct plugin* plugin = calloc(1, sizeof *plugin);
    if (plugin == NULL)
        return -1;
    plugin->reasons = true;
    plugin->reason_depth = DEFAULT_REASON_DEPTH;
    plugin->reason_share = DEFAULT_REASON_SHARE;
    /* The name of its service, job-manager.jobspec.forecast, whatever its file's name;
     * the job manager sets one only after this function returns. */
    if (flux_plugin_set_name(p, "jobspec") < 0) {
        free(plugin);
        return -1;
    }
    if (!(plugin->options = jobspec_options_new()) ||
        flux_plugin_aux_set(p, "jobspec::plugin", plugin, plugin_free) < 0) {
        jobspec_options_free(plugin->options);
        free(plugin);
        return -1;
    }
    if (!configure(p, plugin))
        return -1;
    plugin->never = plugin->never || plugin->down_is_never;
    if (plugin->never || plugin->reasons) {
        if (plugin->reasons && !(plugin->pending = pending_reasons_create(p, plugin->options,
                                                                          plugin->reason_depth,
                                                                          plugin->reason_share)))
            return -1;
        /* With never alone, only the resources matter, not allocations: wanted is
         * then never true, and only resource events are read. */
        plugin->view = instance_view_create(
            flux_jobtap_get_flux(p), plugin->reasons ? pending_reasons_update : NULL,
            plugin->reasons ? pending_reasons_waiting : never_wanted, plugin->pending);
        if (plugin->view == NULL)
            return -1;
        if (flux_plugin_add_handler(p, "job.state.*", state_cb, plugin) < 0 ||
            flux_plugin_add_handler(p, "job.inactive-add", state_cb, plugin) < 0 ||
            flux_plugin_add_handler(p, "job.update", state_cb, plugin) < 0 ||
            flux_plugin_add_handler(p, "job.event.priority", state_cb, plugin) < 0 ||
            flux_plugin_add_handler(p, "job.event.urgency", state_cb, plugin) < 0 ||
            flux_plugin_add_handler(p, "plugin.query", query_cb, plugin) < 0)
            return -1;
    }
    if (flux_plugin_add_handler(p, "conf.update", conf_update_cb, plugin) < 0 ||
        flux_plugin_add_handler(p, "job.create", create_cb, plugin) < 0)
        return -1;
    return flux_plugin_add_handler(p, "job.validate", validate_cb, plugin);
}
