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
from collections.abc import Mapping as _Mapping

from . import _jobspec
from ._errors import Diagnostic, Error, JobspecWarning
from ._jobspec import (Hostlist, IdSet, ResourceSet, display_width, explain, shape,
                       visible_text)

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
    "check_jobspec",
    "compile",
    "constraint",
    "decode_jobid",
    "dependency",
    "display_width",
    "encode_jobid",
    "explain",
    "forecast",
    "jobid_encoding",
    "match",
    "parse_config",
    "parse_duration",
    "query_of",
    "read_jobspec",
    "shape",
    "shape_of",
    "validate_jobspec",
    "visible_text",
    "workflow",
]

#: The job id encodings of RFC 19, and flux-core's f58plain.
JOBID_ENCODINGS = ("dec", "hex", "dothex", "kvs", "f58", "f58plain", "words", "emoji")


def _document_text(document, format):
    if isinstance(document, dict):
        return _json.dumps(document, allow_nan=False), "json"
    if isinstance(document, (str, bytes)):
        return document, format
    raise TypeError(f"a jobspec is a str, bytes or dict, not {type(document).__name__}")


def read_jobspec(document, *, v1=False, dialect="rfc", format="auto", counts="dict",
                 strict=False, flux_instance=False, limits=None):
    """Reads a jobspec (RFC 14) from YAML or JSON text or a dict and returns it in canonical
    form. v1: also apply RFC 25's rules. dialect: "rfc", or "fluxion" for what Fluxion
    (flux-sched) reads, as `jobspec validate --dialect fluxion` does. format: "auto",
    "json" or "yaml". counts: as for shape(). strict: warnings are errors. flux_instance:
    True, or the instance's size (its number of ranks): also refuse what a Flux instance
    cannot hold (flux.* errors), as `jobspec validate --flux-instance` and jobspec's
    Flux plugins do. limits: a mapping that changes the
    input limits the command line's --max-* options set ("max_input_bytes", "max_depth",
    "max_diagnostics", "max_alias_nodes", "max_vertices", "max_constraint_terms").
    Raises jobspec.Error listing every problem."""
    text, format = _document_text(document, format)
    return _jobspec._read_jobspec(text, v1, dialect, format, counts, strict, flux_instance,
                                  limits)


def shape_of(document, *, default_label="default", dialect="rfc", format="auto",
             spans=False):
    """The RFC 46 shape of a jobspec's resources (a jobspec as for read_jobspec()):
    shape() of it gives back its resources, the only slot's label left out when it is
    default_label (flux-core's is "task"). With spans, (shape, {pointer: (start, end)}):
    where each vertex's text is, by its JSON pointer ("/resources/0/with/1"). Raises
    jobspec.Error for an invalid jobspec, or shape.unwritable where no shape says it."""
    text, format = _document_text(document, format)
    shape, where = _jobspec._shape_of(text, dialect, format, default_label)
    return (shape, where) if spans else shape


def check_jobspec(document, *, v1=False, dialect="rfc", format="auto", strict=False,
                  flux_instance=False, limits=None):
    """Checks a jobspec like read_jobspec() without building its canonical form, for a
    host that needs only the verdict: raises jobspec.Error (whose `summary` is one line)
    when it is invalid, and returns its warnings, a list of jobspec.JobspecWarning that
    are not issued (empty when there are none; with strict they are errors)."""
    text, format = _document_text(document, format)
    return _jobspec._check_jobspec(text, v1, dialect, format, strict, flux_instance, limits)


def validate_jobspec(document, *, v1=False, dialect="rfc", format="auto",
                     flux_instance=False, limits=None):
    """Checks a jobspec like read_jobspec() but never raises for invalid input: returns
    the list of jobspec.Diagnostic found (errors and warnings), empty when all is well."""
    text, format = _document_text(document, format)
    return _jobspec._validate_jobspec(text, v1, dialect, format, flux_instance, limits)


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


def _option_settings(options):
    """flux options by name for keyword arguments: name_x=value is --name-x=value; a list
    or tuple repeats the option; True is the bare flag; False and None are left out; a
    mapping gives KEY=VALUE values, or for setattr and setopt (key, value) pairs whose
    values are set as the JSON values they are. Returns (settings, setattr, setopt)."""
    settings, typed = [], {"setattr": [], "setopt": []}
    for name, given in options.items():
        flag = name.replace("_", "-")
        for value in given if isinstance(given, (list, tuple)) else [given]:
            if value is True:
                settings.append((flag, None))
            elif value is None or value is False:
                continue
            elif hasattr(value, "items") and flag in typed:
                typed[flag] += [(str(key), item) for key, item in value.items()]
            elif hasattr(value, "items"):
                settings += [(flag, f"{key}={item if isinstance(item, str) else _json.dumps(item)}")
                             for key, item in value.items()]
            else:
                settings.append((flag, str(value)))
    return settings, typed["setattr"], typed["setopt"]


