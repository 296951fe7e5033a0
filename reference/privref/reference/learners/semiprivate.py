"""A_SSPP (003 Algorithm 1): the semi-supervised semi-private agnostic learner.

The input is **one database**: the first ``public_size`` entries are the
public unlabeled sample T_pub (entries ``(x, y)``; labels there, including
⊥, are ignored), the rest is the private labeled sample S_priv (entries
``(x, y)`` with y ∈ {0, 1}).  The split is the data-independent parameter
``public_size`` fixed at construction, and privacy is claimed under
:class:`~reference.neighbors.PublicPrivate` (substitution of one private
entry, public prefix fixed), which is 003 Lemma 3.2's "for all T_pub,
A_SSPP(·, T_pub) is ε-DP".

1. T̃ ← the distinct points of T_pub.
2–5. H̃ ← one concept per pattern of Π_H(T̃).  The paper's "arbitrary" choice
   is fixed here as the first concept of H in its canonical order realising
   the pattern (:func:`privref.reference.vc.canonical_representatives`): a function of
   (H, the set T̃) only, never of S_priv (003-E7).  H̃ ⊆ H.
6. h_priv ← the exponential mechanism with ε on S_priv over H̃.
7. Output h_priv (proper).

Score.  003 writes q(S_priv, h) = −err̂(h; S_priv), sensitivity 1/n_priv, and
Pr[h] ∝ exp(ε·q/(2Δq)).  We use the unnormalized count (the number of
agreements n_priv − M(h), M = mistakes), sensitivity 1, with the papers'
weights e^{ε·q/2}: ε·(−err̂)/(2/n_priv) = −ε·M/2, so the law is identical
(shifts by a constant cancel).  With ε = 2 ln r, r rational (``epsilon="2*ln(r)"``),
e^{ε/2} = r and every probability is an exact rational
(:func:`privref.reference.exponential.exponential_weights`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Final

import numpy as np

from ..citations import cite
from ..concepts import Concept, ConceptClass
from ..data import BOTTOM, Dataset, label_of
from ..errors import InvalidArgument
from ..exponential import exponential_weights
from ..mechanism import Mechanism
from ..neighbors import PublicPrivate
from ..privacy import PrivacyClaim, parse_epsilon
from ..program import Categorical, Program, categorical_choice, choose, deterministic
from ..reals import Real
from ..validate import ExactInput, check_int
from ..vc import canonical_representatives
from .base import Learner, as_learner

__all__ = [
    "SSPP_SOURCE",
    "alpha_cover",
    "cover_agreements",
    "split_public_private",
    "sspp_learner",
]

SSPP_SOURCE: Final = cite("003 Lemma 3.2")
"""Where A_SSPP's privacy claim (pure ε-DP in S_priv for every T_pub) is stated."""


def alpha_cover(concepts: ConceptClass, points: tuple[Hashable, ...]) -> tuple[Concept, ...]:
    """H̃_{T_pub} of 003 Algorithm 1, Steps 1–5: one canonical concept per pattern on the distinct points.

    Depends only on the *set* of points (order and repetitions are irrelevant);
    ordered by position in H, so |H̃| = |Π_H(T̃)|.  Every point must be in H's domain.
    """
    if not isinstance(concepts, ConceptClass):
        raise InvalidArgument(f"concepts={concepts!r} must be a ConceptClass")
    distinct = tuple(dict.fromkeys(points))
    for i, x in enumerate(distinct):
        concepts.domain.position(x, f"public point {i}")
    return canonical_representatives(concepts, distinct)


def split_public_private(concepts: ConceptClass, public_size: int, data: Dataset
                         ) -> tuple[tuple[Hashable, ...], Dataset]:
    """(points of T_pub, S_priv): the first ``public_size`` entries' points, then the rest.

    Every entry must be a pair (x, y) with x in H's domain; public labels are
    ignored; private labels must be 0 or 1 (⊥ raises InvalidArgument).
    """
    public_size = check_int(public_size, "public_size", minimum=0)
    if not isinstance(data, tuple):
        raise InvalidArgument(f"data={data!r} must be a tuple of (x, y) entries")
    if len(data) < public_size:
        raise InvalidArgument(f"data has {len(data)} entries; it must hold at least the "
                              f"public_size={public_size} public entries")
    points: list[Hashable] = []
    for i, entry in enumerate(data):
        y = label_of(entry)                      # raises UnknownLabel unless a pair (x, y)
        assert isinstance(entry, tuple)
        concepts.domain.position(entry[0], f"data[{i}][0]")
        if i >= public_size and y is BOTTOM:
            raise InvalidArgument(f"data[{i}]={entry!r} is private and must be labeled 0 or 1")
        points.append(entry[0])
    return tuple(points[:public_size]), data[public_size:]


