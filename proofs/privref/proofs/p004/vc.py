"""Ledger entries for 004's VC tools: Theorem B.2 (Sauer) and Observation 3.2 (VC of C^⊕).

The checks are exact and deterministic.  They run over three families of
classes, all fixed at import:

* every non-empty class on 1, 2 or 3 points (273 classes);
* :func:`seeded_classes`, random explicit classes on 4..7 points drawn from
  ``random.Random(seed)`` with a fixed seed;
* structured classes: THRESH, intervals, rectangles, parities, point functions.

The ``check_*`` functions take the family (and, for mutation tests, the VC
and C^⊕ routines) as arguments, so a test can feed them a deliberately wrong routine
and watch them return VIOLATED with a witness.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Iterator
from fractions import Fraction
from functools import cache

from privref.reference.concepts import (
    Concept,
    ConceptClass,
    Domain,
    explicit,
    intervals,
    parities,
    point_functions,
    rectangles,
    thresholds,
    thresholds_on,
)
from privref.reference.decide import at_most
from privref.reference.vc import (
    projection,
    projection_size,
    sauer_bound_exponential,
    sauer_shelah_bound,
    vc_dimension,
    xor_class,
)

from .._ledger import Check, CheckResult, Entry, Kind, Status, Verdict

__all__ = [
    "ENTRIES",
    "SAUER_SCALE",
    "XOR_VC_FACTOR",
    "check_sauer",
    "check_xor_projection_identity",
    "check_xor_vc_bound",
    "check_xor_vc_zero",
    "exhaustive_classes",
    "seeded_classes",
    "structured_classes",
]

SAUER_SCALE = Fraction(1)
"""The implicit leading 1 of 004 Theorem B.2 (Sauer–Shelah): |Π_C(B)| <= 1·Σ_(i<=VC) C(|B|, i)."""

XOR_VC_FACTOR = 10
"""004 Observation 3.2's constant: VC(C^⊕) < 10·VC(C)."""

VC = Callable[[ConceptClass], int]
Xor = Callable[[ConceptClass], ConceptClass]

SEED = 4_2014
"""Seed of the random families (004 is the 2014 version)."""


# ----------------------------------------------------------------- families


@cache
def exhaustive_classes(max_points: int = 3) -> tuple[ConceptClass, ...]:
    """Every non-empty concept class over {0, …, n−1} for n = 1..max_points."""
    out: list[ConceptClass] = []
    for n in range(1, max_points + 1):
        dom = Domain(tuple(range(n)))
        functions = [Concept.from_mask(dom, m) for m in range(1 << n)]
        for chosen in range(1, 1 << (1 << n)):
            members = [f for i, f in enumerate(functions) if (chosen >> i) & 1]
            out.append(explicit(dom, members, name=f"all[{n} points]#{chosen}"))
    return tuple(out)


@cache
def seeded_classes(seed: int = SEED, count: int = 120, min_points: int = 4,
                   max_points: int = 7, max_concepts: int = 40) -> tuple[ConceptClass, ...]:
    """``count`` random explicit classes from ``random.Random(seed)`` (deterministic per seed).

    Each has n ∈ [min_points, max_points] points {0..n−1} and 1..max_concepts
    distinct concepts drawn uniformly without replacement from all 2^n functions.
    """
    rng = random.Random(seed)
    out: list[ConceptClass] = []
    for k in range(count):
        n = rng.randint(min_points, max_points)
        dom = Domain(tuple(range(n)))
        size = rng.randint(1, min(1 << n, max_concepts))
        members = [Concept.from_mask(dom, m) for m in rng.sample(range(1 << n), size)]
        out.append(explicit(dom, members, name=f"seeded({seed})#{k}"))
    return tuple(out)


@cache
def structured_classes(max_points: int = 16) -> tuple[ConceptClass, ...]:
    """The paper's structured classes (and a few more) on at most ``max_points`` points."""
    candidates = (thresholds(1), thresholds(2), thresholds(3), thresholds_on(10),
                  intervals(2), intervals(5), intervals(8), rectangles(2, 1), rectangles(1, 3),
                  rectangles(2, 2), parities(2), parities(3),
                  point_functions(range(6)), point_functions(range(6), include_zero=True))
    return tuple(C for C in candidates if len(C.domain) <= max_points)


def _subsets(points: tuple[Hashable, ...], min_size: int) -> Iterator[tuple[Hashable, ...]]:
    """Every subset of ``points`` with at least ``min_size`` elements, in domain order."""
    for s in range(1 << len(points)):
        if s.bit_count() >= min_size:
            yield tuple(p for i, p in enumerate(points) if (s >> i) & 1)


def _describe(C: ConceptClass) -> str:
    rows = ", ".join(f"{c.name}={''.join(map(str, c.labels))}" for c in C)
    return f"{C.name} over {C.domain.points}: {{{rows}}}"


# -------------------------------------------------------- Theorem B.2 checks


