#!/usr/bin/env python3
"""jobspec serve under load and abuse, on loopback only, bounded in count and time.

10,000 API requests from 8 client threads must all succeed (the latencies are reported);
then malformed HTTP, a 100 MB body, a client that never finishes its headers and 1,000
idle connections. Afterwards the server answers the next good request within 1 s, its
resident memory (and its peak) stays under 100 MB, and SIGINT stops it with status 0.

usage: load_test.py JOBSPEC [SANITIZE]   (SANITIZE other than none: memory is reported, not
                                        checked, since sanitizers keep shadow memory)
"""
import http.client
import json
import os
import resource
import signal
import socket
import sys
import threading
import time
import unittest

from serve_util import Server, wait_until

JOBSPEC = None
SANITIZED = False
REQUESTS = 10_000
CLIENTS = 8
IDLE = 1_000
MIB = 1024 * 1024

# (path, request, what a right answer has): the same answers every time, whatever runs
# beside them.
BODIES = [
    ("/api/v1/compile", {"language": "shape", "text": "slot=3-30/node"}, {"status": 0}),
    ("/api/v1/compile", {"language": "shape", "text": "slot=3-1/core"}, {"status": 1}),
    ("/api/v1/tokens", {"language": "shape", "text": "node/[slot=2{a}/core=4;gpu]"},
     {"diagnostics": []}),
    ("/api/v1/compile", {"language": "constraint", "text": "ssd and not host:foo[1-3]"},
     {"status": 0}),
    ("/api/v1/compile", {"language": "dependency", "text": "string:foo?type=out;scope=user"},
     {"status": 0}),
    ("/api/v1/compile", {"language": "jobspec", "options": {"v1": True},
                         "text": "version: 1\nresources:\n  - type: slot\n    count: 1\n"
                                 "    label: default\n    with:\n      - type: core\n"
                                 "        count: 2\ntasks:\n  - command: [app]\n"
                                 "    slot: default\n    count:\n      per_slot: 1\n"
                                 "attributes:\n  system:\n    duration: 60\n"}, {"status": 0}),
]
# Every 100th request draws a picture, so Graphviz runs 100 times among the 10,000.
PICTURE = ("/api/v1/tree", {"language": "shape", "text": "slot=2/core"}, {"diagnostics": []})


def wrong(path, answer, expected):
    """Why `answer` is not right, or None."""
    for key, value in expected.items():
        if answer.get(key) != value:
            return f"{key} is {answer.get(key)!r}, not {value!r}: {json.dumps(answer)[:300]}"
    if path.endswith("/tokens") and len(answer["tokens"]) != 17:
        return f"{len(answer['tokens'])} tokens"
    if path.endswith("/tree") and "<svg" not in (answer["svg"] or ""):
        return f"no picture: dot {answer['dot'] is not None}, {answer.get('graphviz')}"
    return None


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p / 100))]


