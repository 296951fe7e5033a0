"""GenericLearner (004/000 Algorithm 1) and the generic learner of Kasiviswanathan et al.

**KLNRS** (Kasiviswanathan, Lee, Nissim, Raskhodnikova, Smith 2011; cited as
[21], only "O(log |C|)" is stated): the exponential mechanism
(004 Algorithm 3) with H = C on the labeled sample.  Proper, ε-DP.

**GenericLearner** (004 Algorithm 1 = 000 Algorithm 1; the two versions are
identical, including the typo "c(j_1), …, c(j_ℓ)" in Step 4, read here as
c(b_1), …, c(b_ℓ)).  The input is **one database of n entries**: the first
n − m are the unlabeled database D, the last m the labeled database S.  The
split is the data-independent parameter ``m`` given at construction, so
neighbors (substitution of one entry anywhere, 000/004 Definition 2.1) keep D
and S in place.  Entries are pairs (x, y) with x a point of C's domain and
y ∈ {0, 1, ⊥}; the algorithm reads only the points of D (labels there are
ignored) and, in S, an entry labeled ⊥ agrees with no hypothesis (as in
:func:`privref.reference.exponential.agreements`), so the learner is defined, and
private, on every input.

1. D̃ ← an ε-private sanitization of D w.r.t. C^⊕ (pluggable
   :class:`~reference.learners.sanitizer.Sanitizer`, e.g. BLR).
2. B ← the set of points appearing in D̃.
3. H ← one concept per pattern of Π_C(B): the first concept of C in its
   canonical order realising it (:func:`privref.reference.vc.canonical_representatives`),
   a fixed function of the pattern.
4. Output h ∈ H by the exponential mechanism with ε on S.

Privacy (004 Theorem 3.3, first paragraph of its proof in Appendix C.1):
parallel composition.  A substitution inside D changes only the sanitizer's
input (Step 4 is post-processing given S), one inside S changes only the
exponential mechanism's input (D̃ has the same law), so with an (ε_s, δ_s)
sanitizer, ε_s <= ε, the learner is (ε, δ_s)-DP: ε-DP with BLR.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Final

from ..citations import cite
from ..concepts import Concept, ConceptClass
from ..data import Dataset, label_of
from ..errors import InvalidArgument
from ..exponential import agreements, exponential_learner, exponential_weights
from ..mechanism import Mechanism
from ..privacy import PrivacyClaim, parse_epsilon
from ..program import Categorical, Program, call, categorical_choice, choose, deterministic
from ..reals import Order, Real, compare
from ..validate import ExactInput, check_int
from ..vc import canonical_representatives, xor_class
from .base import Learner, as_learner
from .sanitizer import DEFAULT_MAX_CANDIDATES, SanitizedDatabase, Sanitizer, blr_sanitizer

__all__ = [
    "GENERIC_LEARNER_SOURCE",
    "generic_learner",
    "generic_learner_blr",
    "hypothesis_set",
    "klnrs_learner",
    "split_database",
]

GENERIC_LEARNER_SOURCE: Final = cite("004 Theorem 3.3")
"""Where GenericLearner's privacy claim is stated (proof in 004 Appendix C.1; 000 Theorem 3.3)."""


def klnrs_learner(concepts: ConceptClass, *, epsilon: Real | ExactInput) -> Learner[Concept]:
    """The generic learner of Kasiviswanathan et al.: 004 Algorithm 3 with H = C.

    Input: a labeled sample (entries (x, y); ⊥ entries never agree).  Proper;
    ε-DP under substitution (004 Proposition A.1 (i)).
    """
    if not isinstance(concepts, ConceptClass):
        raise InvalidArgument(f"concepts={concepts!r} must be a ConceptClass")
    mech = exponential_learner(concepts.concepts, epsilon=epsilon,
                               name=f"KLNRS generic learner on {concepts.name}")
    return as_learner(mech, concepts, proper=True)


def hypothesis_set(concepts: ConceptClass, sanitized: SanitizedDatabase) -> tuple[Concept, ...]:
    """H of 004 Algorithm 1, Steps 3–4: one canonical concept per pattern of Π_C(B).

    B is the set of points of ``sanitized``; the representative of a pattern
    is the first concept of C (canonical order) realising it, so H depends on
    the set B only.  |H| = |Π_C(B)| <= 2^|B|.
    """
    points = tuple(dict.fromkeys(sanitized))
    return canonical_representatives(concepts, points)


def split_database(concepts: ConceptClass, m: int, data: Dataset) -> tuple[Dataset, Dataset]:
    """(points of D, S): the first len(data) − m entries give D's points, the last m are S.

    Every entry must be a pair (x, y) with x in the domain and y ∈ {0, 1, ⊥}
    (UnknownLabel / InvalidArgument name the entry); D must be non-empty.
    """
    m = check_int(m, "m", minimum=0)
    if not isinstance(data, tuple):
        raise InvalidArgument(f"data={data!r} must be a tuple of (x, y) entries")
    if len(data) < m + 1:
        raise InvalidArgument(f"data has {len(data)} entries; it must hold at least m+1={m + 1} "
                              "(n − m >= 1 unlabeled entries, then m labeled entries)")
    points: list[Hashable] = []
    for i, entry in enumerate(data):
        label_of(entry)                         # raises UnknownLabel unless a pair (x, y)
        assert isinstance(entry, tuple)
        concepts.domain.position(entry[0], f"data[{i}][0]")
        points.append(entry[0])
    cut = len(data) - m
    return tuple(points[:cut]), data[cut:]


