#!/usr/bin/env python3
"""jobspec R, hostlist and id used as a Flux user uses flux R, flux hostlist and flux job id:
one case per row of issue 17's table, each expecting flux-core 0.88's result (or, where an
RFC forbids what flux accepts, the diagnostic docs/COMPAT.md names).

usage: flux_compat_test.py PATH-TO-JOBSPEC
"""
import json
import os
import socket
import subprocess
import sys
import unittest

JOBSPEC = None


def run(*args, stdin=""):
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    return subprocess.run([JOBSPEC, *args], input=stdin, capture_output=True, text=True,
                          env=env, timeout=60)


def ok(*args, stdin=""):
    r = run(*args, stdin=stdin)
    if r.returncode != 0:
        raise AssertionError(f"jobspec {' '.join(args)} exited {r.returncode}: {r.stderr}")
    return r.stdout


def R(ranks, cores, hosts, gpus=None, properties=None, **execution):
    lite = {"rank": ranks, "children": {"core": cores}}
    if gpus:
        lite["children"]["gpu"] = gpus
    ex = {"R_lite": [lite], "nodelist": [hosts], **execution}
    if properties:
        ex["properties"] = properties
    return json.dumps({"version": 1, "execution": ex}) + "\n"


def execution(text):
    return json.loads(text)["execution"]


