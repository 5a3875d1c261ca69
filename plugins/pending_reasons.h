/* Why each pending job waits and when it will start, as annotations `flux jobs` shows:
 * annotations.user.jobspec_reason (a short line) and annotations.user.jobspec_eta (the
 * estimated start, seconds since the epoch). The jobs are followed as they come and go
 * (each jobspec read once, when its job is added), in a jobspec_instance; a moment after
 * anything changes (a job added, started, ended, reprioritized, or the resources or the
 * queues) jobspec's forecast of every pending job is made again, the library's one
 * implementation (docs/SCHEDULERS.md), and the annotations that changed are set (volatile
 * memos: nothing written to the KVS). The work is done in slices of at most SLICE_SECONDS
 * of the job manager's time, with the reactor running between them, however many jobs
 * there are; while more than `depth` jobs are considered by the scheduler, no reasons are
 * given (and those given are cleared).
 *
 * It also answers job-manager.jobspec.forecast, for any user (`flux jobspec why`;
 * forecast_answers.h has the answer): once its view of the instance is read again after
 * the request came (a queue's start or stop comes with no event) and a forecast made of
 * that, or at once when nothing changed since the last. The answer is written in the
 * same slices; a request is served without waiting for the rest between runs, and what
 * it costs lengthens the rest before the next run that no one asked for. Refused with
 * EAGAIN before the resources are known, EOVERFLOW beyond `depth`. */
#ifndef JOBSPEC_PLUGIN_PENDING_REASONS_H
#define JOBSPEC_PLUGIN_PENDING_REASONS_H

#include <flux/core.h>
#include <flux/jobtap.h>
#include <jansson.h>

#include <jobspec/jobspec.h>

#include "instance_view.h"

/* The annotations' keys under annotations.user. */
#define PENDING_REASON_KEY "jobspec_reason"
#define PENDING_ETA_KEY "jobspec_eta"

struct pending_reasons;

/* NULL (errno set) when out of memory. `options` are those jobspecs are read with (and
 * "max-match-steps", each explanation's budget); they are copied. `share`: the most of
 * the job manager's time the forecasts take on average, in percent (1 to 100): after a
 * run whose slices took t, the next starts no sooner than (100 / share - 1) t later. */
struct pending_reasons* pending_reasons_create(flux_plugin_t* p, const jobspec_options* options,
                                               int depth, int share);
void pending_reasons_destroy(struct pending_reasons* reasons);

/* A job event the plugin sees (job.create, job.state.*, job.event.priority,
 * job.event.urgency, job.inactive-add): the job is added, updated or forgotten. */
void pending_reasons_job(struct pending_reasons* reasons, const char* topic,
                         flux_plugin_arg_t* args);

/* The view changed (an instance_view_changed_f): a new forecast soon. */
void pending_reasons_update(struct instance_view* view, void* reasons);
/* Whether a job waits for the scheduler, so that a new view is of use (an
 * instance_view_wanted_f). */
bool pending_reasons_waiting(void* reasons);

/* What the plugin knows, for `flux jobtap query`: {"instance": the state as the forecast
 * reads it, "forecast": the last forecast or null, "cost": {"runs": forecasts started,
 * "seconds": the job manager's time they and the answers to requests took}}, since the
 * plugin was loaded. NULL without memory. */
json_t* pending_reasons_query(struct pending_reasons* reasons);

#endif
