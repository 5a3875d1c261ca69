#!/usr/bin/env python3
"""jobspec serve's JSON API (docs/PLAYGROUND.md): the same answers as the CLI, requests
checked, headers that keep other sites out, Graphviz bounded in time, a clean stop.

usage: api_test.py JOBSPEC JOBSPEC-GRAMMAR PLAYGROUND.md
"""
import json
import os
import shutil
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

from serve_util import Server

JOBSPEC = JOBSPEC_GRAMMAR = PLAYGROUND_MD = None
CONFORMANCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "conformance")

V1_JOBSPEC = """version: 1
resources:
  - type: node
    count: 2
    with:
      - type: slot
        count: 1
        label: default
        with:
          - type: core
            count: 4
          - type: gpu
            count: 1
tasks:
  - command: [app]
    slot: default
    count:
      per_slot: 1
attributes:
  system:
    duration: 3600
"""
R_FOUR_NODES = ('{"version":1,"execution":{"R_lite":[{"rank":"0-3","children":'
                '{"core":"0-7","gpu":"0-1"}}],"nodelist":["node[0-3]"],"starttime":0,'
                '"expiration":0}}\n')
R_NO_GPUS = ('{"version":1,"execution":{"R_lite":[{"rank":"0-3","children":{"core":"0-7"}}],'
             '"nodelist":["node[0-3]"],"starttime":0,"expiration":0}}\n')


def cli(args, stdin=None, cwd=None):
    """(exit status, stdout, diagnostics) of the CLI with --diagnostics json."""
    done = subprocess.run([JOBSPEC, *args[:1], *(["decode"] if args[0] == "R" else []),
                           "--diagnostics", "json", *args[1:]],
                          input=stdin, capture_output=True, text=True, cwd=cwd, timeout=60)
    return done.returncode, done.stdout, json.loads(done.stderr)


class ServerTest(unittest.TestCase):
    server = None

    @classmethod
    def setUpClass(cls):
        cls.server = Server(JOBSPEC, "--threads", "2")

    @classmethod
    def tearDownClass(cls):
        cls.server.kill()


