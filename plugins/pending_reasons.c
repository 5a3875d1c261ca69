#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "pending_reasons.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "forecast_answers.h"

/* When a slice stops starting work: the next slice comes at once after the reactor has
 * run. A piece of work started before then is at most STEPS_PER_LOOK steps or one job's
 * explanation (max-match-steps: 100000 steps, about 1.6 ms), so a slice takes at most
 * about 5 ms of the job manager's time. */
#define SLICE_SECONDS 0.003
/* The forecast's work between two looks at the clock, in steps (about 10 ns each). */
#define STEPS_PER_LOOK 20000
/* How long after a change the forecast is made again: changes that come together are
 * forecast once. */
#define RUN_DELAY 0.25

enum phase { IDLE, FORECAST, PUBLISH, ANSWER };

struct pending_reasons {
    flux_plugin_t* p;
    jobspec_instance* instance;
    int depth;
    /* The most of the job manager's time the forecasts take, on average (a fraction):
     * after a run whose slices took t seconds, the next starts no sooner than
     * (1 / share - 1) * t later (if that is longer than RUN_DELAY), so costly jobs make
     * the reasons follow more slowly rather than slow everyone's submissions. */
    double share;
    json_t* shown;  /* "ID" -> [reason, eta] last annotated */
    enum phase phase;
    jobspec_forecast* forecast; /* the run under way */
    jobspec_forecast* last;     /* the last finished run, for flux jobtap query */
    size_t cursor;
    bool stale;     /* something changed since the last run started */
    unsigned runs;  /* runs started */
    unsigned last_run; /* the number of the run `last` is */
    json_t* owners; /* "ID" -> userid of each pending job */
    struct instance_view* view; /* known from its first change */
    struct forecast_answers* answers; /* the requests, the first answered in ANSWER */
    bool ready;     /* the resources are known */
    double spent;   /* seconds of slices in this run */
    double busy;    /* seconds of slices in every run since loaded */
    double rest_until; /* monotonic time before which no run starts */
    flux_watcher_t* slice;
    flux_watcher_t* delay;
};

