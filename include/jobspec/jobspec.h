/* jobspec.h: the C API of libjobspec.
 *
 * Conventions, for every function below:
 * - Text in is NUL-terminated UTF-8. Text out is a new char* the caller frees with
 *   jobspec_free(); it is NULL only on failure.
 * - A call that can fail takes `jobspec_error** error` last. On failure it returns NULL,
 *   false or -1 and, when `error` is not NULL, stores a new error object there (free it
 *   with jobspec_error_free); on success it stores NULL. Warnings do not fail a call
 *   (unless the "strict" option is set) and are not reported.
 * - A NULL handle or text where one is required fails with api.invalid-argument; it
 *   never crashes. Functions that cannot fail treat a NULL handle as empty.
 * - Handles (jobspec_options, jobspec_constraint, jobspec_rset, jobspec_idset,
 *   jobspec_hostlist) are created by *_new, *_parse or *_read and freed by *_free,
 *   which accepts NULL. Results of set operations are new handles; the operands are
 *   unchanged. Any number of threads may call the library at once, and may share a
 *   handle while none of them changes it.
 * - No C++ exception crosses this API; a failure inside the library (out of memory)
 *   is an api.internal error.
 */
#ifndef JOBSPEC_JOBSPEC_H
#define JOBSPEC_JOBSPEC_H

/* A C header: C's headers and typedefs are what it needs. */
/* NOLINTBEGIN(modernize-deprecated-headers,modernize-use-using) */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define JOBSPEC_C_API __attribute__((visibility("default")))
#else
#define JOBSPEC_C_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- The library ------------------------------------------------------------------- */

/* The library's version, "MAJOR.MINOR.PATCH"; a static string. */
JOBSPEC_C_API const char* jobspec_version(void);

/* Frees text this library returned (NULL is fine). */
JOBSPEC_C_API void jobspec_free(char* text);

/* ---- Errors: the diagnostics of a failed call -------------------------------------- */

typedef struct jobspec_error jobspec_error;

/* How many diagnostics the error holds (at least 1; 0 for NULL). Each has an index
 * from 0; an index past the end gives NULL, -1 or 0 below. */
JOBSPEC_C_API size_t jobspec_error_count(const jobspec_error* error);
/* The stable code, such as "shape.range-order" (see diagnostic_codes.def). */
JOBSPEC_C_API const char* jobspec_error_code(const jobspec_error* error, size_t index);
/* A short lowercase message without a trailing period. */
JOBSPEC_C_API const char* jobspec_error_message(const jobspec_error* error, size_t index);
/* A hint ("did you mean ..."), or "" when there is none. */
JOBSPEC_C_API const char* jobspec_error_help(const jobspec_error* error, size_t index);
/* The JSON pointer into the document ("/resources/0/count"), or "" when there is none. */
JOBSPEC_C_API const char* jobspec_error_pointer(const jobspec_error* error, size_t index);
/* Whether the diagnostic is a warning (made an error by the "strict" option). */
JOBSPEC_C_API bool jobspec_error_is_warning(const jobspec_error* error, size_t index);
/* What the problem's text is when it is not the input: the option whose value it is in
 * ("--resources-shape"), or "" for the input itself. */
JOBSPEC_C_API const char* jobspec_error_source(const jobspec_error* error, size_t index);
/* The byte offset in the input text where the problem starts, or -1 when unknown. When
 * the problem is in a text of its own (the value of one option of a command line given
 * to jobspec_compile), offsets, lines and columns count in that text, which
 * jobspec_error_source names. */
JOBSPEC_C_API int64_t jobspec_error_offset(const jobspec_error* error, size_t index);
/* How many bytes the problem covers (0 for a point or when unknown). */
JOBSPEC_C_API size_t jobspec_error_length(const jobspec_error* error, size_t index);
/* The line and column (from 1; columns in code points) of the offset, or 0 when unknown. */
JOBSPEC_C_API size_t jobspec_error_line(const jobspec_error* error, size_t index);
JOBSPEC_C_API size_t jobspec_error_column(const jobspec_error* error, size_t index);
/* All diagnostics for people, with the input line and a caret under the problem, as the
 * jobspec command prints them; `source_name` (may be NULL) names the input. */
JOBSPEC_C_API char* jobspec_error_text(const jobspec_error* error, const char* source_name,
                                       bool color);
