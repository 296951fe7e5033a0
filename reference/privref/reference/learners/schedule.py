"""The size schedule of 000 Algorithm 3 (LabelBoost) / 004 Algorithm 4 (IterLabelBoost).

Every size in the iterated algorithm (the number of loop iterations N, |S| and
|T| after Steps 2b and 2c, the deletions of Steps 2c and 3, the draws of Step
4) is a function of the public parameters (constants, α, β, n, m, VC(C)) and
never of the data: the privacy proofs (000 Lemma 4.6, 004 Lemma C.4) rely on
this ("the size of the database at any moment … does not depend on the
database content").  :func:`size_schedule` computes it exactly, with no
floats: exponentials are compared and floored with rigorous interval
arithmetic (:mod:`privref.reference.reals`), sizes are Python ints, so even
astronomically large n (10^100) is handled.

**Rounding rule** (the papers never say how fractional sizes are rounded;
inventory §3 and 004-E11).  One rule, applied everywhere:

* Step 2b: v = min(cap·n, max(0, ⌊y⌋)) where y is the paper's real-valued
  expression (000: β_i·VC·e^{α_i|S|/(200·VC)} − |S|; 004:
  (β_i/e)·VC·e^{α_i|S|/(200·VC)} − 100|S|), i.e. y floored and clamped at 0;
* Steps 2c and 3: the number of *kept* entries is ⌊keep·size⌋ (keep = 1/100
  in 2c, for S and T separately; 1/300 in 3), the rest are deleted.  Flooring
  the kept count makes every kept fraction <= keep, so the subsampling steps
  amplify privacy at least as much as the papers' real-valued sizes do.

The loop runs while |S| < stop·n (stop = 300).  Data-independence holds by
construction: this module never sees a dataset.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Final, Literal

from ..errors import InvalidArgument
from ..reals import Order, Real, compare, exp, log, rational
from ..validate import ExactInput, check_int, to_fraction

__all__ = [
    "MAX_ITERATIONS",
    "PAPER_000",
    "PAPER_004",
    "Iteration",
    "LabelBoostConstants",
    "Outcome",
    "Schedule",
    "floor_real",
    "size_schedule",
    "step_2b_size",
]

Version = Literal["000", "004"]
DrawsMode = Literal["printed", "n"]

MAX_ITERATIONS: Final = 1000
"""Iterations simulated before a schedule is declared STALLS (the loop would not end)."""


def _rational(value: object, name: str) -> Fraction:
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return Fraction(value)
    raise InvalidArgument(f"{name}={value!r} must be an exact rational (int or Fraction)")


@dataclass(frozen=True, slots=True)
class LabelBoostConstants:
    """Every constant of 000 Algorithm 3 / 004 Algorithm 4, as a parameter (immutable).

    ``version`` names the printed algorithm whose formulas are used
    ("000": α_i = α/(10·2^i), v = β_i·VC·e^{…} − |S|; "004": α_i = α/(24·2^i),
    v = (β_i/e)·VC·e^{…} − 100|S|).  The paper values are :data:`PAPER_000`
    and :data:`PAPER_004`; scaled-down copies (``dataclasses.replace``) let
    the loop iterate on tiny inputs.  Guarantee: all fields are validated and
    normalized (stop/unlabeled/cap factors: ints >= 1; divisors: exact
    rationals > 0, so tiny instances can use divisors below 1; the |S|
    coefficient of Step 2b: exact rational >= 0; keep rates: exact rationals
    in (0, 1]).  A float is taken at its exact binary value.
    """

    version: Version
    alpha_divisor: Fraction
    beta_divisor: Fraction
    exponent_divisor: Fraction
    v_over_e: bool
    v_s_coefficient: Fraction
    stop_factor: int
    unlabeled_factor: int
    cap_factor: int
    keep_iteration: Fraction
    keep_final: Fraction

    def __post_init__(self) -> None:
        if self.version not in ("000", "004"):
            raise InvalidArgument(f"version={self.version!r} must be '000' or '004'")
        for name in ("stop_factor", "unlabeled_factor", "cap_factor"):
            check_int(getattr(self, name), name, minimum=1)
        for name in ("alpha_divisor", "beta_divisor", "exponent_divisor", "v_s_coefficient"):
            value = _rational(getattr(self, name), name)
            if value < 0 or (value == 0 and name != "v_s_coefficient"):
                raise InvalidArgument(f"{name}={value} must be "
                                      + (">= 0" if name == "v_s_coefficient" else "> 0"))
            object.__setattr__(self, name, value)
        if not isinstance(self.v_over_e, bool):
            raise InvalidArgument(f"v_over_e={self.v_over_e!r} must be a bool")
        for name in ("keep_iteration", "keep_final"):
            value = _rational(getattr(self, name), name)
            if not 0 < value <= 1:
                raise InvalidArgument(f"{name}={value} must lie in (0, 1]")
            object.__setattr__(self, name, value)

    def alpha_i(self, alpha: Fraction, i: int) -> Fraction:
        """α_i of Step 2a: α/(alpha_divisor·2^i) (000: 10, 004: 24)."""
        return Fraction(alpha) / (self.alpha_divisor * (1 << i))

    def beta_i(self, beta: Fraction, i: int) -> Fraction:
        """β_i of Step 2a: β/(beta_divisor·2^i) (both versions: 4)."""
        return Fraction(beta) / (self.beta_divisor * (1 << i))

    @property
    def is_paper(self) -> bool:
        """True when every constant equals the printed one of ``version``."""
        return self == (PAPER_000 if self.version == "000" else PAPER_004)


PAPER_000: Final = LabelBoostConstants(
    version="000", alpha_divisor=Fraction(10), beta_divisor=Fraction(4),
    exponent_divisor=Fraction(200), v_over_e=False, v_s_coefficient=Fraction(1), stop_factor=300,
    unlabeled_factor=90000, cap_factor=30000,
    keep_iteration=Fraction(1, 100), keep_final=Fraction(1, 300))
"""The printed constants of 000 Algorithm 3 (LabelBoost)."""

PAPER_004: Final = LabelBoostConstants(
    version="004", alpha_divisor=Fraction(24), beta_divisor=Fraction(4),
    exponent_divisor=Fraction(200), v_over_e=True, v_s_coefficient=Fraction(100), stop_factor=300,
    unlabeled_factor=90000, cap_factor=30000,
    keep_iteration=Fraction(1, 100), keep_final=Fraction(1, 300))
"""The printed constants of 004 Algorithm 4 (IterLabelBoost)."""


class Outcome(Enum):
    """How the loop of Step 2 ends on a schedule."""

    OK = "ok"
    FAILS = "fails"      # Step 2b: D has fewer than v elements left
    STALLS = "stalls"    # |S| never reaches stop·n (the printed loop would not terminate)


@dataclass(frozen=True, slots=True)
class Iteration:
    """Sizes of one loop iteration i (000 notation S_i^b, T_i^b, S_i^c, T_i^c).

    ``s_before`` = |S| at Step 2b (= |S_i^b|); ``t_before`` = v = |T_i^b|;
    ``capped`` when v = cap·n; ``s_kept``/``t_kept`` = |S_i^c|, |T_i^c| after
    Step 2c (004's S_i, T_i); ``d_after`` = |D| left after Step 2b.
    """

    index: int
    alpha: Fraction
    beta: Fraction
    s_before: int
    t_before: int
    capped: bool
    s_kept: int
    t_kept: int
    d_after: int

    @property
    def s_after(self) -> int:
        """|S| at the end of the iteration (Step 2e/2i: S^c ∘ T^c, relabeled)."""
        return self.s_kept + self.t_kept


@dataclass(frozen=True, slots=True)
class Schedule:
    """The data-independent size schedule of one run (see the module docstring).

    ``iterations`` lists the completed iterations; with ``outcome`` FAILS the
    next iteration's Step 2b failed, with STALLS the loop never ends.
    ``s_loop`` is |S| after the loop, ``s_final`` = ⌊keep_final·s_loop⌋ =
    |S^3| after Step 3 (both 0 unless OK).
    """

    constants: LabelBoostConstants
    alpha: Fraction
    beta: Fraction
    n: int
    m: int
    vc: int
    unlabeled: int
    iterations: tuple[Iteration, ...]
    outcome: Outcome
    s_loop: int
    s_final: int

    @property
    def n_iterations(self) -> int:
        """N, the number of completed loop iterations."""
        return len(self.iterations)

    @property
    def input_size(self) -> int:
        """|S∘D| = m + |D| (000/004: 90000n + m)."""
        return self.m + self.unlabeled

    @property
    def unlabeled_used(self) -> int:
        """Σ_i |T_i^b|, the entries of D moved into T (000 Claim 4.8 / 004 Claim C.6)."""
        return sum(it.t_before for it in self.iterations)

    def draws(self, mode: DrawsMode = "printed") -> int:
        """Step 4: |S^3| i.i.d. draws as printed, or n draws (the comment's "n i.i.d. samples"; 004-E11)."""
        if mode == "printed":
            return self.s_final
        if mode == "n":
            return self.n
        raise InvalidArgument(f"mode={mode!r} must be 'printed' or 'n'")

    def database_sizes(self) -> tuple[int, ...]:
        """n(i): |S| + |D| at the start of iteration i = 1..N+1 (000 Lemma 4.6's n(i)).

        n(1) = m + |D|; n(N+1) is the input size of 𝓛_0 (Steps 3–5).
        """
        sizes = [self.input_size]
        for it in self.iterations:
            sizes.append(it.s_after + it.d_after)
        return tuple(sizes)


def floor_real(y: Real, *, max_precision: int = 1 << 16) -> int:
    """⌊y⌋ of an exact real, decided by enclosures of increasing precision (never a float).

    Raises InvalidArgument if the enclosure keeps straddling an integer up
    to ``max_precision`` bits (only possible for an integer that is not known
    to be rational).
    """
    if y.exact is not None:
        return math.floor(y.exact)
    prec = 64
    while True:
        box = y.enclose(prec)
        low = math.floor(box.lo)
        if box.hi < low + 1:
            return low
        if prec >= max_precision:
            raise InvalidArgument(f"cannot decide the floor of {y} at {prec} bits")
        prec *= 2


def _exact(value: object, name: str) -> Fraction:
    x = to_fraction(value, name)
    if not 0 < x < 1:
        raise InvalidArgument(f"{name}={x} must lie in (0, 1)")
    return x


def step_2b_size(constants: LabelBoostConstants, alpha_i: Fraction, beta_i: Fraction, s: int,
                 n: int, vc: int) -> tuple[int, bool]:
    """(v, capped): the size of T in Step 2b, with the rounding rule of the module docstring.

    000 Algorithm 3 (2b): v = min{30000n, β_i·VC·e^{α_i|S|/(200VC)} − |S|};
    004 Algorithm 4 (2b): v = min{30000n, (β_i/e)·VC·e^{α_i|S|/(200VC)} − 100|S|}.
    The cap is decided in log space (x >= ln((cap + c|S|)/(β_i VC))), so a
    huge exponent is never evaluated.
    """
    c = constants
    cap = c.cap_factor * n
    x = alpha_i * s / (c.exponent_divisor * vc) - (1 if c.v_over_e else 0)
    subtract = c.v_s_coefficient * s
    target = Fraction(cap + subtract) / (beta_i * vc)
    order, _ = compare(rational(x), log(rational(target)))
    if order in (Order.GREATER, Order.EQUAL):
        return cap, True
    if order is Order.UNDECIDED:
        raise InvalidArgument(f"cannot decide whether v reaches the cap at |S|={s}")
    y = rational(beta_i * vc) * exp(rational(x)) - subtract
    return max(0, floor_real(y)), False


def size_schedule(constants: LabelBoostConstants, alpha: ExactInput, beta: ExactInput, n: int, m: int,
                  vc: int, *, unlabeled: int | None = None,
                  max_iterations: int = MAX_ITERATIONS) -> Schedule:
    """The exact size schedule of 000 Algorithm 3 / 004 Algorithm 4 (pure, data-independent).

    Inputs: the constants, α, β ∈ (0, 1) exact, the base learner's sample
    complexity n >= 1, the labeled size m >= 0, VC(C) >= 1 and |D|
    (default unlabeled_factor·n = 90000n).  Guarantee: a deterministic
    function of these arguments only; sizes follow the rounding rule of the
    module docstring.  Ledger: 000 Claims 4.8, 4.9, Remark 4.10; 004 Claims
    C.6, C.7, Corollary C.8.
    """
    if not isinstance(constants, LabelBoostConstants):
        raise InvalidArgument(f"constants={constants!r} must be a LabelBoostConstants")
    a, b = _exact(alpha, "alpha"), _exact(beta, "beta")
    n = check_int(n, "n", minimum=1)
    m = check_int(m, "m", minimum=0)
    vc = check_int(vc, "vc", minimum=1)
    d_size = constants.unlabeled_factor * n if unlabeled is None else check_int(
        unlabeled, "unlabeled", minimum=0)
    max_iterations = check_int(max_iterations, "max_iterations", minimum=1)
    c = constants
    s, d = m, d_size
    done: list[Iteration] = []
    outcome = Outcome.OK
    i = 1
    while s < c.stop_factor * n:
        if i > max_iterations:
            outcome = Outcome.STALLS
            break
        a_i, b_i = c.alpha_i(a, i), c.beta_i(b, i)
        v, capped = step_2b_size(c, a_i, b_i, s, n, vc)
        if v > d:
            outcome = Outcome.FAILS
            break
        kept_s = math.floor(c.keep_iteration * s)
        kept_t = math.floor(c.keep_iteration * v)
        d -= v
        it = Iteration(i, a_i, b_i, s, v, capped, kept_s, kept_t, d)
        done.append(it)
        if s == 0 and it.s_after == 0:   # v = ⌊β_i·VC⌋ = 0 here, and β_i only decreases
            outcome = Outcome.STALLS
            break
        s = it.s_after
        i += 1
    ok = outcome is Outcome.OK
    s_final = math.floor(c.keep_final * s) if ok else 0
    return Schedule(c, a, b, n, m, vc, d_size, tuple(done), outcome, s if ok else 0, s_final)