def check_sauer(classes: Iterable[ConceptClass], *, vc: VC = vc_dimension) -> CheckResult:
    """For every class and every B with |B| > d = vc(C): |Π_C(B)| <= Σ_{i<=d} C(|B|, i), and,
    when d >= 1, Σ_{i<=d} C(|B|, i) <= (e|B|/d)^d decided by :func:`privref.reference.decide.at_most`."""
    decided: dict[tuple[int, int], Verdict] = {}
    n_classes = n_sets = tight = 0
    for C in classes:
        n_classes += 1
        d = vc(C)
        for B in _subsets(C.domain.points, d + 1):
            n_sets += 1
            m, count = len(B), projection_size(C, B)
            bound = sauer_shelah_bound(m, d)
            if count > SAUER_SCALE * bound:
                return CheckResult(Verdict.VIOLATED,
                                   f"|Π_C(B)| = {count} > {SAUER_SCALE}·Σ_(i<={d}) C({m},i) = "
                                   f"{SAUER_SCALE * bound}",
                                   witness=f"C = {_describe(C)}; VC = {d}; B = {B}")
            tight += count == bound
            if d == 0:
                continue
            if (m, d) not in decided:
                decided[(m, d)] = at_most(bound, sauer_bound_exponential(m, d))
            verdict = decided[(m, d)]
            if verdict is Verdict.UNDECIDED:
                return CheckResult(verdict,
                                   f"could not decide Σ_(i<={d}) C({m},i) <= (e·{m}/{d})^{d}")
            if verdict is Verdict.VIOLATED:
                return CheckResult(verdict,
                                   f"Σ_(i<={d}) C({m},i) = {bound} > (e·{m}/{d})^{d}",
                                   witness=f"|B| = {m}, VC = {d}")
    return CheckResult(Verdict.HOLDS,
                       f"{n_classes} classes, {n_sets} sets B with |B| > VC: |Π_C(B)| <= "
                       f"Σ_(i<=VC) C(|B|,i) (tight {tight} times) and the sum <= (e|B|/VC)^VC "
                       f"for all {len(decided)} pairs (|B|, VC), decided exactly")


# --------------------------------------------------- Observation 3.2 checks


def _as_int(pattern: tuple[int, ...]) -> int:
    return sum(v << i for i, v in enumerate(pattern))


def check_xor_projection_identity(classes: Iterable[ConceptClass], *,
                                  xor: Xor = xor_class) -> CheckResult:
    """Π_{C^⊕}(B) = Π_C(B) ⊕ Π_C(B) for every B ⊆ X (in domain order), the reversed domain,
    and B with a repeated point (004 Observation 3.2, first step of its proof)."""
    n_classes = n_sets = 0
    for C in classes:
        n_classes += 1
        X = xor(C)
        pts = C.domain.points
        extra = [tuple(reversed(pts)), (pts[0], *pts)]
        for B in [*_subsets(pts, 0), *extra]:
            n_sets += 1
            base = [_as_int(u) for u in projection(C, B)]
            expected = {u ^ v for u in base for v in base}
            got = {_as_int(w) for w in projection(X, B)}
            if got != expected:
                return CheckResult(Verdict.VIOLATED,
                                   f"Π_(C^⊕)(B) has {len(got)} patterns, Π_C(B)⊕Π_C(B) has "
                                   f"{len(expected)}",
                                   witness=f"C = {_describe(C)}; B = {B}")
    return CheckResult(Verdict.HOLDS, f"identity held for {n_classes} classes and {n_sets} "
                                      "sequences B")


def check_xor_vc_bound(classes: Iterable[ConceptClass], *, vc: VC = vc_dimension,
                       xor: Xor = xor_class) -> CheckResult:
    """VC(C^⊕) < 10·VC(C) whenever VC(C) >= 1 (10: :data:`XOR_VC_FACTOR`), and VC(C^⊕) = 0 when
    VC(C) = 0."""
    factor = XOR_VC_FACTOR
    worst = Fraction(0)
    worst_name = ""
    n_classes = 0
    for C in classes:
        n_classes += 1
        v, w = vc(C), vc(xor(C))
        if (v >= 1 and not w < factor * v) or (v == 0 and w != 0):
            return CheckResult(Verdict.VIOLATED, f"VC(C) = {v} but VC(C^⊕) = {w}",
                               witness=f"C = {_describe(C)}")
        if v >= 1 and Fraction(w, v) > worst:
            worst, worst_name = Fraction(w, v), C.name
    return CheckResult(Verdict.HOLDS, f"{n_classes} classes: VC(C^⊕) < {factor}·VC(C) throughout; "
                                      f"largest ratio VC(C^⊕)/VC(C) = {worst} ({worst_name})")