class SameAsTheCli(ServerTest):
    """Every answer is what the CLI prints: stdout, the --diagnostics json array, status."""

    def check(self, language, text, cli_args, options=None, stdin=False):
        status, answer = self.server.api("/api/v1/compile", {
            "language": language, "text": text, "options": options or {}})
        self.assertEqual(status, 200, answer)
        expected = cli([*cli_args, "-"] if stdin else [*cli_args, text],
                       stdin=text if stdin else None)
        self.assertEqual((answer["status"], answer["output"], answer["diagnostics"]), expected)
        return answer

    def test_shapes(self):
        ok = self.check("shape", "slot=3-30/node", ["shape"])
        self.assertEqual(json.loads(ok["output"])[0]["count"]["max"], 30)
        bad = self.check("shape", "slot=3-1/core", ["shape"])
        self.assertEqual([(d["code"], d["column"], d["length"]) for d in bad["diagnostics"]],
                         [("shape.range-order", 6, 3)])
        for text in ["slot=4/", "node/[core;gpu", "slot=2{ラベル}/core=0", "slot/core{foo:1}"]:
            self.check("shape", text, ["shape"])
        self.check("shape", "slot=2{4GB-node}/node/memory=4+{unit:GB}",
                   ["shape", "--format", "yaml"], {"format": "yaml"})
        self.check("shape", "slot=2-4/core", ["shape", "--counts", "string", "--pretty"],
                   {"counts": "string", "pretty": True})
        strict = self.check("shape", "slot/core{foo:1}", ["shape", "--strict"], {"strict": True})
        self.assertEqual(strict["status"], 1)

    def test_batch_scripts(self):
        # The editor's door (check_document): the jobspec `flux batch` would submit, each
        # problem at its line and column in the script, and the CLI's exit status.
        status, listing = self.server.api("/api/v1/languages")
        example = next(l for l in listing["languages"] if l["name"] == "batch")["example"]
        with tempfile.TemporaryDirectory() as d:
            for text, options, words in [
                    (example, {}, []),
                    (example, {"format": "yaml"}, ["--format", "yaml"]),
                    (example.replace("-t 30m", "-t 5x"), {}, []),
                    ("#!/bin/sh\n#flux: -N1 --nodse=2\nhostname\n", {}, []),
                    ("#!/bin/sh\n#flux: -N1 --requires=host:foo[\nhostname\n", {}, [])]:
                with self.subTest(text=text):
                    with open(os.path.join(d, "script"), "w", encoding="utf-8") as f:
                        f.write(text)
                    status, answer = self.server.api("/api/v1/compile", {
                        "language": "batch", "text": text, "options": options})
                    self.assertEqual(status, 200, answer)
                    code, output, diagnostics = cli(
                        ["compile", *words, "--batch", "--env-none", "script"], cwd=d)
                    for diagnostic in diagnostics:
                        self.assertEqual(diagnostic.pop("file"), "script")
                    self.assertEqual((answer["status"], answer["diagnostics"]), (code, diagnostics))
                    self.assertEqual(answer["output"], output.replace(d, os.getcwd()))
        self.assertEqual(code, 1)
        self.assertEqual(diagnostics[0]["line"], 2)
        # A script names a file of the server's: the server reads none.
        secret = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
        try:
            secret.write("the server's own\n")
            secret.close()
            for option in [f"--add-file={secret.name}", f"--env-file={secret.name}",
                           f"--resources-json={secret.name}"]:
                with self.subTest(option=option):
                    status, answer = self.server.api("/api/v1/compile", {
                        "language": "batch", "text": f"#!/bin/sh\n#flux: -N1 {option}\nhostname\n",
                        "options": {}})
                    self.assertEqual((status, answer["status"]), (200, 1), answer)
                    self.assertNotIn("server's own", json.dumps(answer))
                    self.assertIn("submit.file", [d["code"] for d in answer["diagnostics"]])
        finally:
            os.unlink(secret.name)

    def test_jobspecs(self):
        self.check("jobspec", V1_JOBSPEC, ["validate", "--emit", "json", "--v1"], {"v1": True},
                   stdin=True)
        self.check("jobspec", V1_JOBSPEC, ["validate", "--emit", "yaml"], {"format": "yaml"},
                   stdin=True)
        bad = V1_JOBSPEC.replace("label: default", "label: other")
        answer = self.check("jobspec", bad, ["validate", "--emit", "json", "--v1"], {"v1": True},
                            stdin=True)
        self.assertEqual(answer["status"], 1)
        self.check("jobspec", '{"version": 1, "resources": []}', ["validate", "--emit", "json"],
                   stdin=True)
        self.check("jobspec", "  \n", ["validate", "--emit", "json"], stdin=True)

    def test_fluxion_dialect(self):
        with open(os.path.join(CONFORMANCE, "jobspec", "valid-fluxion", "xor-slots-nested.yaml")) as f:
            flexible = f.read()
        refused = self.check("jobspec", flexible, ["validate", "--emit", "json"], stdin=True)
        self.assertEqual(refused["status"], 1)
        accepted = self.check("jobspec", flexible,
                              ["validate", "--emit", "json", "--dialect", "fluxion"],
                              {"dialect": "fluxion"}, stdin=True)
        self.assertEqual(accepted["status"], 0)
        # The picture keeps every alternative: the DOT of `jobspec graph --dialect fluxion`.
        status, answer = self.server.api("/api/v1/graph", {
            "language": "jobspec", "text": flexible, "options": {"dialect": "fluxion"}})
        self.assertEqual(status, 200, answer)
        dot = subprocess.run([JOBSPEC, "graph", "--what", "jobspec", "--dialect", "fluxion", "-"],
                             input=flexible, capture_output=True, text=True).stdout
        self.assertEqual(answer["dot"], dot)
        self.assertIn("xor_slot", dot)
        # And its match tries each choice, as `jobspec match --dialect fluxion` does.
        r = cli(["R", "-"], stdin=R_FOUR_NODES)[1]
        status, answer = self.server.api("/api/v1/match", {
            "jobspec": flexible, "R": r, "options": {"dialect": "fluxion"}})
        self.assertEqual(status, 200, answer)
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "r.json"), "w") as f:
                f.write(r)
            done = subprocess.run([JOBSPEC, "match", "--dialect", "fluxion", "-",
                                   os.path.join(d, "r.json")],
                                  input=flexible, capture_output=True, text=True)
        self.assertEqual((answer["status"], answer["output"]), (done.returncode, done.stdout))

    def test_constraints_in_both_dialects(self):
        self.check("constraint", "ssd and not host:foo[1-3]", ["constraint"])
        self.check("constraint", "ssd and", ["constraint"])
        self.check("constraint", "foo bar state:started",
                   ["constraint", "--default-operator", "name"], {"default_operator": "name"})

    def test_dependencies_and_r(self):
        self.check("dependency", "afterok:ƒ2oLkTLb", ["dependency"])
        self.check("dependency", "aftrok:1", ["dependency"])
        self.check("R", R_FOUR_NODES, ["R"], stdin=True)
        self.check("R", R_FOUR_NODES.replace('"0-7"', '"7-0"'), ["R"], stdin=True)
        # R is read with jobspec::read_resource_set, as jobspec match reads it; until it
        # reports where JSON syntax breaks (issue 15), `jobspec R decode` alone says where.
        status, answer = self.server.api("/api/v1/compile", {"language": "R",
                                                             "text": '{"version":1'})
        code, _, diagnostics = cli(["R", "-"], stdin='{"version":1')
        self.assertEqual([(d["code"], d["message"]) for d in answer["diagnostics"]],
                         [(d["code"], d["message"]) for d in diagnostics])

    def test_forecasts(self):
        status, listing = self.server.api("/api/v1/languages")
        example = next(l for l in listing["languages"] if l["name"] == "forecast")["example"]
        ok = self.check("forecast", example, ["forecast"], stdin=True)
        summaries = [line.split("  ", 1)[1] for line in ok["output"].splitlines()]
        self.assertEqual(len(summaries), 3)
        self.assertTrue(summaries[0].startswith("next: "), summaries)
        self.assertTrue(summaries[1].startswith("starts by "), summaries)
        self.assertTrue(summaries[2].startswith("never on this instance: "), summaries)
        self.check("forecast", example, ["forecast", "--json", "--utc", "--pretty"],
                   {"json": True, "utc": True, "pretty": True}, stdin=True)
        bad = self.check("forecast", example.replace('"sched"', '"running"', 1), ["forecast"],
                         stdin=True)
        self.assertEqual(bad["status"], 1)
        self.assertEqual({d["code"] for d in bad["diagnostics"]}, {"forecast.instance"})
        # The schedule, as jobspec forecast --svg draws it.
        status, answer = self.server.api("/api/v1/graph", {"language": "forecast",
                                                           "text": example})
        self.assertEqual((status, answer["status"], answer["dot"]), (200, 0, None))
        with tempfile.TemporaryDirectory() as directory:
            svg = os.path.join(directory, "schedule.svg")
            with open(os.path.join(directory, "state.json"), "w", encoding="utf-8") as f:
                f.write(example)
            subprocess.run([JOBSPEC, "forecast", "--svg", svg, f.name], check=True,
                           capture_output=True)
            with open(svg, encoding="utf-8") as f:
                self.assertEqual(answer["svg"], f.read())
        self.assertIn("node2", answer["svg"])

    def test_match(self):
        with tempfile.TemporaryDirectory() as d:
            for r_text, fits in [(R_FOUR_NODES, True), (R_NO_GPUS, False)]:
                with open(os.path.join(d, "jobspec"), "w", encoding="utf-8") as f:
                    f.write(V1_JOBSPEC)
                with open(os.path.join(d, "R"), "w", encoding="utf-8") as f:
                    f.write(r_text)
                status, answer = self.server.api("/api/v1/match",
                                                 {"jobspec": V1_JOBSPEC, "R": r_text})
                self.assertEqual(status, 200)
                self.assertEqual(answer["fits"], fits)
                self.assertEqual((answer["status"], answer["output"], answer["diagnostics"]),
                                 cli(["match", "jobspec", "R"], cwd=d))
            self.assertEqual(answer["diagnostics"][0]["code"], "jobspec.unsatisfiable")

    def test_match_free(self):
        # Nothing free: the job that fits R is pending, as `jobspec match --free` says.
        empty_free = '{"version":1,"execution":{"R_lite":[],"nodelist":[]}}'
        with tempfile.TemporaryDirectory() as d:
            for name, text in [("jobspec", V1_JOBSPEC), ("R", R_FOUR_NODES), ("free", empty_free)]:
                with open(os.path.join(d, name), "w", encoding="utf-8") as f:
                    f.write(text)
            status, answer = self.server.api("/api/v1/match", {"jobspec": V1_JOBSPEC,
                                                               "R": R_FOUR_NODES,
                                                               "free": empty_free})
            self.assertEqual((status, answer["fits"]), (200, False))
            self.assertEqual(answer["diagnostics"][0]["code"], "match.pending")
            self.assertEqual((answer["status"], answer["output"], answer["diagnostics"]),
                             cli(["match", "--free", "free", "jobspec", "R"], cwd=d))
            # A free R that does not read names its input.
            status, answer = self.server.api("/api/v1/match", {"jobspec": V1_JOBSPEC,
                                                               "R": R_FOUR_NODES, "free": "{"})
            self.assertEqual(answer["diagnostics"][0]["file"], "free")


