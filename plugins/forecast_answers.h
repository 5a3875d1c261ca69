/* The requests for the jobtap plugin's forecast (job-manager.jobspec.forecast, `flux
 * jobspec why`), waiting in the order they came, and the answer to the first, written a
 * job at a time so that the job manager never spends more than a slice on it: the
 * forecast's head ({"now", "scheduler", "order_unknown"?}), then parts {"jobs": [as
 * `jobspec forecast --json` writes them], "userids": [each job's owner]} of about
 * PART_BYTES, then ENODATA. A user other than the instance owner gets another user's job
 * without its diagnostics, which may quote its jobspec. pending_reasons.c decides when a
 * request may be answered (its view of the instance read after it came, and a forecast
 * made of it). */
#ifndef JOBSPEC_PLUGIN_FORECAST_ANSWERS_H
#define JOBSPEC_PLUGIN_FORECAST_ANSWERS_H

#include <stdbool.h>

#include <flux/core.h>
#include <jansson.h>

#include <jobspec/jobspec.h>

struct forecast_answers;

/* NULL when out of memory. */
struct forecast_answers* forecast_answers_create(flux_t* h);
/* Forgets the requests, answering none. */
void forecast_answers_destroy(struct forecast_answers* answers);

/* Takes a request, which waits for the view of the instance numbered `view`; false when
 * it is refused (and answered so): not streaming (EPROTO), too many waiting (EAGAIN). */
bool forecast_answers_add(struct forecast_answers* answers, const flux_msg_t* msg,
                          unsigned view);
/* Whether any request waits. */
bool forecast_answers_waiting(const struct forecast_answers* answers);
/* The view numbered `view` came, with `runs` forecasts started: the requests waiting for
 * it or an earlier one may be answered by a forecast started after now. True when one
 * did wait for it. */
bool forecast_answers_viewed(struct forecast_answers* answers, unsigned view, unsigned runs);
/* Whether the first request may be answered by the forecast numbered `run`: its view came
 * and the forecast started after it, or nothing changed since (`current`). */
bool forecast_answers_ready(const struct forecast_answers* answers, unsigned run, bool current);
/* Starts answering the first request with `forecast`: its head. False when nothing can be
 * sent it (it is dropped). */
bool forecast_answers_start(struct forecast_answers* answers, const jobspec_forecast* forecast);
/* Writes the next job of the answer under way (`owners`: "ID" -> userid), sending a part
 * when it is full; false once the answer is done (the request then forgotten). */
bool forecast_answers_step(struct forecast_answers* answers, const jobspec_forecast* forecast,
                           const json_t* owners);
/* Sends what the answer under way holds, at the end of a slice. */
void forecast_answers_flush(struct forecast_answers* answers);
/* Answers every request with the error `errnum` and `why`. */
void forecast_answers_refuse(struct forecast_answers* answers, int errnum, const char* why);

#endif
