"""privref's certified answer to each grid task, and the exact classification of a library's float.

:func:`certify` encloses the true value of a :class:`~.tasks.Task` with privref's certified
accountants (:mod:`privref.reference.accounting`): ``epsilon_ex_post`` (the least ε of R Gaussian
queries), ``analytic_gaussian_delta`` (their privacy profile δ(ε), Balle-Wang 2018 Theorem 8),
``calibrate_sigma`` (the least σ), for ``zcdp_delta`` the Canonne-Kamath-Steinke conversion
(:func:`~privref.reference.accounting.zcdp_to_dp_delta`), and for the DP-SGD kinds
(``poisson_gaussian_*``) certified PLDs (:func:`~privref.reference.pld.
poisson_subsampled_gaussian_pld`, both add/remove orders composed k times, the larger of the two
taken; grid step :data:`POISSON_STEP`; at k = 1 the two pairs' δ directly, no grid:
:func:`~privref.reference.pld.pair_delta`) or, at q = 1, the analytic Gaussian of k queries.
:func:`classify` then places a library's float, taken as the exact rational it is, against that
enclosure.  Every quantity asked for is one where larger is safer, so:

* ``unsafe``: the float is proved smaller than the true value: below the enclosure's lower end,
  or inside it but proved unsafe at the float itself (for ε: δ(ε_lib) > δ proved, through the
  optimistic PLD grids for the DP-SGD kinds; for σ: δ(ε; σ_lib) > δ proved).  The claim built
  on it is false.  For ``zcdp_delta`` the proof is that the Gaussian mechanism with ρ = μ²/2
  (which is ρ-zCDP) is not (ε, δ_lib)-DP;
* ``unproved`` (``zcdp_delta`` only): below the conversion's certified value but above the
  Gaussian's δ: the theorem the library cites does not give its δ, but no ρ-zCDP mechanism is
  proved to violate it;
* ``conservative``: above the enclosure's upper end (by at least the relative distance shown);
* ``inside``: within the enclosure and not proved unsafe (proved safe when the decision at the
  float itself succeeds);
* ``invalid``: NaN.

No float decides anything: floats enter as ``Fraction(x)``; the only floats computed here are
display values.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Final

from privref.reference.accounting import (
    MAX_PRECISION,
    analytic_gaussian_delta,
    calibrate_sigma,
    epsilon_ex_post,
    zcdp_to_dp_delta,
)
from privref.reference.pld import (
    CertifiedPLD,
    LossPair,
    pair_delta,
    pair_epsilon,
    poisson_subsampled_gaussian_pair,
    poisson_subsampled_gaussian_pld,
)
from privref.reference.reals import Interval

from .tasks import Task

__all__ = [
    "CKS_PRECISION",
    "CLASSES",
    "POISSON_STEP",
    "Certified",
    "Verdict",
    "certify",
    "classify",
    "gaussian_floor",
]

CLASSES: Final = ("inside", "conservative", "unsafe", "unproved", "invalid")
"""The classes of one answer (module doc); a call that raised or overran has no class."""

CKS_PRECISION: Final = 256
"""Bits of :func:`~privref.reference.accounting.zcdp_to_dp_delta` for the zCDP tasks (its result is
about 2^-200 wide)."""


POISSON_STEP: Final = Fraction(1, 1000)
"""Grid step of the DP-SGD tasks' PLDs.  The optimistic end loses about h/32 per step, so the
enclosure at k = 1000 is about 2% wide and at k = 10⁵ about 12% (docs/accountant-check.md); an
answer inside it is "inside", not proved safe, unless the check at the float itself decides."""


@dataclass(frozen=True)
class Certified:
    """privref's answer to a task: ``enclosure`` contains the true value; ``floor`` (zcdp_delta
    only) contains the Gaussian mechanism's δ, below which a value is proved unsafe."""

    task: Task
    enclosure: Interval
    floor: Interval | None
    seconds: float


@dataclass(frozen=True)
class Verdict:
    """The class of one float (module doc); ``relative`` is the signed relative distance to the
    enclosure's nearer end when the float lies outside it (None inside), ``how`` says what
    proved the class."""

    cls: str
    relative: float | None
    how: str
    proved_safe: bool = False


