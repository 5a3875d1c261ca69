"""jobspec: compile and check Flux job requests.

RFC 46 shapes, RFC 14/25 jobspec documents, RFC 26 dependencies, RFC 31/35 constraints,
RFC 19 job ids, RFC 22 idsets, RFC 29 hostlists and RFC 20 R, from Python:

    >>> import jobspec
    >>> jobspec.shape("slot=2/core")
    [{'type': 'slot', 'count': 2, 'label': 'default', 'with': [{'type': 'core', 'count': 1}]}]

Results are plain dicts, lists, str and int. Invalid input raises jobspec.Error (a
ValueError) whose `diagnostics` list every problem and whose str() points at them with a
caret; warnings go through the `warnings` module as jobspec.JobspecWarning. The C++ work
runs without the GIL, so threads compile in parallel. flux-core's Python parsers have a
drop-in replacement in jobspec.compat.flux.
"""
import json as _json
import os as _os

from . import _jobspec
from ._errors import Diagnostic, Error, JobspecWarning
from ._jobspec import Hostlist, IdSet, ResourceSet, explain

__version__ = _jobspec.__version__

__all__ = [
    "Diagnostic",
    "Error",
    "Hostlist",
    "IdSet",
    "JOBID_ENCODINGS",
    "JobspecWarning",
    "ResourceSet",
    "allocate",
    "check_constraint",
    "compile",
    "constraint",
    "decode_jobid",
    "dependency",
    "encode_jobid",
    "explain",
    "jobid_encoding",
    "match",
    "parse_duration",
    "read_jobspec",
    "shape",
    "validate_jobspec",
    "workflow",
]

#: The job id encodings of RFC 19, and flux-core's f58plain.
JOBID_ENCODINGS = ("dec", "hex", "dothex", "kvs", "f58", "f58plain", "words", "emoji")


def shape(text, *, default_label="default", counts="dict", strict=False):
    """Compiles an RFC 46 shape into its RFC 14 resource list.

    default_label: the label of the only slot when it has none (flux-core uses "task").
    counts: "dict" writes ranges as RFC 14 dicts ({"min": 2}), "string" as RFC 45
    strings ("2+"), as flux-core's Python parser does. strict: warnings are errors.
    Raises jobspec.Error for an invalid shape, TypeError for a non-str.
    """
    return _jobspec._shape(text, default_label, counts, strict)


def _document_text(document, format):
    if isinstance(document, dict):
        return _json.dumps(document, allow_nan=False), "json"
    if isinstance(document, (str, bytes)):
        return document, format
    raise TypeError(f"a jobspec is a str, bytes or dict, not {type(document).__name__}")


def read_jobspec(document, *, v1=False, format="auto", counts="dict", strict=False):
    """Reads a jobspec (RFC 14) from YAML or JSON text or a dict and returns it in canonical
    form. v1: also apply RFC 25's rules. format: "auto", "json" or "yaml". counts: as for
    shape(). strict: warnings are errors. Raises jobspec.Error listing every problem."""
    text, format = _document_text(document, format)
    return _jobspec._read_jobspec(text, v1, format, counts, strict)


def validate_jobspec(document, *, v1=False, format="auto"):
    """Checks a jobspec like read_jobspec() but never raises for invalid input: returns
    the list of jobspec.Diagnostic found (errors and warnings), empty when all is well."""
    text, format = _document_text(document, format)
    return _jobspec._validate_jobspec(text, v1, format)


def _seconds(value, parse, what):
    if value is None or isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    seconds = parse(value)
    if seconds is None:
        raise ValueError(f"{what}: {value!r} is not valid")
    return seconds


def parse_duration(text):
    """Seconds from a Flux Standard Duration ("90", "30s", "5m", "1.5h", "2d").
    Raises ValueError when malformed."""
    return _seconds(text, _jobspec._parse_duration, "duration")


def _environment(env):
    if env is None:
        return []
    if hasattr(env, "items"):
        return [(str(k), str(v)) for k, v in env.items()]
    pairs = []
    for item in env:
        if isinstance(item, str):
            name, eq, value = item.partition("=")
            if not eq:
                if name not in _os.environ:
                    continue
                value = _os.environ[name]
            pairs.append((name, value))
        else:
            name, value = item
            pairs.append((str(name), str(value)))
    return pairs


