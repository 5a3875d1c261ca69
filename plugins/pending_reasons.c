#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "pending_reasons.h"

#include "first_error.h"

#include <inttypes.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

/* The longest reason: an annotation is one short line of `flux jobs`. */
#define REASON_BYTES 120
/* A jobspec larger than this (files added to it) gets no reason: placing it on every
 * change would cost the job manager too much. */
#define MAX_JOBSPEC_BYTES (256 * 1024)
/* The most time one update takes in the job manager; the jobs not reached wait for the
 * next update, which comes a moment later and starts where this one stopped. */
#define UPDATE_SECONDS 0.005

struct pending_reasons {
    flux_plugin_t* p;
    const jobspec_options* options;
    int depth;
    json_t* jobs;  /* "ID" -> the reason last set ("" for none) */
    size_t cursor; /* where in the scheduler's order the next update starts */
};

struct pending_job {
    flux_jobid_t id;
    int64_t priority;
    const char* jobspec;
};

struct pending_reasons* pending_reasons_create(flux_plugin_t* p, const jobspec_options* options,
                                               int depth) {
    struct pending_reasons* reasons = calloc(1, sizeof *reasons);
    if (reasons == NULL || !(reasons->jobs = json_object())) {
        free(reasons);
        return NULL;
    }
    reasons->p = p;
    reasons->options = options;
    reasons->depth = depth;
    return reasons;
}

void pending_reasons_destroy(struct pending_reasons* reasons) {
    if (reasons == NULL)
        return;
    json_decref(reasons->jobs);
    free(reasons);
}

static void key_of(flux_jobid_t id, char key[24]) {
    snprintf(key, 24, "%" PRIu64, (uint64_t)id);
}

/* Sets (or with NULL clears) the job's annotation: a volatile memo, which the job
 * manager applies to annotations.user and publishes, as `flux job memo --volatile`. */
static void annotate(struct pending_reasons* reasons, flux_jobid_t id, const char* reason) {
    flux_t* h = flux_jobtap_get_flux(reasons->p);
    flux_future_t* f = flux_rpc_pack(h, "job-manager.memo", FLUX_NODEID_ANY, FLUX_RPC_NORESPONSE,
                                     "{s:I s:b s:{s:s?}}", "id", (json_int_t)id, "volatile", 1,
                                     "memo", PENDING_REASON_KEY, reason);
    flux_future_destroy(f);
}

void pending_reasons_add(struct pending_reasons* reasons, flux_jobid_t id) {
    char key[24];
    key_of(id, key);
    if (json_object_get(reasons->jobs, key) == NULL) /* the reason it has is kept */
        json_object_set_new(reasons->jobs, key, json_string(""));
}

void pending_reasons_remove(struct pending_reasons* reasons, flux_jobid_t id) {
    char key[24];
    json_t* last;
    key_of(id, key);
    if ((last = json_object_get(reasons->jobs, key)) == NULL)
        return;
    if (*json_string_value(last) != '\0')
        annotate(reasons, id, NULL);
    json_object_del(reasons->jobs, key);
}

/* The job's priority, from the job manager; false if it is gone. */
static bool look_up(struct pending_reasons* reasons, flux_jobid_t id, struct pending_job* job) {
    flux_plugin_arg_t* args = flux_jobtap_job_lookup(reasons->p, id);
    json_int_t priority = 0;
    bool ok = args != NULL && flux_plugin_arg_unpack(args, FLUX_PLUGIN_ARG_IN, "{s:I}",
                                                     "priority", &priority) == 0;
    job->id = id;
    job->priority = priority;
    flux_plugin_arg_destroy(args);
    return ok;
}

