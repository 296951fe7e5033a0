"""Tests of the interval branch-and-bound prover and the series helpers (proofs.bnb)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from privref.proofs import Verdict
from privref.proofs.bnb import (
    BnbResult,
    enclose_series,
    interval_pow,
    mean_value_form,
    power_series_tail,
    prove_nonnegative,
    prove_positive,
)
from privref.reference.errors import InvalidArgument
from privref.reference.reals import Interval, interval_exp

F = Fraction
UNIT = ((F(0), F(1)),)


def _parabola(xs: tuple[Interval, ...]) -> Interval:
    """x^2 - x + 1/4 + 1/100, minimum exactly 1/100 at x = 1/2."""
    x = xs[0]
    return x * x - x + F(1, 4) + F(1, 100)


def test_proves_a_true_inequality() -> None:
    res = prove_nonnegative(_parabola, ((F(-1), F(2)),))
    assert res.verdict is Verdict.HOLDS
    assert res.lower_bound is not None
    assert 0 <= res.lower_bound <= F(1, 100)  # a lower bound of the true minimum
    assert res.boxes > 1 and res.witness is None
    assert "HOLDS" in res.summary()


def test_proves_a_true_two_dimensional_inequality() -> None:
    def f(xs: tuple[Interval, ...]) -> Interval:
        x, y = xs
        return x * x + y * y - x * y + F(1, 1000)  # min 1/1000 at the origin

    res = prove_positive(f, ((F(-1), F(1)), (F(-1), F(1))), max_boxes=20000)
    assert res.verdict is Verdict.HOLDS
    assert res.lower_bound is not None and 0 < res.lower_bound <= F(1, 1000)


def test_bisection_does_not_depend_on_units() -> None:
    def f(xs: tuple[Interval, ...]) -> Interval:
        x, y = xs
        return x * x + y * y - x * y + F(1, 100)

    def g(xs: tuple[Interval, ...]) -> Interval:
        return f((xs[0], xs[1] / 1000))

    a = prove_positive(f, ((F(-1), F(1)), (F(-1), F(1))))
    b = prove_positive(g, ((F(-1), F(1)), (F(-1000), F(1000))))
    assert a.verdict is b.verdict is Verdict.HOLDS
    assert a.boxes == b.boxes


def test_finds_a_witness_for_a_false_inequality() -> None:
    res = prove_nonnegative(lambda xs: xs[0] * xs[0] - 2, ((F(0), F(2)),))
    assert res.verdict is Verdict.VIOLATED
    assert res.witness is not None and res.witness_enclosure is not None
    (w,) = res.witness
    assert w * w < 2  # the witness is an exact counterexample
    assert res.witness_enclosure.hi < 0


def test_finds_an_interior_witness() -> None:
    # negative only on a small interior interval around 3/7
    res = prove_nonnegative(lambda xs: (xs[0] - F(3, 7)) * (xs[0] - F(3, 7)) - F(1, 10**4), UNIT)
    assert res.verdict is Verdict.VIOLATED
    assert res.witness is not None
    assert (res.witness[0] - F(3, 7)) ** 2 < F(1, 10**4)


def test_strict_variant_refutes_a_zero() -> None:
    identity = lambda xs: xs[0]  # noqa: E731
    assert prove_nonnegative(identity, UNIT).verdict is Verdict.HOLDS
    res = prove_positive(identity, UNIT)
    assert res.verdict is Verdict.VIOLATED
    assert res.witness == (F(0),)


def test_tight_equality_is_undecided_within_budget() -> None:
    res = prove_nonnegative(lambda xs: xs[0] - xs[0], UNIT, max_boxes=50)
    assert res.verdict is Verdict.UNDECIDED
    assert res.boxes <= 50
    assert res.worst_box is not None and res.worst_enclosure is not None
    assert res.worst_enclosure.lo < 0 <= res.worst_enclosure.hi
    assert "UNDECIDED" in res.summary()


def test_deterministic() -> None:
    runs = [prove_nonnegative(_parabola, ((F(-1), F(2)),)) for _ in range(2)]
    assert runs[0] == runs[1]
    assert isinstance(runs[0], BnbResult)


@pytest.mark.parametrize(
    ("box", "error"),
    [
        (((float("nan"), 1),), InvalidArgument),
        (((F(1), F(0)),), InvalidArgument),
        ((), InvalidArgument),
        (((F(0),),), InvalidArgument),
        ((("0", "1"),), InvalidArgument),
    ],
)
def test_rejects_bad_boxes(box: object, error: type[Exception]) -> None:
    with pytest.raises(error):
        prove_nonnegative(_parabola, box)  # type: ignore[arg-type]


def test_rejects_bad_budget_precision_and_enclosure() -> None:
    with pytest.raises(InvalidArgument, match="max_boxes=0"):
        prove_nonnegative(_parabola, UNIT, max_boxes=0)
    with pytest.raises(InvalidArgument, match="prec=2"):
        prove_nonnegative(_parabola, UNIT, prec=2)
    with pytest.raises(InvalidArgument, match="must return an Interval"):
        prove_nonnegative(lambda xs: F(1), UNIT)  # type: ignore[arg-type,return-value]


def test_interval_pow_is_exact_on_rational_endpoints() -> None:
    assert interval_pow(Interval(F(1, 2), F(3)), 3) == Interval(F(1, 8), F(27))
    assert interval_pow(Interval(F(-2), F(-1)), 2) == Interval(F(1), F(4))
    assert interval_pow(Interval(F(-2), F(1)), 2) == Interval(F(0), F(4))
    assert interval_pow(Interval(F(-2), F(1)), 3) == Interval(F(-8), F(1))
    assert interval_pow(Interval(F(-2), F(1)), 0) == Interval.point(1)
    with pytest.raises(InvalidArgument):
        interval_pow(Interval.point(2), -1)


def test_power_series_tail_dominates_exact_partial_tails() -> None:
    for c, k, big_l in ((F(1), 0, 3), (F(3), 1, 8), (F(8), 2, 30)):
        bound = power_series_tail(c, k, big_l)
        partial = sum(F(ell) ** k * (c / ell) ** ell for ell in range(big_l + 1, big_l + 60))
        assert bound.lo == 0 and partial <= bound.hi


def test_power_series_tail_needs_a_contracting_ratio() -> None:
    with pytest.raises(InvalidArgument, match="too small"):
        power_series_tail(F(10), 0, 5)
    with pytest.raises(InvalidArgument):
        power_series_tail(F(0), 0, 5)


def test_enclose_series_is_exact_for_a_geometric_series() -> None:
    # Σ_{ℓ>=0} 2^-ℓ = 2; the remainder after L is exactly 2^-L.
    big_l = 30
    total = enclose_series(lambda ell: Interval.point(F(1, 2**ell)), big_l,
                           Interval.point(F(1, 2**big_l)))
    assert total == Interval.point(2)
    with pytest.raises(InvalidArgument):
        enclose_series(lambda ell: Interval.point(1), 2, Interval.point(0), start=3)


def test_mean_value_form_encloses_and_tightens() -> None:
    def f(xs: tuple[Interval, ...]) -> Interval:
        return interval_exp(xs[0]) - xs[0]

    def grad(xs: tuple[Interval, ...]) -> tuple[Interval, ...]:
        return (interval_exp(xs[0]) - 1,)

    mv = mean_value_form(f, grad)
    box = (Interval(F(-1, 100), F(1, 100)),)
    enc = mv(box)
    for x in (F(-1, 100), F(0), F(1, 200), F(1, 100)):
        value = f((Interval.point(x),))
        assert enc.lo <= value.lo and value.hi <= enc.hi
    assert enc.width < f(box).width
    with pytest.raises(InvalidArgument, match="components"):
        mean_value_form(f, lambda xs: ())(box)
