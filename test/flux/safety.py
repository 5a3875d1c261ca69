"""The flux suite's checks that the plugins keep an instance safe (issue 48): what Flux
cannot hold is refused and the instance still answers; a verdict crosses job-ingest's
channel to the validator intact; one user's flood of bad jobs fails none of another's;
every documented option and the plugins' lifecycle (strict, reload, update) behave."""
import json

import cases
from steps import expect, run_command, verdict_check

# The classes of cases.refusals() the job manager refuses itself, before any jobtap
# plugin is called (each alone, with [ingest] batch-count = 1).
JOB_MANAGER_REFUSES = {"attributes null", "a JSON array"}


def alive(plan):
    """The instance, its job manager and its scheduler still answer, and a job runs."""
    plan.add(run_command(["flux", "module", "list"]),
             expect(0, "sched-simple"))
    plan.add(run_command(["flux", "ping", "--count=1", "job-manager"]), expect(0))
    plan.add(run_command(["timeout", "60", "flux", "run", "-n1", "echo", "still-running"]),
             expect(0, "still-running"))


def add_refusals(plan, jobtap):
    """Every class of cases.refusals(), submitted live: each refused with its code (or,
    with the jobtap plugin, by the job manager first), and the instance still up."""
    for name, data, code in cases.refusals():
        verdict = (("flux", "Invalid argument") if jobtap and name in JOB_MANAGER_REFUSES
                   else ("reject", [code]))
        plan.submit(name, data, verdict_check(name, verdict), live=True)
    alive(plan)


def add_refusals_on_the_command_line(plan):
    """The CLI plugin refuses the same before anything is sent."""
    for option, code in (("--requires=rank:4294967295", "flux.idset-range"),
                         ("--requires=host:a[0-1048576]", "flux.hostlist"),
                         ("--requires=rank:0-1000000", "flux.rank-range")):
        plan.add(run_command(["flux", "submit", option, "true"]), expect(1, code))
    alive(plan)


def add_channel(plan):
    """A (a 6 MB task slot, rejected with a message that would outgrow job-ingest's 4 MiB
    channel to the validator if it were not bounded), B (valid), C (two errors) and K (a
    6 MB system attribute key, only a warning), submitted together: each gets its own
    verdict. Unbounded, A's message was read as B's and C's answers, and C was stored."""
    a = cases.small_v1()
    a["tasks"][0]["slot"] = "x" * (6 << 20)
    c = cases.small_v1()
    c["resources"][0]["count"] = 0
    c["attributes"]["system"]["duration"] = -5
    k = cases.small_v1()
    k["attributes"]["system"]["y" * (6 << 20)] = 1
    paths = [plan.file(n, json.dumps(j)) for n, j in
             (("A", a), ("B", cases.small_v1()), ("C", c), ("K", k))]

    def check(r):
        want = [(False, "jobspec.unknown-slot at /tasks/0/slot"), (True, "ƒ"),
                (False, "jobspec.count-not-positive at /resources/0/count"), (True, "ƒ")]
        ok = all(got["accepted"] == accepted and text in got["text"]
                 and len(got["text"].encode()) < 200
                 for got, (accepted, text) in zip(r, want))
        return ok, f"verdicts: {[(g['accepted'], g['text'][:120]) for g in r]}"
    plan.add({"together": paths}, check)


def add_contention(plan):
    """One user floods jobs the job manager cannot read (attributes: null), 20 beside each
    of another user's 100 valid jobs: all 100 are accepted."""
    bad = cases.small_v1()
    bad["attributes"] = None
    step = {"contend": {"bad": plan.file("flood-attributes-null", json.dumps(bad)),
                        "good": plan.file("the other user's job", json.dumps(cases.small_v1())),
                        "rounds": 100, "bad_per_round": 20}}

    def check(r):
        print(f"    contention: {r['good_accepted']} of 100 valid jobs accepted beside 2,000 "
              f"with attributes: null ({r['bad_accepted']} of those accepted)", flush=True)
        return (r["good_accepted"] == 100 and r["bad_accepted"] == 0,
                f"{r['good_accepted']} of 100 accepted; errors: {r['good_errors']}")
    plan.add(step, check)


def nested(depth):
    """A valid V1 jobspec whose attributes.user holds `depth` nested lists."""
    job = cases.small_v1()
    job["attributes"]["user"] = {"x": "NEST"}
    return json.dumps(job).replace('"NEST"', "[" * depth + "]" * depth)


def with_warning():
    """A valid jobspec with only a warning: a system attribute RFC 14 does not define."""
    job = cases.small_v1()
    job["attributes"]["system"]["fooo"] = 1
    return job


def two_errors():
    job = cases.small_v1()
    job["resources"][0]["count"] = 0
    job["resources"][0]["with"][0]["count"] = 0
    return job


def three_terms():
    job = cases.small_v1()
    job["attributes"]["system"]["constraints"] = {"properties": ["a", "b"]}
    return job


def two_tasks():
    job = cases.small_v1()
    job["tasks"].append(job["tasks"][0])
    return job


