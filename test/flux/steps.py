"""The plan the flux suite hands in_instance.py: steps, each with the check of its result
(flux_test.py, safety.py)."""
import os
import re

# A rejection by jobspec: "CODE at POINTER: message" (CODE like jobspec.unknown-slot).
OURS = re.compile(r"\b(jobspec|v1|limit|constraint|dependency|flux)\.[a-z0-9-]+( at /|: )")


class Plan:
    """Steps for in_instance.py, each with the check to make of its result."""

    def __init__(self, directory):
        self.directory = directory
        self.steps = []
        self.checks = []
        # The index of each step that submits a named case, for comparing plugins.
        self.cases = {}

    def file(self, name, data):
        safe = re.sub(r"[^\w.-]", "_", name)
        path = os.path.join(self.directory, f"{len(self.steps)}-{safe}")
        with open(path, "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode())
        return path

    def add(self, step, check):
        self.steps.append(step)
        self.checks.append(check)

    def submit(self, name, data, check, live=False):
        """`flux job submit` of a jobspec (held, so that nothing runs, unless `live`)."""
        path = self.file(name, data)
        self.cases[name] = len(self.steps)
        self.add({"run": ["flux", "job", "submit"] + ([] if live else ["--urgency=0"]) +
                  [path]}, check)


def verdict_check(name, verdict):
    """The check of a submission's result for a verdict of cases.py."""
    def check(r):
        out = r["stderr"].strip()
        kind = verdict[0]
        if kind == "accept":
            accepted = r["rc"] == 0 and r["stdout"].strip().startswith("ƒ")
            return accepted, f"expected accepted: {out}"
        if kind == "not-ours":
            return r["rc"] == 0 or not OURS.search(out), f"jobspec rejected a valid job: {out}"
        if r["rc"] == 0:
            return False, f"expected rejected, but accepted as {r['stdout'].strip()}"
        if kind == "reject":
            # Every listed code, or jobspec's first errors and the count of those that did
            # not fit on the line (flux passes on 159 bytes from a jobtap plugin).
            missing = [c for c in verdict[1] if c not in out]
            ok = not missing or (OURS.search(out) and re.search(r"; and \d+ more$", out))
            return bool(ok) and "\x1b" not in out, f"rejected without {missing}: {out}"
        if kind == "flux":
            return verdict[1] in out, f"expected flux's {verdict[1]!r}: {out}"
        if kind == "rejected":
            return True, ""

        raise ValueError(kind)
    return check


def run_command(args, env=None):
    return {"run": args, "env": env or {}}


def expect(rc, *texts, absent=()):
    def check(r):
        out = r["stdout"] + r["stderr"]
        ok = r["rc"] == rc and all(t in out for t in texts) and not any(t in out for t in absent)
        return ok, f"rc {r['rc']} (expected {rc}), output:\n{out}"
    return check