class MatchWithQueues(unittest.TestCase):
    """`jobspec serve --config`: match finds the job's queue in the server's configuration,
    as `jobspec match --config --queue` does."""

    def test_queue_hosts(self):
        with tempfile.TemporaryDirectory() as d:
            config = os.path.join(d, "queues.toml")
            with open(config, "w", encoding="utf-8") as f:
                f.write('[queues.debug]\nrequires = ["debug"]\n[queues.batch]\n')
            r_text = cli(["R", "-"], stdin=R_FOUR_NODES)[1]
            r = json.loads(r_text)
            r["execution"]["properties"] = {"debug": "0"}
            r_text = json.dumps(r)
            for name, text in [("jobspec", V1_JOBSPEC), ("R", r_text)]:
                with open(os.path.join(d, name), "w", encoding="utf-8") as f:
                    f.write(text)
            server = Server(JOBSPEC, "--config", config)
            try:
                for queue in ("debug", "batch", "nope"):
                    status, answer = server.api("/api/v1/match", {"jobspec": V1_JOBSPEC,
                                                                  "R": r_text, "queue": queue})
                    self.assertEqual(status, 200, answer)
                    self.assertEqual(
                        (answer["status"], answer["output"], answer["diagnostics"]),
                        cli(["match", "--config", config, "--queue", queue, "jobspec", "R"],
                            cwd=d), queue)
            finally:
                server.kill()
        # The configuration must be there when the server starts.
        done = subprocess.run([JOBSPEC, "serve", "--port", "0", "--config", "/nonexistent"],
                              capture_output=True, text=True, timeout=30)
        self.assertEqual(done.returncode, 2)