def compile(
    command=(),
    *,
    shape=None,
    nodes=None,
    ntasks=None,
    cores_per_task=1,
    gpus_per_task=0,
    exclusive=False,
    time_limit=None,
    cwd=None,
    env=None,
    env_all=False,
    setattr=None,
    dependency=(),
    allow_unknown_scheme=False,
    begin_time=None,
    requires=None,
    v1=False,
    default_label="default",
    counts="dict",
    strict=False,
):
    """Builds a jobspec the way `jobspec compile` (and `flux run`) does, from the same
    options as keyword arguments, and returns it as a dict.

    command: the program and its arguments (a list, or one str for a single word).
    shape: an RFC 46 shape instead of nodes/cores_per_task/gpus_per_task/exclusive.
    nodes (-N), ntasks (-n), cores_per_task (-c), gpus_per_task (-g), exclusive (-x).
    time_limit: seconds or a Flux Standard Duration ("5m"). cwd: default os.getcwd().
    env: a mapping, or "NAME=VALUE" / "NAME" (copied from os.environ) strings;
    env_all: start from the whole of os.environ (env then adds and replaces).
    setattr: a mapping of dotted attribute paths ("system.queue", "user.x") to values.
    dependency: RFC 26 URIs (a str or a list). begin_time: seconds since the epoch or
    ISO-8601 text. requires: an RFC 35 query (the --requires dialect).
    v1, default_label, counts, strict: as for read_jobspec() and shape().
    Raises jobspec.Error for invalid options or inputs.
    """
    if isinstance(command, str):
        command = [command]
    if isinstance(dependency, str):
        dependency = [dependency]
    attributes = list((setattr or {}).items())
    return _jobspec._compile(
        list(command),
        shape,
        nodes,
        ntasks,
        cores_per_task,
        gpus_per_task,
        exclusive,
        float(_seconds(time_limit, _jobspec._parse_duration, "time_limit") or 0),
        _os.getcwd() if cwd is None else cwd,
        (_environment(_os.environ) if env_all else []) + _environment(env),
        attributes,
        list(dependency),
        allow_unknown_scheme,
        _seconds(begin_time, _jobspec._parse_begin_time, "begin_time"),
        requires,
        v1,
        default_label,
        counts,
        strict,
    )


def dependency(uri, *, allow_unknown_scheme=False):
    """Parses an RFC 26 dependency URI ("afterok:ƒ2?type=x") into its object
    {"scheme", "value", options...}. Raises jobspec.Error."""
    return _jobspec._dependency(uri, allow_unknown_scheme)


def constraint(query, *, default_operator=None):
    """Compiles an RFC 35 query into an RFC 31 constraint dict. Without default_operator
    this is flux's --requires dialect (bare words are properties, host/rank are hostlist/
    ranks, only RFC 31's operators); with one, RFC 35's plain language where a bare word
    takes that operator. Raises jobspec.Error."""
    return _jobspec._constraint(query, default_operator)


def check_constraint(constraint):
    """Checks an RFC 31 constraint (a dict or its JSON text) and returns it as a dict.
    Raises jobspec.Error."""
    return _jobspec._check_constraint(constraint)


def _resource_set(r):
    return r if isinstance(r, ResourceSet) else ResourceSet(r)


def match(constraint, r):
    """The ranks of R (a ResourceSet, dict or JSON text) that satisfy a constraint, given
    as an RFC 31 dict or as a --requires query string. Returns an IdSet."""
    is_query = isinstance(constraint, str) and not constraint.lstrip().startswith("{")
    return _jobspec._match(constraint, is_query, _resource_set(r))


def decode_jobid(text):
    """The integer of a job id in any RFC 19 encoding (detected). Raises jobspec.Error."""
    return _jobspec._decode_jobid(text)[0]


def jobid_encoding(text):
    """The name of the encoding RFC 19's detection rules pick for `text`."""
    return _jobspec._jobid_encoding(text)


def encode_jobid(jobid, encoding="f58"):
    """A job id (an int) in one of JOBID_ENCODINGS."""
    if not isinstance(jobid, int) or isinstance(jobid, bool) or not 0 <= jobid < 2**64:
        raise ValueError(f"a job id is an integer from 0 to 2**64-1, not {jobid!r}")
    return _jobspec._encode_jobid(jobid, encoding)


def workflow(document, *, strict=False):
    """Resolves a workflow (a YAML/JSON list of jobs with RFC 26 dependencies, or that list)
    into {"jobs", "edges", "order"}. Raises jobspec.Error (dependency.cycle, ...)."""
    if isinstance(document, list):
        document = _json.dumps(document, allow_nan=False)
    return _jobspec._workflow(document, strict)


def allocate(jobspec, r):
    """One allocation of R for a V1 jobspec (text or dict), first fit: a ResourceSet.
    Raises jobspec.Error when it cannot be satisfied."""
    text, _ = _document_text(jobspec, "auto")
    return _jobspec._allocate(text, _resource_set(r))
