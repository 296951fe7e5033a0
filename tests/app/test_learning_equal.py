"""Equal proved privacy in ``privref learn`` and the theorems' learners experiment (issue 33)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from privref.app.experiments import learning as lr
from privref.app.experiments.learning import (
    ExperimentConfig,
    TheoremConfig,
    base_epsilon,
    base_size,
    run_cell,
    run_experiment,
)
from privref.reference.errors import InvalidArgument
from privref.reference.learners.active import theorem57_pool

F = Fraction


def test_base_epsilon_makes_each_claim_the_target_exactly() -> None:
    assert base_epsilon("labelboost", F(13, 4)) == F(1, 4)
    assert base_epsilon("labelboost", F(4)) == F(1)
    assert base_epsilon("labelboost", F(3)) is None and base_epsilon("labelboost", F(1)) is None
    for key in ("klnrs", "generic", "sspp"):
        assert base_epsilon(key, F(13, 4)) == F(13, 4)
    with pytest.raises(InvalidArgument, match="learner"):
        base_epsilon("nope", F(1))


def test_labelboost_and_klnrs_cells_carry_the_same_proved_claim() -> None:
    """At target 13/4 LabelBoost runs at ε' = 1/4 and proves 13/4 (000 Lemma 4.1), like KLNRS."""
    config = ExperimentConfig(learners=("klnrs", "labelboost"), families=("thresholds",),
                              dims=(2,), labeled_sizes=(4,), unlabeled_sizes=(4,),
                              epsilon=F(13, 4), runs=2)
    lb = run_cell("labelboost", "thresholds", 2, 4, 4, config, 0)
    kl = run_cell("klnrs", "thresholds", 2, 4, 4, config, 1)
    assert (lb.claimed_epsilon, lb.claimed_delta, lb.base_epsilon) == ("13/4", "0", "1/4")
    assert (kl.claimed_epsilon, kl.claimed_delta, kl.base_epsilon) == ("13/4", "0", "13/4")


def test_a_learner_that_cannot_prove_the_target_is_skipped_and_listed() -> None:
    config = ExperimentConfig(learners=("klnrs", "labelboost"), families=("thresholds",),
                              dims=(2,), labeled_sizes=(4,), epsilon=F(3), runs=2)
    result = run_experiment(config)
    assert {c.learner for c in result.cells} == {"klnrs"}
    assert result.skipped and result.skipped[0].startswith("labelboost: its proved claim is")
    assert lr.grid_size(config) == 1


def test_run_cell_refuses_a_claim_off_the_target(monkeypatch: pytest.MonkeyPatch) -> None:
    """Break the calibration (LabelBoost's overhead 3 -> 0): the cell must refuse to run."""
    spec = lr.LEARNERS["labelboost"]
    monkeypatch.setitem(lr.LEARNERS, "labelboost", lr.LearnerSpec(
        spec.name, spec.source, spec.layout, spec.build, spec.max_domain, Fraction(0)))
    config = ExperimentConfig(learners=("labelboost",), families=("thresholds",), dims=(2,),
                              labeled_sizes=(4,), epsilon=F(13, 4), runs=1)
    with pytest.raises(InvalidArgument, match="not the target"):
        run_cell("labelboost", "thresholds", 2, 4, 4, config, 0)


def test_window_distribution_and_its_validation() -> None:
    config = ExperimentConfig(learners=("klnrs",), families=("thresholds",), dims=(4,),
                              labeled_sizes=(64,), epsilon=F(4), runs=3, window=4)
    cell = run_cell("klnrs", "thresholds", 4, 64, 0, config, 0)
    assert cell.mean_error * 4 * 3 == int(cell.mean_error * 4 * 3)   # errors are k/4 each
    with pytest.raises(InvalidArgument, match="window"):
        ExperimentConfig(families=("thresholds", "intervals"), window=4)
    with pytest.raises(InvalidArgument, match="window"):
        ExperimentConfig(families=("thresholds",), dims=(2,), window=8)


def test_base_size_is_the_exponential_mechanism_bound() -> None:
    """n(d) = ⌈8(ln(2^d + 1) + ln 4)⌉ at α = β = 1/4: 24, 34, 45 (exact)."""
    assert [base_size(d, F(1, 4), F(1, 4)) for d in (2, 4, 6)] == [24, 34, 45]


@pytest.mark.parametrize("kwargs, name", [
    ({"epsilon": F(2)}, "epsilon"), ({"epsilon": F(0)}, "epsilon"),
    ({"dims": (9,)}, "dims"), ({"labeled_sizes": ()}, "labeled_sizes"),
    ({"pal_sizes": (3,)}, "pal_sizes"), ({"runs": 0}, "runs"),
    ({"dims": (8,), "epsilon": F(1, 100)}, "MAX_POOL"),
])
def test_theorem_config_refuses_bad_values(kwargs: dict[str, object], name: str) -> None:
    with pytest.raises(InvalidArgument, match=name):
        TheoremConfig(**kwargs)  # type: ignore[arg-type]


@pytest.mark.deep
def test_run_theorems_end_to_end_records_claims_and_counts() -> None:
    """One PAL cell and its IterLabelBoost/KLNRS rows at d = 2 (the PAL pool is 1.6·10⁶ points)."""
    config = TheoremConfig(dims=(2,), labeled_sizes=(1024,), pal_sizes=(1024,),
                           klnrs_sizes=(16,), runs=1)
    result = lr.run_theorems(config)
    rows = {c.learner: c for c in result.cells}
    assert set(rows) == set(lr.THEOREM_LEARNERS)
    assert rows["theorem57"].unlabeled + 1024 == theorem57_pool(
        lr._iter(2, 24, 1024, config).claim, 1024 + 751 * 24, 1)
    assert rows["klnrs@theorem57"].claimed_epsilon == "1"
    assert rows["iterlabelboost"].unlabeled == 751 * 24