/* The errors on one line, for a host that shows one line per failure (a Flux plugin's
 * rejection): "CODE at POINTER: message" for each, "; "-separated, at most three and then
 * "; and N more"; terminal-safe, never a newline. With `max_bytes` (0: no limit) only the
 * errors that fit whole, the first cut short with "..." when even it does not (flux's
 * error messages hold 159 bytes). "" for NULL. */
JOBSPEC_C_API char* jobspec_error_summary(const jobspec_error* error, size_t max_bytes);
/* The most bytes a Flux plugin's one-line verdict has: what a flux_error_t holds, less
 * its NUL, which is all flux-core passes on from a jobtap plugin. jobspec's plugins hold
 * every rejection to it (jobspec_error_summary's max_bytes), so that a job gets the same
 * line from each and no message can outgrow a channel. */
#define JOBSPEC_FLUX_VERDICT_BYTES 159
/* All diagnostics as a JSON array of {severity, code, message, offset, length, line,
 * column, pointer, help}, as `jobspec --diagnostics json` prints them. */
JOBSPEC_C_API char* jobspec_error_json(const jobspec_error* error);
JOBSPEC_C_API void jobspec_error_free(jobspec_error* error);

/* ---- Options: dialect flags and limits (NULL options means all defaults) ----------- */

typedef struct jobspec_options jobspec_options;

/* New options with every default (as the jobspec command's). NULL when out of memory. */
JOBSPEC_C_API jobspec_options* jobspec_options_new(void);
JOBSPEC_C_API void jobspec_options_free(jobspec_options* options);
/* Sets one option by name; the value is text as on the command line:
 *   "default-label"    label of a shape's only slot when it has none ("default")
 *   "counts"           "dict" (RFC 14 {min, max, operator, operand}) or "string" (RFC 45)
 *   "v1"               "true": also check RFC 25 V1 rules ("false")
 *   "dialect"          jobspec documents and the jobspec jobspec_compile builds: "rfc"
 *                      (RFC 14) or "fluxion" (what Fluxion's reader accepts and refuses;
 *                      see Dialect in jobspec_model.hpp) ("rfc")
 *   "format"           jobspec text: "auto", "yaml" or "json" ("auto")
 *   "default-operator" constraint queries: "" for the --requires dialect, or an RFC 35
 *                      operator name for plain terms ("")
 *   "allow-unknown-scheme" "true": accept dependency schemes jobspec does not know
 *   "strict"           "true": warnings fail the call like errors ("false")
 *   "flux-instance"    jobspec documents: "true", or the instance's size (its number
 *                      of ranks, so that a rank it does not have is refused too): also
 *                      refuse what a Flux instance (flux-core) cannot hold, as flux.*
 *                      errors, and nesting past 512 levels ("false")
 *   "pretty"           "true": indent JSON output ("false")
 *   "config", "queue"  jobspec_allocate: the path of Flux's configuration, and the queue
 *                      a job is submitted to (RFC 33) ("": none; the default queue)
 *   "config-json"      jobspec_allocate: Flux's configuration as the text of one JSON
 *                      object (a running instance's), used when "config" is ""
 *   "max-match-steps"  jobspec_allocate: the most steps a placement may take (a positive
 *                      integer; unset: no limit); one that would take more fails with
 *                      match.budget, so a placement's cost is bounded whatever the job
 *   "max-depth", "max-input-bytes", "max-diagnostics", "max-alias-nodes",
 *   "max-vertices", "max-constraint-terms": limits, a positive integer (see
 *                      limits.hpp; depth at most 1000, diagnostics at most 100000)
 * Fails with api.invalid-argument for an unknown name or a value it does not take. */
JOBSPEC_C_API bool jobspec_options_set(jobspec_options* options, const char* name,
                                       const char* value, jobspec_error** error);

/* ---- Reading inputs ---------------------------------------------------------------- */

/* The whole text of the file at `path`, or of standard input when `path` is "-": regular
 * files, pipes, FIFOs and devices alike, reading at most "max-input-bytes" + 1 bytes, so
 * an endless input fails at once. Fails with io.unreadable (missing, a directory, not
 * permitted, a read error, or a NUL byte, which no text input of this library has),
 * io.empty (nothing but whitespace) or limit.input-size, as the jobspec command does. */
