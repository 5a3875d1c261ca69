"""What the flux suite submits, and what each plugin must answer.

Every jobspec case of test/conformance/jobspec becomes a JSON submission (Flux takes a
jobspec as JSON; YAML cases are converted), with its expected verdict:
  accept            the job is accepted
  reject CODES      the job is rejected, and the message names every listed code
  flux REASON TEXT  Flux itself refuses the submission before any plugin sees it; the
                    message contains TEXT
  skip REASON       the case tests something no submission can carry
The exceptions are listed here with their reasons, and docs/FLUX.md explains them.
"""
import json
import os

import yaml

# Cases about the YAML reader itself: Flux takes jobspec as JSON only.
YAML_ONLY = "a YAML document's own problem; Flux takes a jobspec as JSON"

# Cases Flux's JSON reader (jansson, in job-ingest) refuses before any plugin sees them.
FLUX_REFUSES = {
    "json-trailing-comma.json": "invalid JSON",
    "json-unclosed.json": "invalid JSON",
    "json-number-overflow.json": "invalid JSON",
}

# Valid jobspecs that a default instance declines for reasons of its own (docs/FLUX.md).
INSTANCE_REFUSES = {
    "rfc14-use_case_2.8.yaml": "not supported",  # no plugin for the "fluid" dependency scheme
}

# Valid jobspecs a Flux instance cannot hold, which every plugin refuses
# (ReadOptions::flux_instance, docs/COMPAT.md "In a Flux instance").
FLUX_INSTANCE_REFUSES = {
    "counts-every-form.yaml": "flux.count",  # "2+:2:*": no maximum, which sched-simple needs
    "attributes-null.yaml": "flux.attributes-null",  # the job manager reads attributes.system
    "dependencies-constraints.json": "flux.rank-range",  # ranks 3: the instance has rank 0
}

# Cases that change on the way in: Flux's JSON reader keeps the last of two equal keys,
# so a plugin sees {"version": 2} and reports what is missing instead.
TRANSPORT_CHANGES = {
    "json-duplicate-key.json": ["jobspec.missing-key"],
}

# The job manager removes attributes.system.environment from the jobspec it gives
# jobtap plugins: jobspec.so cannot see these problems.
ENVIRONMENT = {"environment-value-list.yaml"}

# Without the ingest validator, the job manager's own reading of attributes.system
# (for the queue) refuses these before any jobtap plugin is called; and it checks the
# queue before the plugins too.
JOB_MANAGER_REFUSES = {"attributes-list.yaml", "system-not-a-mapping.yaml",
                       "json-not-an-object.json", "not an object", "attributes-null.yaml"}
QUEUE_REFUSES = {"dependencies-constraints.json"}  # no queues configured