def sspp_learner(concepts: ConceptClass, *, public_size: int, epsilon: Real | ExactInput,
                 name: str | None = None) -> Learner[Concept]:
    """A_SSPP (003 Algorithm 1) with privacy parameter ε; see the module docstring.

    Guarantee: ε-DP under PublicPrivate(public_size) (003 Lemma 3.2), proper.
    Exact rational probabilities when ``epsilon="2*ln(r)"`` with r rational.
    Ledger: ``003 Lemma 3.2``, ``003 Theorem 3.1``.
    """
    if not isinstance(concepts, ConceptClass):
        raise InvalidArgument(f"concepts={concepts!r} must be a ConceptClass")
    public_size = check_int(public_size, "public_size", minimum=0)
    eps = parse_epsilon(epsilon)
    label = name or f"A_SSPP on {concepts.name} (n_pub={public_size})"
    mech = Mechanism(label, _sspp_program(concepts, public_size, eps), PrivacyClaim(eps),
                     # not order-invariant: which entries are public depends on position (the law
                     # is invariant only within each block; verify_order_invariance refuses True)
                     SSPP_SOURCE, relation=PublicPrivate(public_size), order_invariant=False,
                     description=f"003 Algorithm 1: cover from the first {public_size} entries, "
                                 f"then the exponential mechanism (eps={eps}) on the rest")
    return as_learner(mech, concepts, proper=True)


# ------------------------------------------------------------------ internals


def _selection(concepts: ConceptClass, epsilon: Real, public: tuple[Hashable, ...],
               sample: Dataset) -> tuple[Categorical, tuple[Concept, ...]]:
    """Steps 1–6: the cover from T_pub, then the exponential mechanism's choice on S_priv."""
    cover = alpha_cover(concepts, public)
    scores = cover_agreements(concepts, cover, sample)
    return categorical_choice(exponential_weights(scores, epsilon=epsilon)), cover


def cover_agreements(concepts: ConceptClass, cover: tuple[Concept, ...], sample: Dataset
                     ) -> list[int]:
    """[agreements(h, S_priv) for h in cover], exactly, in one pass over S_priv.

    q(h) = #{i : h(x_i) = y_i} = #{i : y_i = 0} + Σ_x h(x)·(#(x, 1) − #(x, 0)): the
    per-point label counts of S_priv once, then one integer matrix product with the
    cover's label rows (int64; exact for |S_priv| < 2^62).  Same values as
    :func:`privref.reference.exponential.agreements` (the score of 003 Algorithm 1, Step 6).
    Every private label must be 0 or 1 and every point in the domain.
    """
    k = len(concepts.domain)
    diff = np.zeros(k, dtype=np.int64)
    zeros = 0
    for i, example in enumerate(sample):
        y = label_of(example)
        if y not in (0, 1):
            raise InvalidArgument(f"private entry {i} has label {y!r}; it must be 0 or 1")
        assert isinstance(example, tuple)
        p = concepts.domain.position(example[0], f"private entry {i}")
        if y == 1:
            diff[p] += 1
        else:
            diff[p] -= 1
            zeros += 1
    if not cover:
        return []
    width = (k + 7) // 8
    packed = np.frombuffer(b"".join(h.mask.to_bytes(width, "little") for h in cover),
                           dtype=np.uint8).reshape(len(cover), width)
    rows = np.unpackbits(packed, axis=1, bitorder="little")[:, :k].astype(np.int64)
    return [zeros + int(v) for v in rows @ diff]


def _sspp_program(concepts: ConceptClass, public_size: int, epsilon: Real
                  ) -> Callable[[Dataset], Program[Concept]]:
    def program(data: Dataset) -> Program[Concept]:
        public, sample = yield from deterministic(split_public_private, concepts, public_size,
                                                  data)
        choice, cover = yield from deterministic(_selection, concepts, epsilon, public, sample)
        index = yield from choose(choice)
        return cover[index]
    return program
