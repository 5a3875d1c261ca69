"""jobspec's checks in flux run, submit, batch, alloc and bulksubmit (a Flux CLI plugin).

Before a job is sent, its --requires, --resources-shape and --dependency values are
compiled by jobspec, and a bad one is shown with a caret under the problem; then the
jobspec text flux is about to send is checked against RFC 14 (and RFC 25 with
--jobspec-v1), and each problem is named with its diagnostic code and JSON pointer.
Warnings are printed and do not stop the job unless --jobspec-strict is given.

When flux-core's own "jobspec" validator finds this plugin on its search path, the
plugin's validate() also rejects jobs that break RFC 14 at job ingest.

Turn it on with FLUX_CLI_PLUGINPATH set to the directory `flux python -m jobspec.flux
--cli-plugin-dir` prints. When the jobspec package cannot be imported by the Python flux
runs, the plugin says so once and checks nothing: the command goes on as without it.
"""
import logging
import os
import sys

from flux.cli.plugin import CLIPlugin

if not __package__:
    # Loaded by its path (FLUX_CLI_PLUGINPATH): the package this file is part of is
    # importable from where the file is, whatever the PYTHONPATH.
    _ROOT = os.path.abspath(os.path.join(__file__, *[os.pardir] * 4))
    if _ROOT not in sys.path:
        sys.path.append(_ROOT)
try:
    import jobspec
    from jobspec.flux import document, instance, rejection
except ImportError as _error:
    jobspec = None
    _UNAVAILABLE = (f"jobspec's CLI plugin is off: the jobspec package cannot be imported by "
                    f"{sys.executable} ({_error})")


def _option_error(option, error):
    """The error for a bad option value: the option's name, then jobspec's diagnostics
    with the value and a caret under the problem."""
    if isinstance(error, jobspec.Error):
        return ValueError(f"{option}: {error}")
    return ValueError(f"{option}: {rejection(error)}")


class JobspecCheck(CLIPlugin):
    """jobspec's RFC 14/25 checks of the job before it is submitted

    --requires, --resources-shape and --dependency are compiled by jobspec, with a caret
    under a problem in the option's value; the jobspec is checked against RFC 14 (RFC 25
    too with --jobspec-v1), each problem named by its code and JSON pointer. See
    docs/FLUX.md of jobspec.
    """

    def __init__(self, prog, prefix="jobspec"):
        super().__init__(prog, prefix=prefix)
        self.add_option("--v1", action="store_true",
                        help="Also check the jobspec against RFC 25 (V1)")
        self.add_option("--strict", action="store_true",
                        help="Stop the job for jobspec's warnings too")
        if jobspec is None:
            # Once per command (flux loads a plugin once), and never in the way.
            logging.getLogger(f"flux-{prog}").warning(_UNAVAILABLE)
        self._instance = None

    def _flux_instance(self):
        """The instance's size, asked once."""
        if self._instance is None:
            self._instance = instance()
        return self._instance

    def preinit(self, args):
        """Compiles the option values jobspec has languages for, before flux does."""
        if jobspec is None:
            return
        requires = getattr(args, "requires", None)
        if requires:
            query = " ".join(requires)
            try:
                jobspec.constraint(query)
            except Exception as error:  # pylint: disable=broad-except
                raise _option_error("--requires", error) from None
        shape = getattr(args, "resources_shape", None)
        if shape:
            try:
                jobspec.shape(shape, flux=True)
            except Exception as error:  # pylint: disable=broad-except
                raise _option_error("--resources-shape", error) from None
        for uri in getattr(args, "dependency", None) or []:
            try:
                # Which schemes exist is the instance's business (its jobtap plugins).
                jobspec.dependency(uri, allow_unknown_scheme=True)
            except Exception as error:  # pylint: disable=broad-except
                raise _option_error("--dependency", error) from None

    def modify_jobspec(self, args, jobspec_object):
        """Arranges for the jobspec to be checked as the text flux sends (or prints for
        --dry-run): plugins that come after this one, such as flux's own --resources-shape,
        may still change it here."""
        if jobspec is None:
            return
        v1 = bool(getattr(args, "v1", False))
        strict = bool(getattr(args, "strict", False))
        log = logging.getLogger(f"flux-{self.prog}")
        write = getattr(jobspec_object, "dumps", None)
        if write is None:  # not flux-core's Jobspec: check what there is now
            self._check(document(jobspec_object.jobspec), v1, strict, log)
            return

        def checked_dumps(*args, **kwargs):
            text = write(*args, **kwargs)
            self._check(text, v1, strict, log)
            return text
        jobspec_object.dumps = checked_dumps

    def _check(self, text, v1, strict, log):
        try:
            found = jobspec.check_jobspec(text, format="json", v1=v1, strict=strict,
                                          flux_instance=self._flux_instance())
        except Exception as error:  # pylint: disable=broad-except
            raise ValueError(rejection(error)) from None
        for warning in found:
            log.warning(warning.summary)

    def validate(self, jobspec_object):
        """Run by flux-core's "jobspec" validator plugin at job ingest."""
        if jobspec is None:
            return
        try:
            jobspec.check_jobspec(document(jobspec_object.jobspec), format="json",
                                  flux_instance=self._flux_instance())
        except Exception as error:  # pylint: disable=broad-except
            raise ValueError(rejection(error)) from None
