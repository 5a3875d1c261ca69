/* The instance's resources as its scheduler sees them, kept current inside the job
 * manager: all of R, what is up (not down, drained or excluded) and what is free (up and
 * not allocated), from resource.sched-status. It is asked again, a moment after anything
 * changes: an event of the resource journal (resource.journal: drain, undrain, online,
 * offline), or an allocation or a free the plugin reports (instance_view_refresh), when
 * the plugin still wants it then. Every request is asynchronous, so the job manager
 * never waits for it. */
#ifndef JOBSPEC_PLUGIN_INSTANCE_VIEW_H
#define JOBSPEC_PLUGIN_INSTANCE_VIEW_H

#include <stdbool.h>

#include <flux/core.h>

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

/* The resources, or NULL until the first answer has come. */
const jobspec_rset* instance_view_all(const struct instance_view* view);
const jobspec_rset* instance_view_up(const struct instance_view* view);
const jobspec_rset* instance_view_free(const struct instance_view* view);
const jobspec_rset* instance_view_down(const struct instance_view* view);

#endif
