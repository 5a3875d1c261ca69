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
        "why", help="why pending jobs are not running",
        description="For each pending job (default: all of yours), why it is not running: "
        "held, blocked (a dependency, a stopped queue), next in line (it fits now), "
        "waiting for resources (which nodes, which jobs hold them), waiting for down or "
        "drained nodes (which, and why), or never on this instance (the requirement that "
        "fails, where in the jobspec, and the nodes that come closest).",
        epilog="Exit status: 0 when every job can run now (or is no longer pending), 1 "
        "when one cannot or a job id is unknown, 2 usage error.")
    w.add_argument("ids", metavar="JOBID", nargs="*", help="job ids, in any RFC 19 encoding")
    w.add_argument("-A", "--all-users", action="store_true",
                   help="every user's pending jobs, not only yours")
    w.add_argument("--json", action="store_true",
                   help="one JSON object: {\"jobs\": [verdict...]}, each with its evidence")
    w.add_argument("--dialect", choices=("rfc", "fluxion"),
                   help="read jobspecs as this scheduler does (default: fluxion when Fluxion "
                   "schedules the instance, else rfc)")
    return parser


def _decode(text, parser):
    try:
        return jobspec.decode_jobid(text)
    except jobspec.Error as e:
        parser.error(f"{text}: {e.summary}")
    return None


def _carets(located):
    """(source, text, caret line) for each text `located` points into: a caret under
    each span, the whole text's left out when a part of it is named too."""
    by_text = {}
    for place in located:
        by_text.setdefault((place["source"], place["text"]), set()).add(
            (place["offset"], place["length"]))
    for (source, text), spans in by_text.items():
        parts = {s for s in spans if s != (0, len(text))} or spans
        line = [" "] * len(text)
        for offset, length in parts:
            for i in range(offset, offset + max(length, 1)):
                line[min(i, len(line) - 1)] = "^"
        # Columns count characters of the text as printed.
        yield source, text, "".join(line).rstrip()


def why_command(args, parser):
    handle = flux.Flux()
    instance = why.read_instance(handle)
    if args.dialect:
        instance.dialect = args.dialect
    pending = {j["id"]: j for j in instance.pending}
    verdicts, status = [], 0
    if args.ids:
        for text in args.ids:
            jobid = _decode(text, parser)
            job = pending.get(jobid)
            if job is None:
                try:
                    info = handle.rpc("job-list.list-id", {"id": jobid, "attrs": ["state"]})
                    state = why.STATE_NAMES.get(info.get()["job"]["state"], "unknown")
                    verdicts.append({"id": why.f58(jobid), "verdict": "not-pending",
                                     "state": state, "summary": f"not pending: {state}"})
                except OSError:
                    print(f"flux-jobspec: {text}: unknown job id", file=sys.stderr)
                    status = 1
                continue
            verdicts.append(job)
    else:
        uid = os.getuid()
        verdicts = [j for j in instance.pending if args.all_users or j["userid"] == uid]
        verdicts.sort(key=lambda j: j["id"])
    # Held and blocked jobs are judged without their jobspec; the others' are read.
    verdicts = [j if "verdict" in j else why.waiting(j, instance) or j for j in verdicts]
    texts = why.read_jobspecs(handle, [j["id"] for j in verdicts if "verdict" not in j])
    out = []
    for job in verdicts:
        if "verdict" in job:
            out.append(job)
        elif isinstance(texts[job["id"]], OSError):
            out.append({"id": why.f58(job["id"]), "queue": job.get("queue"),
                        "verdict": "unknown",
                        "summary": f"its jobspec cannot be read: {texts[job['id']]}"})
        else:
            out.append(why.explain(job, texts[job["id"]], instance))
    if any(v["verdict"] not in ("next", "not-pending") for v in out):
        status = 1
    if args.json:
        # UTF-8 as it is, or escaped where the output cannot hold it: always valid JSON.
        json.dump({"jobs": out}, sys.stdout,
                  ensure_ascii=(sys.stdout.encoding or "").lower().replace("-", "") != "utf8")
        print()
    elif not out and status == 0:
        print("no pending jobs")
    else:
        width = max((len(v["id"]) for v in out), default=0)
        for v in out:
            print(f"{v['id']:<{width}}  {v['summary']}")
            for source, text, spans in _carets(v.get("located", [])):
                # The jobspec as the shape and --requires query it reads as, carets
                # under what fails.
                label = f"{'':<{width}}  {source}: "
                print(label + text)
                print(" " * len(label) + spans)
            for d in v.get("diagnostics", [])[1:]:
                where = f" at {d['pointer']}" if d["pointer"] else ""
                print(f"{'':<{width}}  {d['severity']}[{d['code']}]{where}: {d['message']}")
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
