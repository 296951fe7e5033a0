"""PATE's teachers (paper 001, Algorithms 3 and 5, steps 1–2) with a per-record assignment.

Paper 001 splits the private data "randomly and evenly" into K parts and trains one teacher per
part; its privacy (Theorem 2 plus post-processing) needs the vote count Σ_k ĥ_k(x) to have
sensitivity 1, i.e. adding or removing one record must change the training data of exactly one
teacher.  A positional split ("records j·n/K … (j+1)·n/K − 1 go to teacher j") breaks this under
add/remove neighbors: removing one record shifts every later record, and many teachers' data
change.  Here each record's teacher is a function of the record's own key and a seed only
(:func:`teacher_of`, a keyed BLAKE2b hash reduced mod K), so removing or adding one record
leaves every other record with its teacher; the parts are then disjoint by construction.

* :func:`assign_teachers` / :func:`assign_teachers_by` build a :class:`TeacherAssignment`;
* :func:`erm_teachers` trains each teacher with the deterministic ERM over a finite class
  (:func:`~privref.reference.learners.prediction_baselines.erm`, first minimizer in the class's
  order; an empty part gets C[0]);
* :func:`vote_count` / :func:`vote_counts` compute Σ_k ĥ_k(x), and :func:`majority` the
  aggregated label 1(Σ_k ĥ_k(x) ≥ K/2) (ties to 1, as in 001 §2).

The hash makes the parts only approximately even (each record lands in each part with
probability 1/K up to a bias below K/2¹²⁸, over a uniformly random key); evenness is not needed
for privacy, only for utility.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Final, TypeAlias

from privref.reference.citations import cite
from privref.reference.concepts import Concept, ConceptClass
from privref.reference.data import Dataset, as_dataset
from privref.reference.errors import InvalidArgument
from privref.reference.learners.prediction_baselines import erm
from privref.reference.stability_release import majority  # 001 §2's ĥ^agg, defined once
from privref.reference.validate import check_int

__all__ = [
    "RecordKey",
    "TeacherAssignment",
    "assign_teachers",
    "assign_teachers_by",
    "erm_teachers",
    "majority",
    "record_key_bytes",
    "teacher_of",
    "vote_count",
    "vote_counts",
]

SOURCE: Final = cite("001 Theorem 2 (proof)")
"""What this module implements: the teacher step of 001 Algorithms 3 and 5, whose privacy (001
Theorem 2 with post-processing) needs one record to move one teacher: the keyed split."""

RecordKey: TypeAlias = bytes | str | int | tuple["RecordKey", ...]
"""A record's identifier: bytes, str, int, or a (nested) tuple of these."""

_SEED_LIMIT: Final = 2**256


def record_key_bytes(key: object, name: str = "key") -> bytes:
    """The canonical, injective byte encoding of a :data:`RecordKey` (type-tagged, length-prefixed).

    Guarantee: two keys get the same bytes iff they are equal as values of the same types
    (so ``1``, ``"1"`` and ``b"1"`` differ).  Any other type raises InvalidArgument naming ``name``.
    """
    if isinstance(key, bool):
        raise InvalidArgument(f"{name}={key!r} must be bytes, str, int or a tuple of these")
    if isinstance(key, bytes):
        return b"b" + len(key).to_bytes(8, "big") + key
    if isinstance(key, str):
        raw = key.encode("utf-8", "surrogatepass")
        return b"s" + len(raw).to_bytes(8, "big") + raw
    if isinstance(key, int):
        raw = str(key).encode("ascii")
        return b"i" + len(raw).to_bytes(8, "big") + raw
    if isinstance(key, tuple):
        inner = b"".join(record_key_bytes(k, f"{name}[{i}]") for i, k in enumerate(key))
        return b"t" + len(key).to_bytes(8, "big") + inner
    raise InvalidArgument(f"{name}={key!r} must be bytes, str, int or a tuple of these")


def _check_seed(seed: object) -> int:
    return check_int(seed, "seed", minimum=0, maximum=_SEED_LIMIT - 1)


def teacher_of(key: RecordKey, K: int, seed: int) -> int:
    """The teacher (in range(K)) of the record with identifier ``key``: a keyed hash of the key.

    Guarantee: a deterministic function of (key, K, seed) alone, never of other records, so
    under add/remove neighbors one record changes one teacher's data (the hypothesis 001's
    privacy argument for Algorithms 3 and 5 needs).  Computed as BLAKE2b-128 of the key's
    canonical bytes, keyed by the 32-byte seed, read as an integer and reduced mod K.
    Requires K >= 1 and 0 <= seed < 2**256 (InvalidArgument naming K or seed).
    """
    check_int(K, "K", minimum=1)
    digest = hashlib.blake2b(record_key_bytes(key), digest_size=16,
                             key=_check_seed(seed).to_bytes(32, "big")).digest()
    return int.from_bytes(digest, "big") % K


