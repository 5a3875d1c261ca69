"""IdSet, Hostlist and ResourceSet behave like Python values."""
import copy
import pickle

import pytest

import jobspec
from jobspec import Hostlist, IdSet, ResourceSet


def test_idset_value():
    s = IdSet("[1-3,5]")
    assert str(s) == "1-3,5" and repr(s) == "IdSet('1-3,5')"
    assert len(s) == 4 and list(s) == [1, 2, 3, 5]
    assert 2 in s and 4 not in s and -1 not in s and "2" not in s and 2**70 not in s
    assert s == IdSet([5, 3, 2, 1]) and s != IdSet("1")
    assert hash(s) == hash(IdSet("1-3,5"))
    assert {s, IdSet("1-3,5")} == {s}
    assert bool(IdSet()) is False and len(IdSet()) == 0
    assert s.ranges == [(1, 3), (5, 5)]


def test_idset_operators():
    a, b = IdSet("1-5"), IdSet("4-8")
    assert a | b == IdSet("1-8")
    assert a & b == IdSet("4-5")
    assert a - b == IdSet("1-3")
    assert a ^ b == IdSet("1-3,6-8")
    assert IdSet("2") <= a and IdSet("2") < a and not a < a and a >= IdSet("1")
    assert a.isdisjoint(IdSet("9")) and not a.isdisjoint(b)


def test_idset_errors_and_pickle():
    with pytest.raises(jobspec.Error) as info:
        IdSet("3,1")
    assert info.value.diagnostics[0].code == "idset.order"
    with pytest.raises(ValueError):
        IdSet([-1])
    s = IdSet("0-4294967295")
    assert len(s) == 4294967296
    assert pickle.loads(pickle.dumps(s)) == s
    assert copy.deepcopy(s) == s


def test_hostlist_value():
    h = Hostlist("foo[1-3],bar")
    assert str(h) == "foo[1-3],bar" and repr(h) == "Hostlist('foo[1-3],bar')"
    assert len(h) == 4 and list(h) == ["foo1", "foo2", "foo3", "bar"]
    assert h[0] == "foo1" and h[-1] == "bar"
    with pytest.raises(IndexError):
        h[4]
    with pytest.raises(IndexError):
        h[-5]
    assert "foo2" in h and "foo9" not in h and 3 not in h
    assert h.index("bar") == 3
    with pytest.raises(ValueError):
        h.index("baz")
    assert h == Hostlist(["foo1", "foo2", "foo3", "bar"])
    assert hash(h) == hash(Hostlist("foo[1-3],bar"))
    assert list(Hostlist("n[08-10]")) == ["n08", "n09", "n10"]


def test_hostlist_operators_and_pickle():
    a, b = Hostlist("n[1-4]"), Hostlist("n[3-6]")
    assert a + b == Hostlist("n[1-4,3-6]")
    assert a | b == Hostlist("n[1-6]")
    assert a & b == Hostlist("n[3-4]")
    assert a - b == Hostlist("n[1-2]")
    assert Hostlist("n2,n1,n1").sorted() == Hostlist("n[1,1-2]")
    assert Hostlist("n2,n1,n1").unique() == Hostlist("n[1-2]")
    assert pickle.loads(pickle.dumps(a)) == a
    with pytest.raises(jobspec.Error):
        Hostlist("foo[5-3]")


def test_huge_hostlist_iterates_lazily():
    h = Hostlist("n[0-999999999]")
    assert len(h) == 10**9
    it = iter(h)
    assert [next(it) for _ in range(2)] == ["n0", "n1"]


def test_resource_set_value(r_text):
    r = ResourceSet(r_text)
    assert len(r) == 4 and list(r) == [0, 1, 2, 3] and 2 in r and 7 not in r
    assert r.cores == 16 and r.gpus == 2
    assert r.ranks == IdSet("0-3") and r.nodelist == Hostlist("node[0-3]")
    assert r.properties == {"ssd": IdSet("0-1")}
    assert ResourceSet(r.to_dict()) == r
    assert ResourceSet(str(r)) == r and hash(ResourceSet(str(r))) == hash(r)
    # The text `jobspec R encode` writes: times as JSON numbers like 0.0, not 0E0.
    assert '"starttime":0.0,"expiration":0.0' in str(r) and not str(r).endswith("\n")
    assert pickle.loads(pickle.dumps(r)) == r
    assert "rank" in r.summary()
    assert r.nslots is None and r.starttime == 0


def test_resource_set_operations(r_text):
    r = ResourceSet(r_text)
    low = r.filtered("0-1")
    high = r.filtered(IdSet("2-3"))
    assert (low | high) == r
    assert (r - low) == high
    assert (r & low).ranks == IdSet("0-1") and (r & low).properties == {}
    assert low <= r and r >= high and not r <= low
    assert low.append(high).ranks == r.ranks
    with pytest.raises(jobspec.Error) as info:
        low.append(low)
    assert info.value.diagnostics[0].code == "R.overlap"
    assert r.remapped().ranks == IdSet("0-3")
    reranked = r.reranked("node[3,2,1,0]")
    assert reranked.nodelist == Hostlist("node3,node2,node1,node0")
    assert reranked.properties == {"ssd": IdSet("2-3")}


def test_resource_set_verify(r_text):
    r = ResourceSet(r_text)
    assert r.verify(r.filtered("1")) == []
    problems = r.verify(r.filtered("0-1"))
    assert problems and problems[0].code == "R.verify-rank"


def test_resource_set_errors():
    with pytest.raises(jobspec.Error) as info:
        ResourceSet('{"version": 2}')
    assert info.value.diagnostics[0].pointer
    with pytest.raises(jobspec.Error) as info:
        ResourceSet(3.5)
    assert info.value.diagnostics[0].code == "R.type"
    with pytest.raises(TypeError):
        ResourceSet(object())


def test_ids_that_are_not_ids_raise_pythons_errors():
    # Issue 29: Python's own exceptions, with a readable message, never a RuntimeError.
    with pytest.raises(OverflowError, match="at most 2\\*\\*63-1"):
        jobspec.IdSet([2**70])
    assert jobspec.IdSet([2**63 - 1]).ranges == [(2**63 - 1, 2**63 - 1)]
    with pytest.raises(TypeError, match="an id is an int, not str"):
        jobspec.IdSet(["1"])
    with pytest.raises(TypeError):
        jobspec.IdSet([True])
    with pytest.raises(ValueError):
        jobspec.IdSet([-1])


def test_hostlist_slices_as_a_list():
    hosts = jobspec.Hostlist("n[1-5],login")
    names = list(hosts)
    for s in (slice(1, 3), slice(None, None, 2), slice(None, None, -1), slice(-2, None),
              slice(10, None), slice(4, 1, -2)):
        assert list(hosts[s]) == names[s]
        assert isinstance(hosts[s], jobspec.Hostlist)
    # A slice of a huge list is made from its runs, not host by host.
    assert str(jobspec.Hostlist("n[0-1000000000]")[5:1000000000]) == "n[5-999999999]"
