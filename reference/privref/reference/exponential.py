"""The exponential mechanism of the papers, exact for every epsilon.

004 Algorithm 3 / 000 Algorithm 5 (McSherry and Talwar 2007): given a finite
hypothesis class H and a labeled sample S, output h with probability
proportional to exp(epsilon·q(S, h)/2), where q(S, h) = |{i : h(x_i) = y_i}|
counts agreements (sensitivity 1 under substitution).

Privacy claim (004 Proposition A.1 (i)): epsilon-DP.  One function serves
every epsilon: given symbolically as ``epsilon="2*ln(r)"`` (or the Real
``log(r) * 2``), e^{epsilon/2} = r is rational, the weights are the exact
rationals r^{q - q_max} and every probability is an exact rational, so audits
are decided exactly; otherwise (e.g. epsilon = 1) probabilities are rigorous
interval enclosures.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Final, TypeVar

from .citations import Source, cite
from .concepts import Concept, Domain
from .data import BOTTOM, Dataset, label_of, point_of
from .errors import InvalidArgument, UnknownLabel
from .mechanism import Mechanism
from .privacy import PrivacyClaim, parse_epsilon
from .program import Categorical, Program, categorical_choice, choose, deterministic
from .reals import Real, exp
from .validate import ExactInput, check_int

__all__ = [
    "LabelCounts",
    "agreements",
    "count_score",
    "exponential_learner",
    "exponential_mechanism",
    "exponential_weights",
    "label_counts",
    "reference_agreements",
]

OutT = TypeVar("OutT", bound=Hashable)

EXPONENTIAL_SOURCE: Final = cite("004 Proposition A.1")
"""Where the exponential mechanism's epsilon-DP is stated (004 Proposition A.1 (i))."""


_CACHE_SIZE: Final = 8
"""How many datasets' count tables :func:`label_counts` keeps (most recent first)."""


@dataclass(frozen=True, slots=True)
class LabelCounts:
    """The count table of a dataset: for each labeled point, how often it carries 0 and 1.

    ``points`` lists the distinct points of the labeled entries in order of first occurrence;
    ``zeros[i]`` and ``ones[i]`` count the entries (points[i], 0) and (points[i], 1).  A
    deterministic function of S (entries labeled ⊥ are left out).
    """

    points: tuple[Hashable, ...]
    zeros: tuple[int, ...]
    ones: tuple[int, ...]
    by_domain: dict[Domain, tuple[int, tuple[dict[int, int], ...]] | None] = field(
        default_factory=dict, compare=False, repr=False)


def _count_table(data: Dataset) -> LabelCounts | None:
    counts: dict[Hashable, list[int]] = {}
    for example in data:
        try:
            y = label_of(example)
        except UnknownLabel:
            return None                      # the reference loop raises it, in order
        if y is not BOTTOM:
            counts.setdefault(point_of(example), [0, 0])[y] += 1
    return LabelCounts(tuple(counts), tuple(c[0] for c in counts.values()),
                       tuple(c[1] for c in counts.values()))


def label_counts(data: Dataset, cache: list[tuple[Dataset, LabelCounts | None]]
                 ) -> LabelCounts | None:
    """The :class:`LabelCounts` of ``data`` (None when some label is invalid), memoized by identity.

    ``cache`` holds the last few (dataset, table) pairs; a hit requires the very same tuple
    object (``is``), so a cached table is always the table of the dataset it is returned for.
    """
    for i, (seen, table) in enumerate(cache):
        if seen is data:
            if i:
                cache.insert(0, cache.pop(i))
            return table
    table = _count_table(data)
    cache.insert(0, (data, table))
    del cache[_CACHE_SIZE:]
    return table


def _byte_tables(table: LabelCounts, domain: Domain) -> tuple[int, tuple[dict[int, int], ...]] | None:
    """(Σ zeros, per 8-bit chunk of the domain: byte value -> Σ (ones − zeros) over its set bits)."""
    diff: dict[int, int] = {}
    for x, zeros, ones in zip(table.points, table.zeros, table.ones, strict=True):
        if x not in domain:
            return None                      # h(x) raises; the reference loop says where
        position = domain.position(x)
        diff[position] = diff.get(position, 0) + ones - zeros
    chunks: list[dict[int, int]] = []
    for start in range(0, len(domain), 8):
        bits = [diff.get(start + b, 0) for b in range(8)]
        chunk = {0: 0}
        for byte in range(1, 256):
            low = byte & -byte
            chunk[byte] = chunk[byte ^ low] + bits[low.bit_length() - 1]
        chunks.append(chunk)
    return sum(table.zeros), tuple(chunks)


_TABLES: list[tuple[Dataset, LabelCounts | None]] = []


def agreements(h: Callable[[Hashable], int], data: Dataset) -> int:
    """q(S, h) = |{i : h(x_i) = y_i}| over the labeled entries of S (004 Algorithm 3, step 1).

    Entries labeled ⊥ do not count; any other label raises UnknownLabel.
    Fast path, exactly equal in value: for a :class:`~privref.reference.concepts.Concept` h the
    count is read off the dataset's :class:`LabelCounts` (cached per dataset object) as
    Σ zeros + Σ_{x : h(x) = 1} (ones(x) − zeros(x)), summed a byte of h's mask at a time from
    precomputed tables, so each call costs O(|domain|/8) instead of O(n).  Every other h,
    and every dataset with an invalid label or a point outside h's domain, takes the
    reference loop below, which raises exactly as before.
    """
    if isinstance(h, Concept):
        table = label_counts(data, _TABLES)
        if table is not None:
            if h.domain not in table.by_domain:
                table.by_domain[h.domain] = _byte_tables(table, h.domain)
            tables = table.by_domain[h.domain]
            if tables is not None:
                total, chunks = tables
                mask = h.mask
                for chunk in chunks:
                    total += chunk[mask & 255]
                    mask >>= 8
                return total
    return reference_agreements(h, data)


