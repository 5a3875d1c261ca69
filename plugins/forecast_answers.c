#include "forecast_answers.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most requests waiting at once; more are refused (EAGAIN). */
#define MAX_ASKED 64
/* A part of an answer is sent once it holds this many bytes, or at the end of a slice. */
#define PART_BYTES (1 << 20)

struct request {
    const flux_msg_t* msg;
    unsigned view;     /* the number of the view of the instance it waits for */
    bool viewed;       /* that view came: `run` is set */
    unsigned run;      /* how many forecasts had started when that view came */
    uint32_t userid;   /* who asked */
    bool owner;        /* the instance owner: every job's diagnostics */
    unsigned flags;    /* JOBSPEC_FORECAST_ASCII_IDS when asked */
    struct request* next;
};

/* Text that grows: a list's items, comma-separated. */
struct text {
    char* data;
    size_t len, cap;
};

struct forecast_answers {
    flux_t* h;
    struct request* first;
    size_t count;
    size_t cursor;            /* the next job of the answer under way */
    struct text jobs, userids; /* the part of it not yet sent */
};

struct forecast_answers* forecast_answers_create(flux_t* h) {
    struct forecast_answers* answers = calloc(1, sizeof *answers);
    if (answers != NULL)
        answers->h = h;
    return answers;
}

/* Forgets the first request. */
static void drop_first(struct forecast_answers* answers) {
    struct request* r = answers->first;
    answers->first = r->next;
    answers->count--;
    answers->cursor = 0;
    answers->jobs.len = answers->userids.len = 0;
    flux_msg_decref(r->msg);
    free(r);
}

void forecast_answers_destroy(struct forecast_answers* answers) {
    if (answers == NULL)
        return;
    while (answers->first != NULL)
        drop_first(answers);
    free(answers->jobs.data);
    free(answers->userids.data);
    free(answers);
}

bool forecast_answers_add(struct forecast_answers* answers, const flux_msg_t* msg,
                          unsigned view) {
    struct flux_msg_cred cred;
    int ascii = 0;
    if (!flux_msg_is_streaming(msg) ||
        flux_request_unpack(msg, NULL, "{s?b}", "ascii_ids", &ascii) < 0 ||
        flux_msg_get_cred(msg, &cred) < 0) {
        (void)flux_respond_error(answers->h, msg, EPROTO,
                                 "a streaming request {\"ascii_ids\"?: bool}");
        return false;
    }
    if (answers->count >= MAX_ASKED) {
        (void)flux_respond_error(answers->h, msg, EAGAIN, "too many requests: try again");
        return false;
    }
    struct request* r = calloc(1, sizeof *r);
    if (r == NULL) {
        (void)flux_respond_error(answers->h, msg, ENOMEM, NULL);
        return false;
    }
    r->msg = flux_msg_incref(msg);
    r->view = view;
    r->userid = cred.userid;
    r->owner = (cred.rolemask & FLUX_ROLE_OWNER) != 0;
    r->flags = ascii ? JOBSPEC_FORECAST_ASCII_IDS : 0;
    struct request** end = &answers->first;
    while (*end != NULL)
        end = &(*end)->next;
    *end = r;
    answers->count++;
    return true;
}

bool forecast_answers_waiting(const struct forecast_answers* answers) {
    return answers->first != NULL;
}

bool forecast_answers_viewed(struct forecast_answers* answers, unsigned view, unsigned runs) {
    bool any = false;
    for (struct request* r = answers->first; r != NULL; r = r->next)
        if (!r->viewed && view >= r->view) {
            r->viewed = any = true;
            r->run = runs;
        }
    return any;
}

bool forecast_answers_ready(const struct forecast_answers* answers, unsigned run, bool current) {
    const struct request* r = answers->first;
    return r != NULL && r->viewed && run > 0 && (current || run > r->run);
}

bool forecast_answers_start(struct forecast_answers* answers, const jobspec_forecast* forecast) {
    char* head = jobspec_forecast_head_json(forecast);
    const bool sent = head != NULL && flux_respond(answers->h, answers->first->msg, head) == 0;
    jobspec_free(head);
    if (!sent)
        drop_first(answers);
    answers->cursor = 0;
    return sent;
}

static bool text_add(struct text* t, const char* item) {
    const size_t n = strlen(item);
    if (t->len + n + 2 > t->cap) {
        const size_t cap = (t->len + n + 2) * 2;
        char* data = realloc(t->data, cap);
        if (data == NULL)
            return false;
        t->data = data;
        t->cap = cap;
    }
    if (t->len > 0)
        t->data[t->len++] = ',';
    memcpy(t->data + t->len, item, n + 1);
    t->len += n;
    return true;
}

void forecast_answers_flush(struct forecast_answers* answers) {
    if (answers->first == NULL || answers->jobs.len == 0)
        return;
    const size_t n = answers->jobs.len + answers->userids.len + 32;
    char* part = malloc(n);
    if (part != NULL) {
        snprintf(part, n, "{\"jobs\":[%s],\"userids\":[%s]}", answers->jobs.data,
                 answers->userids.data);
        (void)flux_respond(answers->h, answers->first->msg, part);
        free(part);
    }
    answers->jobs.len = answers->userids.len = 0;
}

bool forecast_answers_step(struct forecast_answers* answers, const jobspec_forecast* forecast,
                           const json_t* owners) {
    struct request* r = answers->first;
    int end = ENODATA;
    if (r == NULL)
        return false;
    if (answers->cursor < jobspec_forecast_count(forecast)) {
        const size_t i = answers->cursor++;
        char key[24], userid[16] = "null";
        snprintf(key, sizeof key, "%" PRIu64, jobspec_forecast_id(forecast, i));
        const json_t* owner = json_object_get(owners, key);
        if (owner != NULL)
            snprintf(userid, sizeof userid, "%" PRIu32, (uint32_t)json_integer_value(owner));
        const bool theirs = owner != NULL && (uint32_t)json_integer_value(owner) == r->userid;
        char* job = jobspec_forecast_job_json(
            forecast, i, r->flags | (r->owner || theirs ? 0 : JOBSPEC_FORECAST_NO_DIAGNOSTICS));
        const bool ok = job != NULL && text_add(&answers->jobs, job) &&
                        text_add(&answers->userids, userid);
        jobspec_free(job);
        if (ok) {
            if (answers->jobs.len >= PART_BYTES)
                forecast_answers_flush(answers);
            return true;
        }
        end = ENOMEM;
    } else {
        forecast_answers_flush(answers);
    }
    (void)flux_respond_error(answers->h, r->msg, end, NULL);
    drop_first(answers);
    return false;
}

void forecast_answers_refuse(struct forecast_answers* answers, int errnum, const char* why) {
    while (answers->first != NULL) {
        (void)flux_respond_error(answers->h, answers->first->msg, errnum, why);
        drop_first(answers);
    }
}
