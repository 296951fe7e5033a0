"""The zoo's finite-outcome continuous mechanisms as core programs (validation.zoo_exact,
zoo_selection.noisy_max_mechanism, zoo_svt.svt_mechanism): their laws are the zoo's laws, and
the exact auditor's loss over each entry's pairs is the lower end of its true ε."""

from __future__ import annotations

from fractions import Fraction

import pytest

from privref.audits.exact import Verdict, audit
from privref.reference.errors import InvalidArgument, NotNeighboring
from privref.reference.neighbors import Universe
from privref.reference.reals import Interval, prob_as_interval
from validation.zoo import zoo_entry
from validation.zoo_exact import audited_loss, int_values, pairs_loss
from validation.zoo_selection import noisy_max_index_probability, noisy_max_mechanism
from validation.zoo_svt import ABORTED, BOTTOM, TOP, SVTSpec, enclose_prefix, svt_mechanism

F = Fraction


def _overlap(a: Interval, b: Interval) -> bool:
    return a.lo <= b.hi and b.lo <= a.hi


@pytest.mark.parametrize(("variant", "cutoff"), [(1, 1), (2, 1), (2, 2), (4, 1)])
def test_svt_program_law_is_the_prefix_law(variant: int, cutoff: int) -> None:
    """Every outcome of the core program (rounds of first_above) has the probability of the
    zoo's prefix integrand for the same pattern, and the outcomes are the sampler's codes."""
    spec = SVTSpec(variant, F(1), cutoff, F(1, 2))  # type: ignore[arg-type]
    data = (0, 2, -1, 1, 1)
    law = svt_mechanism(spec, len(data)).distribution(data)
    assert len(law.as_dict()) == {1: 6, 2: 16}[cutoff]
    for outcome, p in law.items():
        assert len(outcome) == len(data) and set(outcome) <= {TOP, BOTTOM, ABORTED}
        prefix = tuple(o for o in outcome if o != ABORTED)
        assert _overlap(prob_as_interval(p), enclose_prefix(spec, data, prefix)), outcome


def test_noisy_max_program_law_is_the_zoo_law() -> None:
    law = noisy_max_mechanism(F(1), "laplace").distribution((3, 0, 1, 2, 0))
    for index, p in law.items():
        assert _overlap(prob_as_interval(p), noisy_max_index_probability([3, 0, 1, 2, 0], index))


@pytest.mark.parametrize("name", ["noisy_max_index", "svt2", "dpsniper_report_noisy_max1",
                                  "dpsniper_svt1", "dpsniper_svt2", "dpsniper_svt4"])
def test_audited_lower_end_is_attained_by_the_witness(name: str) -> None:
    """The exact auditor's loss over the entry's pairs (all outcome sets) is the lower end of
    the entry's true ε, and the listed witness attains it: the witness was the best event."""
    entry = zoo_entry(name)
    assert isinstance(entry.true_epsilon, Interval)
    lower = entry.true_epsilon.lo
    assert lower <= entry.claimed_epsilon.enclose(64).hi or not entry.correct
    witness = max(w.epsilon_lower() or F(0) for w in entry.witnesses)
    assert abs(lower - witness) < F(1, 2**60), (float(lower), float(witness))


def test_report_noisy_max2_audit_encloses_its_exact_epsilon() -> None:
    """With exponential noise the loss over DP-Sniper's pairs is ε = 1/10 exactly (attained on
    1⁵ → 0 2⁴): the auditor's enclosure holds 1/10 and is narrow."""
    entry = zoo_entry("dpsniper_report_noisy_max2")
    loss = audited_loss(noisy_max_mechanism, (F(1, 10), "exponential"), entry.pairs)
    assert loss.lower <= F(1, 10) <= loss.upper and loss.upper - loss.lower < F(1, 2**60)
    assert loss.pair == ((1, 1, 1, 1, 1), (0, 2, 2, 2, 2)) and loss.event == (0,)


def test_refusals() -> None:
    with pytest.raises(InvalidArgument, match="variant=1 with cutoff=2"):
        svt_mechanism(SVTSpec(1, F(1), 2, F(0)), 10)
    for variant in (3, 5, 6):
        with pytest.raises(InvalidArgument, match=f"variant={variant}"):
            svt_mechanism(SVTSpec(variant, F(1), 1, F(0)), 10)
    with pytest.raises(InvalidArgument, match="length=0"):
        svt_mechanism(SVTSpec(2, F(1), 1, F(0)), 0)
    with pytest.raises(InvalidArgument, match="noise='gauss'"):
        noisy_max_mechanism(F(1), "gauss")
    with pytest.raises(InvalidArgument, match="epsilon=0"):
        noisy_max_mechanism(F(0), "laplace")
    with pytest.raises(InvalidArgument, match=r"data\[1\]=True must be an int"):
        int_values((1, True))
    mechanism = noisy_max_mechanism(F(1), "laplace")
    with pytest.raises(InvalidArgument, match=r"pairs=\(\)"):
        pairs_loss(mechanism, ())
    with pytest.raises(NotNeighboring):
        pairs_loss(mechanism, [((0, 0, 0, 0, 0), (2, 0, 0, 0, 0))])
    with pytest.raises(InvalidArgument, match="5 answers; this program takes 4"):
        svt_mechanism(SVTSpec(2, F(1), 1, F(0)), 4).distribution((0, 0, 0, 0, 0))


@pytest.mark.deep  # about 12 s: two exact audits of 98 976 pairs each (docs/test-tiers.md)
def test_universe_audits_of_report_noisy_max_quoted_in_the_docs() -> None:
    """docs/blackbox-zoo.md, "Ground truth from the exact core": over every ℓ∞ pair of
    {-1, 0, 1, 2}⁵ the worst loss of noisy_max_index (ε = 1) is at its listed pair, and that of
    ReportNoisyMax1 (ε = 1/10) is 0.0953767 at 0 1⁴ → -1 2⁴, above its entry's lower end (the best
    over DP-Sniper's pairs) and below the claim."""
    universe = Universe((-1, 0, 1, 2), (5,))
    zoo_pair = ((0, 1, 1, 1, 1), (-1, 2, 2, 2, 2))
    index = audit(noisy_max_mechanism(F(1), "laplace"), universe)
    assert index.pairs == 98_976 and index.verdict is Verdict.HOLDS
    assert index.epsilon_witness is not None and index.epsilon_witness[:2] == zoo_pair
    entry = zoo_entry("noisy_max_index")
    assert isinstance(entry.true_epsilon, Interval)
    assert abs(index.epsilon_lower - entry.true_epsilon.lo) < F(1, 2**60)
    rnm1 = audit(noisy_max_mechanism(F(1, 10), "laplace"), universe)
    assert rnm1.verdict is Verdict.HOLDS and rnm1.epsilon_witness is not None
    assert rnm1.epsilon_witness[:2] == zoo_pair
    assert F(95376, 10**6) < rnm1.epsilon_lower and rnm1.epsilon_upper is not None
    assert rnm1.epsilon_upper < F(95377, 10**6)
    dps = zoo_entry("dpsniper_report_noisy_max1")
    assert isinstance(dps.true_epsilon, Interval)
    assert dps.true_epsilon.lo < rnm1.epsilon_lower < dps.true_epsilon.hi