def reference_agreements(h: Callable[[Hashable], int], data: Dataset) -> int:
    """The reference loop for :func:`agreements`: one pass over S calling h on every labeled x.

    Source: 004 Algorithm 3, step 1.  The fast path of :func:`agreements` must equal it exactly
    (property-tested).
    """
    count = 0
    for example in data:
        y = label_of(example)
        if y is not BOTTOM and h(point_of(example)) == y:
            count += 1
    return count


def count_score(data: Dataset, output: object) -> int:
    """-|output - (number of ones in data)|: releasing a count of 0/1 entries, sensitivity 1."""
    if isinstance(output, bool) or not isinstance(output, int):
        raise InvalidArgument(f"output={output!r} must be an int count")
    ones = 0
    for x in data:
        if x not in (0, 1):
            raise InvalidArgument(f"entry {x!r} must be 0 or 1 for a count")
        ones += x == 1
    return -abs(output - ones)


def exponential_weights(scores: Sequence[int], *, epsilon: Real, sensitivity: int = 1
                        ) -> tuple[Real, ...]:
    """Weights exp(epsilon·(q - q_max)/(2·sensitivity)), proportional to the papers' exp(epsilon·q/2).

    Shifting by q_max changes no probability and keeps the numbers small.
    The exact rational path is taken exactly when each exponent
    epsilon·(q - q_max)/(2·sensitivity) is an integer multiple k of ln r, r
    rational, as :func:`privref.reference.reals.exp` detects symbolically
    (exp(ln(r)·k) = r^k): for ``epsilon = 2 ln r`` (``"2*ln(r)"``) and
    sensitivity 1 every weight is the rational r^{q - q_max}.
    """
    top = max(scores)
    return tuple(_weight(epsilon, q - top, sensitivity) for q in scores)


@lru_cache(maxsize=1 << 14)
def _weight(epsilon: Real, shift: int, sensitivity: int) -> Real:
    """exp(epsilon·shift/(2·sensitivity)), one Real per (epsilon object, shift, sensitivity): the
    equal weights of one mechanism's laws share one value, hence one enclosure cache (the laws'
    items are unchanged: the same expression, enclosed once instead of once per output)."""
    return exp(epsilon * Fraction(shift, 2 * sensitivity))


def _selection(outputs: tuple[OutT, ...], score: Callable[[Dataset, OutT], int], epsilon: Real,
               sensitivity: int, data: Dataset) -> Categorical:
    weights = exponential_weights([score(data, o) for o in outputs],
                                  epsilon=epsilon, sensitivity=sensitivity)
    return categorical_choice(weights)


def _select(outputs: tuple[OutT, ...], score: Callable[[Dataset, OutT], int], epsilon: Real,
            sensitivity: int) -> Callable[[Dataset], Program[OutT]]:
    def program(data: Dataset) -> Program[OutT]:
        # scores and weights are computed once per exact interpretation, not once per path
        choice = yield from deterministic(_selection, outputs, score, epsilon, sensitivity, data)
        index = yield from choose(choice)
        return outputs[index]
    return program


def exponential_mechanism(outputs: Sequence[OutT], score: Callable[[Dataset, OutT], int], *,
                          epsilon: Real | ExactInput, sensitivity: int = 1, name: str = "exponential",
                          source: Source = EXPONENTIAL_SOURCE) -> Mechanism[OutT]:
    """Select o with probability ∝ exp(epsilon·score(D, o)/(2·sensitivity)).

    Precondition (caller-checked): ``score`` has the stated sensitivity under
    substitution.  Guarantee: epsilon-DP (004 Proposition A.1 (i)).
    """
    eps = parse_epsilon(epsilon)
    check_int(sensitivity, "sensitivity", minimum=1)
    outs = tuple(outputs)
    if not outs:
        raise InvalidArgument("outputs=() must hold at least one candidate")
    return Mechanism(name, _select(outs, score, eps, sensitivity), PrivacyClaim(eps), source,
                     order_invariant=True,
                     description=f"exponential mechanism over {len(outs)} outputs, eps={eps}")


def exponential_learner(hypotheses: Sequence[OutT], *, epsilon: Real | ExactInput,
                        name: str = "exponential mechanism (learner)") -> Mechanism[OutT]:
    """004 Algorithm 3 / 000 Algorithm 5: choose h ∈ H with probability ∝ exp(epsilon·q(S,h)/2).

    Input: a labeled (or partially labeled) sample S; q counts agreements.
    Guarantee: epsilon-DP under substitution (004 Proposition A.1 (i)); with
    H = C this is the generic learner of Kasiviswanathan et al. (proper).
    """
    return exponential_mechanism(hypotheses, _agreement_score, epsilon=epsilon, name=name)


def _agreement_score(data: Dataset, h: object) -> int:
    if not callable(h):
        raise InvalidArgument(f"hypothesis {h!r} must be callable on points")
    return agreements(h, data)


