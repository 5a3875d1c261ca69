/* Why each job the scheduler passes over is not running, as a short annotation that
 * `flux jobs -o '{user.jobspec_reason}'` shows: the jobs in SCHED are followed; after
 * each new view of the resources (an allocation, a free, a resource event) each is
 * placed on it by jobspec_allocate, in priority order, and its annotation set (a volatile
 * memo, nothing written to the KVS) when the reason changed; it is cleared when the job
 * leaves SCHED. Nothing is done while more than `depth` jobs are in SCHED, and an update
 * takes at most 5 ms of the job manager's time: the jobs it did not reach are placed in
 * the next update, a moment later, which starts where it stopped. */
#ifndef JOBSPEC_PLUGIN_PENDING_REASONS_H
#define JOBSPEC_PLUGIN_PENDING_REASONS_H

#include <flux/core.h>
#include <flux/jobtap.h>

#include <jobspec/jobspec.h>

#include "instance_view.h"

/* The annotation's key under annotations.user. */
#define PENDING_REASON_KEY "jobspec_reason"

struct pending_reasons;

/* NULL (errno set) when out of memory. `options` are used to read jobspecs (and hold
 * the instance's configuration, for queues); both must outlive the result. */
struct pending_reasons* pending_reasons_create(flux_plugin_t* p, const jobspec_options* options,
                                               int depth);
void pending_reasons_destroy(struct pending_reasons* reasons);

/* The job entered SCHED / left it (its annotation is cleared if it had one). */
void pending_reasons_add(struct pending_reasons* reasons, flux_jobid_t id);
void pending_reasons_remove(struct pending_reasons* reasons, flux_jobid_t id);

/* Recomputes every reason on `view` (an instance_view_changed_f). */
void pending_reasons_update(struct instance_view* view, void* reasons);
/* Whether a job is in SCHED, so that a new view is of use (an instance_view_wanted_f). */
bool pending_reasons_waiting(void* reasons);

#endif
