"""The GIL is released while C++ works: 8 threads get the one-thread results.
(Throughput is measured in docs/PERFORMANCE.md, never asserted here.)"""
import threading

import jobspec
from jobspec.compat.flux import MiniConstraintParser, ShapeParser

SHAPES = [
    "slot=4{nodelevel}/node{-x}/socket=2+/core=4+",
    "slot=3-30/node",
    "node/[slot=10{read-db}/[core;memory=4{unit:GB}];slot{db}/[core;memory=4{unit:GB}]]",
    "slot=3-1/core",
    "slot=2{4GB-node}/node/memory=4+{unit:GB}",
]


def work():
    out = []
    for text in SHAPES:
        try:
            out.append(jobspec.shape(text))
        except jobspec.Error as e:
            out.append(str(e))
    out.append(ShapeParser().parse(SHAPES[0]))
    out.append(MiniConstraintParser().parse("ssd and not host:foo[1-3]"))
    out.append(jobspec.compile(["x"], nodes=2, ntasks=4, cwd="/", environ={"A": "1"}))
    out.append(str(jobspec.IdSet("1-9") - jobspec.IdSet("3")))
    return out


def test_eight_threads_get_the_one_thread_results():
    expected = work()
    results = [None] * 8
    start = threading.Barrier(8)

    def run(i):
        start.wait()
        results[i] = [work() for _ in range(50)]

    threads = [threading.Thread(target=run, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for per_thread in results:
        assert per_thread == [expected] * 50


def test_other_threads_run_python_while_cpp_works():
    """While one thread is inside the C++ library, another keeps running Python: with the
    GIL held it could not wake from its sleeps until the C++ loop (about a second of CPU)
    returned."""
    inside = threading.Event()
    done = threading.Event()

    def work():
        inside.set()
        jobspec._jobspec._bench_shape(SHAPES[0], 100000)
        done.set()

    worker = threading.Thread(target=work)
    worker.start()
    inside.wait()
    wakeups = 0
    while not done.is_set():
        done.wait(0.005)
        wakeups += 1
    worker.join()
    assert wakeups >= 10


def test_calls_finish_while_another_thread_keeps_the_gil_busy():
    """Taking the GIL back after the C++ work waits only briefly for it before blocking
    in CPython: with a thread that runs Python until the calls are done, a wait without
    limit would never end."""
    done = threading.Event()

    def busy():
        while not done.is_set():
            pass

    expected = jobspec.shape(SHAPES[0])
    other = threading.Thread(target=busy)
    other.start()
    try:
        results = [jobspec.shape(SHAPES[0]) for _ in range(200)]
    finally:
        done.set()
        other.join()
    assert results == [expected] * 200