class Views(ServerTest):
    def test_tokens_are_the_grammar_debuggers(self):
        status, answer = self.server.api("/api/v1/tokens",
                                         {"language": "shape", "text": "slot=2{a}/core"})
        self.assertEqual(status, 200)
        self.assertEqual([(t["type"], t["text"], t["offset"], t["length"])
                          for t in answer["tokens"][:3]],
                         [("NAME", "slot", 0, 4), ("EQUALS", "=", 4, 1), ("COUNT", "2", 5, 1)])
        self.assertEqual(answer["tokens"][-1]["type"], "EOF")
        self.assertEqual(answer["diagnostics"], [])

    def test_tree_is_jobspec_grammar_dot_drawn(self):
        status, answer = self.server.api("/api/v1/tree",
                                         {"language": "constraint", "text": "ssd or gpu"})
        self.assertEqual(status, 200)
        dot = subprocess.run([JOBSPEC_GRAMMAR,
                              "constraint", "--dot", "ssd or gpu"],
                             capture_output=True, text=True).stdout
        self.assertEqual(answer["dot"], dot)
        self.assertIn("<svg", answer["svg"])

    def test_graph_is_jobspec_graph(self):
        shape = "node/[slot=10{read-db}/[core;memory=4{unit:GB}];slot{db}/core=6]"
        status, answer = self.server.api("/api/v1/graph", {"language": "shape", "text": shape})
        self.assertEqual(status, 200)
        dot = subprocess.run([JOBSPEC, "graph", "--what", "shape", shape],
                             capture_output=True, text=True).stdout
        self.assertEqual(answer["dot"], dot)
        self.assertIn("memory ×4 GB", answer["svg"])
        status, answer = self.server.api("/api/v1/graph", {"language": "shape", "text": "slot=0"})
        self.assertEqual((answer["status"], answer["dot"]), (1, None))

    def test_explain_and_languages(self):
        status, answer = self.server.api("/api/v1/explain/shape.range-order")
        self.assertEqual(status, 200)
        expected = subprocess.run([JOBSPEC, "explain", "shape.range-order"],
                                  capture_output=True, text=True).stdout
        self.assertEqual("shape.range-order\n\n" + answer["explanation"], expected)
        status, answer = self.server.api("/api/v1/explain/shape.range-ordr")
        self.assertEqual(status, 404)
        self.assertIn("did you mean 'shape.range-order'", answer["error"])
        status, answer = self.server.api("/api/v1/languages")
        names = [l["name"] for l in answer["languages"]]
        self.assertEqual(names, ["shape", "jobspec", "batch", "constraint", "dependency", "R",
                                 "forecast"])
        for language in answer["languages"]:
            status, compiled = self.server.api("/api/v1/compile", {
                "language": language["name"], "text": language["example"]})
            self.assertEqual((status, compiled["status"]), (200, 0), language["name"])