JOBSPEC_C_API char* jobspec_read_file(const char* path, const jobspec_options* options,
                                      jobspec_error** error);

/* ---- Compiling text to canonical JSON ---------------------------------------------- */

/* An RFC 46 shape ("slot=4/node/core=2") as its RFC 14 resource list, a JSON array.
 * Fails with shape.*, jobspec.* and limit.* diagnostics (offsets into `shape`). */
JOBSPEC_C_API char* jobspec_shape_to_json(const char* shape, const jobspec_options* options,
                                          jobspec_error** error);

/* The jobspec `flux COMMAND --dry-run WORDS...` prints, built as `jobspec compile` and
 * Python's jobspec.compile() build it. `command` is "run", "submit", "batch" or "alloc";
 * `words` (count of them) are flux's options, then the job's command (run, submit), the
 * script's path and arguments (batch) or the instance's command (alloc). `script` is a
 * batch script's text, whose RFC 36 directives apply before the options; NULL: batch
 * (without --wrap) reads the file the script's path names, within "max-input-bytes".
 * The environment, working directory, home and resource limits are this process's.
 * A diagnostic about an option's value, or a script's line, counts its offsets in that
 * text (see jobspec_error_source). JSON in flux's key order, as `jobspec compile` prints it
 * ("pretty": indented). Fails with usage.* (options flux rejects), directive.*, submit.*
 * and the RFC 14/25 checks' diagnostics, or api.invalid-argument. */
JOBSPEC_C_API char* jobspec_compile(const char* command, const char* const* words, size_t count,
                                    const char* script, const jobspec_options* options,
                                    jobspec_error** error);

/* Reads a jobspec document (YAML or JSON, see "format") and checks it against RFC 14,
 * and RFC 25 with "v1"; returns it in canonical form as JSON. Fails with jobspec.*,
 * v1.* and limit.* diagnostics with JSON pointers (and offsets where known). */
JOBSPEC_C_API char* jobspec_check(const char* document, const jobspec_options* options,
                                  jobspec_error** error);
/* Checks a jobspec document as jobspec_check does, without writing it out: true when it
 * is valid (warnings allowed unless "strict"). For a host that only needs the verdict,
 * such as a Flux plugin. */
JOBSPEC_C_API bool jobspec_validate(const char* document, const jobspec_options* options,
                                    jobspec_error** error);

/* The RFC 46 shape of a jobspec document's resources (read as jobspec_check reads it),
 * as `jobspec shape --from` prints it: jobspec_shape_to_json of it gives back the
 * resources; the only slot's label is left out when it is "default-label". Fails as
 * jobspec_check does, or with shape.unwritable (with a JSON pointer) where no shape says
 * them (an empty "with"). */
JOBSPEC_C_API char* jobspec_shape_of(const char* document, const jobspec_options* options,
                                     jobspec_error** error);

/* An RFC 26 dependency URI ("afterok:ƒ2oLkTLb") as its JSON object. Fails with
 * dependency.* and fluid.* diagnostics. */
JOBSPEC_C_API char* jobspec_dependency_to_json(const char* uri, const jobspec_options* options,
                                               jobspec_error** error);

/* ---- Job ids (RFC 19 FLUIDs) ------------------------------------------------------- */

/* Reads a job id in any encoding (dec, hex, dothex, kvs, f58, words, emoji) into *id.
 * Fails with fluid.* diagnostics. */
JOBSPEC_C_API bool jobspec_id_decode(const char* text, uint64_t* id, jobspec_error** error);
/* A job id in one encoding: "dec", "hex", "dothex", "kvs", "f58", "words", "emoji" or
 * "f58plain" (ASCII 'f'), case ignored. Fails with api.invalid-argument for another name. */
JOBSPEC_C_API char* jobspec_id_encode(uint64_t id, const char* encoding, jobspec_error** error);

/* ---- IdSets (RFC 22) --------------------------------------------------------------- */

typedef struct jobspec_idset jobspec_idset;

