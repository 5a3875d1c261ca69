#define _POSIX_C_SOURCE 200809L /* strdup */
#include "instance_view.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

/* How long after a change the view is asked again: changes that come together (a burst
 * of allocations) are read once. */
#define REFRESH_DELAY 0.25
/* How long an answer is waited for: a request the resource module drops (reloaded)
 * must not leave the view waiting for ever. */
#define ANSWER_SECONDS 30.
/* How long after a failed first request it is tried again. */
#define RETRY_DELAY 1.0
/* The largest R read: an instance's, however large. */
#define MAX_R_BYTES "1073741824"

struct instance_view {
    flux_t* h;
    instance_view_changed_f changed;
    instance_view_wanted_f wanted;
    void* arg;
    flux_future_t* journal;
    flux_future_t* status; /* the request in flight (a composite), if any */
    flux_watcher_t* timer;
    bool dirty;            /* changed since the request in flight was sent */
    bool resources_dirty;  /* ... by a resource event, which is always read */
    bool logged;           /* a failure was logged: not again */
    unsigned sent;         /* requests sent: the last is the one in flight, if any */
    unsigned read;         /* the number of the request the view is from */
    jobspec_rset* all;
    jobspec_rset* up;
    jobspec_rset* free;
    jobspec_rset* down;
    jobspec_idset* down_ranks;
    json_t* drain;         /* resource.status's drain map */
    json_t* queues;        /* name -> {start, stop_reason} */
    char* scheduler;       /* the scheduler module, or NULL */
    char* fluxion;         /* qmanager's params answer (JSON), or NULL */
    jobspec_options* r_options;
};

static void log_once(struct instance_view* view, const char* what) {
    if (!view->logged)
        flux_log(view->h, LOG_ERR, "jobspec.so: %s", what);
    view->logged = true;
}

/* One member of resource.sched-status's answer as a jobspec_rset; NULL if unreadable.
 * `options` let a large instance's R through (the library's default input limit is
 * for a file a user gives). */
static jobspec_rset* member(json_t* r, const jobspec_options* options) {
    char* text = json_dumps(r, JSON_COMPACT);
    jobspec_rset* out = text != NULL ? jobspec_rset_read(text, options, NULL) : NULL;
    free(text);
    return out;
}

static void replace(jobspec_rset** slot, jobspec_rset* value) {
    jobspec_rset_free(*slot);
    *slot = value;
}

static void replace_json(json_t** slot, json_t* value) {
    json_decref(*slot);
    *slot = value;
}

static void replace_text(char** slot, char* value) {
    free(*slot);
    *slot = value;
}

/* The resources from resource.sched-status's answer; false when they cannot be read. */
static bool read_resources(struct instance_view* view, flux_future_t* f) {
    json_t *all, *down, *allocated;
    jobspec_rset *a = NULL, *d = NULL, *used = NULL, *up = NULL, *free_now = NULL;
    bool ok = false;
    if (flux_rpc_get_unpack(f, "{s:o s:o s:o}", "all", &all, "down", &down, "allocated",
                            &allocated) < 0)
        return false;
    if (!(a = member(all, view->r_options)) || !(d = member(down, view->r_options)) ||
        !(used = member(allocated, view->r_options)) || !(up = jobspec_rset_difference(a, d)) ||
        !(free_now = jobspec_rset_difference(up, used))) {
        log_once(view, "resource.sched-status: an R jobspec cannot read");
    } else {
        jobspec_idset_free(view->down_ranks);
        view->down_ranks = jobspec_rset_ranks(d);
        replace(&view->all, a);
        replace(&view->down, d);
        replace(&view->up, up);
        replace(&view->free, free_now);
        a = d = up = free_now = NULL;
        ok = true;
    }
    jobspec_rset_free(a);
    jobspec_rset_free(d);
    jobspec_rset_free(used);
    jobspec_rset_free(up);
    jobspec_rset_free(free_now);
    return ok;
}

/* The scheduler module among module.list's answer: the first whose name starts with
 * "sched-" and is not one of Fluxion's helpers. */
static char* scheduler_of(flux_future_t* f) {
    json_t* mods = NULL;
    size_t i;
    json_t* m;
    if (flux_rpc_get_unpack(f, "{s:o}", "mods", &mods) < 0 || !json_is_array(mods))
        return NULL;
    json_array_foreach(mods, i, m) {
        const char* name = json_string_value(json_object_get(m, "name"));
        if (name != NULL && strncmp(name, "sched-", 6) == 0 &&
            strcmp(name, "sched-fluxion-resource") != 0 &&
            strcmp(name, "sched-fluxion-feasibility") != 0)
            return strdup(name);
    }
    return NULL;
}

static void send_status(struct instance_view* view);

/* The child `name` of the composite `f` when it has its answer, else NULL: a composite
 * that timed out may hold children still waiting, which must not be waited for here. */
static flux_future_t* answered(flux_future_t* f, const char* name) {
    flux_future_t* child = flux_future_get_child(f, name);
    return child != NULL && flux_future_is_ready(child) ? child : NULL;
}

