"""The fast building blocks of the 002 predictors equal the reference computations exactly.

* ``agreements``: the cached count table (byte lookups over a Concept's mask) against the
  reference loop over all n examples, on random small datasets (repeats, ⊥ labels);
* the subset choice: Floyd's algorithm is exactly uniform (counted over every draw
  sequence), its exact law is the old lexicographic unranking's, and its sampler matches;
* the exact laws of the 002 predictors on tiny instances are unchanged when every fast block
  is swapped back for the reference one;
* ``predict_batch``'s per-query program path is exact in law.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privref.reference import exponential
from privref.reference.concepts import ConceptClass, explicit, intervals, thresholds_on
from privref.reference.data import BOTTOM
from privref.reference.errors import InvalidArgument, TooLargeToEnumerate, UnknownLabel
from privref.reference.learners import (
    flipped_average_predictor,
    generic_predictor,
    prediction_baselines,
    private_majority_predictor,
    private_predictor,
    relabel_prediction,
    relabel_predictor,
    stable_prediction,
    stable_predictor,
    subsample_predictor,
)
from privref.reference.prediction import Predictor
from privref.reference.program import (
    Program,
    Subset,
    distribution,
    floyd_subset,
    sample,
    subset,
    uniform,
)
from privref.reference.subsampling import unrank_combination
from privref.reference.validate import check_int

from ..stats import chi_square_pvalue, fits

CLASSES: tuple[ConceptClass, ...] = (
    thresholds_on(5), intervals(4),
    explicit(range(11), [[int((x * j) % 3 == 0) for x in range(11)] for j in range(6)],
             name="mod3 over 11 points"))


@st.composite
def class_and_data(draw: st.DrawFn) -> tuple[ConceptClass, tuple[Hashable, ...]]:
    """A class and a dataset over its domain: repeated points, labels 0, 1 and ⊥."""
    C = draw(st.sampled_from(CLASSES))
    points = C.domain.points
    examples = st.tuples(st.sampled_from(points), st.sampled_from((0, 1, BOTTOM)))
    return C, tuple(draw(st.lists(examples, max_size=40)))


@settings(max_examples=200, deadline=None)
@given(class_and_data())
def test_fast_agreements_equal_the_reference_loop(case: tuple[ConceptClass, Any]) -> None:
    """For every concept, the table-based count equals the one-pass loop exactly."""
    C, data = case
    for c in C:
        assert exponential.agreements(c, data) == exponential.reference_agreements(c, data)


@settings(max_examples=60, deadline=None)
@given(class_and_data(), st.integers(min_value=0, max_value=39))
def test_fast_agreements_fail_exactly_like_the_reference(case: tuple[ConceptClass, Any],
                                                         where: int) -> None:
    """A bad label or a point outside h's domain raises the same error as the reference loop."""
    C, data = case
    for bad in ((99, 1), (C.domain.points[0], 7)):
        broken = (*data[:where], bad, *data[where:])
        for c in list(C)[:3]:
            errors = []
            for fn in (exponential.agreements, exponential.reference_agreements):
                with pytest.raises((InvalidArgument, UnknownLabel)) as info:
                    fn(c, broken)
                errors.append((type(info.value), str(info.value)))
            assert errors[0] == errors[1]


def test_fast_agreements_use_the_table_of_the_same_object() -> None:
    """Equal-looking but different datasets never share a table (identity, not equality)."""
    C = thresholds_on(4)
    a = ((0, 1), (1, 1), (3, 0))
    b = ((0, 0), (1, 0), (3, 1))
    for c in C:
        assert exponential.agreements(c, a) + exponential.agreements(c, b) == 3
        assert exponential.agreements(c, a) == exponential.reference_agreements(c, a)


def test_non_concept_hypotheses_take_the_reference_loop() -> None:
    """A plain callable is evaluated per example, as before."""
    data = ((0, 1), (1, 0), (2, 1))
    assert exponential.agreements(lambda x: int(x != 1), data) == 3


# ---------------------------------------------------------------- the subset choice


