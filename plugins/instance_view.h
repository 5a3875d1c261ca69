/* The instance as its scheduler sees it, kept current inside the job manager: all of R,
 * what is up (not down, drained or excluded) and what is free (up and not allocated),
 * from resource.sched-status; the drain reasons (resource.status), which scheduler module
 * is loaded (module.list, and Fluxion's params), and each queue's status. It is asked
 * again, a moment after anything changes: an event of the resource journal
 * (resource.journal: drain, undrain, online, offline), or an allocation or a free the
 * plugin reports (instance_view_refresh), when the plugin still wants it then. Every
 * request is asynchronous, so the job manager never waits for it. */
#ifndef JOBSPEC_PLUGIN_INSTANCE_VIEW_H
#define JOBSPEC_PLUGIN_INSTANCE_VIEW_H

#include <stdbool.h>

#include <flux/core.h>
#include <jansson.h>

#include <jobspec/jobspec.h>

struct instance_view;

/* Called after each new view has been read. */
typedef void (*instance_view_changed_f)(struct instance_view* view, void* arg);
/* Whether a view after an allocation or a free is of use now (a job waits for a reason);
 * a change of the resources themselves is always read. */
typedef bool (*instance_view_wanted_f)(void* arg);

/* Starts watching; NULL (errno set) when the journal cannot be asked. `changed` and
 * `wanted` may be NULL (then every change is read). */
struct instance_view* instance_view_create(flux_t* h, instance_view_changed_f changed,
                                           instance_view_wanted_f wanted, void* arg);
void instance_view_destroy(struct instance_view* view);

/* Something changed (a job was allocated or freed): read the view again soon. */
void instance_view_refresh(struct instance_view* view);
/* Someone asks for the instance as it is now (a queue's start or stop comes with no
 * event): all of it read again soon, whatever `wanted` says. Returns the number the view
 * read then will have: instance_view_number is at least that once it is read. */
unsigned instance_view_read_all(struct instance_view* view);
/* The number of the request the view is from (0 before the first). */
unsigned instance_view_number(const struct instance_view* view);

/* The resources, or NULL until the first answer has come. */
const jobspec_rset* instance_view_all(const struct instance_view* view);
const jobspec_rset* instance_view_up(const struct instance_view* view);
const jobspec_rset* instance_view_free(const struct instance_view* view);
const jobspec_rset* instance_view_down(const struct instance_view* view);
/* The ranks that are down, or NULL until the first answer. */
const jobspec_idset* instance_view_down_ranks(const struct instance_view* view);
/* resource.status's drain map ({IDSET: {"reason", "timestamp"}}), the queues' statuses
 * ({NAME: {"start", "stop_reason"}}, "" for the anonymous queue), the scheduler module
 * and Fluxion's params (JSON text): each NULL until known. */
json_t* instance_view_drain(const struct instance_view* view);
json_t* instance_view_queues(const struct instance_view* view);
const char* instance_view_scheduler(const struct instance_view* view);
const char* instance_view_fluxion(const struct instance_view* view);

#endif