def _profile(task: Task, epsilon: Fraction, sigma: Fraction, prec: int) -> Interval:
    """δ(ε) of R Gaussian queries (R = ``queries``, or ``steps`` of a q = 1 DP-SGD task)."""
    count = dict(task.params).get("queries", dict(task.params).get("steps"))
    assert isinstance(count, int)
    return analytic_gaussian_delta(epsilon, count, sigma, prec)


@lru_cache(maxsize=8)
def _one_step(q: Fraction, sigma: Fraction, order: str) -> CertifiedPLD:
    return poisson_subsampled_gaussian_pld(sigma, q, order, step=POISSON_STEP)


@lru_cache(maxsize=8)
def _dpsgd(q: Fraction, sigma: Fraction, steps: int) -> tuple[CertifiedPLD, CertifiedPLD]:
    """The remove and add orders' PLDs of ``steps`` composed steps (cached across tasks)."""
    return (_one_step(q, sigma, "remove").self_compose(steps),
            _one_step(q, sigma, "add").self_compose(steps))


def _larger(boxes: list[Interval]) -> Interval:
    """The enclosure of the larger of several quantities, each in its box."""
    return Interval(max(b.lo for b in boxes), max(b.hi for b in boxes))


def _subsampled(task: Task) -> bool:
    return task.exact("q") != 1


def _one_use(task: Task) -> list[LossPair] | None:
    """At k = 1 the two orders' pairs themselves (δ from their survival functions, no grid)."""
    if task.value("steps") != 1:
        return None
    return [poisson_subsampled_gaussian_pair(task.exact("sigma"), task.exact("q"), order)
            for order in ("remove", "add")]


def _dpsgd_epsilon(task: Task) -> Interval:
    if not _subsampled(task):
        return epsilon_ex_post(task.exact("sigma"), task.value("steps"), task.exact("delta"))
    pairs = _one_use(task)
    if pairs is not None:
        return _larger([pair_epsilon(p, task.exact("delta")) for p in pairs])
    grids = _dpsgd(task.exact("q"), task.exact("sigma"), task.value("steps"))
    return _larger([g.epsilon(task.exact("delta")) for g in grids])


def _dpsgd_delta(task: Task, epsilon: Fraction) -> Interval:
    if not _subsampled(task):
        return _profile(task, epsilon, task.exact("sigma"), 64)
    pairs = _one_use(task)
    if pairs is not None:
        return _larger([pair_delta(p, epsilon) for p in pairs])
    grids = _dpsgd(task.exact("q"), task.exact("sigma"), task.value("steps"))
    return _larger([g.delta(epsilon) for g in grids])


def _precisions() -> list[int]:
    out, p = [], 64
    while p <= MAX_PRECISION:
        out.append(p)
        p *= 2
    return out


def _decide_at(task: Task, value: Fraction) -> bool | None:
    """Whether the claim built on ``value`` is proved to hold (True), proved false (False), or
    undecided at MAX_PRECISION (None); kinds gaussian_epsilon and gaussian_sigma."""
    delta = task.exact("delta")
    if task.kind == "poisson_gaussian_epsilon" and _subsampled(task):
        box = _dpsgd_delta(task, value)  # the grids are fixed: one look decides or not
        return True if box.hi <= delta else False if box.lo > delta else None
    for prec in _precisions():
        if task.kind in ("gaussian_epsilon", "poisson_gaussian_epsilon"):
            box = _profile(task, value, task.exact("sigma"), prec)
        else:  # gaussian_sigma: δ(ε; σ = value)
            box = _profile(task, task.exact("epsilon"), value, prec)
        if box.hi <= delta:
            return True
        if box.lo > delta:
            return False
    return None


def gaussian_floor(rho: Fraction, epsilon: Fraction, prec: int = 128) -> Interval:
    """δ(ε) of the Gaussian mechanism with μ = √(2ρ), enclosed: it is ρ-zCDP (Bun-Steinke 2016
    Proposition 1.6), so no conversion from ρ-zCDP may return a smaller δ.  μ is written √q/σ
    with σ = k the least integer with q = 2ρk² >= 1 (both exact)."""
    k = max(1, math.isqrt(math.ceil(1 / (2 * rho))))
    while 2 * rho * k * k < 1:
        k += 1
    return analytic_gaussian_delta(epsilon, 2 * rho * k * k, k, prec)


