"""The public-data reduction of paper 003 (Section 4): a private learner 𝓑 built from a semi-private 𝒜.

* :func:`priv_samp` is 003 Algorithm 3 (PrivSamp): for i = 1..n_priv, a coin
  b_i ~ Ber(p) decides whether slot i takes the *next unused* entry of S̃ or a
  fresh example of the dummy distribution D_0; the loop stops when S̃ is used up.
* :func:`pub_samp` is 003 Algorithm 4 (PubSamp): n_pub fresh examples of D_0.
* :func:`reduction` is 003 Algorithm 2: 𝓑(S̃) = 𝒜(PrivSamp(S̃, D_0, p, n_priv),
  PubSamp(D_0, n_pub)) with p = 1/(100·n_pub) and |S̃| = ⌈n_priv/(10·n_pub)⌉.
* :func:`coupled_public_sample` is the analysis construct Ŝ_pub of the proof of
  003 Claim 4.6 (jointly with S_pub), and :func:`privsamp_on_fresh_sample` runs
  PrivSamp on S̃ ~ D^ñ; both exist only to check the proof's coupling steps.

D_0 (:class:`DummyDistribution`) has a fixed finite x-marginal and a uniform label
independent of x.  𝒜 (:class:`SemiPrivateLearner`) is any mechanism under the
:class:`privref.reference.neighbors.PublicPrivate` relation whose input is the public
sample followed by the private sample; it is pluggable.

Completion of an underspecified step (ours): when S̃ runs out before slot
n_priv (the paper's failure event, where the remaining slots are undefined), the
remaining slots are filled with fresh D_0 examples and the outcome of
:func:`priv_samp` records ``exhausted=True``.  The slots' sources depend only on
the coins, so privacy (003 Claim 4.5) is unaffected.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final, Generic, TypeVar

from ..citations import cite
from ..concepts import Concept, ConceptClass
from ..data import Dataset, label_of, point_of
from ..errors import InvalidArgument
from ..exponential import agreements
from ..mechanism import Interpreted, Mechanism
from ..neighbors import SUBSTITUTION, PublicPrivate
from ..privacy import PrivacyClaim
from ..program import (
    Program,
    bernoulli,
    call,
    categorical,
    categorical_choice,
    choose,
    deterministic,
    uniform,
)
from ..reals import log, rational
from ..validate import ExactInput, check_int, check_probability, to_fraction

__all__ = [
    "PRIVSAMP",
    "PUBSAMP",
    "REDUCTION_SOURCE",
    "DummyDistribution",
    "SampleGenerator",
    "SemiPrivateLearner",
    "coupled_public_sample",
    "error",
    "exhaustion_probability",
    "exponential_semi_private_learner",
    "mixture",
    "priv_samp",
    "privsamp_on_fresh_sample",
    "product_law",
    "pub_samp",
    "reduction",
    "reduction_input_size",
    "reduction_mixing_rate",
    "total_variation",
]

H = TypeVar("H", bound=Hashable)
REDUCTION_SOURCE: Final = cite("003 Claim 4.5")
"""Where 𝓑's privacy claim (𝒜's (ε, δ) under substitution of one entry of S̃) is stated."""
Example = tuple[Hashable, int]


# ------------------------------------------------------------------ the dummy distribution D_0


@dataclass(frozen=True, slots=True)
class DummyDistribution:
    """003 Algorithm 2 step 1: D_0 over X × {0,1}, x from a fixed finite marginal, y uniform.

    ``points[i]`` has probability ``weights[i] / sum(weights)``; the label is an
    independent fair coin.  Guarantee: weights are non-negative exact rationals,
    not all zero, and points are distinct.
    """

    points: tuple[Hashable, ...]
    weights: tuple[Fraction, ...]

    def __post_init__(self) -> None:
        if not self.points or len(self.points) != len(self.weights):
            raise InvalidArgument(f"points={self.points!r} and weights={self.weights!r} must be "
                                  "non-empty and of equal length")
        if len(set(self.points)) != len(self.points):
            raise InvalidArgument(f"points={self.points!r} contains duplicates")
        ws = tuple(to_fraction(w, "weights[i]") for w in self.weights)
        categorical_choice(ws)  # validates: non-negative, not all zero
        object.__setattr__(self, "weights", ws)

    @staticmethod
    def uniform_on(points: tuple[Hashable, ...]) -> DummyDistribution:
        """D_0 with the uniform x-marginal on ``points``."""
        return DummyDistribution(tuple(points), tuple(Fraction(1) for _ in points))

    def law(self) -> dict[Example, Fraction]:
        """Exact law of one example (x, y): weight(x)/total · 1/2 (zero-weight points omitted)."""
        total = sum(self.weights, Fraction(0))
        out: dict[Example, Fraction] = {}
        for x, w in zip(self.points, self.weights, strict=True):
            if w:
                for y in (0, 1):
                    out[(x, y)] = w / total / 2
        return out


def _dummy_example(d0: DummyDistribution) -> Program[Example]:
    i = yield from categorical(d0.weights)
    y = yield from uniform(2)
    return (d0.points[i], y)


# ------------------------------------------------------------------ Algorithms 3 and 4


def _check_rate(p: object) -> Fraction:
    return check_probability(to_fraction(p, "p"), "p")


def priv_samp(s_tilde: Dataset, d0: DummyDistribution, p: Fraction,
              n_priv: int) -> Program[tuple[Dataset, bool]]:
    """003 Algorithm 3 (PrivSamp): returns (S_priv, exhausted).

    Slot i takes the next unused entry of S̃ when b_i = 1 (entries are removed by
    position, so duplicates are kept apart) and a fresh D_0 example otherwise.
    ``exhausted`` is True when S̃ ran out before slot n_priv; those slots are then
    filled from D_0 (our completion, see the module docstring).
    """
    remaining = list(s_tilde)
    out: list[Hashable] = []
    while remaining and len(out) < n_priv:
        if (yield from bernoulli(p)):
            out.append(remaining.pop(0))
        else:
            out.append((yield from call(_dummy_example, d0)))
    exhausted = len(out) < n_priv
    while len(out) < n_priv:
        out.append((yield from call(_dummy_example, d0)))
    return (tuple(out), exhausted)


def pub_samp(d0: DummyDistribution, n_pub: int) -> Program[Dataset]:
    """003 Algorithm 4 (PubSamp): n_pub independent fresh examples of D_0 (no entry of S̃)."""
    out: list[Hashable] = []
    for _ in range(n_pub):
        out.append((yield from call(_dummy_example, d0)))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class SampleGenerator(Interpreted[Any]):
    """A sample generator of 003 with its source and privacy claim (None: no DP claim).

    ``distribution(*args)`` and ``sample(*args, rng=)`` both interpret the one
    ``program(*args)`` (:class:`~privref.reference.mechanism.Interpreted`).
    """

    name: str
    program: Callable[..., Program[Any]]
    source: str
    claim: PrivacyClaim | None
    note: str


PRIVSAMP = SampleGenerator(
    "PrivSamp", priv_samp, "003 Algorithm 3", None,
    "no DP claim of its own: it outputs entries of S̃, each at most once and at positions "
    "chosen by data-independent coins (the basis of 003 Claim 4.5)")
PUBSAMP = SampleGenerator(
    "PubSamp", pub_samp, "003 Algorithm 4", PrivacyClaim(rational(0)),
    "reads no private data, so it is 0-DP (003 Claim 4.5: S_pub contains no point of S̃)")


# ------------------------------------------------------------------ the semi-private learner 𝒜


@dataclass(frozen=True, slots=True)
class SemiPrivateLearner(Generic[H]):
    """𝒜 of 003 Definition 2.2: ``mechanism`` maps S_pub + S_priv (public first) to a hypothesis.

    Guarantee (checked at construction): ``mechanism.relation`` is
    PublicPrivate(n_pub), so its claim is privacy w.r.t. the private part only.
    With ``unlabeled_public`` (an SS-SP learner, 003 Definition 2.4) the public
    entries are passed as bare points x.
    """

    mechanism: Mechanism[H]
    n_priv: int
    n_pub: int
    unlabeled_public: bool = False

    def __post_init__(self) -> None:
        check_int(self.n_priv, "n_priv", minimum=1)
        check_int(self.n_pub, "n_pub", minimum=1)
        if self.mechanism.relation != PublicPrivate(self.n_pub):
            raise InvalidArgument(f"mechanism relation {self.mechanism.relation} must be "
                                  f"PublicPrivate({self.n_pub}) (public part first)")


def _score(concepts: ConceptClass, public_weight: int, n_pub: int,
           data: Dataset) -> tuple[int, ...]:
    pub, priv = data[:n_pub], data[n_pub:]
    if public_weight == 0:  # public entries unused (they may be bare points, 003 Definition 2.4)
        return tuple(agreements(h, priv) for h in concepts)
    return tuple(agreements(h, priv) + public_weight * agreements(h, pub) for h in concepts)


def exponential_semi_private_learner(concepts: ConceptClass, *, base: ExactInput, n_priv: int,
                                     n_pub: int, public_weight: int = 1
                                     ) -> SemiPrivateLearner[Concept]:
    """A simple (2 ln r)-DP semi-private 𝒜 for tests: P[h] ∝ r^(agree_priv(h) + w·agree_pub(h)).

    With ``public_weight=0`` the public part is ignored (so it may be unlabeled).

    The private score has sensitivity 1, and the public term is a fixed reweighting
    given the public part, so 𝒜 is (2 ln r, 0)-DP w.r.t. the private part
    (exponential mechanism, 004 Proposition A.1).  Exact rationals throughout.
    """
    r = to_fraction(base, "base")
    if r <= 1:
        raise InvalidArgument(f"base={r} must be > 1")
    check_int(public_weight, "public_weight", minimum=0)
    check_int(n_pub, "n_pub", minimum=1)
    check_int(n_priv, "n_priv", minimum=1)
    hyps = tuple(concepts)

    def program(data: Dataset) -> Program[Concept]:
        if len(data) != n_pub + n_priv:
            raise InvalidArgument(f"data has {len(data)} entries; expected n_pub + n_priv = "
                                  f"{n_pub + n_priv}")
        scores = yield from deterministic(_score, concepts, public_weight, n_pub, data)
        top = max(scores)
        index = yield from choose(categorical_choice(tuple(r ** (s - top) for s in scores)))
        return hyps[index]

    mech = Mechanism(f"semi-private EM(r={r}, w={public_weight})", program,
                     PrivacyClaim(log(r) * 2), cite("004 Proposition A.1"),
                     relation=PublicPrivate(n_pub),
                     description="exponential mechanism on private agreements, reweighted by "
                                 "public agreements")
    return SemiPrivateLearner(mech, n_priv, n_pub)


# ------------------------------------------------------------------ Algorithm 2


def reduction_input_size(n_priv: int, n_pub: int) -> int:
    """ñ = ⌈n_priv/(10·n_pub)⌉ (003 Algorithm 2's input size)."""
    check_int(n_priv, "n_priv", minimum=1)
    check_int(n_pub, "n_pub", minimum=1)
    return -(-n_priv // (10 * n_pub))


def reduction_mixing_rate(n_pub: int) -> Fraction:
    """p = 1/(100·n_pub) (003 Algorithm 2 step 2)."""
    check_int(n_pub, "n_pub", minimum=1)
    return Fraction(1, 100 * n_pub)


def reduction(a: SemiPrivateLearner[H], d0: DummyDistribution, *, p: ExactInput | None = None,
              n_tilde: int | None = None) -> Mechanism[H]:
    """003 Algorithm 2: the private learner 𝓑(S̃) = 𝒜(PrivSamp(S̃, D_0, p, n_priv), PubSamp(D_0, n_pub)).

    Defaults are the paper's p = 1/(100·n_pub) and |S̃| = ⌈n_priv/(10·n_pub)⌉;
    ``p`` and ``n_tilde`` may be overridden for stress tests (003 Claim 4.5's
    argument holds for every p and input size).  Claim: 𝒜's (ε, δ) under
    substitution of one entry of S̃ (003 Claim 4.5, the privacy half of Lemma 4.4).
    Inputs of another size raise InvalidArgument.
    """
    if not isinstance(a, SemiPrivateLearner):
        raise InvalidArgument(f"a={a!r} must be a SemiPrivateLearner")
    if not isinstance(d0, DummyDistribution):
        raise InvalidArgument(f"d0={d0!r} must be a DummyDistribution")
    rate = reduction_mixing_rate(a.n_pub) if p is None else _check_rate(p)
    size = (reduction_input_size(a.n_priv, a.n_pub) if n_tilde is None
            else check_int(n_tilde, "n_tilde", minimum=1))
    inner = a.mechanism.program

    def program(s_tilde: Dataset) -> Program[H]:
        if len(s_tilde) != size:
            raise InvalidArgument(f"S̃ has {len(s_tilde)} entries; 𝓑 takes exactly {size}")
        s_priv, _exhausted = yield from call(priv_samp, s_tilde, d0, rate, a.n_priv)
        s_pub = yield from call(pub_samp, d0, a.n_pub)
        if a.unlabeled_public:
            s_pub = tuple(point_of(z) for z in s_pub)
        return (yield from call(inner, s_pub + s_priv))

    return Mechanism(f"𝓑[{a.mechanism.name}]", program, a.mechanism.claim, REDUCTION_SOURCE,
                     relation=SUBSTITUTION,
                     description=f"003 Algorithm 2 with p={rate}, ñ={size}, n_priv={a.n_priv}, "
                                 f"n_pub={a.n_pub}; privacy: 003 Claim 4.5 / Lemma 4.4")


# ------------------------------------------------------------------ analysis constructs and laws


def _law_choice(law: Mapping[Hashable, Fraction]) -> tuple[tuple[Hashable, ...],
                                                           tuple[Fraction, ...]]:
    items = tuple((z, q) for z, q in law.items() if q)
    if not items or sum((q for _, q in items), Fraction(0)) != 1:
        raise InvalidArgument("law must be a finite probability distribution (sums to 1)")
    return tuple(z for z, _ in items), tuple(q for _, q in items)


def _draw_from(outcomes: tuple[Hashable, ...], weights: tuple[Fraction, ...]) -> Program[Any]:
    i = yield from categorical(weights)
    return outcomes[i]


def coupled_public_sample(d: tuple[tuple[Hashable, Fraction], ...], d0: DummyDistribution,
                          p: Fraction, n_pub: int) -> Program[tuple[Dataset, Dataset]]:
    """(S_pub, Ŝ_pub) of the proof of 003 Claim 4.6: ẑ_i = b_i·v_i + (1 − b_i)·z⁰_i, same z⁰."""
    outcomes, weights = _law_choice(dict(d))
    pub: list[Hashable] = []
    hat: list[Hashable] = []
    for _ in range(n_pub):
        z0 = yield from call(_dummy_example, d0)
        b = yield from bernoulli(p)
        v = (yield from call(_draw_from, outcomes, weights)) if b else z0
        pub.append(z0)
        hat.append(v)
    return (tuple(pub), tuple(hat))


def privsamp_on_fresh_sample(d: tuple[tuple[Hashable, Fraction], ...], d0: DummyDistribution,
                             p: Fraction, n_priv: int,
                             n_tilde: int) -> Program[tuple[Dataset, bool]]:
    """PrivSamp(S̃, D_0, p, n_priv) with S̃ ~ D^ñ drawn first (the setting of 003 eq. (2))."""
    outcomes, weights = _law_choice(dict(d))
    s_tilde: list[Hashable] = []
    for _ in range(n_tilde):
        s_tilde.append((yield from call(_draw_from, outcomes, weights)))
    return (yield from call(priv_samp, tuple(s_tilde), d0, p, n_priv))


def mixture(d: Mapping[Any, Fraction], d0: DummyDistribution,
            p: Fraction) -> dict[Hashable, Fraction]:
    """D_(p) = p·D + (1 − p)·D_0 as an exact law over examples."""
    out: dict[Hashable, Fraction] = {}
    for z, q in d.items():
        out[z] = out.get(z, Fraction(0)) + p * q
    for z, q in d0.law().items():
        out[z] = out.get(z, Fraction(0)) + (1 - p) * q
    return {z: q for z, q in out.items() if q}


def product_law(law: Mapping[Any, Fraction], n: int) -> dict[Dataset, Fraction]:
    """The law of n i.i.d. draws (ordered tuples) from ``law``."""
    check_int(n, "n", minimum=0)
    out: dict[Dataset, Fraction] = {(): Fraction(1)}
    for _ in range(n):
        out = {(*s, z): q * r for s, q in out.items() for z, r in law.items() if r}
    return out


def total_variation(a: Mapping[Any, Fraction], b: Mapping[Any, Fraction]) -> Fraction:
    """TV(a, b) = ½ Σ |a(o) − b(o)| (exact)."""
    keys = set(a) | set(b)
    return sum((abs(a.get(k, Fraction(0)) - b.get(k, Fraction(0))) for k in keys),
               Fraction(0)) / 2


def error(h: Callable[[Hashable], int], law: Mapping[Any, Fraction]) -> Fraction:
    """err(h; D) = P_{(x,y)~D}[h(x) ≠ y] (exact)."""
    return sum((q for z, q in law.items() if h(point_of(z)) != label_of(z)), Fraction(0))


def exhaustion_probability(n_priv: int, n_tilde: int, p: Fraction) -> Fraction:
    """P[PrivSamp exhausts S̃ before slot n_priv] = P[Bin(n_priv − 1, p) ≥ ñ] (exact)."""
    check_int(n_priv, "n_priv", minimum=1)
    check_int(n_tilde, "n_tilde", minimum=1)
    rate = _check_rate(p)
    m = n_priv - 1
    num, den = rate.numerator, rate.denominator
    below = sum(math.comb(m, k) * num**k * (den - num)**(m - k)
                for k in range(min(n_tilde, m + 1)))
    return 1 - Fraction(below, den**m)
