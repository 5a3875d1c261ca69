#include "instance_view.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

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
    flux_future_t* status; /* the request in flight, if any */
    flux_watcher_t* timer;
    bool dirty;            /* changed since the request in flight was sent */
    bool resources_dirty;  /* ... by a resource event, which is always read */
    bool logged;           /* a failure was logged: not again */
    jobspec_rset* all;
    jobspec_rset* up;
    jobspec_rset* free;
    jobspec_rset* down;
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

static void send_status(struct instance_view* view);

static void status_cb(flux_future_t* f, void* arg) {
    struct instance_view* view = arg;
    json_t *all, *down, *allocated;
    jobspec_rset *a = NULL, *d = NULL, *used = NULL, *up = NULL, *free_now = NULL;

    if (flux_rpc_get_unpack(f, "{s:o s:o s:o}", "all", &all, "down", &down, "allocated",
                            &allocated) < 0) {
        if (view->all != NULL)
            log_once(view, "resource.sched-status failed: the view of the resources is stale");
        else {
            /* While the instance starts (the resources or the scheduler not yet there):
             * asked again a second later, quietly (it is no error). */
            view->dirty = true;
            flux_timer_watcher_reset(view->timer, RETRY_DELAY, 0.);
            flux_watcher_start(view->timer);
        }
    } else if (!(a = member(all, view->r_options)) || !(d = member(down, view->r_options)) ||
             !(used = member(allocated, view->r_options)) ||
             !(up = jobspec_rset_difference(a, d)) ||
             !(free_now = jobspec_rset_difference(up, used)))
        log_once(view, "resource.sched-status: an R jobspec cannot read");
    else {
        replace(&view->all, a);
        replace(&view->down, d);
        replace(&view->up, up);
        replace(&view->free, free_now);
        a = d = up = free_now = NULL;
    }
    jobspec_rset_free(a);
    jobspec_rset_free(d);
    jobspec_rset_free(used);
    jobspec_rset_free(up);
    jobspec_rset_free(free_now);
    flux_future_destroy(f);
    view->status = NULL;
    if (view->dirty && !flux_watcher_is_active(view->timer))
        instance_view_refresh(view);
    if (view->all != NULL && view->changed != NULL)
        view->changed(view, view->arg);
}

static void send_status(struct instance_view* view) {
    flux_future_t* f = flux_rpc(view->h, "resource.sched-status", NULL, 0, 0);
    if (f == NULL || flux_future_then(f, ANSWER_SECONDS, status_cb, view) < 0) {
        flux_future_destroy(f);
        log_once(view, "cannot ask resource.sched-status");
        return;
    }
    view->status = f;
    view->dirty = view->resources_dirty = false;
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
