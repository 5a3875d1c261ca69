"""Timing one whole process, for the process benchmarks (startup.py, many_arguments.py)."""
import os
import time


def run(argv, env=None):
    """Wall and CPU (user + system) seconds of one run of argv, its output to /dev/null.
    posix_spawn (vfork), not fork: copying the interpreter's page tables would add about
    2 ms to every run. Exits when the program fails."""
    start = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, env if env is not None else os.environ,
                         file_actions=[(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)])
    _, status, usage = os.wait4(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{argv[0]} {' '.join(argv[1:3])} ... failed: {status}")
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime
