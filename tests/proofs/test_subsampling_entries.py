"""Ledger: 004 Claim C.1 (proofs.p004.subsampling) and the rate repair of 004 Theorem 4.2 /
000 Theorem 4.14 checked there."""

from __future__ import annotations

from fractions import Fraction

from privref.proofs import Verdict
from privref.proofs.p004 import subsampling as sub


def test_rate_repair_holds_and_printed_rate_fails() -> None:
    """t = 164n/ε (ε = 1): (ε, δ) over every neighboring pair; the printed t = 6 leaks 41δ/6."""
    assert sub.check_rescaled_rate().verdict is Verdict.HOLDS
    bad = sub.check_rescaled_rate(6)
    assert bad.verdict is Verdict.VIOLATED and bad.witness
    assert "0.00683333" in bad.evidence


def test_rate_repair_is_tight_enough_to_fail_at_a_smaller_t() -> None:
    """The exact δ is 41δ/t: the check fails at t = 40 and holds from t = 42 (t = 41 is the
    boundary δ(ε_t) = δ, which the enclosure of e^ε_t cannot decide)."""
    assert sub.check_rescaled_rate(40).verdict is Verdict.VIOLATED
    assert sub.check_rescaled_rate(41).verdict is Verdict.UNDECIDED
    assert sub.check_rescaled_rate(42, Fraction(1, 1000)).verdict is Verdict.HOLDS