/* The second round: each queue's status, and Fluxion's params. */
static void queues_cb(flux_future_t* f, void* arg) {
    struct instance_view* view = arg;
    json_t* queues = json_object();
    const char* name;
    for (name = flux_future_first_child(f); name != NULL; name = flux_future_next_child(f)) {
        flux_future_t* child = answered(f, name);
        const char* answer = NULL;
        if (child == NULL)
            continue;
        if (strcmp(name, "params") == 0) {
            if (flux_rpc_get(child, &answer) == 0 && answer != NULL)
                replace_text(&view->fluxion, strdup(answer));
            continue;
        }
        int start = 1;
        const char* reason = "";
        const char* blocked = NULL;
        if (queues != NULL &&
            flux_rpc_get_unpack(child, "{s?b s?s s?s}", "start", &start, "stop_reason", &reason,
                                "blocked", &blocked) == 0) /* name is "queue:NAME" */
            json_object_set_new(
                queues, name + 6,
                json_pack("{s:b s:s}", "start", start, "stop_reason",
                          blocked != NULL && strcmp(blocked, "scheduler") == 0
                              ? "no scheduler is loaded"
                              : reason));
    }
    replace_json(&view->queues, queues);
    flux_future_destroy(f);
    view->status = NULL;
    view->read = view->sent;
    if (view->dirty && !flux_watcher_is_active(view->timer))
        instance_view_refresh(view);
    if (view->all != NULL && view->changed != NULL)
        view->changed(view, view->arg);
}

static void status_cb(flux_future_t* f, void* arg) {
    struct instance_view* view = arg;
    flux_future_t* queues = flux_future_wait_all_create();
    json_t* list = NULL;
    if (queues != NULL)
        flux_future_set_flux(queues, view->h);
    json_t* drain = NULL;
    flux_future_t* status = answered(f, "status");
    flux_future_t* drained = answered(f, "drain");
    flux_future_t* modules = answered(f, "modules");
    flux_future_t* names = answered(f, "queues");
    bool read = status != NULL && read_resources(view, status);
    if (drained != NULL && flux_rpc_get_unpack(drained, "{s:o}", "drain", &drain) == 0)
        replace_json(&view->drain, json_incref(drain));
    if (modules != NULL)
        replace_text(&view->scheduler, scheduler_of(modules));
    if (names != NULL)
        (void)flux_rpc_get_unpack(names, "{s:o}", "queues", &list);
    if (queues != NULL) {
        size_t i;
        json_t* q;
        char key[160];
        if (json_array_size(list) == 0) /* the anonymous queue */
            flux_future_push(queues, "queue:",
                             flux_rpc(view->h, "job-manager.queue-status", "{}", 0, 0));
        json_array_foreach(list, i, q) {
            if (!json_is_string(q) || strlen(json_string_value(q)) > 150)
                continue;
            snprintf(key, sizeof key, "queue:%s", json_string_value(q));
            flux_future_push(queues, key,
                             flux_rpc_pack(view->h, "job-manager.queue-status", 0, 0, "{s:s}",
                                           "name", json_string_value(q)));
        }
        if (view->scheduler != NULL && strcmp(view->scheduler, "sched-fluxion-qmanager") == 0)
            flux_future_push(queues, "params",
                             flux_rpc(view->h, "sched-fluxion-qmanager.params", NULL, 0, 0));
    }
    flux_future_destroy(f);
    view->status = NULL;
    if (!read) {
        flux_future_destroy(queues);
        if (view->all != NULL) {
            log_once(view, "resource.sched-status failed: the view of the resources is stale");
            view->read = view->sent; /* as read as it can be: no one waits for ever */
            if (view->changed != NULL)
                view->changed(view, view->arg);
        } else {
            /* While the instance starts (the resources or the scheduler not yet there):
             * asked again a second later, quietly (it is no error). */
            view->dirty = true;
            flux_timer_watcher_reset(view->timer, RETRY_DELAY, 0.);
            flux_watcher_start(view->timer);
        }
        return;
    }
    if (queues == NULL || flux_future_then(queues, ANSWER_SECONDS, queues_cb, view) < 0) {
        flux_future_destroy(queues);
        log_once(view, "cannot ask the queues' status");
        return;
    }
    view->status = queues;
}

static void send_status(struct instance_view* view) {
    flux_future_t* f = flux_future_wait_all_create();
    if (f != NULL)
        flux_future_set_flux(f, view->h);
    if (f == NULL ||
        flux_future_push(f, "status", flux_rpc(view->h, "resource.sched-status", NULL, 0, 0)) <
            0 ||
        flux_future_push(f, "drain", flux_rpc(view->h, "resource.status", NULL, 0, 0)) < 0 ||
        flux_future_push(f, "modules", flux_rpc(view->h, "module.list", NULL, 0, 0)) < 0 ||
        flux_future_push(f, "queues", flux_rpc(view->h, "job-manager.queue-list", "{}", 0, 0)) <
            0 ||
        flux_future_then(f, ANSWER_SECONDS, status_cb, view) < 0) {
        flux_future_destroy(f);
        log_once(view, "cannot ask resource.sched-status");
        view->dirty = true; /* asked again a second later: no one waits for ever */
        flux_timer_watcher_reset(view->timer, RETRY_DELAY, 0.);
        flux_watcher_start(view->timer);
        return;
    }
    view->status = f;
    view->dirty = view->resources_dirty = false;
    view->sent++;
}

