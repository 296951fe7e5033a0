"""The disagreement coefficient θ of a finite class under a finite rational marginal, exactly.

Paper 001 uses θ (Algorithm 4's U, Lemma 33, Lemma 39, Theorem 22) but never defines it.  We use
Hanneke's (2014) definition with a reference hypothesis h* ∈ H and a marginal D_X:

    θ(r0) = max{1, sup_{r > r0} P_{x~D_X}(DIS(B(h*, r)))/r},   B(h*, r) = {h ∈ H : Dis(h, h*) <= r},

where Dis(h, g) = P_{x~D_X}(h(x) ≠ g(x)) and DIS is 001 Definition 7
(:func:`~privref.reference.learners.pate_students.disagreement_region`).  Here D_X is a finite
marginal: one exact non-negative rational weight per point of the class's domain, summing to 1.

Why the supremum is a maximum over finitely many breakpoints (the proof behind
:func:`disagreement_coefficient`).  Let 0 = d_0 < d_1 < … < d_k be the distinct values of
Dis(h, h*) over h ∈ H (d_0 = 0 comes from h* itself) and put d_{k+1} = +∞.  For r in the piece
[d_i, d_{i+1}) the ball B(h*, r) equals B_i = B(h*, d_i), so the ratio is p_i/r with
p_i = P(DIS(B_i)), a non-increasing function of r on that piece.  Hence the supremum of the ratio
over the part of the piece above r0, (r0, ∞) ∩ [d_i, d_{i+1}), which is non-empty iff
d_{i+1} > r0, equals p_i/max(d_i, r0): it is attained at r = d_i when d_i > r0 and approached as
r ↓ r0 otherwise.  Pieces with p_i = 0 contribute 0 (in particular i = 0: hypotheses at
distance 0 agree on every point of positive weight, so p_0 = 0, and r0 = 0 is allowed).  So
θ(r0) = max{1, max_{i : d_{i+1} > r0, p_i > 0} p_i/max(d_i, r0)}, a finite maximum of exact
rationals.  θ is non-increasing in r0 (a supremum over a shrinking set).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction

from privref.reference.concepts import Concept, ConceptClass
from privref.reference.errors import InvalidArgument
from privref.reference.learners.pate_students import disagreement_region
from privref.reference.validate import ExactInput, to_fraction

__all__ = [
    "ball",
    "check_marginal",
    "dis",
    "dis_mass",
    "disagreement_coefficient",
    "distance_breakpoints",
]


def check_marginal(C: ConceptClass, weights: Sequence[ExactInput]) -> tuple[Fraction, ...]:
    """The marginal D_X as exact weights, one per point of C's domain (001 Table 2's D_X).

    Guarantee: returns the weights as Fractions, in domain order.  Requires one exact weight per
    domain point, each >= 0, summing to exactly 1 (InvalidArgument naming ``weights``).
    """
    ws = tuple(to_fraction(w, f"weights[{i}]") for i, w in enumerate(weights))
    if len(ws) != len(C.domain):
        raise InvalidArgument(f"weights has {len(ws)} entries, the domain has {len(C.domain)}")
    if any(w < 0 for w in ws) or sum(ws, Fraction(0)) != 1:
        raise InvalidArgument(f"weights={ws} must be >= 0 and sum to exactly 1")
    return ws


def dis(h: Concept, g: Concept, weights: Sequence[Fraction]) -> Fraction:
    """Dis(h, g) = P_{x~D_X}(h(x) ≠ g(x)) over a weighted finite domain (001 Table 2), exact.

    Guarantee: Σ_i w_i·1(h(x_i) ≠ g(x_i)) with x_i the domain's points in order; symmetric,
    zero on the diagonal and satisfying the triangle inequality.  Requires h and g on one domain
    with ``weights`` aligned to it (InvalidArgument otherwise).
    """
    if h.domain != g.domain or len(weights) != len(h.domain):
        raise InvalidArgument("h, g and weights must share one domain")
    return sum((w for w, a, b in zip(weights, h.labels, g.labels, strict=True) if a != b),
               Fraction(0))


def dis_mass(V: Sequence[Concept], points: Sequence[Hashable],
             weights: Sequence[Fraction]) -> Fraction:
    """P_{x~D_X}(DIS(V)) with D_X given by ``weights`` on ``points`` (001 Definition 7), exact.

    Guarantee: the total weight of the points of DIS(V) as computed by
    :func:`~privref.reference.learners.pate_students.disagreement_region`; 0 when |V| <= 1;
    monotone in V.
    """
    weight_of = dict(zip(points, weights, strict=True))
    return sum((weight_of[x] for x in disagreement_region(V, points)), Fraction(0))


def ball(C: ConceptClass, h_star: Concept, r: ExactInput,
         weights: Sequence[Fraction]) -> tuple[Concept, ...]:
    """B(h*, r) = {h ∈ C : Dis(h, h*) <= r} in C's order (Hanneke 2014, used by 001 Lemma 39).

    Guarantee: exact membership; non-decreasing in r; always contains h* when r >= 0.
    """
    radius = to_fraction(r, "r")
    return tuple(h for h in C if dis(h, h_star, weights) <= radius)


def distance_breakpoints(C: ConceptClass, h_star: Concept,
                         weights: Sequence[Fraction]) -> tuple[Fraction, ...]:
    """The sorted distinct values d_0 = 0 < d_1 < … < d_k of Dis(h, h*) over h ∈ C (module proof).

    Guarantee: B(h*, r) is constant for r in each [d_i, d_{i+1}); requires h* ∈ C.
    """
    if h_star not in C:
        raise InvalidArgument(f"h_star={h_star!r} must belong to the class {C.name}")
    return tuple(sorted({dis(h, h_star, weights) for h in C}))


def disagreement_coefficient(C: ConceptClass, h_star: Concept, weights: Sequence[ExactInput],
                             r0: ExactInput) -> Fraction:
    """θ(r0) = max{1, sup_{r > r0} P(DIS(B(h*, r)))/r}, exactly (Hanneke 2014; 001 Lemma 39 uses it).

    Guarantee: the exact supremum, computed as the finite maximum proved in the module docstring;
    θ(r0) >= 1 and θ is non-increasing in r0.  001 never defines θ nor names its reference
    hypothesis and marginal; here they are explicit (h* ∈ C and ``weights``).  Requires r0 >= 0,
    h* ∈ C and a valid marginal (InvalidArgument naming the argument).
    """
    ws = check_marginal(C, weights)
    rr = to_fraction(r0, "r0")
    if rr < 0:
        raise InvalidArgument(f"r0={rr} must be >= 0")
    points = C.domain.points
    ds = distance_breakpoints(C, h_star, ws)
    best = Fraction(1)
    for i, d in enumerate(ds):
        upper = ds[i + 1] if i + 1 < len(ds) else None
        if upper is not None and upper <= rr:
            continue
        p = dis_mass(ball(C, h_star, d, ws), points, ws)
        if p == 0:
            continue
        best = max(best, p / max(d, rr))
    return best
