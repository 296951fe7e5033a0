"""The exponential mechanism, in the papers' form and in an exact rational-base form.

004 Algorithm 3 / 000 Algorithm 5 (McSherry and Talwar 2007): given a finite
hypothesis class H and a labeled sample S, output h with probability
proportional to exp(epsilon·q(S, h)/2), where q(S, h) = |{i : h(x_i) = y_i}|
counts agreements (sensitivity 1 under substitution).

Privacy claim (004 Proposition A.1 (i)): epsilon-DP.  With a rational base
r = e^{epsilon/2} (i.e. epsilon = 2 ln r) every probability is an exact
rational, so audits are decided exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import TypeVar

from .data import BOTTOM, Dataset, label_of, point_of
from .errors import InvalidArgument
from .mechanism import Mechanism
from .privacy import PrivacyClaim, parse_epsilon
from .program import Categorical, Program, categorical_choice, choose, deterministic
from .reals import Real, exp, log
from .validate import check_int, to_fraction

__all__ = [
    "agreements",
    "count_score",
    "exponential_learner",
    "exponential_learner_rational",
    "exponential_mechanism",
    "exponential_mechanism_rational",
    "exponential_weights",
]

OutT = TypeVar("OutT", bound=Hashable)


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
    Exact rationals whenever e^{epsilon/(2·sensitivity)} is rational.
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
                          source: str = "004 Proposition A.1") -> Mechanism[OutT]:
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


def exponential_mechanism_rational(outputs: Sequence[OutT], score: Callable[[Dataset, OutT], int], *,
                                   base: object, sensitivity: int = 1,
                                   name: str = "exponential (rational base)",
                                   source: str = "004 Proposition A.1") -> Mechanism[OutT]:
    """The exponential mechanism with rational base r = e^{epsilon/2} > 1: weights r^{score/sensitivity}.

    Exactly the papers' mechanism at epsilon = 2 ln r, with every probability
    an exact rational.  Guarantee: (2 ln r)-DP (004 Proposition A.1 (i)).
    """
    r = to_fraction(base, "base")
    if r <= 1:
        raise InvalidArgument(f"base={r} must be > 1 (base = e^(epsilon/2))")
    return exponential_mechanism(outputs, score, epsilon=log(r) * 2, sensitivity=sensitivity,
                                 name=name, source=source)


def exponential_learner(hypotheses: Sequence[OutT], *, epsilon: object,
                        name: str = "exponential mechanism (learner)") -> Mechanism[OutT]:
    """004 Algorithm 3 / 000 Algorithm 5: choose h ∈ H with probability ∝ exp(epsilon·q(S,h)/2).

    Input: a labeled (or partially labeled) sample S; q counts agreements.
    Guarantee: epsilon-DP under substitution (004 Proposition A.1 (i)); with
    H = C this is the generic learner of Kasiviswanathan et al. (proper).
    """
    return exponential_mechanism(hypotheses, _agreement_score, epsilon=epsilon, name=name)


def exponential_learner_rational(hypotheses: Sequence[OutT], *, base: object,
                                 name: str = "exponential mechanism (learner, rational base)"
                                 ) -> Mechanism[OutT]:
    """004 Algorithm 3 with e^{epsilon/2} = base rational: exact probabilities, (2 ln base)-DP."""
    return exponential_mechanism_rational(hypotheses, _agreement_score, base=base, name=name)


def _agreement_score(data: Dataset, h: object) -> int:
    if not callable(h):
        raise InvalidArgument(f"hypothesis {h!r} must be callable on points")
    return agreements(h, data)