JOBSPEC_C_API jobspec_idset* jobspec_idset_new(void);
/* Parses "0-3,7" (strict RFC 22). Fails with idset.* diagnostics. */
JOBSPEC_C_API jobspec_idset* jobspec_idset_parse(const char* text, jobspec_error** error);
JOBSPEC_C_API void jobspec_idset_free(jobspec_idset* set);
/* The canonical RFC 22 string ("" for the empty set). NULL only when out of memory. */
JOBSPEC_C_API char* jobspec_idset_encode(const jobspec_idset* set);
JOBSPEC_C_API uint64_t jobspec_idset_count(const jobspec_idset* set);
JOBSPEC_C_API bool jobspec_idset_contains(const jobspec_idset* set, uint64_t id);
/* Adds or removes the ids first..last. Adding fails (false, nothing changes) when
 * first > last or last is above 2^63-1. */
JOBSPEC_C_API bool jobspec_idset_insert(jobspec_idset* set, uint64_t first, uint64_t last);
JOBSPEC_C_API void jobspec_idset_erase(jobspec_idset* set, uint64_t first, uint64_t last);
/* The smallest id, or -1 when empty; the smallest id above `id`, or -1 when none:
 * for (int64_t i = jobspec_idset_first(s); i >= 0; i = jobspec_idset_next(s, i)) */
JOBSPEC_C_API int64_t jobspec_idset_first(const jobspec_idset* set);
JOBSPEC_C_API int64_t jobspec_idset_next(const jobspec_idset* set, uint64_t id);
JOBSPEC_C_API bool jobspec_idset_equal(const jobspec_idset* a, const jobspec_idset* b);
/* New sets: a ∪ b, a ∩ b, a \ b. NULL only when out of memory. */
JOBSPEC_C_API jobspec_idset* jobspec_idset_union(const jobspec_idset* a, const jobspec_idset* b);
JOBSPEC_C_API jobspec_idset* jobspec_idset_intersect(const jobspec_idset* a,
                                                     const jobspec_idset* b);
JOBSPEC_C_API jobspec_idset* jobspec_idset_difference(const jobspec_idset* a,
                                                      const jobspec_idset* b);

/* ---- Hostlists (RFC 29) ------------------------------------------------------------ */

typedef struct jobspec_hostlist jobspec_hostlist;

JOBSPEC_C_API jobspec_hostlist* jobspec_hostlist_new(void);
/* Parses "node[0-15],login1". Fails with hostlist.* diagnostics. */
JOBSPEC_C_API jobspec_hostlist* jobspec_hostlist_parse(const char* text, jobspec_error** error);
JOBSPEC_C_API void jobspec_hostlist_free(jobspec_hostlist* hosts);
/* Appends the hosts of a hostlist expression. Fails with hostlist.* diagnostics, leaving
 * the list unchanged. */
JOBSPEC_C_API bool jobspec_hostlist_append(jobspec_hostlist* hosts, const char* text,
                                           jobspec_error** error);
/* The shortest hostlist string, in order ("" for the empty list). */
JOBSPEC_C_API char* jobspec_hostlist_encode(const jobspec_hostlist* hosts);
JOBSPEC_C_API uint64_t jobspec_hostlist_count(const jobspec_hostlist* hosts);
/* The host at `index` (from 0), or NULL past the end. */
JOBSPEC_C_API char* jobspec_hostlist_nth(const jobspec_hostlist* hosts, uint64_t index);
/* The position of the first occurrence of `host`, or -1. */
JOBSPEC_C_API int64_t jobspec_hostlist_find(const jobspec_hostlist* hosts, const char* host);
/* A sorted copy, without repeats when `unique`. */
JOBSPEC_C_API jobspec_hostlist* jobspec_hostlist_sort(const jobspec_hostlist* hosts, bool unique);
/* New lists, sorted and without repeats: a ∪ b, a ∩ b, a \ b. */
JOBSPEC_C_API jobspec_hostlist* jobspec_hostlist_union(const jobspec_hostlist* a,
                                                       const jobspec_hostlist* b);
JOBSPEC_C_API jobspec_hostlist* jobspec_hostlist_intersect(const jobspec_hostlist* a,
                                                           const jobspec_hostlist* b);
JOBSPEC_C_API jobspec_hostlist* jobspec_hostlist_difference(const jobspec_hostlist* a,
                                                            const jobspec_hostlist* b);

/* ---- Resource sets (RFC 20 R) ------------------------------------------------------ */

typedef struct jobspec_rset jobspec_rset;

/* Reads and checks R version 1 (JSON). Fails with R.*, idset.*, hostlist.* and limit.*
 * diagnostics. */
JOBSPEC_C_API jobspec_rset* jobspec_rset_read(const char* json, const jobspec_options* options,
                                              jobspec_error** error);