static double now_monotonic(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double now_epoch(void) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void key_of(flux_jobid_t id, char key[24]) {
    snprintf(key, 24, "%" PRIu64, (uint64_t)id);
}

/* Sets (or with reason NULL clears) the job's annotations: a volatile memo, which the job
 * manager applies to annotations.user and publishes, as `flux job memo --volatile`. */
static void annotate(struct pending_reasons* reasons, flux_jobid_t id, const char* reason,
                     double eta) {
    flux_t* h = flux_jobtap_get_flux(reasons->p);
    json_t* memo = json_pack("{s:s? s:o}", PENDING_REASON_KEY, reason, PENDING_ETA_KEY,
                             eta > 0 ? json_real(eta) : json_null());
    flux_future_t* f = memo != NULL
                           ? flux_rpc_pack(h, "job-manager.memo", FLUX_NODEID_ANY,
                                           FLUX_RPC_NORESPONSE, "{s:I s:b s:O}", "id",
                                           (json_int_t)id, "volatile", 1, "memo", memo)
                           : NULL;
    flux_future_destroy(f);
    json_decref(memo);
}

/* Clears the annotations of a job that had some. */
static void forget_shown(struct pending_reasons* reasons, flux_jobid_t id) {
    char key[24];
    key_of(id, key);
    if (json_object_get(reasons->shown, key) == NULL)
        return;
    annotate(reasons, id, NULL, 0);
    json_object_del(reasons->shown, key);
}

/* Forgets the owner of a job no longer pending. */
static void forget_owner(struct pending_reasons* reasons, flux_jobid_t id) {
    char key[24];
    key_of(id, key);
    (void)json_object_del(reasons->owners, key);
}

static void slice_cb(flux_reactor_t* r, flux_watcher_t* w, int revents, void* arg);

/* Arms the timer that starts the next run, RUN_DELAY from now or after the rest that
 * follows the last run, whichever is later. */
static void schedule(struct pending_reasons* reasons) {
    if (!reasons->ready || reasons->phase != IDLE || flux_watcher_is_active(reasons->delay))
        return;
    const double rest = reasons->rest_until - now_monotonic();
    flux_timer_watcher_reset(reasons->delay, rest > RUN_DELAY ? rest : RUN_DELAY, 0.);
    flux_watcher_start(reasons->delay);
}

/* A request is served without waiting for the rest (the user waits for it); what it
 * costs is counted in the rest before the next run that no one asked for. */
static void schedule_asked(struct pending_reasons* reasons) {
    if (!reasons->ready || reasons->phase != IDLE)
        return;
    flux_watcher_stop(reasons->delay);
    flux_timer_watcher_reset(reasons->delay, 0., 0.);
    flux_watcher_start(reasons->delay);
}

static void run_soon(struct pending_reasons* reasons) {
    reasons->stale = true;
    schedule(reasons);
}

/* Whether the first request can be answered with the last forecast. */
static bool answerable(const struct pending_reasons* reasons) {
    return forecast_answers_ready(reasons->answers, reasons->last != NULL ? reasons->last_run : 0,
                                  !reasons->stale);
}

static void delay_cb(flux_reactor_t* r, flux_watcher_t* w, int revents, void* arg) {
    struct pending_reasons* reasons = arg;
    const double began = now_monotonic();
    (void)r;
    (void)w;
    (void)revents;
    if (reasons->phase != IDLE)
        return;
    if (jobspec_instance_considered(reasons->instance) > (size_t)reasons->depth) {
        /* Too many to follow: what was said would go stale, so nothing is said. */
        const char* key;
        json_t* value;
        void* tmp;
        json_object_foreach_safe(reasons->shown, tmp, key, value) {
            annotate(reasons, strtoull(key, NULL, 10), NULL, 0);
            json_object_del(reasons->shown, key);
        }
        char why[128];
        snprintf(why, sizeof why,
                 "more than %d jobs wait for the scheduler: no forecast (reason-depth)",
                 reasons->depth);
        forecast_answers_refuse(reasons->answers, EOVERFLOW, why);
        return;
    }
    if (answerable(reasons)) {
        if (!forecast_answers_start(reasons->answers, reasons->last)) {
            schedule_asked(reasons); /* it could not be answered: the next */
            return;
        }
        reasons->phase = ANSWER;
    } else if (reasons->stale || reasons->last == NULL) {
        if (!(reasons->forecast = jobspec_forecast_start(reasons->instance, now_epoch())))
            return;
        reasons->phase = FORECAST;
        reasons->cursor = 0;
        reasons->stale = false;
        reasons->runs++;
    } else {
        return;
    }
    reasons->spent = now_monotonic() - began; /* the copy of the instance counts too */
    reasons->busy += reasons->spent;
    flux_watcher_start(reasons->slice);
}

/* Sets the annotations of every job whose reason or estimate changed. */
static bool publish_step(struct pending_reasons* reasons) {
    jobspec_forecast* f = reasons->forecast;
    const size_t n = jobspec_forecast_count(f);
    if (reasons->cursor >= n)
        return false;
    const size_t i = reasons->cursor++;
    const flux_jobid_t id = jobspec_forecast_id(f, i);
    char* reason = jobspec_forecast_reason(f, i);
    const double eta = jobspec_forecast_eta(f, i);
    char key[24];
    key_of(id, key);
    json_t* was = json_object_get(reasons->shown, key);
    const char* said = was != NULL ? json_string_value(json_array_get(was, 0)) : "";
    const double said_eta = was != NULL ? json_real_value(json_array_get(was, 1)) : 0;
    if (reason != NULL && (strcmp(reason, said != NULL ? said : "") != 0 ||
                           fabs(eta - said_eta) >= 1)) {
        if (*reason == '\0' && eta <= 0) {
            forget_shown(reasons, id);
        } else {
            annotate(reasons, id, *reason != '\0' ? reason : NULL, eta);
            json_object_set_new(reasons->shown, key, json_pack("[s f]", reason, eta));
        }
    }
    jobspec_free(reason);
    return true;
}

static void slice_cb(flux_reactor_t* r, flux_watcher_t* w, int revents, void* arg) {
    struct pending_reasons* reasons = arg;
    const double began = now_monotonic();
    const double deadline = began + SLICE_SECONDS;
    (void)r;
    (void)revents;
    while (now_monotonic() < deadline) {
        if (reasons->phase == FORECAST) {
            if (jobspec_forecast_advance(reasons->forecast, STEPS_PER_LOOK))
                reasons->phase = PUBLISH;
        } else if (reasons->phase == PUBLISH) {
            if (!publish_step(reasons)) {
                /* Kept as it is: written as JSON only when asked for. */
                jobspec_forecast_free(reasons->last);
                reasons->last = reasons->forecast;
                reasons->last_run = reasons->runs;
                reasons->forecast = NULL;
                reasons->phase = IDLE;
            }
        } else if (reasons->phase == ANSWER) {
            if (!forecast_answers_step(reasons->answers, reasons->last, reasons->owners))
                reasons->phase = IDLE;
        } else {
            break;
        }
    }
    if (reasons->phase == ANSWER)
        forecast_answers_flush(reasons->answers);
    const double ended = now_monotonic();
    reasons->spent += ended - began;
    reasons->busy += ended - began;
    if (reasons->phase == IDLE) {
        flux_watcher_stop(w);
        reasons->rest_until = ended + reasons->spent * (1. / reasons->share - 1.);
        reasons->spent = 0;
        if (forecast_answers_waiting(reasons->answers))
            schedule_asked(reasons);
        else if (reasons->stale)
            schedule(reasons);
    }
}

/* job-manager.jobspec.forecast: answered with the last forecast once it is of the
 * instance as it was when asked. Queues start and stop with no event: the whole view is
 * read again first. */
static void request_cb(flux_t* h, flux_msg_handler_t* mh, const flux_msg_t* msg, void* arg) {
    struct pending_reasons* reasons = arg;
    (void)mh;
    if (!reasons->ready) {
        (void)flux_respond_error(h, msg, EAGAIN, "the resources are not known yet");
        return;
    }
    if (forecast_answers_add(reasons->answers, msg, instance_view_read_all(reasons->view)))
        schedule_asked(reasons);
}

struct pending_reasons* pending_reasons_create(flux_plugin_t* p, const jobspec_options* options,
                                               int depth, int share) {
    flux_reactor_t* reactor = flux_get_reactor(flux_jobtap_get_flux(p));
    struct pending_reasons* reasons = calloc(1, sizeof *reasons);
    if (reasons == NULL)
        return NULL;
    reasons->p = p;
    reasons->depth = depth;
    reasons->share = share / 100.;
    reasons->stale = true;
    if (!(reasons->shown = json_object()) || !(reasons->owners = json_object()) ||
        !(reasons->answers = forecast_answers_create(flux_jobtap_get_flux(p))) ||
        !(reasons->instance = jobspec_instance_new(options)) ||
        flux_jobtap_service_register_ex(p, "forecast", FLUX_ROLE_USER, request_cb, reasons) < 0 ||
        !(reasons->slice = flux_idle_watcher_create(reactor, slice_cb, reasons)) ||
        !(reasons->delay = flux_timer_watcher_create(reactor, RUN_DELAY, 0., delay_cb, reasons))) {
        pending_reasons_destroy(reasons);
        return NULL;
    }
    return reasons;
}

void pending_reasons_destroy(struct pending_reasons* reasons) {
    if (reasons == NULL)
        return;
    flux_watcher_destroy(reasons->slice);
    flux_watcher_destroy(reasons->delay);
    jobspec_forecast_free(reasons->forecast);
    jobspec_forecast_free(reasons->last);
    jobspec_instance_free(reasons->instance);
    json_decref(reasons->shown);
    json_decref(reasons->owners);
    forecast_answers_destroy(reasons->answers);
    free(reasons);
}

static const char* state_name(int state) {
    return state == FLUX_JOB_STATE_DEPEND     ? "depend"
           : state == FLUX_JOB_STATE_PRIORITY ? "priority"
           : state == FLUX_JOB_STATE_SCHED    ? "sched"
                                              : NULL;
}

/* The job of `args` among the pending ones (its jobspec read here, once). */
static void add_pending(struct pending_reasons* reasons, flux_plugin_arg_t* args,
                        flux_jobid_t id, const char* state) {
    json_t* jobspec = NULL;
    json_int_t priority = 0;
    json_int_t userid = -1;
    int urgency = 16;
    double t_submit = 0;
    const char* queue = NULL;
    char* text;
    char key[24];
    if (flux_plugin_arg_unpack(args, FLUX_PLUGIN_ARG_IN, "{s:o s?I s?i s?F s?I}", "jobspec",
                               &jobspec, "priority", &priority, "urgency", &urgency,
                               "t_submit", &t_submit, "userid", &userid) < 0 ||
        !(text = json_dumps(jobspec, JSON_COMPACT)))
        return;
    (void)json_unpack(jobspec, "{s:{s:{s:s}}}", "attributes", "system", "queue", &queue);
    if (jobspec_instance_add_pending(reasons->instance, id, text, state, priority,
                                     (uint32_t)urgency, t_submit, queue, NULL)) {
        (void)flux_jobtap_job_subscribe(reasons->p, id);
        key_of(id, key);
        if (userid >= 0)
            (void)json_object_set_new(reasons->owners, key, json_integer(userid));
    }
    free(text);
}

/* The job of `args` among the running ones, with its R and expiration. */
static void add_running(struct pending_reasons* reasons, flux_plugin_arg_t* args,
                        flux_jobid_t id) {
    json_t* R = NULL;
    double expiration = 0;
    char* text;
    if (flux_plugin_arg_unpack(args, FLUX_PLUGIN_ARG_IN, "{s:o}", "R", &R) < 0 ||
        !(text = json_dumps(R, JSON_COMPACT)))
        return;
    (void)json_unpack(R, "{s:{s?F}}", "execution", "expiration", &expiration);
    (void)jobspec_instance_add_running(reasons->instance, id, text, expiration, NULL);
    free(text);
}

void pending_reasons_job(struct pending_reasons* reasons, const char* topic,
                         flux_plugin_arg_t* args) {
    json_int_t id = 0;
    json_int_t priority = 0;
    int state = 0;
    int urgency = 16;
    if (flux_plugin_arg_unpack(args, FLUX_PLUGIN_ARG_IN, "{s:I s:i s?I s?i}", "id", &id, "state",
                               &state, "priority", &priority, "urgency", &urgency) < 0)
        return;
    const char* pending = state_name(state);
    if (strcmp(topic, "job.inactive-add") == 0 || state == FLUX_JOB_STATE_INACTIVE) {
        if (jobspec_instance_remove(reasons->instance, (uint64_t)id))
            run_soon(reasons);
        forget_shown(reasons, (flux_jobid_t)id);
        forget_owner(reasons, (flux_jobid_t)id);
        return;
    }
    if (state == FLUX_JOB_STATE_RUN || state == FLUX_JOB_STATE_CLEANUP) {
        forget_shown(reasons, (flux_jobid_t)id);
        forget_owner(reasons, (flux_jobid_t)id);
        if (state == FLUX_JOB_STATE_RUN || strcmp(topic, "job.create") == 0)
            add_running(reasons, args, (flux_jobid_t)id);
        flux_jobtap_job_unsubscribe(reasons->p, (flux_jobid_t)id);
        run_soon(reasons);
        return;
    }
    if (pending == NULL)
        return;
    if (!jobspec_instance_update_pending(reasons->instance, (uint64_t)id, pending, priority,
                                         (uint32_t)urgency))
        add_pending(reasons, args, (flux_jobid_t)id, pending);
    run_soon(reasons);
}

void pending_reasons_update(struct instance_view* view, void* arg) {
    struct pending_reasons* reasons = arg;
    json_t* drain = instance_view_drain(view);
    json_t* queues = instance_view_queues(view);
    const char* key;
    json_t* value;
    if (instance_view_all(view) == NULL)
        return;
    (void)jobspec_instance_set_resources(reasons->instance, instance_view_all(view),
                                         instance_view_down_ranks(view), NULL);
    json_object_foreach(drain, key, value) {
        jobspec_idset* ranks = jobspec_idset_parse(key, NULL);
        const char* why = json_string_value(json_object_get(value, "reason"));
        for (int64_t r = ranks != NULL ? jobspec_idset_first(ranks) : -1; r >= 0;
             r = jobspec_idset_next(ranks, (uint64_t)r))
            jobspec_instance_set_drained(reasons->instance, (uint64_t)r, true, why);
        jobspec_idset_free(ranks);
    }
    json_object_foreach(queues, key, value) {
        jobspec_instance_set_queue(reasons->instance, key,
                                   json_is_true(json_object_get(value, "start")),
                                   json_string_value(json_object_get(value, "stop_reason")));
    }
    const char* scheduler = instance_view_scheduler(view);
    (void)jobspec_instance_set_scheduler(reasons->instance, scheduler != NULL ? scheduler : "none",
                                         NULL, instance_view_fluxion(view), NULL);
    reasons->ready = true;
    reasons->view = view;
    const bool viewed =
        forecast_answers_viewed(reasons->answers, instance_view_number(view), reasons->runs);
    run_soon(reasons);
    if (viewed)
        schedule_asked(reasons);
}

bool pending_reasons_waiting(void* arg) {
    const struct pending_reasons* reasons = arg;
    return jobspec_instance_considered(reasons->instance) > 0;
}

json_t* pending_reasons_query(struct pending_reasons* reasons) {
    char* text = jobspec_instance_json(reasons->instance, now_epoch());
    json_t* instance = text != NULL ? json_loads(text, 0, NULL) : NULL;
    jobspec_free(text);
    text = jobspec_forecast_json(reasons->last, NULL);
    json_t* forecast = text != NULL ? json_loads(text, 0, NULL) : NULL;
    jobspec_free(text);
    return json_pack("{s:o s:o s:{s:i s:f}}", "instance", instance != NULL ? instance : json_null(),
                     "forecast", forecast != NULL ? forecast : json_null(), "cost", "runs",
                     (json_int_t)reasons->runs, "seconds", reasons->busy);
}
