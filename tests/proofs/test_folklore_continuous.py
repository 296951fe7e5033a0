"""The continuous-Laplace folklore checks (Dwork–Roth Claim 3.9, Theorem 3.23) and their breaks."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import pytest

from privref.proofs import folklore_continuous as fc
from privref.proofs._ledger import Verdict
from privref.reference.data import Dataset
from privref.reference.mechanism import Mechanism
from privref.reference.noisy_max import report_noisy_max_laplace


def test_the_checks_hold() -> None:
    assert fc.check_noisy_max().verdict is Verdict.HOLDS
    assert fc.check_above_threshold().verdict is Verdict.HOLDS
    assert fc.check_noisy_max_needs_the_factor_2().verdict is Verdict.HOLDS


@pytest.mark.parametrize(("constant", "check"), [
    ("NOISY_MAX_CLAIM_SCALE", fc.check_noisy_max),
    ("ABOVE_THRESHOLD_CLAIM_SCALE", fc.check_above_threshold)])
def test_a_halved_claim_fails(monkeypatch: pytest.MonkeyPatch, constant: str,
                              check: Callable[[], Any]) -> None:
    monkeypatch.setattr(fc, constant, Fraction(1, 2))
    assert check().verdict is Verdict.VIOLATED


def test_the_factor_2_check_fails_when_the_noise_keeps_its_2(monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    def always_two(outputs: Sequence[int], score: Callable[[Dataset, int], int],
                   **kwargs: Any) -> Mechanism[int]:
        kwargs["monotone"] = False
        return report_noisy_max_laplace(outputs, score, **kwargs)

    monkeypatch.setattr(fc, "report_noisy_max_laplace", always_two)
    assert fc.check_noisy_max_needs_the_factor_2().verdict is Verdict.VIOLATED
