"""jobspec.constraint, check_constraint, match, dependency and job ids."""
import pytest

import jobspec


def test_constraint_requires_dialect():
    assert jobspec.constraint("ssd and not host:foo[1-3]") == {
        "and": [{"properties": ["ssd"]}, {"not": [{"hostlist": ["foo[1-3]"]}]}]
    }


def test_constraint_plain_dialect():
    assert jobspec.constraint("a b", default_operator="name") == {
        "and": [{"name": ["a"]}, {"name": ["b"]}]
    }


def test_constraint_error():
    with pytest.raises(jobspec.Error) as info:
        jobspec.constraint("(a")
    assert info.value.diagnostics[0].code.startswith("query.")
    assert "(a" in str(info.value)


def test_check_constraint_dict_and_text():
    c = {"or": [{"ranks": ["0-1"]}, {"properties": ["ssd"]}]}
    assert jobspec.check_constraint(c) == c
    assert jobspec.check_constraint('{"ranks": ["2"]}') == {"ranks": ["2"]}
    with pytest.raises(jobspec.Error) as info:
        jobspec.check_constraint({"ranks": ["a"]})
    assert info.value.diagnostics[0].pointer.startswith("/ranks")
    with pytest.raises(TypeError):
        jobspec.check_constraint({"ranks": [object()]})


def test_match(r_text):
    r = jobspec.ResourceSet(r_text)
    assert jobspec.match("ssd", r) == jobspec.IdSet("0-1")
    assert jobspec.match({"not": [{"hostlist": ["node[0-2]"]}]}, r) == jobspec.IdSet("3")
    assert jobspec.match("rank:1-2", r_text) == jobspec.IdSet("1-2")


def test_dependency():
    d = jobspec.dependency("string:foo?type=out;scope=user")
    assert d == {"scheme": "string", "value": "foo", "type": "out", "scope": "user"}
    with pytest.raises(jobspec.Error):
        jobspec.dependency("nosuch:x")
    assert jobspec.dependency("nosuch:x", allow_unknown_scheme=True)["scheme"] == "nosuch"


def test_jobids_every_encoding():
    n = 6731191091817518
    for encoding in jobspec.JOBID_ENCODINGS:
        text = jobspec.encode_jobid(n, encoding)
        assert jobspec.decode_jobid(text) == n, encoding
    assert jobspec.encode_jobid(n, "f58") == "ƒuZZybuNNy"
    assert jobspec.jobid_encoding("0x17e9fb8df16c2e") == "hex"
    assert jobspec.jobid_encoding("job.0017.e9fb.8df1.6c2e") == "kvs"
    with pytest.raises(jobspec.Error) as info:
        jobspec.decode_jobid("ƒ0")
    assert info.value.diagnostics[0].code == "fluid.character"
    with pytest.raises(ValueError):
        jobspec.encode_jobid(1, "base64")
    with pytest.raises(ValueError):
        jobspec.encode_jobid(-1)
