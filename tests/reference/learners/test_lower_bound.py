"""The lower-bound experiment of 004 Theorem C.12 / 000 Theorem 5.6, exactly on tiny d and n."""

from __future__ import annotations

from fractions import Fraction
from typing import cast

import pytest

from privref.reference.concepts import thresholds
from privref.reference.data import Dataset
from privref.reference.errors import InvalidArgument, TooLargeToEnumerate
from privref.reference.learners.lower_bound import (
    PRINTED_FAILURE_BOUND,
    b_positions,
    conditioned_product,
    expected_b,
    failure_bound,
    failure_probability,
    hard_distribution,
    hard_sample,
    implied_label_lower_bound,
    min_failure_all_hypotheses,
    min_failure_thresholds,
    swap_distribution,
    swap_entries,
    threshold_range,
    wlog_sample_size,
)
from privref.reference.program import Program, call, distribution, uniform
from privref.reference.reals import Order, compare, exp

F = Fraction


def test_threshold_ranges_of_both_versions() -> None:
    assert threshold_range(6, F(1, 8)) == tuple(range(1, 65))
    assert threshold_range(3, F(1, 16)) == (1, 2, 3, 4)
    assert threshold_range(4, F(1, 8), version="004", n=4) == (0, 1, 2, 3, 4)
    with pytest.raises(InvalidArgument, match="alpha=1/4 must be <= 1/8"):
        threshold_range(3, F(1, 4))
    with pytest.raises(InvalidArgument, match="8·alpha·2\\^d = 3/4 must be an integer"):
        threshold_range(1, F(3, 64))
    with pytest.raises(InvalidArgument, match="needs n"):
        threshold_range(3, F(1, 8), version="004")
    assert threshold_range(3, 0.125) == threshold_range(3, F(1, 8))  # 0.125 is exactly 1/8


def test_hard_distribution_is_normalized_and_threshold_labeled() -> None:
    B = threshold_range(2, F(1, 8))
    law = hard_distribution(2, 3, B)
    assert law.total() == 1
    for sample, _ in law.items():
        examples = cast("tuple[tuple[int, int], ...]", sample)
        assert any(all(y == (1 if x < t else 0) for x, y in examples) for t in B)


@pytest.mark.parametrize(("d", "n", "alpha", "version"), [
    (1, 5, F(1, 8), "000"), (2, 4, F(1, 16), "000"), (2, 4, F(1, 8), "004")])
def test_swap_is_exactly_exchangeable(d: int, n: int, alpha: Fraction, version: str) -> None:
    B = threshold_range(d, alpha, version=version, n=n)  # type: ignore[arg-type]
    swapped = swap_distribution(d, n, B)
    assert swapped == conditioned_product(d, n, B)
    assert sum(swapped.values()) == 1


def test_a_biased_choice_of_x_star_breaks_exchangeability() -> None:
    def first_in_b(d: int, n: int, B: tuple[int, ...]) -> Program[tuple[Dataset, int] | None]:
        sample: Dataset = yield from call(hard_sample, d, n, B)
        inside = b_positions(sample, B)
        if not inside:
            return None
        hat = yield from uniform(n)
        return swap_entries(sample, inside[0], hat), inside[0]

    B = threshold_range(1, F(1, 8))
    law = {o: p for o, p in distribution(first_in_b, 1, 4, B).items() if o is not None}
    total = sum(p for p in law.values() if isinstance(p, Fraction))
    normalized = {o: p / total for o, p in law.items() if isinstance(p, Fraction)}
    assert normalized != conditioned_product(1, 4, B)


def test_three_quarters_is_off_by_one_over_b() -> None:
    B = threshold_range(6, F(1, 8))
    best, s = min_failure_thresholds(6, F(1, 8), B)
    assert best == F(47, 64) == failure_bound(6, F(1, 8), B) == PRINTED_FAILURE_BOUND - F(1, 64)
    assert failure_probability(6, F(1, 8), thresholds(6)[s], B) == best
    assert failure_bound(6, F(1, 16), threshold_range(6, F(1, 16))) == F(23, 32)


@pytest.mark.parametrize(("d", "alpha", "expected"), [
    (3, F(1, 8), F(5, 8)), (3, F(1, 16), F(3, 4)), (3, F(1, 32), F(1, 2)), (2, F(1, 8), F(3, 4))])
def test_improper_hypotheses_do_no_better(d: int, alpha: Fraction, expected: Fraction) -> None:
    B = threshold_range(d, alpha)
    assert min_failure_all_hypotheses(d, alpha, B) == expected == failure_bound(d, alpha, B)


def test_004_threshold_set_can_be_learned_without_queries() -> None:
    B = threshold_range(4, F(1, 8), version="004", n=4)
    assert failure_probability(4, F(1, 8), thresholds(4)[2], B) == 0


def test_failure_arguments_are_validated() -> None:
    with pytest.raises(TooLargeToEnumerate, match="d=5 must be <= 4"):
        min_failure_all_hypotheses(5, F(1, 8), threshold_range(5, F(1, 8)))
    with pytest.raises(InvalidArgument, match="hypothesis=16 must be <= 15"):
        failure_probability(2, F(1, 8), 16, (1, 2))
    with pytest.raises(InvalidArgument, match="must be a concept over X_d"):
        failure_probability(1, F(1, 8), thresholds(2)[0], (1, 2))
    with pytest.raises(InvalidArgument, match="must be consecutive"):
        failure_bound(3, F(1, 8), (1, 3))
    with pytest.raises(InvalidArgument, match="must be distinct"):
        failure_probability(2, F(1, 8), 0, (1, 1))


def test_expected_b_under_both_threshold_sets() -> None:
    assert expected_b(6, 1000, threshold_range(6, F(1, 16))) == 500  # 8αn
    assert expected_b(20, 22181, threshold_range(20, F(1, 8), version="004", n=22181)) == F(
        22181 * 22182, 2**20)


def test_implied_lower_bound_is_exact_and_can_be_vacuous() -> None:
    bound = implied_label_lower_bound(F(1, 16), F(1, 4), 1, 0, 100)
    target = exp(-2) * (F(11, 36) * 16 / 9)
    assert compare(bound, target)[0] in (Order.EQUAL,) or abs(
        (bound - target).enclose().hi) < F(1, 10**25)
    assert compare(implied_label_lower_bound(F(1, 16), F(1, 2), 1, 0, 100, version="004"),
                   0)[0] is Order.LESS
    assert compare(implied_label_lower_bound(F(1, 16), F(1, 4), 1, F(1, 1000), 106468),
                   0)[0] is Order.LESS
    with pytest.raises(InvalidArgument, match="version='001'"):
        implied_label_lower_bound(F(1, 16), F(1, 4), 1, 0, 1, version="001")  # type: ignore[arg-type]


def test_wlog_sample_size() -> None:
    box = wlog_sample_size(F(1, 8), F(1, 4)).enclose()
    assert F(22180, 1) < box.lo and box.hi < F(22181, 1)        # 6400·ln 32 ≈ 22180.7
