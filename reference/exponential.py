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
from fractions import Fraction
from typing import Final, TypeVar

from .citations import Source, cite
from .data import BOTTOM, Dataset, label_of, point_of
from .errors import InvalidArgument
from .mechanism import Mechanism
from .privacy import PrivacyClaim, parse_epsilon
from .program import Categorical, Program, categorical_choice, choose, deterministic
from .reals import Real, exp
from .validate import check_int

__all__ = [
    "agreements",
    "count_score",
    "exponential_learner",
    "exponential_mechanism",
    "exponential_weights",
]

OutT = TypeVar("OutT", bound=Hashable)

EXPONENTIAL_SOURCE: Final = cite("004 Proposition A.1")
"""Where the exponential mechanism's epsilon-DP is stated (004 Proposition A.1 (i))."""


def agreements(h: Callable[[Hashable], int], data: Dataset) -> int:
    """q(S, h) = |{i : h(x_i) = y_i}| over the labeled entries of S (004 Algorithm 3, step 1).

    Entries labeled ⊥ do not count; any other label raises UnknownLabel.
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
    return tuple(exp(epsilon * Fraction(q - top, 2 * sensitivity)) for q in scores)


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
                          epsilon: object, sensitivity: int = 1, name: str = "exponential",
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


def exponential_learner(hypotheses: Sequence[OutT], *, epsilon: object,
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