def check_xor_vc_zero(classes: Iterable[ConceptClass], *, vc: VC = vc_dimension) -> CheckResult:
    """Edge case VC(C) = 0 (the proof's bound divides by VC(C)): then |C| = 1, C^⊕ = {0},
    and VC(C^⊕) = 0."""
    n_zero = 0
    for C in classes:
        if vc(C) != 0:
            continue
        n_zero += 1
        X = xor_class(C)
        if len(C) != 1 or X.masks != (0,) or vc(X) != 0:
            return CheckResult(Verdict.VIOLATED,
                               f"VC(C) = 0 but |C| = {len(C)}, |C^⊕| = {len(X)}, "
                               f"VC(C^⊕) = {vc(X)}", witness=f"C = {_describe(C)}")
    if n_zero == 0:
        return CheckResult(Verdict.UNDECIDED, "no class with VC(C) = 0 in the family")
    return CheckResult(Verdict.HOLDS, f"{n_zero} classes with VC(C) = 0: each has one concept "
                                      "and VC(C^⊕) = 0")


def _small_and_seeded() -> tuple[ConceptClass, ...]:
    return (*exhaustive_classes(3), *seeded_classes())


def _xor_family() -> tuple[ConceptClass, ...]:
    return (*exhaustive_classes(3), *seeded_classes(count=150, max_concepts=24))


# ------------------------------------------------------------------ entries

SAUER = Entry(
    paper="004",
    number="Theorem B.2",
    statement=("Sauer's lemma: if a concept class C has VC dimension d >= 1 and B is a finite "
               "set of domain points with |B| > d, then C realises at most (e·|B|/d)^d "
               "dichotomies on B, i.e. |Π_C(B)| <= (e|B|/VC(C))^VC(C)."),
    kind=Kind.THEOREM,
    status=Status.CHECKED,
    checks=(
        Check("exact: every class on <= 3 points and 120 seeded classes on 4..7 points, "
              "every B with |B| > VC",
              lambda: check_sauer(_small_and_seeded()), constant="SAUER_SCALE"),
        Check("exact: THRESH, intervals, rectangles, parities, point functions (<= 16 points), "
              "every B with |B| > VC",
              lambda: check_sauer(structured_classes()), constant="SAUER_SCALE"),
    ),
    also=("000 Theorem B.2",),
    notes=("Checked through the Sauer–Shelah sum Σ_(i<=d) C(|B|,i), itself compared with "
           "(e|B|/d)^d exactly (reference.decide.at_most, never floats); the sum is attained by "
           "THRESH and intervals.  The hypothesis |B| > VC(C) matters: for |B| < VC(C) the "
           "right-hand side can fall below the true count, e.g. all four functions on two "
           "points (VC 2) and |B| = 1 give |Π_C(B)| = 2 > e²/4 (tests/proofs/"
           "test_vc_entries.py); this is the root of the Claim 4.2 counterexample ("
           "000-E6).  [000] prints the statement without |·| around Π_C(B) (004-E20)."),
    subjects=("reference.vc.projection", "reference.vc.projection_size",
              "reference.vc.vc_dimension", "reference.vc.sauer_shelah_bound",
              "reference.vc.sauer_bound_exponential"),
)

XOR_VC = Entry(
    paper="004",
    number="Observation 3.2",
    statement=("For every concept class C over X_d, the class C^⊕ = {h⊕f : h, f ∈ C} has "
               "VC(C^⊕) = O(VC(C)).  The proof shows Π_(C^⊕)(B) = Π_C(B) ⊕ Π_C(B) for every "
               "B ⊆ X_d, hence |Π_(C^⊕)(B)| <= |Π_C(B)|², and concludes "
               "VC(C^⊕) <= 10·VC(C)."),
    kind=Kind.OBSERVATION,
    status=Status.CHECKED,
    checks=(
        Check("exact: Π_(C^⊕)(B) = Π_C(B) ⊕ Π_C(B) on every class on <= 3 points, 150 seeded "
              "classes on 4..7 points, every B (plus reversed and repeated-point B)",
              lambda: check_xor_projection_identity(_xor_family())),
        Check("exact: VC(C^⊕) < 10·VC(C) on small, seeded and structured classes",
              lambda: check_xor_vc_bound((*_xor_family(), *structured_classes(8))),
              constant="XOR_VC_FACTOR"),
        Check("exact: VC(C) = 0 edge case gives VC(C^⊕) = 0",
              lambda: check_xor_vc_zero(_xor_family())),
    ),
    also=("000 Observation 3.2",),
    notes=("The checks run on arbitrary finite domains, which covers X_d.  Strictly, the proof "
           "gives VC(C^⊕) < 10·VC(C) when VC(C) >= 1 (004-E17); when VC(C) = 0 its bound "
           "divides by zero, but then |C| = 1 and VC(C^⊕) = 0.  Observed ratios stay far below "
           "10: at most 5/2 on the seeded family (THRESH 1 -> 2, intervals 2 -> 4).  The "
           "numeric step is the separate entry '004 Observation 3.2 / (eℓ/v)^(2v) < 2^ℓ for "
           "ℓ >= 10v' (privref.proofs.p004.numeric)."),
    subjects=("reference.vc.xor_class", "reference.vc.projection", "reference.vc.vc_dimension"),
)

ENTRIES: tuple[Entry, ...] = (SAUER, XOR_VC)