/* The job's jobspec text, from the job manager; NULL if it is gone. */
static char* jobspec_of(struct pending_reasons* reasons, flux_jobid_t id) {
    flux_plugin_arg_t* args = flux_jobtap_job_lookup(reasons->p, id);
    json_t* jobspec = NULL;
    char* text = NULL;
    if (args != NULL &&
        flux_plugin_arg_unpack(args, FLUX_PLUGIN_ARG_IN, "{s:o}", "jobspec", &jobspec) == 0)
        text = json_dumps(jobspec, JSON_COMPACT);
    flux_plugin_arg_destroy(args);
    return text;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The scheduler's order: higher priority first, then earlier submission (smaller id). */
static int before(const void* a, const void* b) {
    const struct pending_job* x = a;
    const struct pending_job* y = b;
    if (x->priority != y->priority)
        return x->priority > y->priority ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* What fits where: the reason for one job, in `out`, "" when there is none (it fits now
 * and nothing is ahead of it). */
static void reason_of(struct pending_reasons* reasons, struct instance_view* view,
                      const struct pending_job* job, int ahead, char out[REASON_BYTES + 1]) {
    jobspec_error* error = NULL;
    jobspec_rset* alloc = jobspec_allocate_now(job->jobspec, instance_view_all(view),
                                               instance_view_free(view), reasons->options,
                                               &error);
    out[0] = '\0';
    if (alloc != NULL) {
        /* Exact below 10, then by its order of magnitude: a job leaving the queue must
         * not change the annotation of every job behind it. */
        if (ahead >= 10)
            snprintf(out, REASON_BYTES + 1, "next in line: fits now, %d+ jobs ahead",
                     ahead >= 1000 ? 1000 : ahead >= 100 ? 100 : 10);
        else if (ahead > 0)
            snprintf(out, REASON_BYTES + 1, "next in line: fits now, %d job%s ahead", ahead,
                     ahead == 1 ? "" : "s");
    } else if (error == NULL) {
        return; /* out of memory: no reason rather than a wrong one */
    } else if (strcmp(first_error_code(error), "jobspec.unsatisfiable") == 0) {
        char* summary = jobspec_error_summary(error, REASON_BYTES - 7);
        snprintf(out, REASON_BYTES + 1, "never: %s", summary != NULL ? summary : "");
        jobspec_free(summary);
    } else if (strcmp(first_error_code(error), "match.pending") != 0) {
        /* another failure (match.unsupported): no reason rather than a wrong one */
    } else if ((alloc = jobspec_allocate(job->jobspec, instance_view_up(view), reasons->options,
                                         NULL)) != NULL) {
        snprintf(out, REASON_BYTES + 1, "waiting for resources");
    } else if ((alloc = jobspec_allocate(job->jobspec, instance_view_all(view),
                                         reasons->options, NULL)) != NULL) {
        jobspec_rset* needed = jobspec_rset_intersect(instance_view_down(view), alloc);
        jobspec_hostlist* hosts = needed != NULL ? jobspec_rset_nodelist(needed) : NULL;
        char* text = hosts != NULL ? jobspec_hostlist_encode(hosts) : NULL;
        snprintf(out, REASON_BYTES + 1, "waiting for down or drained nodes%s%s",
                 text != NULL ? ": " : "", text != NULL ? text : "");
        jobspec_free(text);
        jobspec_hostlist_free(hosts);
        jobspec_rset_free(needed);
    }
    jobspec_rset_free(alloc);
    jobspec_error_free(error);
}

bool pending_reasons_waiting(void* arg) {
    const struct pending_reasons* reasons = arg;
    const size_t count = json_object_size(reasons->jobs);
    return count > 0 && count <= (size_t)reasons->depth;
}

void pending_reasons_update(struct instance_view* view, void* arg) {
    struct pending_reasons* reasons = arg;
    size_t count = json_object_size(reasons->jobs);
    double deadline;
    struct pending_job* jobs;
    const char* key;
    json_t* last;
    size_t n = 0, i;
    int ahead = 0;

    if (count == 0 || count > (size_t)reasons->depth || !(jobs = calloc(count, sizeof *jobs)))
        return;
    json_object_foreach(reasons->jobs, key, last) {
        if (look_up(reasons, strtoull(key, NULL, 10), &jobs[n]))
            n++;
    }
    qsort(jobs, n, sizeof *jobs, before);
    deadline = now() + UPDATE_SECONDS;
    for (i = 0; i < n && jobs[i].priority > 0; i++) {
        char reason[REASON_BYTES + 1];
        char id[24];
        char* text;
        if (i < reasons->cursor) {
            ahead++;
            continue;
        }
        if (i > reasons->cursor && now() > deadline) /* at least one job each update */
            break;
        if (!(text = jobspec_of(reasons, jobs[i].id)))
            continue;
        if (strlen(text) > MAX_JOBSPEC_BYTES) {
            free(text);
            ahead++;
            continue;
        }
        jobs[i].jobspec = text;
        reason_of(reasons, view, &jobs[i], ahead++, reason);
        free(text);
        key_of(jobs[i].id, id);
        last = json_object_get(reasons->jobs, id);
        if (last != NULL && strcmp(json_string_value(last), reason) != 0) {
            annotate(reasons, jobs[i].id, *reason != '\0' ? reason : NULL);
            json_object_set_new(reasons->jobs, id, json_string(reason));
        }
    }
    /* Out of time: the rest in the next update, soon. */
    reasons->cursor = i < n && jobs[i].priority > 0 ? i : 0;
    if (reasons->cursor > 0)
        instance_view_refresh(view);
    free(jobs);
}
