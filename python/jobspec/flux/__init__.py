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

#: The file `[ingest.validator] plugins` names to load the validator plugin by path.
VALIDATOR_PATH = os.path.join(os.path.dirname(__file__), "validator.py")
#: The directory to put in FLUX_CLI_PLUGINPATH for the CLI plugin.
CLI_PLUGIN_DIR = os.path.join(os.path.dirname(__file__), "cli")


def document(value):
    """What a host was sent as a jobspec, for jobspec.check_jobspec: a dict as it is,
    any other JSON value as its text (jobspec then says why it is not a jobspec)."""
    return value if isinstance(value, dict) else json.dumps(value)


def rejection(error):
    """The one line a Flux user sees for a job jobspec rejects: the jobspec.Error's
    summary, or for anything else that went wrong, what it was."""
    summary = getattr(error, "summary", "")
    if summary:
        return summary
    return f"jobspec: {type(error).__name__}: {error}"