/* R from Flux's configuration at `path`, as `flux R parse-config PATH` makes it: a
 * config directory (its *.toml files merged in name order) or one file (TOML, or JSON
 * when it ends in .json), and the files its resource.path and resource.scheduling name,
 * each within "max-input-bytes". Fails with R.config, R.config-syntax and R.* located
 * in their files, io.unreadable and limit.* diagnostics. */
JOBSPEC_C_API jobspec_rset*
jobspec_rset_parse_config(const char* path, const jobspec_options* options, jobspec_error** error);
JOBSPEC_C_API void jobspec_rset_free(jobspec_rset* r);
/* R version 1 as JSON ("pretty" indents it). */
JOBSPEC_C_API char* jobspec_rset_json(const jobspec_rset* r, const jobspec_options* options);
/* One line for people: "rank[0-3]/core[0-47],gpu[0-7]"-style groups. */
JOBSPEC_C_API char* jobspec_rset_summary(const jobspec_rset* r);
/* How many "rank", "core" or "gpu" resources R holds; 0 for another type. */
JOBSPEC_C_API uint64_t jobspec_rset_count(const jobspec_rset* r, const char* type);
/* R's ranks, and its hosts in rank order (empty when R has no nodelist). */
JOBSPEC_C_API jobspec_idset* jobspec_rset_ranks(const jobspec_rset* r);
JOBSPEC_C_API jobspec_hostlist* jobspec_rset_nodelist(const jobspec_rset* r);
/* Whether every resource of b is in a. */
JOBSPEC_C_API bool jobspec_rset_includes(const jobspec_rset* a, const jobspec_rset* b);
/* The resources of these ranks only. */
JOBSPEC_C_API jobspec_rset* jobspec_rset_filter(const jobspec_rset* r, const jobspec_idset* ranks);
/* Rank by rank, as `flux R` does: a ∪ b (the cores and gpus of either) fails with
 * R.overlap when a core or gpu of a rank is in both; a ∩ b keeps the ranks in both
 * (with the same host) and drops properties; a \ b keeps a's properties. None carries
 * nslots, starttime or expiration. */
JOBSPEC_C_API jobspec_rset* jobspec_rset_union(const jobspec_rset* a, const jobspec_rset* b,
                                               jobspec_error** error);
JOBSPEC_C_API jobspec_rset* jobspec_rset_intersect(const jobspec_rset* a, const jobspec_rset* b);
JOBSPEC_C_API jobspec_rset* jobspec_rset_difference(const jobspec_rset* a, const jobspec_rset* b);

/* One allocation of `r` for the jobspec `document` (read as jobspec_check reads it), as
 * `jobspec match` makes it: any canonical jobspec, placed in rank order over the ranks
 * that satisfy its constraints, with nslots set. With "dialect" "fluxion", slots side
 * by side are alternatives (Fluxion's or-slots), and each choice its xor_slots stand
 * for is tried in Fluxion's order, the first that fits winning. With
 * "config" (a path to Flux's configuration) the job's queue applies: "queue", else the
 * jobspec's system.queue, else the default queue. Fails with the reading's diagnostics,
 * match.unsupported for what R version 1 cannot place (memory; a socket is placed as
 * what it holds, with a match.unchecked warning), match.queue, and
 * jobspec.unsatisfiable saying which requirement cannot be met (match.constraint
 * warnings after it say which nodes each constraint term removed). */
JOBSPEC_C_API jobspec_rset* jobspec_allocate(const char* document, const jobspec_rset* r,
                                             const jobspec_options* options, jobspec_error** error);
/* jobspec_allocate on what is free now: `free` (part of `r`; NULL for all of it). A job
 * that fits `r` but not `free` fails with match.pending, saying what it waits for. */
JOBSPEC_C_API jobspec_rset* jobspec_allocate_now(const char* document, const jobspec_rset* r,
                                                 const jobspec_rset* free,
                                                 const jobspec_options* options,
                                                 jobspec_error** error);

/* ---- Constraints (RFC 31 objects, RFC 35 queries) ---------------------------------- */

typedef struct jobspec_constraint jobspec_constraint;

/* Compiles an RFC 35 query ("ssd and not host:foo[1-3]"); see "default-operator".
 * Fails with query.* and limit.* diagnostics (offsets into `query`). */
