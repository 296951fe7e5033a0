"""001 Algorithms 3/5 steps 1–2: per-record teacher assignment, ERM teachers, vote counts.

The privacy of PATE (001 Theorem 2 plus post-processing) needs one record to change one
teacher's data under add/remove neighbors.  With a keyed per-record hash this is exact: removing
or adding any record leaves every other record's teacher unchanged.  A positional split fails it.
Thresholds: c_j(x) = 1 iff x < j, in the order c_0 ≡ 0, c_1, ..., and ERM ties go to the first.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from privref.reference.concepts import thresholds_on
from privref.reference.errors import InvalidArgument
from privref.reference.learners.pate_teachers import (
    TeacherAssignment,
    assign_teachers,
    assign_teachers_by,
    erm_teachers,
    majority,
    record_key_bytes,
    teacher_of,
    vote_count,
    vote_counts,
)

_KEYS = st.lists(st.one_of(st.integers(-10**6, 10**6), st.text(max_size=6), st.binary(max_size=6)),
                 min_size=2, max_size=30, unique_by=lambda k: (type(k), k))


@given(keys=_KEYS, K=st.integers(1, 8), seed=st.integers(0, 2**64), data=st.data())
def test_removing_one_record_keeps_every_other_teacher(keys: list[Any], K: int, seed: int,
                                                        data: st.DataObject) -> None:
    K = min(K, len(keys) - 1)
    i = data.draw(st.integers(0, len(keys) - 1))
    full = assign_teachers(keys, K, seed)
    rest = assign_teachers(keys[:i] + keys[i + 1:], K, seed)
    assert rest.teachers == full.teachers[:i] + full.teachers[i + 1:]
    # so exactly one part differs (as a set of keys): the removed record's teacher's
    parts_full = [{repr(keys[r]) for r in p} for p in full.parts()]
    rest_keys = keys[:i] + keys[i + 1:]
    parts_rest = [{repr(rest_keys[r]) for r in p} for p in rest.parts()]
    changed = [k for k in range(K) if parts_full[k] != parts_rest[k]]
    assert changed == [full.teachers[i]]


@given(keys=_KEYS, K=st.integers(1, 8), seed=st.integers(0, 2**64), new=st.integers(10**7, 10**8))
def test_adding_one_record_keeps_every_other_teacher(keys: list[Any], K: int, seed: int,
                                                     new: int) -> None:
    K = min(K, len(keys))
    before = assign_teachers(keys, K, seed)
    after = assign_teachers([*keys, new], K, seed)
    assert after.teachers[:-1] == before.teachers
    assert after.teachers[-1] == teacher_of(new, K, seed)


def test_parts_partition_the_records_and_depend_on_the_seed() -> None:
    keys = list(range(4000))
    a = assign_teachers(keys, 4, seed=7)
    assert sorted(r for p in a.parts() for r in p) == keys
    assert sum(a.sizes()) == 4000
    # each size is Binomial(4000, 1/4) under a random key hash: mean 1000, sd ~27; 800 is > 7 sd away
    assert min(a.sizes()) > 800
    assert assign_teachers(keys, 4, seed=8).teachers != a.teachers
    assert assign_teachers(keys, 4, seed=7) == a  # deterministic


def test_key_encoding_is_type_tagged() -> None:
    forms = [1, "1", b"1", (1,), ("1",), (1, 2), ((1, 2),), (1, (2,)), ""]
    assert len({record_key_bytes(k) for k in forms}) == len(forms)
    with pytest.raises(InvalidArgument, match=r"record_keys\[1\]"):
        assign_teachers([1, True, 3], 2, 0)
    with pytest.raises(InvalidArgument, match=r"record_keys\[0\]"):
        assign_teachers([1.5, 2], 1, 0)  # type: ignore[list-item]


@pytest.mark.parametrize(("K", "match"), [(0, r"K=0 must be >= 1"), (-1, r"K=-1"),
                                          (4, r"K=4 must be <= 3, the number of records")])
def test_K_out_of_range_is_refused_by_name(K: int, match: str) -> None:
    with pytest.raises(InvalidArgument, match=match):
        assign_teachers([1, 2, 3], K, 0)
    with pytest.raises(InvalidArgument, match=match):
        assign_teachers_by([1, 2, 3], K, lambda k: 0)


def test_bad_seed_and_rule_are_refused() -> None:
    with pytest.raises(InvalidArgument, match="seed"):
        assign_teachers([1, 2], 1, -1)
    with pytest.raises(InvalidArgument, match=r"rule\(record_keys\[1\]\)=2"):
        assign_teachers_by([0, 1], 2, lambda k: 2 * int(k))  # type: ignore[call-overload]
    with pytest.raises(InvalidArgument, match="teachers"):
        TeacherAssignment(2, (0, 2))


def test_erm_teachers_by_hand() -> None:
    C = thresholds_on(4)
    data = ((0, 1), (1, 1), (2, 0), (3, 0), (1, 1), (3, 0))
    assignment = assign_teachers_by(data, 2, lambda e: e[0] % 2)  # type: ignore[index]
    assert assignment.parts() == ((0, 2), (1, 3, 4, 5))
    teachers = erm_teachers(C, data, assignment)
    # teacher 0 sees (0,1),(2,0): c_1 is the first consistent threshold;
    # teacher 1 sees (1,1),(3,0) twice: c_2 is the first consistent one
    assert teachers == (C[1], C[2])
    assert vote_counts(teachers, [0, 1, 2, 3]) == (2, 1, 0, 0)
    assert [majority(c, 2) for c in (2, 1, 0)] == [1, 1, 0]  # 1 of 2 is a tie: goes to 1
    assert [majority(c, 3) for c in (1, 2)] == [0, 1]


@given(data=st.lists(st.tuples(st.integers(0, 4), st.integers(0, 1)), min_size=3, max_size=14),
       K=st.integers(1, 3), seed=st.integers(0, 1000), i=st.integers(0, 13))
def test_neighboring_datasets_change_one_erm_teacher(data: list[tuple[int, int]], K: int, seed: int,
                                                     i: int) -> None:
    C = thresholds_on(5)
    i %= len(data)
    K = min(K, len(data) - 1)
    keys = [(j, x, y) for j, (x, y) in enumerate(data)]  # a record id plus content
    rest = data[:i] + data[i + 1:]
    a = assign_teachers(keys, K, seed)
    b = assign_teachers(keys[:i] + keys[i + 1:], K, seed)
    full, fewer = erm_teachers(C, tuple(data), a), erm_teachers(C, tuple(rest), b)
    differ = [k for k in range(K) if full[k] != fewer[k]]
    assert set(differ) <= {a.teachers[i]}
    for x in range(5):  # so the vote count moves by at most 1 at every x (sensitivity 1)
        assert abs(vote_count(full, x) - vote_count(fewer, x)) <= 1


def test_assignment_is_roughly_even_for_row_like_keys() -> None:
    keys = [bytes([i % 256, i // 256]) for i in range(3000)]
    counts = Counter(assign_teachers(keys, 3, seed=1).teachers)
    assert all(800 < counts[k] < 1200 for k in range(3))  # mean 1000, sd ~26


def test_vote_count_refuses_non_binary_teachers() -> None:
    with pytest.raises(InvalidArgument, match=r"teachers\[1\]"):
        vote_count([lambda x: 1, lambda x: 2], 0)
    with pytest.raises(InvalidArgument, match="votes"):
        majority(3, 2)