def compile(command=(), *, kind="run", script=None, env_none=False, environ=None,
            strict=False, dialect="rfc", **options):
    """Builds the jobspec `flux <kind> --dry-run` prints for the same options, as
    `jobspec compile` does, and returns it as a dict.

    command: the program and its arguments (a list, or one str for a single word); for
    kind="batch" the script's path and arguments. kind: "run", "submit", "batch" or
    "alloc". options: flux's long options with "_" for "-" (nodes=2, ntasks=4,
    cores_per_task=2, gpus_per_task=1, exclusive=True, time_limit="5m", queue="debug",
    resources_shape="slot=2/core", requires=["ssd"], dependency="afterok:ƒ2",
    begin_time="+1h", env=["-*", "A=1"], setattr={"system.x": 1}, setopt=..., ...):
    a list repeats an option, True is a flag, a mapping gives KEY=VALUE values; setattr's
    and setopt's values are set as the values they are (a str stays a str, where flux's
    command line would read "1" as a number).
    script: a batch script's text (default: read from command[0] for kind="batch"); its
    RFC 36 directives apply first, options over them. env_none: start the environment
    empty instead of from a copy; environ: a mapping to copy instead of os.environ.
    strict: warnings are errors. dialect: "fluxion" also refuses what Fluxion's reader
    would (fluxion.* codes). Raises jobspec.Error (usage.*, submit.*, directive.*
    codes) for options flux would refuse or a jobspec that fails RFC 14/25.
    """
    if isinstance(command, str):
        command = [command]
    command = list(command)
    if environ is not None:
        environ = [(str(k), str(v)) for k, v in environ.items()]
    settings, setattr, setopt = _option_settings(options)
    return _jobspec._compile(settings, setattr, setopt, command, kind, script, env_none,
                             environ, strict, dialect)


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


def query_of(constraint, *, spans=False, pointer=""):
    """The query in flux's --requires dialect that says an RFC 31 constraint (a dict or
    its JSON text): constraint() of it matches the same targets, and gives back the same
    dict for one constraint() made. With spans, (query, {pointer: (start, end)}): where
    each term's text is, by its JSON pointer below `pointer`. Raises jobspec.Error
    (query.unwritable) for what no query says, such as an operator outside RFC 31's."""
    text, where = _jobspec._query_of(constraint, pointer)
    return (text, where) if spans else text


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


def parse_config(path):
    """R (a ResourceSet) from the [resource] table of Flux's configuration, as
    `flux R parse-config` makes it: path is a config directory (its *.toml files, merged
    in name order) or one file (TOML, or JSON when it ends in .json); the files that
    resource.path and resource.scheduling name are read too. Raises jobspec.Error with
    each problem located in its file, OSError when a file cannot be read."""
    try:
        return _jobspec._parse_config(_os.fspath(path))
    except Error as e:
        if e.diagnostics[0].code == "io.unreadable":
            raise OSError(e.diagnostics[0].message) from None
        raise


def forecast(state, *, dialect="rfc", max_steps=None, ascii_ids=False,
             max_input_bytes=1 << 30):
    """When each pending job of an instance starts, by its scheduler's own order and rules
    (docs/SCHEDULERS.md): `state` is the instance's state, a dict in the format of
    docs/FORMATS.md ("An instance's state"), each pending job's jobspec read once with
    `dialect`. Returns {"now", "scheduler", "jobs": [...]}: each job's verdict, summary,
    eta (or null, with no_estimate saying why), waits_behind, after, nodes and
    down_nodes, as `jobspec forecast --json` prints it. max_steps bounds each
    explanation jobspec's matcher gives (match.budget: the job is then unknown).
    Raises jobspec.Error for a state that is not of the format."""
    return _jobspec._forecast(state, dialect, max_steps, ascii_ids, max_input_bytes)


def allocate(jobspec, r, *, dialect="rfc", free=None, config=None, queue="", max_steps=None):
    """One allocation of R for a jobspec (text or dict), as `jobspec match` places it: a
    ResourceSet. dialect "fluxion" reads it as Fluxion does: slots side by side are
    alternatives (or-slots), and each choice its xor_slots stand for is tried, the first
    that fits winning. When R carries Fluxion's resource graph (JGF, or R whose
    scheduling key is Fluxion's), the job is placed on the graph as Fluxion places it
    (docs/FLUXION.md), and the allocation carries the graph of what it takes. free (an R: what is free now) places
    it there; config (the path of Flux's configuration, or the configuration as a dict, as a running
    instance's config.get gives it) applies its queue: queue, else its
    system.queue, else the default. Raises jobspec.Error when it cannot be satisfied
    (jobspec.unsatisfiable), waits for resources (match.pending), or asks for what R
    cannot describe (match.unsupported); each says which requirement and why. max_steps
    bounds the placement's work (match.budget when it would take more: not judged)."""
    text, _ = _document_text(jobspec, "auto")
    path = config_json = None
    if isinstance(config, _Mapping):
        config_json = _json.dumps(config, allow_nan=False)
    elif config is not None:
        path = _os.fspath(config)
    return _jobspec._allocate(text, _resource_set(r), dialect,
                              None if free is None else _resource_set(free), path, config_json,
                              queue, max_steps)
