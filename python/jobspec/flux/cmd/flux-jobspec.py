"""flux jobspec: jobspec's flux subcommand (docs/FLUX.md).

  flux jobspec why [-A] [--json] [JOBID...]

says, for each pending job, why it is not running (jobspec.flux.why). flux runs this file
when its directory is on FLUX_EXEC_PATH, or from flux-core's own command directory once
installed there.
"""
import argparse
import json
import os
import sys

if not __package__:
    # Run by its path (flux-jobspec.py): the package this file is part of is importable
    # from where the file is, whatever the PYTHONPATH.
    _ROOT = os.path.abspath(os.path.join(__file__, *[os.pardir] * 4))
    if _ROOT not in sys.path:
        sys.path.append(_ROOT)

import flux  # noqa: E402
import jobspec  # noqa: E402
from jobspec.flux import why  # noqa: E402


def _parser():
    parser = argparse.ArgumentParser(
        prog="flux jobspec",
        description="jobspec inside a Flux instance (docs/FLUX.md).")
    sub = parser.add_subparsers(dest="command", required=True)
    w = sub.add_parser(
        "why", help="why pending jobs are not running, and when they will start",
        description="For each pending job (default: all of yours), why it is not running "
        "and when it will start, by the instance's scheduler's own order and rules "
        "(docs/SCHEDULERS.md): held, blocked (a dependency, a stopped queue), next (the "
        "scheduler's next pass starts it), waiting (its estimated start, on which nodes, "
        "after which jobs, behind which job; or why there is no estimate), down (it needs "
        "down or drained nodes, or waits behind a job that does), or never on this "
        "instance (the requirement that fails, where in the jobspec, and the nodes that "
        "come closest).",
        epilog="Exit status: 0 when every job starts in the scheduler's next pass (or is no "
        "longer pending), 1 when one does not or a job id is unknown, 2 usage error.")
    w.add_argument("ids", metavar="JOBID", nargs="*", help="job ids, in any RFC 19 encoding")
    w.add_argument("-A", "--all-users", action="store_true",
                   help="every user's pending jobs, not only yours")
    w.add_argument("--json", action="store_true",
                   help="one JSON object: {\"jobs\": [verdict...]}, each with its evidence "
                   "(eta, waits_behind, after, nodes, down_nodes, diagnostics)")
    w.add_argument("--dialect", choices=("rfc", "fluxion"),
                   help="read jobspecs as this scheduler does (default: fluxion when Fluxion "
                   "schedules the instance, else rfc); reads the instance here")
    w.add_argument("--read-instance", action="store_true",
                   help="read every pending job from the instance and forecast here, even "
                   "where jobspec's jobtap plugin would answer with its own forecast in one "
                   "request (the default; it leaves out the diagnostics of other users' jobs)")
    return parser


def _decode(text, parser):
    try:
        return jobspec.decode_jobid(text)
    except jobspec.Error as e:
        parser.error(f"{jobspec.visible_text(text)}: {e.summary}")
    return None


def _carets(located):
    """(source, text, caret line) for each text `located` points into, made safe for a
    terminal: a caret under each span (counted in the columns the escaped text takes),
    the whole text's left out when a part of it is named too."""
    by_text = {}
    for place in located:
        by_text.setdefault((place["source"], place["text"]), set()).add(
            (place["offset"], place["length"]))
    for (source, text), spans in by_text.items():
        parts = {s for s in spans if s != (0, len(text))} or spans
        shown = jobspec.visible_text(text)
        line = [" "] * max(jobspec.display_width(shown), 1)
        for offset, length in parts:
            start = jobspec.display_width(jobspec.visible_text(text[:offset]))
            width = jobspec.display_width(jobspec.visible_text(text[offset:offset + length]))
            for i in range(start, start + max(width, 1)):
                line[min(i, len(line) - 1)] = "^"
        yield source, shown, "".join(line).rstrip()


def why_command(args, parser):
    handle = flux.Flux()
    # The jobtap plugin's forecast where it gives one (one request), else the instance
    # read here (a request per job the scheduler considers).
    got = None if args.dialect or args.read_instance else why.from_plugin(handle)
    if got is not None:
        by_id, owners = dict(got[0]), got[1]
    else:
        instance = why.read_instance(handle)
        verdicts = why.forecast(instance, args.dialect)
        by_id = {job["id"]: v for job, v in zip(instance.state["pending"], verdicts)}
        owners = instance.owners
    out, status = [], 0
    if args.ids:
        for text in args.ids:
            jobid = _decode(text, parser)
            if jobid in by_id:
                out.append(by_id[jobid])
                continue
            try:
                info = handle.rpc("job-list.list-id", {"id": jobid, "attrs": ["state"]})
                state = why.STATE_NAMES.get(info.get()["job"]["state"], "unknown")
                out.append({"id": why.f58(jobid), "verdict": "not-pending",
                            "state": state, "summary": f"not pending: {state}"})
            except OSError:
                print(f"flux-jobspec: {jobspec.visible_text(text)}: unknown job id",
                      file=sys.stderr)
                status = 1
    else:
        uid = os.getuid()
        out = [by_id[i] for i in sorted(by_id)
               if args.all_users or owners.get(i) == uid]
    if any(v["verdict"] not in ("next", "not-pending") for v in out):
        status = 1
    if args.json:
        # UTF-8 as it is, or escaped where the output cannot hold it: always valid JSON.
        # One write: json.dump to a stream writes each token on its own.
        sys.stdout.write(json.dumps(
            {"jobs": out},
            ensure_ascii=(sys.stdout.encoding or "").lower().replace("-", "") != "utf8") + "\n")
    elif not out and status == 0:
        print("no pending jobs")
    else:
        # Every text from a job (its names, constraint values, messages) is shown escaped:
        # another user's job cannot write to this terminal.
        visible = jobspec.visible_text
        width = max((len(v["id"]) for v in out), default=0)
        for v in out:
            print(f"{visible(v['id']):<{width}}  {visible(v['summary'])}")
            for source, text, spans in _carets(v.get("located", [])):
                # The jobspec as the shape and --requires query it reads as, carets
                # under what fails.
                label = f"{'':<{width}}  {source}: "
                print(label + text)
                print(" " * len(label) + spans)
            for d in v.get("diagnostics", [])[1:]:
                where = f" at {d['pointer']}" if d.get("pointer") else ""
                print(f"{'':<{width}}  " + visible(
                    f"{d['severity']}[{d['code']}]{where}: {d['message']}"))
    return status


def main():
    parser = _parser()
    args = parser.parse_args()
    # What a terminal cannot show is replaced, never a traceback.
    sys.stdout.reconfigure(errors="replace")
    try:
        sys.exit(why_command(args, parser))
    except OSError as e:
        print(f"flux-jobspec: {e}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