static void timer_cb(flux_reactor_t* r, flux_watcher_t* w, int revents, void* arg) {
    struct instance_view* view = arg;
    (void)r;
    (void)w;
    (void)revents;
    if (view->status != NULL)
        return; /* asked again when the answer in flight comes */
    if (view->all == NULL || view->resources_dirty || view->wanted == NULL ||
        view->wanted(view->arg))
        send_status(view);
    else
        view->dirty = false; /* nobody waits for this one: no request at all */
}

void instance_view_refresh(struct instance_view* view) {
    view->dirty = true;
    if (view->status != NULL || flux_watcher_is_active(view->timer))
        return; /* asked again when the answer in flight comes, or when the timer fires */
    flux_timer_watcher_reset(view->timer, REFRESH_DELAY, 0.);
    flux_watcher_start(view->timer);
}

unsigned instance_view_read_all(struct instance_view* view) {
    const unsigned next = view->sent + 1;
    view->resources_dirty = true;
    if (view->status == NULL) { /* asked now: someone waits */
        flux_watcher_stop(view->timer);
        send_status(view);
    } else {
        instance_view_refresh(view);
    }
    return next;
}

unsigned instance_view_number(const struct instance_view* view) {
    return view->read;
}

/* Each event of the resource journal (the backlog first) may change what is up. */
static void journal_cb(flux_future_t* f, void* arg) {
    struct instance_view* view = arg;
    if (flux_rpc_get(f, NULL) < 0) {
        if (errno != ENODATA)
            log_once(view, "resource.journal failed: drains and node changes go unseen");
        return;
    }
    flux_future_reset(f);
    view->resources_dirty = true;
    instance_view_refresh(view);
}

struct instance_view* instance_view_create(flux_t* h, instance_view_changed_f changed,
                                           instance_view_wanted_f wanted, void* arg) {
    struct instance_view* view = calloc(1, sizeof *view);
    if (view == NULL)
        return NULL;
    view->h = h;
    view->changed = changed;
    view->wanted = wanted;
    if (!(view->r_options = jobspec_options_new()) ||
        !jobspec_options_set(view->r_options, "max-input-bytes", MAX_R_BYTES, NULL)) {
        instance_view_destroy(view);
        return NULL;
    }
    view->arg = arg;
    view->timer = flux_timer_watcher_create(flux_get_reactor(h), REFRESH_DELAY, 0., timer_cb, view);
    view->journal = flux_rpc(h, "resource.journal", NULL, 0, FLUX_RPC_STREAMING);
    if (view->timer == NULL || view->journal == NULL ||
        flux_future_then(view->journal, -1., journal_cb, view) < 0) {
        instance_view_destroy(view);
        return NULL;
    }
    send_status(view); /* the first view at once: until it comes, nothing is known */
    return view;
}

void instance_view_destroy(struct instance_view* view) {
    if (view == NULL)
        return;
    flux_watcher_destroy(view->timer);
    if (view->journal != NULL) {
        /* The journal streams until told to stop (the plugin may be removed while the
         * job manager runs on). */
        flux_future_t* f = flux_rpc_pack(view->h, "resource.journal-cancel", 0,
                                         FLUX_RPC_NORESPONSE, "{s:i}", "matchtag",
                                         (int)flux_rpc_get_matchtag(view->journal));
        flux_future_destroy(f);
        flux_future_destroy(view->journal);
    }
    flux_future_destroy(view->status);
    jobspec_rset_free(view->all);
    jobspec_rset_free(view->up);
    jobspec_rset_free(view->free);
    jobspec_rset_free(view->down);
    jobspec_idset_free(view->down_ranks);
    json_decref(view->drain);
    json_decref(view->queues);
    free(view->scheduler);
    free(view->fluxion);
    jobspec_options_free(view->r_options);
    free(view);
}

const jobspec_rset* instance_view_all(const struct instance_view* view) {
    return view->all;
}

const jobspec_rset* instance_view_up(const struct instance_view* view) {
    return view->up;
}

const jobspec_rset* instance_view_free(const struct instance_view* view) {
    return view->free;
}

const jobspec_rset* instance_view_down(const struct instance_view* view) {
    return view->down;
}

const jobspec_idset* instance_view_down_ranks(const struct instance_view* view) {
    return view->down_ranks;
}

json_t* instance_view_drain(const struct instance_view* view) {
    return view->drain;
}

json_t* instance_view_queues(const struct instance_view* view) {
    return view->queues;
}

const char* instance_view_scheduler(const struct instance_view* view) {
    return view->scheduler;
}

const char* instance_view_fluxion(const struct instance_view* view) {
    return view->fluxion;
}
