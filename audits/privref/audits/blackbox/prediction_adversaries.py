"""The three adversaries of Chadha et al. (*Auditing Private Prediction*, ICML 2024) for PATE targets.

Each adversary builds one neighboring pair of PATE datasets (001's data model,
:mod:`privref.reference.pate`: the tuple of the K teachers' label vectors over the ℓ queries; a
neighbor substitutes one teacher's vector) from real data, and the queries:

* ``natural``: teachers trained on natural records; the neighbor substitutes one natural
  training record of one teacher by another natural record (the first substitution, in a
  seeded order, that changes that teacher's answers); the queries are held-out points drawn
  by the seed;
* ``poison``: the same queries; the adversary substitutes one training record of one teacher
  by a poisoned record, a mislabeled copy of the first query point (the teacher, among all,
  whose retrained answers move the most votes at the majority threshold);
* ``queries``: the adversary also chooses the queries: the held-out points whose vote margin
  |2·votes − K| is smallest, then poisons as above with a mislabeled copy of the first.

Teachers are decision stumps (the deterministic ERM over {x ↦ x_f, x ↦ 1 − x_f} and the two
constants, first minimizer) trained on the records the keyed split of
:func:`privref.reference.learners.pate_teachers.teacher_of` gives them (one record moves one
teacher, 001 Theorem 2's hypothesis).  The data are read from disk (LIBSVM format, e.g. UCI
Mushroom in ``agaricus.txt.train`` and ``.test`` of the shared data folder), never downloaded.
Everything random comes from the seed, which the plan records.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from privref.reference.errors import InvalidArgument
from privref.reference.learners.pate_teachers import teacher_of
from privref.reference.validate import check_int

__all__ = ["ADVERSARIES", "MAX_RECORDS", "AdversaryPlan", "load_libsvm", "plan_adversary",
           "stump"]

ADVERSARIES: Final = ("natural", "poison", "queries")
"""The adversaries of Chadha et al. 2024 §3, weakest first."""

MAX_RECORDS: Final = 200_000
"""Most rows read from one LIBSVM file."""

_POOL: Final = 256
"""Held-out points the adversaries choose queries from."""


@dataclass(frozen=True, slots=True)
class AdversaryPlan:
    """One neighboring pair of PATE datasets and its queries (module docstring).

    ``a`` and ``b`` are tuples of K label vectors (``b`` substitutes teacher ``teacher``'s
    vector); ``queries`` are the indices 0..ℓ−1 into the vectors; ``points`` the held-out rows
    they are; ``votes_a``/``votes_b`` the vote counts; ``seed`` the seed that made it.
    """

    adversary: str
    a: tuple[tuple[int, ...], ...]
    b: tuple[tuple[int, ...], ...]
    queries: tuple[int, ...]
    points: tuple[int, ...]
    teacher: int
    votes_a: tuple[int, ...]
    votes_b: tuple[int, ...]
    seed: int
    description: str


def load_libsvm(path: Path, features: int | None = None
                ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """Binary features and 0/1 labels of a LIBSVM file (``label idx:val ...``, 1-based indices).

    A feature is 1 when its value is non-zero; labels <= 0 become 0, others 1 (a9a's −1/+1,
    Mushroom's 0/1).  InvalidArgument names the path (missing, over :data:`MAX_RECORDS` rows,
    or a malformed line with its number).
    """
    if not isinstance(path, Path) or not path.is_file():
        raise InvalidArgument(f"path={path!s} must be a readable LIBSVM file")
    rows: list[list[int]] = []
    labels: list[int] = []
    with path.open(encoding="ascii") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            if len(rows) >= MAX_RECORDS:
                raise InvalidArgument(f"path={path!s} has more than {MAX_RECORDS} rows")
            head, *rest = line.split()
            try:
                labels.append(1 if float(head) > 0 else 0)
                idx = [int(t.split(":")[0]) for t in rest if float(t.split(":")[1]) != 0]
            except (ValueError, IndexError):
                raise InvalidArgument(f"path={path!s}: line {number} is not LIBSVM") from None
            if any(i < 1 for i in idx):
                raise InvalidArgument(f"path={path!s}: line {number} has an index < 1")
            rows.append(idx)
    width = max([features or 0, *(max(r, default=0) for r in rows)])
    x = np.zeros((len(rows), width), dtype=np.uint8)
    for i, r in enumerate(rows):
        x[i, [j - 1 for j in r]] = 1
    return x, np.array(labels, dtype=np.uint8)


def stump(x: npt.NDArray[np.uint8], y: npt.NDArray[np.uint8]) -> tuple[int, int]:
    """The ERM decision stump (feature, kind) on (x, y): the first minimizer of the training
    errors over [constant 0, constant 1, x_0, 1 − x_0, x_1, 1 − x_1, ...] (kind 0: x_f, 1:
    1 − x_f; feature −1 with kind c: the constant c).  Deterministic; an empty part gets the
    constant 0 (the class's first hypothesis, as 001's teachers do)."""
    if len(y) == 0:
        return -1, 0
    ones = int(y.sum())
    errors = [ones, len(y) - ones]  # constant 0, constant 1
    agree = (x == y[:, None]).sum(axis=0)
    for f in range(x.shape[1]):
        errors.extend([len(y) - int(agree[f]), int(agree[f])])
    best = int(np.argmin(errors))
    return (-1, best) if best < 2 else ((best - 2) // 2, (best - 2) % 2)


def _predict(h: tuple[int, int], x: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    f, kind = h
    if f < 0:
        return np.full(len(x), kind, dtype=np.int64)
    col = x[:, f].astype(np.int64)
    return col if kind == 0 else 1 - col


def _vectors(parts: list[list[int]], xt: npt.NDArray[np.uint8], yt: npt.NDArray[np.uint8],
             xq: npt.NDArray[np.uint8]) -> list[tuple[int, ...]]:
    return [tuple(_predict(stump(xt[p], yt[p]), xq).tolist()) for p in parts]


def _retrained(part: list[int], slot: int, record: tuple[npt.NDArray[np.uint8], int],
               xt: npt.NDArray[np.uint8], yt: npt.NDArray[np.uint8],
               xq: npt.NDArray[np.uint8]) -> tuple[int, ...]:
    xs, ys = xt[part].copy(), yt[part].copy()
    xs[slot], ys[slot] = record
    return tuple(_predict(stump(xs, ys), xq).tolist())


def _edge_score(va: list[int], vb: list[int], k: int) -> tuple[int, int]:
    """How strongly a substitution moves the votes at the majority threshold: the number of
    queries whose vote crosses ⌈K/2⌉, then the number that move at all."""
    bar = (k + 1) // 2
    cross = sum(1 for x, y in zip(va, vb, strict=True) if (x >= bar) != (y >= bar))
    return cross, sum(1 for x, y in zip(va, vb, strict=True) if x != y)


def plan_adversary(adversary: str, *, train: Path, test: Path, teachers: int = 11,
                   records_per_teacher: int = 2, queries: int = 1, seed: int = 0) -> AdversaryPlan:
    """The neighboring pair and queries of ``adversary`` (one of :data:`ADVERSARIES`).

    ``teachers`` K stumps on about K·``records_per_teacher`` training rows drawn by ``seed``
    (keyed split); ``queries`` ℓ held-out points of ``test``.  InvalidArgument names the
    argument (unknown adversary, K, ℓ or records out of range; natural data that never change
    a teacher in 256 seeded substitutions).
    """
    if adversary not in ADVERSARIES:
        raise InvalidArgument(f"adversary={adversary!r} must be one of {', '.join(ADVERSARIES)}")
    k = check_int(teachers, "teachers", minimum=1, maximum=1001)
    ell = check_int(queries, "queries", minimum=1, maximum=64)
    r = check_int(records_per_teacher, "records_per_teacher", minimum=1, maximum=1000)
    s = check_int(seed, "seed", minimum=0, maximum=2**63 - 1)
    x_tr, y_tr = load_libsvm(train)
    x_te, y_te = load_libsvm(test, x_tr.shape[1])
    x_tr = np.pad(x_tr, ((0, 0), (0, x_te.shape[1] - x_tr.shape[1])))
    del y_te  # the held-out labels are not used: queries are unlabeled
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(s)))
    n = min(len(y_tr), k * r)
    rows = rng.choice(len(y_tr), size=n, replace=False)
    parts: list[list[int]] = [[] for _ in range(k)]
    for row in rows.tolist():
        parts[teacher_of(int(row), k, s)].append(int(row))
    pool = rng.choice(len(x_te), size=min(_POOL, len(x_te)), replace=False).tolist()
    vec_pool = _vectors(parts, x_tr, y_tr, x_te[pool])
    votes_pool = [sum(v[j] for v in vec_pool) for j in range(len(pool))]
    if adversary == "queries":
        order = sorted(range(len(pool)), key=lambda j: (abs(2 * votes_pool[j] - k), j))
        chosen = order[:ell]
    else:
        chosen = list(range(ell))
    points = [pool[j] for j in chosen]
    xq = x_te[points]
    a = [tuple(vec_pool[t][j] for j in chosen) for t in range(k)]
    va = [sum(v[j] for v in a) for j in range(ell)]
    best: tuple[tuple[int, int], int, tuple[int, ...]] | None = None
    if adversary == "natural":
        unused = [i for i in range(len(y_tr)) if i not in set(rows.tolist())]
        for _ in range(256):
            t = int(rng.integers(k))
            if not parts[t]:
                continue
            slot = int(rng.integers(len(parts[t])))
            new = int(unused[int(rng.integers(len(unused)))])
            vec = _retrained(parts[t], slot, (x_tr[new], int(y_tr[new])), x_tr, y_tr, xq)
            if vec != a[t]:
                best = ((0, 0), t, vec)
                how = f"training record {parts[t][slot]} of teacher {t} replaced by record {new}"
                break
        if best is None:
            raise InvalidArgument("natural: no substitution of one natural record changed a "
                                  f"teacher in 256 tries (seed={s}); try another seed")
    else:
        for t in range(k):
            if not parts[t]:
                continue
            poison = (xq[0], 1 - a[t][0])
            vec = _retrained(parts[t], 0, poison, x_tr, y_tr, xq)
            vb_try = [va[j] - a[t][j] + vec[j] for j in range(ell)]
            score = _edge_score(va, vb_try, k)
            if vec != a[t] and (best is None or score > best[0]):
                best = (score, t, vec)
        if best is None:
            raise InvalidArgument(f"{adversary}: no poisoned record changed a teacher "
                                  f"(seed={s}); try another seed")
        how = (f"training record {parts[best[1]][0]} of teacher {best[1]} replaced by a "
               "mislabeled copy of the first query point")
    _score, t, vec = best
    b = list(a)
    b[t] = vec
    vb = [sum(v[j] for v in b) for j in range(ell)]
    return AdversaryPlan(adversary, tuple(a), tuple(b), tuple(range(ell)), tuple(points), t,
                         tuple(va), tuple(vb), s,
                         f"{adversary}: K={k} stump teachers on {n} rows ({train.name}), "
                         f"{ell} held-out queries ({test.name}); {how}")