JOBSPEC_C_API jobspec_constraint*
jobspec_constraint_parse(const char* query, const jobspec_options* options, jobspec_error** error);
/* Reads an RFC 31 constraint object (JSON). Fails with constraint.* diagnostics. */
JOBSPEC_C_API jobspec_constraint*
jobspec_constraint_read(const char* json, const jobspec_options* options, jobspec_error** error);
JOBSPEC_C_API void jobspec_constraint_free(jobspec_constraint* constraint);
/* The constraint as its RFC 31 JSON object. */
JOBSPEC_C_API char* jobspec_constraint_json(const jobspec_constraint* constraint,
                                            const jobspec_options* options);
/* The query in flux's --requires dialect that says the constraint, as `jobspec constraint
 * --query` prints it: jobspec_constraint_parse of it matches the same ranks (and gives an
 * equal constraint for one that parse made). Its operands are exact (a bidi control
 * too): escape it before it reaches a terminal (as jobspec::visible_text does). Fails
 * with query.unwritable (with a JSON pointer) for what no query says: an operator outside
 * RFC 31's, a term with no values, an operand with a control character. */
JOBSPEC_C_API char* jobspec_constraint_query(const jobspec_constraint* constraint,
                                             jobspec_error** error);
/* The ranks of R that satisfy the constraint. Fails with constraint.* diagnostics for a
 * constraint R cannot answer (an unknown operator). */
JOBSPEC_C_API jobspec_idset* jobspec_constraint_match(const jobspec_constraint* constraint,
                                                      const jobspec_rset* r, jobspec_error** error);

/* ---- Forecasts: when each pending job starts (docs/SCHEDULERS.md) ------------------ */

typedef struct jobspec_instance jobspec_instance;
typedef struct jobspec_forecast jobspec_forecast;

/* What an instance's scheduler sees, kept up to date by its owner (a Flux plugin) job by
 * job: each jobspec is read once, when its job is added. `options` are those jobspecs
 * are read with ("dialect", limits, "config-json" for the queues) and "max-match-steps",
 * the budget of each explanation a forecast asks of the matcher. NULL without memory. */
JOBSPEC_C_API jobspec_instance* jobspec_instance_new(const jobspec_options* options);
JOBSPEC_C_API void jobspec_instance_free(jobspec_instance* instance);
/* R, all of it, and the ranks that are down (drained, offline or excluded; NULL: none).
 * The drain reasons are forgotten, to be set again. Running jobs keep what they hold. */
JOBSPEC_C_API bool jobspec_instance_set_resources(jobspec_instance* instance,
                                                  const jobspec_rset* all,
                                                  const jobspec_idset* down,
                                                  jobspec_error** error);
/* Rank `rank` drained (and so down), with its reason (NULL or "": none given);
 * `drained` false forgets the reason. */
JOBSPEC_C_API bool jobspec_instance_set_drained(jobspec_instance* instance, uint64_t rank,
                                                bool drained, const char* reason);
/* The scheduler module loaded ("sched-simple", "sched-fluxion-qmanager", ...), its load
 * arguments as one string of words (NULL: none), and for Fluxion its `params` answer as
 * JSON (NULL: its defaults). An unknown module forecasts no order. */
JOBSPEC_C_API bool jobspec_instance_set_scheduler(jobspec_instance* instance, const char* module,
                                                  const char* args, const char* fluxion_json,
                                                  jobspec_error** error);
/* A queue's status ("" for the anonymous queue); a queue never set is started. */
JOBSPEC_C_API bool jobspec_instance_set_queue(jobspec_instance* instance, const char* name,
                                              bool started, const char* stop_reason);
/* A running job: what it holds (R JSON) and its expiration (0: no time limit). */
JOBSPEC_C_API bool jobspec_instance_add_running(jobspec_instance* instance, uint64_t id,
                                                const char* R, double expiration,
                                                jobspec_error** error);
/* A pending job, with its jobspec (JSON, read once here; a jobspec that cannot be read is
 * kept, the job then judged unknown), its state ("sched", "depend" or "priority"),
 * priority, urgency, submission time and queue (NULL or "": none). Adding a job already
 * there replaces it. In "depend", it waits for every dependency its jobspec lists, named
 * as flux-core's dependency-add events name them (jobspec::dependency_descriptions). */
