"""The documented grid of accounting tasks ``privref check-accountant`` puts to third-party accountants.

A :class:`Task` is one question with one true answer: a kind (what is asked) and exact parameters.
Every parameter is a binary64 float's exact value (``Fraction(float)``), so the library receives
exactly the number privref certifies for: nothing is rounded between the two.  The kinds, and the
true value each asks for (larger is always the safe side):

* ``gaussian_epsilon``: R adaptively composed sensitivity-1 Gaussian queries with noise σ: the
  least ε for which they are (ε, δ)-DP (add/remove or substitution alike: the Gaussian's privacy
  profile is the same under both);
* ``gaussian_delta``: the same mechanism: the least δ at a given ε (its privacy profile);
* ``gaussian_sigma``: the least σ for which R sensitivity-1 Gaussian queries are (ε, δ)-DP;
* ``zcdp_delta``: the δ of (ε, δ)-DP that ρ-zCDP implies through Canonne, Kamath and Steinke 2020
  (Proposition 12 optimized over the Rényi order α, their Corollary 13), the conversion OpenDP
  implements;
* ``poisson_gaussian_epsilon``: DP-SGD's accounting question: k steps of the Poisson-subsampled
  Gaussian mechanism (each record kept with probability q, the kept records' sum of values of
  norm <= 1 released with N(0, σ²) noise), add/remove neighbours: the least ε at δ;
* ``poisson_gaussian_delta``: the same mechanism's δ at ε (its privacy profile).

The grid (:data:`GRID`) holds the extremes issue 35 names: δ down to 10⁻¹⁸ (and 1.13·10⁻¹⁸, the
δ of prv_accountant issue 17), ε past 709 (where e^ε overflows a float), R = 1 and R = 10⁵,
calibration at ε = 10 (outside the classical Gaussian's ε < 1), OpenDP's cdp_delta regression
points, and DP-SGD tasks at q = 0.01 and q = 1 with k = 1, 1000 and 10⁵ steps.  A kind is run
only when :mod:`.certify` has a certifier for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Final

__all__ = ["GRID", "KINDS", "Task", "find"]

KINDS: Final = {
    "gaussian_epsilon": "epsilon of R composed sensitivity-1 Gaussian queries (noise sigma) at delta",
    "gaussian_delta": "delta of R composed sensitivity-1 Gaussian queries (noise sigma) at epsilon",
    "gaussian_sigma": "least sigma for R sensitivity-1 Gaussian queries to be (epsilon, delta)-DP",
    "zcdp_delta": "delta implied by rho-zCDP at epsilon (Canonne-Kamath-Steinke 2020 Cor. 13)",
    "poisson_gaussian_epsilon": "epsilon of k steps of the Poisson-subsampled Gaussian (rate q, "
                                "noise sigma), add/remove, at delta",
    "poisson_gaussian_delta": "delta of k steps of the Poisson-subsampled Gaussian (rate q, "
                              "noise sigma), add/remove, at epsilon",
}
"""Each task kind and the quantity it asks for (the library's answer is compared with it)."""


@dataclass(frozen=True)
class Task:
    """One accounting question: ``kind`` (a key of :data:`KINDS`) and its parameters.

    ``params`` maps a name (sigma, queries, epsilon, delta, rho, q, steps) to a float (whose exact
    value is the parameter) or an int (queries, steps).  ``note`` says why the task is on the grid.
    """

    id: str
    kind: str
    params: tuple[tuple[str, float | int], ...]
    note: str = ""

    def value(self, name: str) -> float | int:
        """The parameter ``name`` as given to the library (a float or an int)."""
        return dict(self.params)[name]

    def exact(self, name: str) -> Fraction:
        """The parameter ``name`` as an exact rational (the float's exact value)."""
        return Fraction(self.value(name))

    def shown(self) -> str:
        """``name=value`` pairs, each float by its shortest round-tripping repr."""
        return ", ".join(f"{k}={v!r}" for k, v in self.params)


def _eps(sigma: float, queries: int, delta: float, note: str = "") -> Task:
    return Task(f"eps-s{sigma!r}-R{queries}-d{delta!r}", "gaussian_epsilon",
                (("sigma", sigma), ("queries", queries), ("delta", delta)), note)


def _delta(sigma: float, queries: int, epsilon: float, note: str = "") -> Task:
    return Task(f"delta-s{sigma!r}-R{queries}-e{epsilon!r}", "gaussian_delta",
                (("sigma", sigma), ("queries", queries), ("epsilon", epsilon)), note)


def _sigma(queries: int, epsilon: float, delta: float, note: str = "") -> Task:
    return Task(f"sigma-R{queries}-e{epsilon!r}-d{delta!r}", "gaussian_sigma",
                (("queries", queries), ("epsilon", epsilon), ("delta", delta)), note)


def _zcdp(rho: float, epsilon: float, note: str = "") -> Task:
    return Task(f"zcdp-r{rho!r}-e{epsilon!r}", "zcdp_delta", (("rho", rho), ("epsilon", epsilon)),
                note)


def _dpsgd_eps(q: float, sigma: float, steps: int, delta: float, note: str = "") -> Task:
    return Task(f"dpsgd-eps-q{q!r}-s{sigma!r}-k{steps}-d{delta!r}", "poisson_gaussian_epsilon",
                (("q", q), ("sigma", sigma), ("steps", steps), ("delta", delta)), note)


def _dpsgd_delta(q: float, sigma: float, steps: int, epsilon: float, note: str = "") -> Task:
    return Task(f"dpsgd-delta-q{q!r}-s{sigma!r}-k{steps}-e{epsilon!r}", "poisson_gaussian_delta",
                (("q", q), ("sigma", sigma), ("steps", steps), ("epsilon", epsilon)), note)


_LARGE = 1 / 38  # mu = 38: the profile is non-trivial around epsilon = mu^2/2 = 722 > 709

GRID: Final[tuple[Task, ...]] = (
    # R composed Gaussian queries: epsilon at delta
    _eps(1.0, 1, 1e-5, "one query, the textbook case"),
    _eps(10.0, 100, 1e-5, "100 queries, mu = 1"),
    _eps(300.0, 100_000, 1e-5, "R = 10^5 queries, mu = 1.05"),
    _eps(2.0, 1, 1e-10),
    _eps(2.0, 1, 1e-18, "tiny delta"),
    _eps(4.0, 10_000, 1.1e-18, "prv_accountant issue 17's sigma, steps and delta, at q = 1"),
    _eps(4.0, 10_000, 1.13e-18, "prv_accountant issue 17's second delta, at q = 1"),
    _eps(30.0, 1, 1e-3, "little privacy loss: epsilon near 0"),
    _eps(_LARGE, 1, 1e-5, "epsilon near 884: e^epsilon overflows a float"),
    # the privacy profile: delta at epsilon
    _delta(1.0, 1, 1.0),
    _delta(10.0, 100, 0.5),
    _delta(300.0, 100_000, 2.0, "R = 10^5"),
    _delta(2.0, 1, 10.0, "delta near 1e-8"),
    _delta(_LARGE, 1, 709.0, "epsilon = 709: e^epsilon is near the float maximum"),
    _delta(_LARGE, 1, 710.0, "epsilon = 710: e^epsilon overflows a float"),
    _delta(_LARGE, 1, 1000.0, "epsilon = 1000, far past the overflow"),
    # calibration of sigma for a target (epsilon, delta)
    _sigma(1, 1.0, 1e-5),
    _sigma(1, 0.5, 1e-5),
    _sigma(100, 1.0, 1e-5),
    _sigma(100_000, 1.0, 1e-5, "R = 10^5"),
    _sigma(1, 10.0, 1e-5, "epsilon = 10: the classical Gaussian's sigma is unsafe here"),
    _sigma(1, 1.0, 1e-18, "tiny delta"),
    # zCDP to (epsilon, delta)
    _zcdp(0.05, 0.25, "OpenDP pull request 2820's regression point"),
    _zcdp(5e-30, 1e-13, "OpenDP pull request 2820's second regression point (delta ~ 1e-234)"),
    _zcdp(0.5, 1.0),
    _zcdp(1.0, 10.0),
    # DP-SGD: k steps of the Poisson-subsampled Gaussian (add/remove)
    _dpsgd_eps(0.01, 1.0, 1, 1e-5, "one step"),
    _dpsgd_eps(0.01, 1.0, 1000, 1e-5, "the DP-SGD task of docs/pld.md"),
    _dpsgd_eps(0.01, 1.0, 100_000, 1e-5, "k = 10^5 steps"),
    _dpsgd_eps(1.0, 30.0, 1000, 1e-5, "q = 1: no subsampling (the Gaussian composed)"),
    _dpsgd_delta(0.01, 1.0, 1, 0.1, "one step"),
    _dpsgd_delta(0.01, 1.0, 1000, 1.0),
    _dpsgd_delta(0.01, 1.0, 100_000, 20.0, "k = 10^5 steps"),
    _dpsgd_delta(1.0, 30.0, 1000, 2.0, "q = 1"),
)
"""The documented grid (docs/accountant-check.md lists it with one run's classification)."""


def find(task_id: str) -> Task:
    """The grid task named ``task_id``; KeyError when there is none."""
    for task in GRID:
        if task.id == task_id:
            return task
    raise KeyError(task_id)