_CERTIFIERS: Final[dict[str, Callable[[Task], tuple[Interval, Interval | None]]]] = {
    "gaussian_epsilon": lambda t: (epsilon_ex_post(t.exact("sigma"), t.value("queries"),
                                                   t.exact("delta")), None),
    "gaussian_delta": lambda t: (_profile(t, t.exact("epsilon"), t.exact("sigma"), 64), None),
    "gaussian_sigma": lambda t: (calibrate_sigma(t.value("queries"), t.exact("epsilon"),
                                                 t.exact("delta")), None),
    "zcdp_delta": lambda t: (zcdp_to_dp_delta(t.exact("rho"), t.exact("epsilon"), CKS_PRECISION),
                             gaussian_floor(t.exact("rho"), t.exact("epsilon"))),
    "poisson_gaussian_epsilon": lambda t: (_dpsgd_epsilon(t), None),
    "poisson_gaussian_delta": lambda t: (_dpsgd_delta(t, t.exact("epsilon")), None),
}
"""The certifier of each task kind; a kind missing here is reported as not certified and not
run."""


def certify(task: Task) -> Certified:
    """privref's enclosure of the task's true value (and the zCDP floor); KeyError for a kind
    without a certifier; TooLargeToEnumerate when privref's work caps are reached."""
    start = time.perf_counter()
    enclosure, floor = _CERTIFIERS[task.kind](task)
    return Certified(task, enclosure, floor, time.perf_counter() - start)


def certified_kinds() -> frozenset[str]:
    """The task kinds privref can certify today."""
    return frozenset(_CERTIFIERS)


def _relative(value: Fraction, end: Fraction) -> float:
    if end == 0:
        return math.inf if value > 0 else -math.inf
    return float((value - end) / abs(end))


def classify(cert: Certified, value: float) -> Verdict:
    """The class of the library's float ``value`` for ``cert.task`` (module doc); exact: the
    float is compared as the rational it is."""
    if math.isnan(value):
        return Verdict("invalid", None, "NaN is not an answer")
    box, kind = cert.enclosure, cert.task.kind
    if value == math.inf:
        return Verdict("conservative", math.inf, "+inf: no guarantee claimed", True)
    if value == -math.inf:
        return Verdict("unsafe", -math.inf, "-inf: below every value")
    v = Fraction(value)
    if kind == "zcdp_delta":
        assert cert.floor is not None
        if v < cert.floor.lo:
            return Verdict("unsafe", _relative(v, box.lo),
                           "below the delta of the Gaussian mechanism with mu = sqrt(2 rho), "
                           "which is rho-zCDP and proved not (epsilon, value)-DP")
        if v < box.lo:
            return Verdict("unproved", _relative(v, box.lo),
                           "below the CKS conversion's proved value, above the Gaussian's delta")
    elif v < box.lo:
        return Verdict("unsafe", _relative(v, box.lo), "below the enclosure's proved lower end")
    if v > box.hi:
        return Verdict("conservative", _relative(v, box.hi), "above the enclosure", True)
    if kind in ("gaussian_epsilon", "gaussian_sigma", "poisson_gaussian_epsilon"):
        safe = _decide_at(cert.task, v)
        if safe is False:
            return Verdict("unsafe", None, "inside the enclosure, but delta at the value itself "
                                           "is proved to exceed the target delta")
        return Verdict("inside", None, "proved safe at the value itself" if safe
                       else "undecided at the value itself", bool(safe))
    if kind == "gaussian_delta" or (kind == "poisson_gaussian_delta"
                                    and not _subsampled(cert.task)):
        # a closed form: narrow the enclosure around the float
        task = cert.task
        for prec in _precisions()[1:]:
            finer = _profile(task, task.exact("epsilon"), task.exact("sigma"), prec)
            if v < finer.lo:
                return Verdict("unsafe", _relative(v, finer.lo),
                               f"below the proved lower end at {prec} bits")
            if v > finer.hi:
                return Verdict("conservative", _relative(v, finer.hi),
                               f"above the enclosure at {prec} bits", True)
    if kind == "poisson_gaussian_delta" and _one_use(cert.task) is None:
        return Verdict("inside", None, "within the PLD enclosure (its width is the grid's; "
                                       "not proved safe)")
    return Verdict("inside", None, "within the enclosure")