class BadRequests(ServerTest):
    def test_requests_are_checked(self):
        cases = [
            ({"language": "shap", "text": "x"}, "did you mean 'shape'"),
            ({"language": "shape"}, 'needs "text"'),
            ({"language": "shape", "text": 3}, "must be a string"),
            ({"language": "shape", "text": "x", "option": {}}, "did you mean 'options'"),
            ({"language": "shape", "text": "x", "options": {"v1": True}}, "unknown option 'v1'"),
            ({"language": "shape", "text": "x", "options": {"format": "xml"}}, "one of json, yaml"),
            ({"language": "jobspec", "text": "x", "options": {"v1": "yes"}}, "true or false"),
        ]
        for body, message in cases:
            status, answer = self.server.api("/api/v1/compile", body)
            self.assertEqual(status, 400, body)
            self.assertIn(message, answer["error"])
        status, answer = self.server.api("/api/v1/tokens", {"language": "R", "text": "{}"})
        self.assertEqual(status, 400)

    def test_http_level_problems(self):
        status, _, body = self.server.request("POST", "/api/v1/compile", b"{not json",
                                              {"Content-Type": "application/json"})
        self.assertEqual(status, 400)
        status, _, _ = self.server.request("POST", "/api/v1/compile", b'{"language":"shape"}',
                                           {"Content-Type": "text/plain"})
        self.assertEqual(status, 415)
        status, headers, _ = self.server.request("GET", "/api/v1/compile")
        self.assertEqual((status, headers["Allow"]), (405, "POST"))
        self.assertEqual(self.server.request("GET", "/api/v1/nothing")[0], 404)
        self.assertEqual(self.server.request("GET", "/etc/passwd")[0], 404)
        self.assertEqual(self.server.request("GET", "/../../etc/passwd")[0], 404)
        status, _, _ = self.server.request("GET", "/", headers={"Host": "evil.example:80"})
        self.assertEqual(status, 421)

    def test_oversized_body_is_refused_by_its_length(self):
        with socket.create_connection(("127.0.0.1", self.server.port), timeout=10) as s:
            s.sendall(b"POST /api/v1/compile HTTP/1.1\r\nHost: x\r\n"
                      b"Content-Type: application/json\r\nContent-Length: 2000000\r\n\r\n")
            reply = s.recv(4096)
        self.assertTrue(reply.startswith(b"HTTP/1.1 413"), reply)


