"""jobspec inside Flux: plugins that give a Flux instance jobspec's RFC 14/25 checks.

- jobspec.flux.validator: a job-ingest validator plugin (`flux job-validator`), named
  "jobspec-rfc" once installed into flux-core, or loaded by the path of validator.py;
- jobspec.flux.cli: the directory of a CLI plugin for `flux run/submit/batch/alloc`
  (FLUX_CLI_PLUGINPATH), which checks a job before it is sent;
- the jobtap plugin jobspec.so, built with the C library when flux-core is found.

`python3 -m jobspec.flux` prints where the Python plugins are. docs/FLUX.md tells how
to turn each on. Only these modules import flux; `import jobspec` never does.
"""
import json
import os

from jobspec import _jobspec

#: The most bytes a plugin's one-line verdict has: what flux-core passes on from a jobtap
#: plugin (a flux_error_t), and so the bound of every jobspec plugin's message.
VERDICT_BYTES = _jobspec.FLUX_VERDICT_BYTES

#: The file `[ingest.validator] plugins` names to load the validator plugin by path.
VALIDATOR_PATH = os.path.join(os.path.dirname(__file__), "validator.py")
#: The directory to put in FLUX_CLI_PLUGINPATH for the CLI plugin.
CLI_PLUGIN_DIR = os.path.join(os.path.dirname(__file__), "cli")


def instance():
    """What the plugins pass as check_jobspec's flux_instance: the size (number of ranks)
    of the Flux instance this process runs in, or True when there is none to ask (flux
    job-validator --jobspec-only, flux submit --dry-run outside an instance)."""
    try:
        import flux  # pylint: disable=import-outside-toplevel
        return int(flux.Flux().attr_get("size"))
    except Exception:  # pylint: disable=broad-except
        return True


def document(value):
    """What a host was sent as a jobspec, for jobspec.check_jobspec: a dict as it is,
    any other JSON value as its text (jobspec then says why it is not a jobspec)."""
    return value if isinstance(value, dict) else json.dumps(value)


def bounded(text):
    """`text` as one line of at most VERDICT_BYTES bytes: characters that are not
    printable shown as '?', and what does not fit cut at a character, ending "..."."""
    line = "".join(c if c.isprintable() else "?" for c in text)
    data = line.encode()
    if len(data) <= VERDICT_BYTES:
        return line
    return data[:VERDICT_BYTES - 3].decode(errors="ignore") + "..."


def rejection(error):
    """The one line a Flux user sees for a job jobspec rejects: the jobspec.Error's
    summary (bounded already), or for anything else that went wrong, what it was,
    bounded."""
    summary = getattr(error, "summary", "")
    if summary:
        return summary
    return bounded(f"jobspec: {type(error).__name__}: {error}")
