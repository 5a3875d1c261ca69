"""Starting and stopping `jobspec serve` for the tests, on a free loopback port."""
import json
import os
import re
import signal
import subprocess
import time
import urllib.error
import urllib.request


class Server:
    """`jobspec serve --port 0 ARGS...`, started and waited for; stop() asks it to end with
    a signal and returns its exit status and output."""

    def __init__(self, jobspec, *args, env=None):
        self.process = subprocess.Popen(
            [jobspec, "serve", "--port", "0", *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        line = self.process.stdout.readline()
        match = re.search(r"http://([^/]+)/", line)
        if not match:
            self.process.kill()
            raise RuntimeError("jobspec serve did not start: " + line +
                               self.process.stderr.read())
        self.host = match.group(1)
        self.url = f"http://{self.host}/"
        self.port = int(self.host.rsplit(":", 1)[1])

    def stop(self, how=signal.SIGINT, timeout=10):
        """Sends `how`; returns (exit status, stdout rest, stderr)."""
        self.process.send_signal(how)
        out, err = self.process.communicate(timeout=timeout)
        return self.process.returncode, out, err

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.communicate()

    def rss_kib(self, field="VmRSS"):
        """The server's resident memory (or its peak, VmHWM), in KiB."""
        with open(f"/proc/{self.process.pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
        raise RuntimeError("no " + field)

    def request(self, method, path, body=None, headers=None, timeout=30):
        """(status, headers, body bytes) of one request; never raises on an HTTP error."""
        data = None
        headers = dict(headers or {})
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            headers.setdefault("Content-Type", "application/json")
        req = urllib.request.Request(self.url.rstrip("/") + path, data=data, method=method,
                                     headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as response:
                return response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read()

    def api(self, path, body=None, method=None):
        """(status, parsed JSON) of an API call; POST when there is a body."""
        status, _, data = self.request(method or ("POST" if body is not None else "GET"),
                                       path, body)
        return status, json.loads(data)


def wait_until(predicate, timeout=10.0, step=0.05):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(step)
    return predicate()