def unlabelled_task():
    """A V1 jobspec whose task names a slot no vertex is labelled with."""
    job = cases.small_v1()
    job["tasks"][0]["slot"] = "other"
    return job


# Every documented option of both plugins, with a job whose verdict it changes: (option,
# value, job, code it is rejected with under the option, or None for accepted; and
# without the option: None for accepted, or the code).
OPTIONS = [
    ("v1", "true", two_tasks(), "v1.tasks", None),
    ("dialect", "fluxion", unlabelled_task(), None, "jobspec.unknown-slot"),
    ("strict", "true", with_warning(), "jobspec.unknown-system-attribute", None),
    ("max-input-bytes", "100", cases.small_v1(), "limit.input-size", None),
    ("max-depth", "5", json.loads(nested(8)), "limit.depth", None),
    ("max-vertices", "1", cases.small_v1(), "limit.vertices", None),
    ("max-constraint-terms", "2", three_terms(), "limit.constraint-terms", None),
    ("max-diagnostics", "1", two_errors(), "limit.diagnostics", "jobspec.count-not-positive"),
    # Jobs reach Flux as JSON, which has no aliases: taken, and changes nothing.
    ("max-alias-nodes", "1", cases.small_v1(), None, None),
]


def verdict_of(code):
    return ("accept",) if code is None else ("reject", [code])


def add_validator_options(plan, validator):
    """Each option through `flux job-validator --jobspec-only`, the plugin's own code as
    job-ingest runs it, with and without the option."""
    for option, value, job, under, without in OPTIONS:
        path = plan.file(f"option-{option}.json", json.dumps(job) + "\n")
        base = ["flux", "job-validator", "--jobspec-only", f"--plugins={validator}"]
        flag = f"--jobspec-{option}" + ("" if value == "true" else f"={value}")
        for argv, code in ((base + [flag], under), (base, without)):
            plan.add({"run": argv, "stdin": path},
                     expect(0, '"errnum": 0') if code is None
                     else expect(1, '"errnum": 22', code))


def add_jobtap_options(plan, jobtap):
    """Each key of the plugin's configuration, given to a reload, with a job whose
    verdict it changes; then the plugin reloaded as it was."""
    for option, value, job, under, without in OPTIONS:
        plan.add(run_command(["flux", "jobtap", "load", "--remove=jobspec.so", jobtap,
                              f"{option}={value}"]), expect(0))
        plan.submit(f"under {option}={value}", json.dumps(job), verdict_check("", verdict_of(under)))
        plan.add(run_command(["flux", "jobtap", "load", "--remove=jobspec.so", jobtap]),
                 expect(0))
        plan.submit(f"without {option}", json.dumps(job), verdict_check("", verdict_of(without)))
    plan.add(run_command(["flux", "jobtap", "load", jobtap, "bogus=1"]),
             expect(1, "flux_plugin_init failed"))
    plan.add(run_command(["flux", "dmesg"]),
             expect(0, "jobspec.so: unknown key 'bogus' (v1, dialect, strict, max-input-bytes, "
                       "max-depth, max-diagnostics, max-alias-nodes, max-vertices, "
                       "max-constraint-terms, max-match-steps, never, down-is-never, reasons, "
                       "reason-depth, reason-share)"))
    for key, bad, why in (("reason-depth", "-1", "an integer from 0 to 100000"),
                          ("reason-share", "0", "an integer from 1 to 100"),
                          ("reason-share", "101", "an integer from 1 to 100")):
        plan.add(run_command(["flux", "jobtap", "load", jobtap, f"{key}={bad}"]),
                 expect(1, "flux_plugin_init failed"))
        plan.add(run_command(["flux", "dmesg", "-c"]), expect(0, f"jobspec.so: {key}: {why}"))


def add_reload_with_jobs(plan, jobtap):
    """Jobs accepted before a reload, which the job manager announces to the plugin
    again (job.create), are left alone though the new configuration would refuse them:
    still pending, with no exception, and they run when released."""
    path = plan.file("accepted before the reload", json.dumps(cases.small_v1()))
    plan.add({"run": ["flux", "job", "submit", "--urgency=0", path], "as": "held"}, expect(0))
    plan.add(run_command(["flux", "jobtap", "load", "--remove=jobspec.so", jobtap,
                          "max-vertices=1"]), expect(0))
    plan.submit("refused after the reload", json.dumps(cases.small_v1()),
                verdict_check("", ("reject", ["limit.vertices"])))
    plan.add(run_command(["flux", "jobs", "-no", "{state}", "{held}"]), expect(0, "SCHED"))
    plan.add(run_command(["flux", "job", "eventlog", "{held}"]),
             expect(0, "submit", absent=("exception",)))
    plan.add(run_command(["flux", "job", "urgency", "{held}", "16"]), expect(0))
    plan.add(run_command(["flux", "job", "wait-event", "-t", "60", "{held}", "clean"]),
             expect(0))
    plan.add(run_command(["flux", "job", "status", "{held}"]), expect(0))
    plan.add(run_command(["flux", "jobtap", "load", "--remove=jobspec.so", jobtap]), expect(0))