class LoadAndAbuse(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft < IDLE + 200:
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, IDLE + 200), hard))
        cls.server = Server(JOBSPEC, "--request-timeout", "3", "--max-input-bytes", str(MIB))
        cls.host = ("127.0.0.1", cls.server.port)

    @classmethod
    def tearDownClass(cls):
        cls.server.kill()

    def good_request(self):
        """Seconds one fresh client takes to get a right answer."""
        start = time.monotonic()
        status, answer = self.server.api("/api/v1/compile",
                                         {"language": "shape", "text": "slot=3-30/node"})
        took = time.monotonic() - start
        self.assertEqual((status, answer["status"]), (200, 0))
        return took

    def raw(self, data, read=True, timeout=5):
        """Sends raw bytes on a new connection; returns what comes back until it closes."""
        with socket.create_connection(self.host, timeout=timeout) as s:
            s.sendall(data)
            if not read:
                return b""
            reply = b""
            try:
                while chunk := s.recv(65536):
                    reply += chunk
            except (ConnectionResetError, socket.timeout):
                pass
            return reply

    def test_1_ten_thousand_requests_from_eight_threads(self):
        latencies, errors = [], []
        lock = threading.Lock()

        def client(worker):
            connection = http.client.HTTPConnection(*self.host, timeout=30)
            mine = []
            for i in range(worker, REQUESTS, CLIENTS):
                path, body, expected = PICTURE if i % 100 == 99 else BODIES[i % len(BODIES)]
                start = time.monotonic()
                try:
                    connection.request("POST", path, json.dumps(body),
                                       {"Content-Type": "application/json"})
                    response = connection.getresponse()
                    data = response.read()
                    if response.status != 200:
                        raise RuntimeError(f"{response.status} {data[:200]!r}")
                    problem = wrong(path, json.loads(data), expected)
                    if problem:
                        raise RuntimeError(problem)
                except Exception as error:  # pylint: disable=broad-except
                    with lock:
                        errors.append(f"{path}: {error}")
                    connection.close()
                    connection = http.client.HTTPConnection(*self.host, timeout=30)
                mine.append(time.monotonic() - start)
            connection.close()
            with lock:
                latencies.extend(mine)

        start = time.monotonic()
        threads = [threading.Thread(target=client, args=(w,)) for w in range(CLIENTS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.monotonic() - start
        print(f"\n{len(latencies)} requests from {CLIENTS} threads in {elapsed:.1f} s "
              f"({len(latencies) / elapsed:.0f}/s): latency p50 "
              f"{percentile(latencies, 50) * 1000:.1f} ms, p99 "
              f"{percentile(latencies, 99) * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms; "
              f"server RSS {self.server.rss_kib() / 1024:.1f} MiB", flush=True)
        self.assertEqual(errors, [])
        self.assertEqual(len(latencies), REQUESTS)

    def test_2_malformed_http_is_answered_400(self):
        for junk in [b"GARBAGE\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n",
                     b"GET / HTTP/1.1\r\nno colon here\r\n\r\n", bytes(range(256)) * 4,
                     b"POST /api/v1/compile HTTP/1.1\r\nContent-Length: -5\r\n\r\n",
                     b"POST /api/v1/compile HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                     b"zz\r\n"]:
            reply = self.raw(junk)
            self.assertTrue(reply.startswith(b"HTTP/1.1 400"), (junk[:40], reply[:80]))
        reply = self.raw(b"GET / HTTP/1.1\r\nX-Long: " + b"a" * 20000 + b"\r\n\r\n")
        self.assertTrue(reply.startswith(b"HTTP/1.1 431"), reply[:80])
        self.assertLess(self.good_request(), 1.0)

    def test_3_a_100_mb_body_is_refused(self):
        body = b"x" * MIB
        header = (b"POST /api/v1/compile HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n")
        for framing in [b"Content-Length: %d\r\n\r\n" % (100 * MIB),
                        b"Transfer-Encoding: chunked\r\n\r\n"]:
            with socket.create_connection(self.host, timeout=10) as s:
                s.sendall(header + framing)
                sent = 0
                try:
                    while sent < 100 * MIB:
                        chunk = body if b"Content" in framing else b"100000\r\n" + body + b"\r\n"
                        s.sendall(chunk)
                        sent += len(body)
                except (BrokenPipeError, ConnectionResetError, socket.timeout):
                    pass
                try:
                    reply = s.recv(4096)
                except ConnectionResetError:
                    reply = b"(reset)"
            self.assertTrue(reply.startswith(b"HTTP/1.1 413") or reply == b"(reset)",
                            reply[:80])
            self.assertLess(sent, 100 * MIB, "the server read the whole body")
        self.assertLess(self.good_request(), 1.0)

    def test_4_a_client_that_never_finishes_its_headers(self):
        slow = socket.create_connection(self.host, timeout=10)
        try:
            slow.sendall(b"POST /api/v1/compile HTTP/1.1\r\nHost: a\r\n")
            start = time.monotonic()
            # It keeps trickling; meanwhile others are served at once.
            for _ in range(4):
                slow.sendall(b"X")
                self.assertLess(self.good_request(), 1.0)
                time.sleep(0.3)
            # The request timeout (3 s here) closes it.
            try:
                closed = slow.recv(100)
            except ConnectionResetError:
                closed = b""
            self.assertEqual(closed, b"")
            self.assertLess(time.monotonic() - start, 6)
        finally:
            slow.close()

    def test_5_a_thousand_idle_connections(self):
        idle = []
        try:
            for _ in range(IDLE):
                idle.append(socket.create_connection(self.host, timeout=10))
            time.sleep(0.2)
            self.assertLess(self.good_request(), 1.0)
        finally:
            for s in idle:
                s.close()
        self.assertLess(self.good_request(), 1.0)

    def test_6_afterwards(self):
        self.assertLess(self.good_request(), 1.0)
        rss, peak = self.server.rss_kib(), self.server.rss_kib("VmHWM")
        print(f"\nafter the abuse: RSS {rss / 1024:.1f} MiB, peak {peak / 1024:.1f} MiB",
              flush=True)
        if not SANITIZED:
            self.assertLess(rss, 100 * 1024)
            self.assertLess(peak, 100 * 1024)
        status, out, err = self.server.stop(signal.SIGINT)
        self.assertEqual((status, err), (0, ""))


if __name__ == "__main__":
    JOBSPEC = os.path.abspath(sys.argv[1])
    SANITIZED = len(sys.argv) > 2 and sys.argv[2] not in ("", "none")
    unittest.main(argv=[sys.argv[0]], verbosity=2)