class Headers(ServerTest):
    def test_security_headers_on_every_answer(self):
        for method, path, body in [("GET", "/", None), ("GET", "/playground.js", None),
                                   ("POST", "/api/v1/compile", {"language": "shape", "text": "x"}),
                                   ("GET", "/missing", None)]:
            _, headers, _ = self.server.request(method, path, body)
            csp = headers["Content-Security-Policy"]
            self.assertIn("default-src 'self'", csp)
            self.assertIn("script-src 'self'", csp)
            self.assertIn("frame-ancestors 'none'", csp)
            self.assertEqual(headers["X-Frame-Options"], "DENY")
            self.assertEqual(headers["X-Content-Type-Options"], "nosniff")
            self.assertEqual(headers["Referrer-Policy"], "no-referrer")

    def test_the_page_has_no_inline_script(self):
        _, _, page = self.server.request("GET", "/")
        page = page.decode()
        self.assertIn('<script src="/playground.js" defer></script>', page)
        self.assertIsNone(re.search(r"<script(?![^>]*\bsrc=)", page))
        self.assertIsNone(re.search(r"\son[a-z]+\s*=", page))


class GraphvizIsBounded(unittest.TestCase):
    def test_a_hanging_dot_is_killed_at_its_time_limit(self):
        with tempfile.TemporaryDirectory() as d:
            fake = os.path.join(d, "dot")
            with open(fake, "w", encoding="ascii") as f:
                f.write("#!/bin/sh\nexec sleep 60\n")
            os.chmod(fake, 0o755)
            env = dict(os.environ, PATH=d + os.pathsep + os.environ["PATH"])
            server = Server(JOBSPEC, "--dot-timeout", "1", env=env)
            try:
                start = time.monotonic()
                status, answer = server.api("/api/v1/tree", {"language": "shape", "text": "slot"})
                took = time.monotonic() - start
                self.assertEqual(status, 200)
                self.assertIsNone(answer["svg"])
                self.assertIn("dot took longer than 1000 ms", answer["graphviz"])
                self.assertLess(took, 5)
                children = subprocess.run(["pgrep", "-P", str(server.process.pid)],
                                          capture_output=True, text=True).stdout
                self.assertEqual(children, "")
            finally:
                server.kill()


def documented_examples(path):
    """(command, expected output) for each "$ " line of the ```sh blocks in `path`."""
    examples, block, command = [], None, None
    with open(path, encoding="utf-8") as f:
        for line in f.read().splitlines():
            if block is None:
                block = [] if line == "```sh" else None
                continue
            if line == "```":
                block, command = None, None
            elif line.startswith("$ "):
                command = [line[2:], ""]
                examples.append(command)
            elif command is not None:
                command[1] += line + "\n"
    return examples


class DocumentedExamples(ServerTest):
    """docs/PLAYGROUND.md's examples, run as written against a server on another port."""

    def test_examples_print_what_the_document_says(self):
        if not (shutil.which("curl") and shutil.which("jq")):
            self.skipTest("the examples need curl and jq")
        examples = documented_examples(PLAYGROUND_MD)
        self.assertGreater(len(examples), 8)
        for command, expected in examples:
            done = subprocess.run(["sh", "-c", command.replace("127.0.0.1:8046", self.server.host)],
                                  capture_output=True, text=True, timeout=60)
            self.assertEqual((done.returncode, done.stdout), (0, expected), command)


class Stopping(unittest.TestCase):
    def test_sigint_and_sigterm_stop_it_cleanly(self):
        for how in (signal.SIGINT, signal.SIGTERM):
            server = Server(JOBSPEC)
            idle = socket.create_connection(("127.0.0.1", server.port))
            try:
                self.assertEqual(server.api("/api/v1/languages")[0], 200)
                status, out, err = server.stop(how)
                self.assertEqual((status, err), (0, ""))
                self.assertIn("stopped", out)
                with self.assertRaises(ConnectionRefusedError):
                    socket.create_connection(("127.0.0.1", server.port), timeout=5)
            finally:
                idle.close()
                server.kill()

    def test_a_port_in_use_is_a_usage_error(self):
        server = Server(JOBSPEC)
        try:
            done = subprocess.run([JOBSPEC, "serve", "--port", str(server.port)],
                                  capture_output=True, text=True, timeout=10)
            self.assertEqual(done.returncode, 2)
            self.assertIn("cannot listen on 127.0.0.1:%d" % server.port, done.stderr)
        finally:
            server.kill()


if __name__ == "__main__":
    JOBSPEC = os.path.abspath(sys.argv[1])
    JOBSPEC_GRAMMAR = os.path.abspath(sys.argv[2])
    PLAYGROUND_MD = os.path.abspath(sys.argv[3])
    unittest.main(argv=[sys.argv[0]], verbosity=1)