def generic_learner(concepts: ConceptClass, *, m: int, epsilon: Real | ExactInput, sanitizer: Sanitizer,
                    name: str | None = None) -> Learner[Concept]:
    """GenericLearner (004/000 Algorithm 1) with a pluggable sanitizer for C^⊕; see the module docstring.

    Preconditions (checked): ``sanitizer`` is over C's domain, answers every
    query of C^⊕, and claims ε_s <= ``epsilon`` (provably).  Guarantee:
    (ε, δ_s)-DP under substitution of one entry anywhere in the n-entry
    database (004 Theorem 3.3's proof: parallel composition), proper (every
    output is a concept of C).  Ledger: ``004 Theorem 3.3``, ``000 Theorem 3.3``.
    """
    if not isinstance(concepts, ConceptClass):
        raise InvalidArgument(f"concepts={concepts!r} must be a ConceptClass")
    if not isinstance(sanitizer, Sanitizer):
        raise InvalidArgument(f"sanitizer={sanitizer!r} must be a reference.learners.Sanitizer")
    m = check_int(m, "m", minimum=0)
    eps = parse_epsilon(epsilon)
    if sanitizer.queries.domain != concepts.domain:
        raise InvalidArgument(f"sanitizer={sanitizer.name!r} must be over the domain of "
                              f"{concepts.name}")
    missing = set(xor_class(concepts).masks) - set(sanitizer.queries.masks)
    if missing:
        raise InvalidArgument(f"sanitizer={sanitizer.name!r} must answer every query of "
                              f"{concepts.name}^⊕; {len(missing)} are missing")
    _check_budget(sanitizer.claim.epsilon, eps)
    claim = PrivacyClaim(eps, sanitizer.claim.delta)
    label = name or f"GenericLearner on {concepts.name} ({sanitizer.name}, m={m})"
    mech = Mechanism(label, _generic_program(concepts, m, eps, sanitizer), claim,
                     GENERIC_LEARNER_SOURCE,
                     description=f"004 Algorithm 1: sanitize the first n-m entries with "
                                 f"{sanitizer.name}, then the exponential mechanism "
                                 f"(eps={eps}) on the last m={m}")
    return as_learner(mech, concepts, proper=True)


def generic_learner_blr(concepts: ConceptClass, *, m: int, k: int, epsilon: Real | ExactInput,
                        limit: int = DEFAULT_MAX_CANDIDATES) -> Learner[Concept]:
    """GenericLearner with the BLR sanitizer for C^⊕ of output size k, both at ``epsilon``.

    Guarantee: ε-DP under substitution, proper (004/000 Theorem 3.3).  Exact
    probabilities when e^{ε/(2k)} is rational (then e^{ε/2} is too), e.g.
    ``epsilon = 2k·ln r``.  Raises TooLargeToEnumerate for too many candidates.
    """
    if not isinstance(concepts, ConceptClass):
        raise InvalidArgument(f"concepts={concepts!r} must be a ConceptClass")
    eps = parse_epsilon(epsilon)
    san = blr_sanitizer(xor_class(concepts), k=k, epsilon=eps, limit=limit)
    return generic_learner(concepts, m=m, epsilon=eps, sanitizer=san,
                           name=f"GenericLearner on {concepts.name} (BLR k={k}, m={m})")


# ------------------------------------------------------------------ internals


def _check_budget(sanitizer_eps: Real, eps: Real) -> None:
    order, _ = compare(sanitizer_eps, eps)
    if order in (Order.LESS, Order.EQUAL) or (order is Order.UNDECIDED
                                              and str(sanitizer_eps) == str(eps)):
        return
    raise InvalidArgument(f"sanitizer epsilon={sanitizer_eps} must be <= epsilon={eps} "
                          "(004 Algorithm 1, Step 2 uses an epsilon-private sanitization)")


def _selection(concepts: ConceptClass, epsilon: Real, sanitized: SanitizedDatabase,
               sample: Dataset) -> tuple[Categorical, tuple[Concept, ...]]:
    """Steps 3–5: H from D̃, then the exponential mechanism's choice over H on S."""
    hyps = hypothesis_set(concepts, sanitized)
    scores = [agreements(h, sample) for h in hyps]
    return categorical_choice(exponential_weights(scores, epsilon=epsilon)), hyps


def _generic_program(concepts: ConceptClass, m: int, epsilon: Real, sanitizer: Sanitizer
                     ) -> Callable[[Dataset], Program[Concept]]:
    sanitize = sanitizer.mechanism.program

    def program(data: Dataset) -> Program[Concept]:
        points, sample = yield from deterministic(split_database, concepts, m, data)
        sanitized = yield from call(sanitize, points)          # Step 2 reads D only
        choice, hyps = yield from deterministic(_selection, concepts, epsilon, sanitized, sample)
        index = yield from choose(choice)                       # Step 5 reads S only
        return hyps[index]
    return program