@pytest.mark.parametrize(("n", "m"), [(n, m) for n in range(1, 7) for m in range(0, n + 1)])
def test_floyd_is_exactly_uniform_over_every_draw_sequence(n: int, m: int) -> None:
    """Over all ∏_i (n − m + i + 1) equally likely draw sequences, each m-subset appears exactly
    ∏/C(n, m) times (Floyd's algorithm is exactly uniform)."""
    ranges = [range(n - m + i + 1) for i in range(m)]
    counts: dict[tuple[int, ...], int] = {}
    for draws in itertools.product(*ranges):
        s = floyd_subset(n, m, draws)
        assert len(s) == m and list(s) == sorted(set(s)) and all(0 <= i < n for i in s)
        counts[s] = counts.get(s, 0) + 1
    total = math.prod(len(r) for r in ranges)
    assert set(counts) == set(itertools.combinations(range(n), m))
    assert set(counts.values()) == {total // math.comb(n, m)}
    assert total % math.comb(n, m) == 0


def _old_random_index_subset(n: int, m: int) -> Program[tuple[int, ...]]:
    """The previous definition: a uniform rank among C(n, m), unranked lexicographically."""
    check_int(n, "n", minimum=1)
    check_int(m, "m", minimum=1, maximum=n)
    rank = yield from uniform(math.comb(n, m))
    return unrank_combination(rank, n, m)


@pytest.mark.parametrize(("n", "m"), [(n, m) for n in range(1, 7) for m in range(1, n + 1)])
def test_subset_law_equals_the_old_unranking_law(n: int, m: int) -> None:
    """The exact law of random_index_subset is unchanged, item for item and in order."""
    new = distribution(stable_prediction.random_index_subset, n, m).items()
    old = distribution(_old_random_index_subset, n, m).items()
    assert sorted(new) == sorted(old)
    assert [s for s, _ in new] == [s for s, _ in sorted(new)]


def test_subset_sampler_matches_its_exact_law() -> None:
    """Chi-square of the Floyd sampler against the exact uniform law on C(6, 3) = 20 subsets."""
    law = distribution(subset, 6, 3)
    pvalue = chi_square_pvalue(law, lambda rng: sample(subset, 6, 3, rng=rng))
    assert fits(pvalue, "Floyd subset sampler, C(6, 3)"), pvalue


def test_subset_sampler_is_fast_and_valid_at_scale() -> None:
    """At n = 10^5, m = 10^4 a draw is a sorted tuple of distinct indices in range(n)."""
    rng = np.random.default_rng(7)
    s = Subset(100_000, 10_000).draw(rng)
    assert len(s) == 10_000 and len(set(s)) == 10_000 and list(s) == sorted(s)
    assert s[0] >= 0 and s[-1] < 100_000


def test_subset_enumeration_refuses_beyond_the_path_budget() -> None:
    """C(40, 20) subsets exceed the default path budget: refused at once, by name."""
    with pytest.raises(TooLargeToEnumerate, match=r"C\(40, 20\) subsets"):
        distribution(subset, 40, 20)
    with pytest.raises(InvalidArgument, match=r"m=5 must be"):
        distribution(subset, 4, 5)
    with pytest.raises(InvalidArgument, match=r"n=0 must be"):
        distribution(subset, 0, 0)


# ---------------------------------------------------------------- exact laws unchanged


def _predictors() -> list[Predictor]:
    C = thresholds_on(3)
    eps = "2*ln(3/2)"
    return [stable_predictor(C, 4, 2, eps), private_predictor(C, 4, 2, eps, Fraction(1, 4)),
            subsample_predictor(C, 4, 2), flipped_average_predictor(C, 4, 2, Fraction(1, 4)),
            private_majority_predictor(C, 4, 2, eps), generic_predictor(C, 4, eps),
            relabel_predictor(C, 4, 2, eps, 2, eps, Fraction(1, 4))]


DATA = ((0, 1), (2, 0), (1, 1), (0, 0))


def test_exact_laws_unchanged_with_the_reference_blocks(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    """Every predictor's exact law at every query equals its law with the slow blocks."""
    fast = [[p.law(DATA, x).as_dict() for x in range(3)] for p in _predictors()]
    for module in (exponential, stable_prediction, prediction_baselines):
        monkeypatch.setattr(module, "agreements", exponential.reference_agreements)
    for module in (stable_prediction, prediction_baselines, relabel_prediction):
        monkeypatch.setattr(module, "random_index_subset", _old_random_index_subset)
    slow = [[p.law(DATA, x).as_dict() for x in range(3)] for p in _predictors()]
    assert fast == slow
    assert all(isinstance(v, Fraction) for laws in fast for law in laws for v in law.values())


# ---------------------------------------------------------------- predict_batch program path


def test_predict_batch_program_path_is_exact_in_law() -> None:
    """law_max_paths=0 runs the program per query; chi-square against the exact p_S(x)."""
    predictor = _predictors()[0]
    law = predictor.law(DATA, 1)

    def draw(rng: np.random.Generator) -> int:
        return int(predictor.predict_batch(DATA, [1], rng, law_max_paths=0)[0])

    assert fits(chi_square_pvalue(law, draw, n=2000), "predict_batch program path (law_max_paths=0)")


def test_predict_batch_falls_back_to_the_program_at_scale() -> None:
    """n = 2000, m = 1000: the subsets cannot be enumerated, so every query runs the program."""
    C = thresholds_on(8)
    n = 2000
    data = tuple((i % 8, int(i % 8 < 3)) for i in range(n))
    predictor = stable_predictor(C, n, 1000, "1/2")
    out = predictor.predict_batch(data, [0, 5, 0, 7], np.random.default_rng(3))
    assert out.dtype == np.uint8 and set(out.tolist()) <= {0, 1}
    with pytest.raises(InvalidArgument, match="law_max_paths"):
        predictor.predict_batch(data, [0], np.random.default_rng(3), law_max_paths=-1)
