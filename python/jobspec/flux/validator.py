"""Check jobs against RFC 14 (and RFC 25 with --jobspec-v1) with jobspec

A job-ingest validator plugin: each job's jobspec is read by jobspec's C++ reader, and
a job that breaks a rule, or that a Flux instance cannot hold, is rejected with one
line naming each problem's diagnostic code and JSON pointer ("jobspec.slot-no-label at
/resources/0: ..."), at most 159 bytes. A valid job passes untouched. Options (in
[ingest.validator] args, or on the flux job-validator command line):

  --jobspec-v1                   also apply RFC 25's V1 rules
  --jobspec-dialect=fluxion      read jobs as Fluxion (flux-sched) does: versions to
                                 9999, sibling slots and xor_slot sharing labels
                                 (default: rfc)
  --jobspec-strict               reject jobs that have only warnings too
  --jobspec-max-input-bytes=N    largest jobspec checked (default 10 MiB, as job-ingest's
                                 buffer-size); larger jobs are rejected (limit.input-size)
  --jobspec-max-depth=N, --jobspec-max-vertices=N, --jobspec-max-constraint-terms=N,
  --jobspec-max-diagnostics=N, --jobspec-max-alias-nodes=N
                                 the other limits of `jobspec validate`
  --jobspec-never                reject a job that can never run on the instance's
                                 resources, with jobspec's explanation (in place of
                                 flux-core's feasibility plugin)
  --jobspec-down-is-never        the same, on the resources that are up now
  --jobspec-max-match-steps=N    the most steps that placement may take (default 200000,
                                 about 3 ms); a job over it is accepted, not judged

Load it by name once installed into flux-core (plugins = ["jobspec-rfc"]) or by the
path of this file (python3 -m jobspec.flux --validator prints it). When the jobspec
package cannot be imported (not installed for the Python flux runs), the plugin says
so once in the instance's log and rejects every job with that reason: it never stops
the validator. See docs/FLUX.md.
"""
import errno
import json
import os
import sys

from flux.job.validator import ValidatorPlugin

if not __package__:
    # Loaded by its path (plugins = ["/path/to/validator.py"]): the package this file is
    # part of is importable from where the file is, whatever the instance's PYTHONPATH.
    _ROOT = os.path.abspath(os.path.join(__file__, *[os.pardir] * 3))
    if _ROOT not in sys.path:
        sys.path.append(_ROOT)
try:
    import jobspec
    from jobspec.flux import document, instance, rejection, why
except ImportError as _error:
    jobspec = None
    # Why, in full, for the instance's log; each job gets the short line.
    _WHY = (f"jobspec-rfc: the jobspec package cannot be imported by {sys.executable}"
            f" ({_error}); see jobspec's docs/FLUX.md")
    _UNAVAILABLE = ("jobspec-rfc: the jobspec package cannot be imported here, so no job is "
                    "accepted; flux dmesg says why")

#: flux-core's default ingest buffer: a larger jobspec cannot reach a validator anyway.
DEFAULT_MAX_INPUT_BYTES = 10 * 1024 * 1024

#: The deepest nesting job-ingest's JSON reader (jansson) accepts.
_JSON_DEPTH = 2048

#: The most steps one --jobspec-never placement takes (about 3 ms on the test machine:
#: docs/PERFORMANCE.md); a validator worker is a process of its own.
DEFAULT_MAX_MATCH_STEPS = 200000

#: The limits of `jobspec validate` the plugin takes as --jobspec-max-* options.
LIMITS = ("max_input_bytes", "max_depth", "max_vertices", "max_constraint_terms",
          "max_diagnostics", "max_alias_nodes")


def _positive(text):
    value = int(text)
    if value < 1:
        raise ValueError(f"{text} is not a positive integer")
    return value