@dataclass(frozen=True)
class TeacherAssignment:
    """Which teacher trains on which record: ``teachers[i]`` is record i's teacher, in range(K).

    Guarantee: ``parts()[k]`` lists, in increasing order, the record positions whose teacher is
    k; the parts are disjoint and cover every record (some may be empty).
    """

    K: int
    teachers: tuple[int, ...]

    def __post_init__(self) -> None:
        check_int(self.K, "K", minimum=1)
        for i, t in enumerate(self.teachers):
            check_int(t, f"teachers[{i}]", minimum=0, maximum=self.K - 1)

    def parts(self) -> tuple[tuple[int, ...], ...]:
        """The record positions of each teacher, teacher 0 first."""
        buckets: list[list[int]] = [[] for _ in range(self.K)]
        for i, t in enumerate(self.teachers):
            buckets[t].append(i)
        return tuple(tuple(b) for b in buckets)

    def sizes(self) -> tuple[int, ...]:
        """The number of records of each teacher."""
        return tuple(len(p) for p in self.parts())


def _check_K(K: object, n: int) -> int:
    k = check_int(K, "K", minimum=1)
    if k > n:
        raise InvalidArgument(f"K={k} must be <= {n}, the number of records")
    return k


def _keys(record_keys: object) -> tuple[object, ...]:
    if isinstance(record_keys, str | bytes) or not isinstance(record_keys, Sequence):
        raise InvalidArgument(f"record_keys={record_keys!r} must be a sequence of record keys")
    return tuple(record_keys)


def assign_teachers(record_keys: Sequence[RecordKey], K: int, seed: int) -> TeacherAssignment:
    """Assign record i to teacher :func:`teacher_of` (record_keys[i], K, seed) (001 Algorithm 3 step 1).

    Guarantee: record i's teacher depends on record_keys[i], K and seed only; removing or adding
    one record leaves every other record's teacher unchanged, so exactly one part changes.
    Records with equal keys share a teacher.  Refuses K < 1 and K larger than the number of
    records (InvalidArgument naming K), and keys of other types (naming record_keys[i]).
    """
    keys = _keys(record_keys)
    k = _check_K(K, len(keys))
    _check_seed(seed)
    for i, key in enumerate(keys):
        record_key_bytes(key, f"record_keys[{i}]")
    return TeacherAssignment(k, tuple(teacher_of(key, k, seed) for key in keys))  # type: ignore[arg-type]


def assign_teachers_by(record_keys: Sequence[Hashable], K: int,
                       rule: Callable[[Hashable], int]) -> TeacherAssignment:
    """Assign record i to teacher ``rule(record_keys[i])``: an explicit per-record rule, for exact work.

    Guarantee: as :func:`assign_teachers`, since the rule sees one key at a time (001 Algorithm 3
    step 1 with a fixed per-record split).  Refuses K < 1, K above the number of records, and a
    rule value outside range(K) (InvalidArgument naming rule).
    """
    keys = _keys(record_keys)
    k = _check_K(K, len(keys))
    teachers: list[int] = []
    for i, key in enumerate(keys):
        t = rule(key)
        if isinstance(t, bool) or not isinstance(t, int) or not 0 <= t < k:
            raise InvalidArgument(f"rule(record_keys[{i}])={t!r} must be an int in range(K={k})")
        teachers.append(t)
    return TeacherAssignment(k, tuple(teachers))


def erm_teachers(C: ConceptClass, data: Dataset, assignment: TeacherAssignment) -> tuple[Concept, ...]:
    """Teacher k = the deterministic ERM over C on the records assigned to k (001 Algorithm 3 step 2).

    Guarantee: teacher k is ``erm(C, part k)`` with the part in record order (first minimizer in
    C's order; C[0] for an empty part), so it depends on part k alone.  Requires one assignment
    entry per example (InvalidArgument naming assignment).
    """
    if not isinstance(assignment, TeacherAssignment):
        raise InvalidArgument(f"assignment={assignment!r} must be a TeacherAssignment")
    examples = as_dataset(data)
    if len(examples) != len(assignment.teachers):
        raise InvalidArgument(f"assignment covers {len(assignment.teachers)} records, data has "
                              f"{len(examples)}")
    return tuple(erm(C, tuple(examples[i] for i in part)) for part in assignment.parts())


def vote_count(teachers: Sequence[Callable[[Hashable], int]], x: Hashable) -> int:
    """Σ_k ĥ_k(x), the number of teachers voting 1 at x (001 §2, the aggregated vote).

    Guarantee: an int in [0, len(teachers)]; each teacher's output must be 0 or 1
    (InvalidArgument naming the teacher otherwise).
    """
    total = 0
    for k, h in enumerate(teachers):
        v = h(x)
        if isinstance(v, bool) or v not in (0, 1):
            raise InvalidArgument(f"teachers[{k}]({x!r})={v!r} must be 0 or 1")
        total += int(v)
    return total


def vote_counts(teachers: Sequence[Callable[[Hashable], int]],
                points: Sequence[Hashable]) -> tuple[int, ...]:
    """:func:`vote_count` at each point, in order."""
    return tuple(vote_count(teachers, x) for x in points)