def _expected_codes(directory):
    """{file: [codes]} from a directory's expected.txt."""
    codes = {}
    with open(os.path.join(directory, "expected.txt"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            name, code, _ = line.rstrip("\n").split("\t")
            codes.setdefault(name, [])
            if code not in codes[name]:
                codes[name].append(code)
    return codes


def _as_json(path):
    """The document as the JSON text a user would submit."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if path.endswith(".json"):
        return text
    return json.dumps(yaml.safe_load(text))


def conformance(root, v1):
    """[(name, json text or None, verdict)] for the canonical cases (valid/ and invalid/),
    or with `v1` for the V1 ones (valid/v1-* and invalid-v1/)."""
    cases = []
    valid = os.path.join(root, "valid")
    for name in sorted(os.listdir(valid)):
        if not v1 or name.startswith("v1-"):
            verdict = (("flux", INSTANCE_REFUSES[name]) if name in INSTANCE_REFUSES else
                       ("reject", [FLUX_INSTANCE_REFUSES[name]])
                       if name in FLUX_INSTANCE_REFUSES else ("accept",))
            cases.append(("valid/" + name, _as_json(os.path.join(valid, name)), verdict))
    directory = os.path.join(root, "invalid-v1" if v1 else "invalid")
    for name, codes in sorted(_expected_codes(directory).items()):
        path = os.path.normpath(os.path.join(directory, name))
        label = os.path.relpath(path, root)
        if name.startswith("yaml-"):
            cases.append((label, None, ("skip", YAML_ONLY)))
        elif name in FLUX_REFUSES:
            cases.append((label, _as_json(path), ("flux", FLUX_REFUSES[name])))
        elif name in TRANSPORT_CHANGES:
            cases.append((label, _as_json(path), ("reject", TRANSPORT_CHANGES[name])))
        else:
            cases.append((label, _as_json(path), ("reject", codes)))
    return cases


def for_validator(cases_):
    """The verdicts with the validator plugin: job-ingest cannot hand a validator a job
    larger than its buffer (10 MB by default), and refuses it itself."""
    return [(name, text, ("flux", "worker unexpectedly exited")
             if verdict == ("reject", ["limit.input-size"]) else verdict)
            for name, text, verdict in cases_]


def for_jobtap(cases_):
    """The verdicts with the jobtap plugin: it never sees the environment, and the job
    manager refuses a few jobs before it."""
    def verdict_of(name, verdict):
        if os.path.basename(name) in ENVIRONMENT:
            return ("accept",)
        if os.path.basename(name) in JOB_MANAGER_REFUSES:
            return ("flux", "Invalid argument")
        if os.path.basename(name) in QUEUE_REFUSES:
            return ("flux", "is not a valid queue")
        return verdict
    return [(name, text, verdict_of(name, verdict)) for name, text, verdict in cases_]


def small_v1():
    """A small valid V1 jobspec, as `flux run -n1 true` writes one."""
    return {
        "version": 1,
        "resources": [{"type": "slot", "count": 1, "label": "task",
                       "with": [{"type": "core", "count": 1}]}],
        "tasks": [{"command": ["true"], "slot": "task", "count": {"per_slot": 1}}],
        "attributes": {"system": {"duration": 0, "cwd": "/tmp"}},
    }


def hostile():
    """[(name, bytes, verdict)]: submissions meant to break something, with the verdicts
    of the jobtap plugin (see for_validator)."""
    good = small_v1()

    def with_changes(**system):
        spec = json.loads(json.dumps(good))
        spec["attributes"]["system"].update(system)
        return json.dumps(spec).encode()

    nested = json.loads(json.dumps(good))
    nested["attributes"]["user"] = {"deep": "DEEP"}
    nested = json.dumps(nested).replace('"DEEP"', "[" * 1500 + "]" * 1500)
    big = json.loads(json.dumps(good))
    big["attributes"]["user"] = {"blob": "x" * (50 * 1024 * 1024)}
    control = json.loads(json.dumps(good))
    control["resources"][0]["label"] = "\x1b[31mred\x07"
    control["tasks"][0]["slot"] = "\x1b]0;title\x07"
    return [
        ("100k-deep nesting", b"[" * 100000 + b"]" * 100000,
         ("flux", "maximum parsing depth")),
        ("1,500-deep nesting", nested.encode(), ("reject", ["limit.depth"])),
        ("50 MB jobspec", json.dumps(big).encode(), ("reject", ["limit.input-size"])),
        ("invalid UTF-8", json.dumps(good).replace("true", "tr\xff").encode("latin-1"),
         ("flux", "invalid JSON")),
        ("a lone surrogate escaped", json.dumps(good).replace("true", "\\udc80").encode(),
         ("flux", "invalid JSON")),
        ("control characters", json.dumps(control).encode(), ("reject", ["jobspec.unknown-slot"])),
        ("2^64 integer", with_changes(duration=2**64), ("flux", "invalid JSON")),
        ("10^30 integer", with_changes(duration=10**30), ("flux", "invalid JSON")),
        ("1e300 duration", with_changes(duration=1e300), ("accept",)),
        ("2^63-1 count", with_changes().replace(b'"count": 1, "label"',
                                                b'"count": 9223372036854775807, "label"'),
         ("accept",)),
        ("2^63 count", with_changes().replace(b'"count": 1, "label"',
                                              b'"count": 9223372036854775808, "label"'),
         ("flux", "invalid JSON")),
        ("not an object", b"[1, 2]", ("reject", ["jobspec.key-type"])),
    ]


# RFC-invalid jobspecs flux-core's own validator accepts: the CLI plugin's validate(),
# which that validator runs, must reject them.
FLUX_VALIDATOR_ACCEPTS = {"task-unknown-slot.yaml", "slot-duplicate-label.json",
                          "duration-negative.yaml", "with-empty.json"}


def for_flux_validator(cases_):
    """The verdicts with flux-core's own validator in front of the CLI plugin's validate():
    a valid job may be refused by flux-core (never by jobspec); an invalid one is rejected
    by one or the other, and those flux-core lets through by jobspec."""
    def verdict_of(name, verdict):
        if os.path.basename(name) in FLUX_INSTANCE_REFUSES:
            return ("rejected",)
        if name.startswith("valid/"):
            return ("not-ours",)
        if verdict[0] == "reject" and os.path.basename(name) not in FLUX_VALIDATOR_ACCEPTS:
            return ("rejected",)
        return verdict
    return [(name, text, verdict_of(name, verdict)) for name, text, verdict in cases_]


def _with_constraint(constraint):
    spec = small_v1()
    spec["attributes"]["system"]["constraints"] = constraint
    return spec


def _with_count(count):
    spec = small_v1()
    spec["resources"][0]["with"][0]["count"] = count
    return spec


def refusals():
    """[(class, bytes, code)]: one job of each class a Flux instance cannot hold, or that
    passes a plugin's bounds, with the code every plugin refuses it with. Each stopped
    sched-simple, and the instance with it, stalled it, or failed other users' jobs, when
    let through (docs/COMPAT.md, "In a Flux instance"). They are submitted live, not
    held, so that the scheduler meets any that gets through."""
    nested = small_v1()
    nested["attributes"]["user"] = {"deep": "DEEP"}
    nested = json.dumps(nested).replace('"DEEP"', "[" * 1000 + "]" * 1000)
    many_or = {"or": [{"properties": [f"p{i}"]} for i in range(200000)]}
    many_vertices = small_v1()
    many_vertices["resources"][0]["with"] = [{"type": "core", "count": 1}] * 2000
    null = small_v1()
    null["attributes"] = None
    out = [
        ("rank 2^32-1", _with_constraint({"ranks": ["4294967295"]}), "flux.idset-range"),
        ("rank 2^31", _with_constraint({"ranks": ["2147483648"]}), "flux.idset-range"),
        ("rank past the instance", _with_constraint({"ranks": ["0-1000000"]}),
         "flux.rank-range"),
        ("ranks sorted as text", _with_constraint({"ranks": ["0", "2", "10"]}),
         "flux.constraint"),
        ("not with no constraint", _with_constraint({"not": []}), "flux.constraint"),
        ("host range past 2^20", _with_constraint({"hostlist": ["a[0-1048576]"]}),
         "flux.hostlist"),
        ("host range of 10^11", _with_constraint({"hostlist": ["foo[0-99999999999]"]}),
         "flux.hostlist"),
        ("hosts spelled out past 2^20",
         _with_constraint({"hostlist": ["a[0-1048575,0-1048575]-ib"]}), "flux.hostlist"),
        ("count '^' operand 2^62", _with_count({"min": 2, "max": 4, "operator": "^",
                                                "operand": 4611686018427387904}),
         "flux.count"),
        ("count idset near 2^31", _with_count("1,2147483647"), "flux.count"),
        ("stepped count with no maximum", _with_count("2+:2:*"), "flux.count"),
        ("200,000 or terms", _with_constraint(many_or), "limit.constraint-terms"),
        ("500,000 properties",
         _with_constraint({"properties": [f"p{i}" for i in range(500000)]}),
         "limit.constraint-terms"),
        ("2,000 vertices", many_vertices, "limit.vertices"),
        ("attributes null", null, "flux.attributes-null"),
    ]
    return [(name, json.dumps(spec).encode(), code) for name, spec, code in out] + [
        ("nested 1,000 levels", nested.encode(), "limit.depth"),
        ("a JSON array", b"[1, 2]", "jobspec.key-type"),
    ]