class Validator(ValidatorPlugin):
    """jobspec's RFC 14/25 checks as a job-ingest validator plugin."""

    def __init__(self, parser):
        self.v1 = False
        self.dialect = "rfc"
        self.strict = False
        self.instance = True
        self.limits = {"max_input_bytes": DEFAULT_MAX_INPUT_BYTES}
        self.never = None  # with --jobspec-never: the handle resources are asked by
        self.down_is_never = False
        self.max_match_steps = DEFAULT_MAX_MATCH_STEPS
        parser.add_argument(
            "--jobspec-v1", action="store_true",
            help="jobspec-rfc: also check RFC 25's V1 rules (one node or slot, one task, "
            "a duration)",
        )
        parser.add_argument(
            "--jobspec-dialect", choices=("rfc", "fluxion"), default="rfc",
            help="jobspec-rfc: whose rules: RFC 14's, or what Fluxion (flux-sched) reads",
        )
        parser.add_argument(
            "--jobspec-strict", action="store_true",
            help="jobspec-rfc: reject a job for warnings too (an unknown system attribute)",
        )
        parser.add_argument(
            "--jobspec-never", action="store_true",
            help="jobspec-rfc: reject a job that can never run on the instance's resources",
        )
        parser.add_argument(
            "--jobspec-down-is-never", action="store_true",
            help="jobspec-rfc: reject a job that cannot run on the resources that are up",
        )
        parser.add_argument(
            "--jobspec-max-match-steps", metavar="N", type=_positive, default=None,
            help="jobspec-rfc: the most steps a --jobspec-never placement may take; one "
            f"that would take more accepts the job (default {DEFAULT_MAX_MATCH_STEPS})",
        )
        for limit in LIMITS:
            option = "--jobspec-" + limit.replace("_", "-")
            default = self.limits.get(limit)
            parser.add_argument(
                option, metavar="N", type=_positive, default=None,
                help=f"jobspec-rfc: the {option[10:]} limit of jobspec validate"
                + (f" (default {default})" if default else ""),
            )
        super().__init__(parser)

    def configure(self, args):
        if jobspec is None:
            # Once per worker, in the instance's log (flux dmesg); every job is rejected.
            print(_WHY, file=sys.stderr, flush=True)
            return
        # flux job-validator reads each job with Python's json module, whose recursion
        # stops at about 1,000 levels and then takes the worker down; job-ingest's own
        # reader accepts 2,048. Room for those lets a deep jobspec reach this plugin and
        # be rejected (limit.depth) instead.
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 3 * _JSON_DEPTH))
        self.instance = instance()
        self.v1 = args.jobspec_v1
        self.dialect = args.jobspec_dialect
        self.strict = args.jobspec_strict
        self.down_is_never = args.jobspec_down_is_never
        if args.jobspec_never or args.jobspec_down_is_never:
            import flux  # pylint: disable=import-outside-toplevel
            self.never = flux.Flux()
        if args.jobspec_max_match_steps is not None:
            self.max_match_steps = args.jobspec_max_match_steps
        for limit in LIMITS:
            value = getattr(args, "jobspec_" + limit)
            if value is not None:
                self.limits[limit] = value
        # Fails here, at start-up, rather than on every job, if a limit is out of range.
        try:
            jobspec.validate_jobspec("{}", format="json", limits=self.limits)
        except ValueError as error:
            raise ValueError(f"jobspec-rfc: {error}") from None

    def validate(self, job):
        if jobspec is None:
            return errno.EINVAL, _UNAVAILABLE
        # Warnings do not reject a job (unless --jobspec-strict) and have nowhere to go.
        try:
            jobspec.check_jobspec(document(job.jobspec), v1=self.v1, dialect=self.dialect,
                                  format="json", strict=self.strict, flux_instance=self.instance,
                                  limits=self.limits)
        except Exception as error:  # pylint: disable=broad-except
            # Anything at all (even a bug of ours) rejects the job, never the validator.
            return errno.EINVAL, rejection(error)
        if self.never is not None:
            return self._feasible(job)
        return None

    def _feasible(self, job):
        """--jobspec-never: the job's verdict on the instance's resources, asked for each
        job (flux-core's feasibility plugin asks the scheduler for each job too). When
        they cannot be asked, or the job cannot be judged, it is accepted: this check must
        never stop a job the scheduler could run."""
        try:
            r, config = why.read_resources(self.never, self.down_is_never)
            error = why.never(json.dumps(job.jobspec), r, config, self.dialect,
                              self.max_match_steps)
        except (OSError, jobspec.Error):
            return None
        return None if error is None else (errno.EINVAL, error.summary)