JOBSPEC_C_API bool jobspec_instance_add_pending(jobspec_instance* instance, uint64_t id,
                                                const char* jobspec, const char* state,
                                                int64_t priority, uint32_t urgency,
                                                double t_submit, const char* queue,
                                                jobspec_error** error);
/* A pending job's state, priority and urgency changed; false when it is not pending. */
JOBSPEC_C_API bool jobspec_instance_update_pending(jobspec_instance* instance, uint64_t id,
                                                   const char* state, int64_t priority,
                                                   uint32_t urgency);
/* Forgets a job, pending or running; false when it was neither. */
JOBSPEC_C_API bool jobspec_instance_remove(jobspec_instance* instance, uint64_t id);
/* How many jobs are pending, and how many of them the scheduler considers (in SCHED, not
 * held, their queue started). */
JOBSPEC_C_API size_t jobspec_instance_pending(const jobspec_instance* instance);
JOBSPEC_C_API size_t jobspec_instance_considered(const jobspec_instance* instance);
/* The instance's state as JSON (what jobspec_forecast_json's input format reads:
 * docs/FORMATS.md), at time `now`. */
JOBSPEC_C_API char* jobspec_instance_json(const jobspec_instance* instance, double now);

/* A forecast of the instance as it is now (a copy: the instance may change meanwhile),
 * at time `now` (seconds since the epoch), made by jobspec_forecast_advance. The
 * matcher's explanation of a job that does not start (or its match.budget) is kept by the
 * instance while its R stays the same: each job is explained once, not once per forecast. */
JOBSPEC_C_API jobspec_forecast* jobspec_forecast_start(const jobspec_instance* instance,
                                                       double now);
JOBSPEC_C_API void jobspec_forecast_free(jobspec_forecast* forecast);
/* Works on it for about `steps` (a step is a rank looked at: see docs/PERFORMANCE.md);
 * true once it is done. An explanation is not divided: a call spends at most the larger
 * of `steps` and one explanation (the options' max-match-steps). */
JOBSPEC_C_API bool jobspec_forecast_advance(jobspec_forecast* forecast, uint64_t steps);
/* Once done: how many pending jobs it has, and of the i-th its id, verdict ("held",
 * "blocked", "next", "waiting", "down", "never", "unknown"), estimated start (seconds
 * since the epoch; 0 when none), and the reason `flux jobs` shows (at most
 * JOBSPEC_FORECAST_REASON_BYTES bytes; "" for none). */
JOBSPEC_C_API size_t jobspec_forecast_count(const jobspec_forecast* forecast);
JOBSPEC_C_API uint64_t jobspec_forecast_id(const jobspec_forecast* forecast, size_t i);
JOBSPEC_C_API const char* jobspec_forecast_verdict(const jobspec_forecast* forecast, size_t i);
JOBSPEC_C_API double jobspec_forecast_eta(const jobspec_forecast* forecast, size_t i);
JOBSPEC_C_API char* jobspec_forecast_reason(const jobspec_forecast* forecast, size_t i);
/* The whole forecast as JSON (jobspec forecast --json's; "pretty" indents it). */
JOBSPEC_C_API char* jobspec_forecast_json(const jobspec_forecast* forecast,
                                          const jobspec_options* options);
/* The same JSON in pieces, for a writer that must stop between them (a Flux plugin
 * answering in slices): its head, {"now", "scheduler", "order_unknown"?}, and the i-th
 * job of its "jobs", compact. `flags` (JOBSPEC_FORECAST_*) writes ids with an ASCII "f"
 * or leaves the job's diagnostics out (an empty list: another user's jobspec may be
 * quoted in them). NULL before the forecast is done, or past its last job. */
JOBSPEC_C_API char* jobspec_forecast_head_json(const jobspec_forecast* forecast);
JOBSPEC_C_API char* jobspec_forecast_job_json(const jobspec_forecast* forecast, size_t i,
                                              unsigned flags);
#define JOBSPEC_FORECAST_ASCII_IDS 1u
#define JOBSPEC_FORECAST_NO_DIAGNOSTICS 2u

#define JOBSPEC_FORECAST_REASON_BYTES 120

#ifdef __cplusplus
}
#endif

/* NOLINTEND(modernize-deprecated-headers,modernize-use-using) */

#endif /* JOBSPEC_JOBSPEC_H */