class Verify(unittest.TestCase):
    """cat expected.json actual.json | R verify: the second R is one rank as found."""
    expected = R("0", "0-3", "n0", gpus="0")

    def test_fewer_cores_fail(self):
        r = run("R", "verify", stdin=self.expected + R("0", "0-1", "n0", gpus="0"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[R.verify]: rank 0 (n0) is missing core[2-3]", r.stderr)

    def test_another_hostname_fails(self):
        r = run("R", "verify", stdin=self.expected + R("0", "0-3", "x9", gpus="0"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[R.verify-hostname]: rank 0 is host 'x9', expected 'n0'", r.stderr)

    def test_extra_is_a_warning(self):
        r = run("R", "verify", stdin=self.expected + R("0", "0-7", "n0", gpus="0-1"))
        self.assertEqual(r.returncode, 0)
        self.assertIn("warning[R.verify-extra]: rank 0 (n0) has extra core[4-7],gpu1", r.stderr)
        self.assertEqual(run("R", "verify", "--strict",
                             stdin=self.expected + R("0", "0-7", "n0")).returncode, 1)

    def test_same_resources_pass(self):
        r = run("R", "verify", stdin=self.expected + self.expected)
        self.assertEqual((r.returncode, r.stderr), (0, ""))

    def test_one_rank_and_two_documents(self):
        r = run("R", "verify", stdin=R("0-1", "0", "n[0-1]") + R("0-1", "0", "n[0-1]"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[R.verify-rank]", r.stderr)
        r = run("R", "verify", stdin=self.expected)
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[R.document-count]", r.stderr)


class SeveralDocuments(unittest.TestCase):
    def test_decode_prints_their_union(self):
        out = ok("R", "decode", "-s", stdin=R("0", "0-1", "n0") + R("1", "0-3", "n1"))
        self.assertEqual(out, "rank0/core[0-1] rank1/core[0-3]\n")
        both = execution(ok("R", "decode", stdin=R("0", "0-1", "n0", starttime=5.0) +
                            R("1", "0-3", "n1", starttime=5.0)))
        self.assertEqual(both["nodelist"], ["n[0-1]"])
        self.assertEqual(both["starttime"], 0.0)   # a union is not one allocation

    def test_one_document_is_kept_whole(self):
        one = execution(ok("R", "decode", stdin=R("0", "0", "n0", starttime=5.0, nslots=2)))
        self.assertEqual((one["starttime"], one["nslots"]), (5.0, 2))

    def test_union_merges_resources_of_the_same_rank(self):
        out = ok("R", "union", stdin=R("0", "0-1", "n0") + R("0", "2-3", "n0", gpus="0"))
        self.assertEqual(execution(out)["R_lite"],
                         [{"rank": "0", "children": {"core": "0-3", "gpu": "0"}}])
        r = run("R", "append", stdin=R("0", "0-1", "n0") + R("0", "1-2", "n0"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[R.overlap]: rank 0 has core1 in both resource sets", r.stderr)


class Remap(unittest.TestCase):
    def test_ranks_and_cores_from_zero(self):
        out = ok("R", "remap", stdin=R("4", "0,2,4", "n4", gpus="1"))
        self.assertEqual(execution(out)["R_lite"],
                         [{"rank": "0", "children": {"core": "0-2", "gpu": "1"}}])


class Properties(unittest.TestCase):
    r = R("0-3", "0", "n[0-3]", properties={"bigmem": "0-2", "ssd": "1"})

    def test_caret_means_without(self):
        self.assertEqual(ok("R", "decode", "--properties", "bigmem,^ssd", "-r", stdin=self.r),
                         "0,2\n")
        self.assertEqual(ok("R", "decode", "-p", "^bigmem", "-r", stdin=self.r), "3\n")

    def test_a_bad_property_name_is_an_error(self):
        r = run("R", "decode", "-p", "a|b", stdin=self.r)
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[constraint.value]", r.stderr)

    def test_set_property_without_ranks_means_all(self):
        out = ok("R", "set-property", "gpu-node", "ssd:2", stdin=R("0-2", "0", "n[0-2]"))
        self.assertEqual(execution(out)["properties"], {"gpu-node": "0-2", "ssd": "2"})

    def test_set_property_checks_ranks_and_names(self):
        r = run("R", "set-property", "ssd:7", stdin=R("0-2", "0", "n[0-2]"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[R.property-ranks]", r.stderr)
        r = run("R", "set-property", "a!b", stdin=R("0-2", "0", "n[0-2]"))  # RFC 20 forbids !
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[R.property-name]", r.stderr)


class Rerank(unittest.TestCase):
    def test_too_many_hosts(self):
        r = run("R", "rerank", "n104,nosuch", stdin=R("4", "0", "n104"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[R.rerank]: too many hosts: the hostlist names 2, the resource set "
                      "has 1 ranks", r.stderr)

    def test_too_few_unknown_and_repeated_hosts(self):
        r3 = R("0-2", "0", "n[0-2]")
        for hosts, message in (("n[0-1]", "too few hosts"),
                               ("n[0-1],x", "host 'x' is not in the resource set"),
                               ("n[0-1],n0", "host 'n0' is in the hostlist twice")):
            r = run("R", "rerank", hosts, stdin=r3)
            self.assertEqual(r.returncode, 1, hosts)
            self.assertIn(message, r.stderr)

    def test_ranks_follow_the_hostlist(self):
        out = ok("R", "rerank", "n[2,0,1]", stdin=R("0-2", "0", "n[0-2]", properties={"ssd": "0"}))
        self.assertEqual(execution(out)["nodelist"], ["n[2,0-1]"])
        self.assertEqual(execution(out)["properties"], {"ssd": "1"})


class Encode(unittest.TestCase):
    def test_ranks_from_hosts(self):
        out = execution(ok("R", "encode", "-H", "node[0-3]"))
        self.assertEqual(out["R_lite"], [{"rank": "0-3", "children": {"core": "0"}}])
        self.assertEqual(out["nodelist"], ["node[0-3]"])

    def test_without_hosts_this_host_names_each_rank(self):
        out = execution(ok("R", "encode", "-r", "0-1", "-c", "0-3"))
        host = socket.gethostname()
        self.assertEqual(ok("hostlist", "-e", "-d", ",", "--", out["nodelist"][0]),
                         f"{host},{host}\n")

    def test_hosts_must_match_ranks(self):
        r = run("R", "encode", "-r", "0-3", "-H", "node[0-2]")
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[R.nodelist-count]", r.stderr)

    def test_gpus_only_and_properties_on_all_ranks(self):
        out = execution(ok("R", "encode", "-H", "n[0-1]", "-g", "0-1", "-p", "ssd"))
        self.assertEqual(out["R_lite"], [{"rank": "0-1", "children": {"core": "", "gpu": "0-1"}}])
        self.assertEqual(out["properties"], {"ssd": "0-1"})

    def test_hwloc_options_are_refused(self):
        self.assertEqual(run("R", "encode", "--local").returncode, 2)


class DecodeOptions(unittest.TestCase):
    r = R("19-22", "0-47", "node[186-189]", gpus="0-7", properties={"ssd": "20"})

    def test_short_options(self):
        self.assertEqual(ok("R", "decode", "-s", stdin=self.r), "rank[19-22]/core[0-47],gpu[0-7]\n")
        self.assertEqual(ok("R", "decode", "-n", stdin=self.r), "node[186-189]\n")
        self.assertEqual(ok("R", "decode", "-r", stdin=self.r), "19-22\n")
        self.assertEqual(ok("R", "decode", "-c", "core", stdin=self.r), "192\n")
        self.assertEqual(ok("R", "decode", "-i", "20-21", "-r", stdin=self.r), "20-21\n")
        self.assertEqual(ok("R", "decode", "-x", "20-21", "-r", stdin=self.r), "19,22\n")
        self.assertEqual(ok("R", "decode", "-p", "ssd", "-n", stdin=self.r), "node187\n")

    def test_several_outputs_in_flux_order(self):
        self.assertEqual(ok("R", "decode", "-c", "gpu", "-r", "-n", "-s", stdin=self.r),
                         "rank[19-22]/core[0-47],gpu[0-7]\nnode[186-189]\n19-22\n32\n")
        self.assertEqual(ok("R", "decode", "-c", "ranks", stdin=self.r), "0\n")

    def test_include_takes_hosts_too(self):
        self.assertEqual(ok("R", "decode", "-i", "node[187-188]", "-r", stdin=self.r), "20-21\n")


class IntersectDiff(unittest.TestCase):
    a = R("0-1", "0-3", "n[0-1]", properties={"ssd": "0-1"}, nslots=2, expiration=99.0)
    b = R("1-2", "2-5", "n[1-2]", properties={"big": "1"})

    def test_intersect_drops_properties_and_allocation(self):
        out = execution(ok("R", "intersect", stdin=self.a + self.b))
        self.assertEqual(out["R_lite"], [{"rank": "1", "children": {"core": "2-3"}}])
        self.assertNotIn("properties", out)
        self.assertNotIn("nslots", out)
        self.assertEqual(out["expiration"], 0.0)

    def test_intersect_drops_ranks_whose_hosts_differ(self):
        out = execution(ok("R", "intersect", stdin=self.a + R("1", "0-3", "other")))
        self.assertEqual(out["R_lite"], [])

    def test_diff_keeps_the_first_properties(self):
        out = execution(ok("R", "diff", stdin=self.a + self.b))
        self.assertEqual(out["R_lite"], [{"rank": "0", "children": {"core": "0-3"}},
                                         {"rank": "1", "children": {"core": "0-1"}}])
        self.assertEqual(out["properties"], {"ssd": "0-1"})
        self.assertNotIn("nslots", out)

    def test_need_two_documents(self):
        r = run("R", "diff", stdin=self.a)
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[R.document-count]: diff needs at least 2 R documents", r.stderr)


class Inputs(unittest.TestCase):
    def test_nodelist_is_required(self):
        r = run("R", "decode", stdin='{"version": 1, "execution": {"R_lite": '
                                     '[{"rank": "0", "children": {"core": "0"}}]}}')
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[R.missing-key]: 'execution' has no 'nodelist'", r.stderr)

    def test_empty_input_is_an_error(self):
        for stdin in ("", "  \n"):
            r = run("R", "decode", stdin=stdin)
            self.assertEqual((r.returncode, r.stdout), (1, ""))
            self.assertIn("error[", r.stderr)


class Hostlist(unittest.TestCase):
    def test_combine_and_print(self):
        self.assertEqual(ok("hostlist", "n[1-3]", "n7"), "n[1-3,7]\n")
        self.assertEqual(ok("hostlist", "-e", "n[1-3]"), "n1 n2 n3\n")
        self.assertEqual(ok("hostlist", "-e", "-d", ",", "n[1-3]"), "n1,n2,n3\n")
        self.assertEqual(ok("hostlist", "-c", "n[1-3]", "n[2-4]"), "6\n")
        self.assertEqual(ok("hostlist", "-u", "n[1-3]", "n[2-4]"), "n[1-4]\n")
        self.assertEqual(ok("hostlist", "--union", "n[3,1]", "n2"), "n[1-3]\n")
        self.assertEqual(ok("hostlist", "--intersect", "n[1-3]", "n[2-4]"), "n[2-3]\n")
        self.assertEqual(ok("hostlist", "--minus", "n[1-3],n1", "n1"), "n[2-3,1]\n")
        self.assertEqual(ok("hostlist", "--xor", "n[1-3]", "n[2-4]"), "n[1,4]\n")
        self.assertEqual(ok("hostlist", "-S", "-e", "n[3,1]-ib,n2"), "n2 n1-ib n3-ib\n")
        # flux sorts a number that does not end the name as text
        self.assertEqual(ok("hostlist", "-S", "-e", "n[2,10]-ib,n9"), "n9 n10-ib n2-ib\n")

    def test_select(self):
        self.assertEqual(ok("hostlist", "-n", "-1", "n[1-9]"), "n9\n")
        self.assertEqual(ok("hostlist", "-n", "-2-3", "n[1-9]"), "n[7-8]\n")
        self.assertEqual(ok("hostlist", "-n", "0,2", "n[1-9]"), "n[1,3]\n")
        self.assertEqual(run("hostlist", "-n", "9", "n[1-9]").returncode, 1)
        self.assertEqual(ok("hostlist", "-L", "-2", "n[1-9]"), "n[8-9]\n")
        self.assertEqual(ok("hostlist", "-x", "n[2-8]", "n[1-9]"), "n[1,9]\n")
        self.assertEqual(ok("hostlist", "-x", "0-7", "n[1-9]"), "n9\n")   # positions
        self.assertEqual(ok("hostlist", "-F", "n[3,5]", "n[1-9]"), "2 4\n")
        r = run("hostlist", "-F", "x", "n[1-9]")
        self.assertEqual(r.returncode, 1)
        self.assertIn("host 'x' not found", r.stderr)

    def test_standard_input(self):
        self.assertEqual(ok("hostlist", stdin="n1 n2\nn3\tn7\n"), "n[1-3,7]\n")
        self.assertEqual(ok("hostlist", "-", "m1", stdin="n[1-2]\n"), "n[1-2],m1\n")
        self.assertEqual(ok("hostlist", "m1", "stdin", stdin="n1\n"), "m1,n1\n")
        expanded = ok("hostlist", "-e", "n[1-3]")
        self.assertEqual(ok("hostlist", stdin=expanded), "n[1-3]\n")

    def test_quiet_and_empty(self):
        r = run("hostlist", "-q", "n1")
        self.assertEqual((r.returncode, r.stdout), (0, ""))
        r = run("hostlist", "-q", "-i", "n1", "n2")
        self.assertEqual((r.returncode, r.stdout), (1, ""))
        self.assertEqual(ok("hostlist", "-i", "n1", "n2"), "")

    def test_flux_instance_sources_are_refused(self):
        for args in (["-l"], ["instance"], ["local"], ["avail"]):
            self.assertEqual(run("hostlist", *args).returncode, 2, args)
        self.assertEqual(ok("hostlist", "-f", "f1"), "f1\n")   # never read as a job id

    def test_huge_ranges_stay_ranges(self):
        big = "f[0-4611686018427387903]x"
        self.assertEqual(ok("hostlist", "-m", big, "f[1-9]x"), "f[0,10-4611686018427387903]x\n")
        self.assertEqual(ok("hostlist", "-u", big, "f5x"), big + "\n")
        self.assertEqual(ok("hostlist", "-S", "-L", "1", big, "f5x"), "f0x\n")
        r = run("hostlist", "-S", big, big)
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[hostlist.repeats]", r.stderr)

    def test_rfc29_forbids_whitespace_in_an_argument(self):
        r = run("hostlist", "a b")
        self.assertEqual(r.returncode, 1)
        self.assertIn("error[hostlist.syntax]", r.stderr)


class JobId(unittest.TestCase):
    def test_to_and_f58plain(self):
        self.assertEqual(ok("id", "-t", "f58plain", "6731191091817518"), "fuZZybuNNy\n")
        self.assertEqual(ok("id", "--to=f58", "fuZZybuNNy"), "ƒuZZybuNNy\n")
        self.assertEqual(ok("id", "--to", "DEC", "0x10"), "16\n")
        self.assertEqual(run("id", "-t", "base64", "1").returncode, 2)

    def test_ids_on_standard_input(self):
        self.assertEqual(ok("id", "-t", "hex", stdin="16\n ƒ2 \n"), "0x10\n0x1\n")
        r = run("id", stdin="1\n\n2\n")        # an empty line is an empty id, as in flux
        self.assertEqual((r.returncode, r.stdout), (1, "1\n2\n"))
        self.assertIn("error[fluid.empty]", r.stderr)
        r = run("id", stdin="")
        self.assertEqual(r.returncode, 1)


if __name__ == "__main__":
    JOBSPEC = sys.argv.pop(1)
    unittest.main()
