"""Built-in audit rows contributed by other reference modules (kept apart to avoid import cycles)."""

from __future__ import annotations

from collections.abc import Callable

from .builtin import BuiltinAudit
from .builtin_learners import learner_audits
from .builtin_pate import pate_audits

__all__ = ["EXTRA"]

EXTRA: tuple[Callable[[bool], list[BuiltinAudit]], ...] = (learner_audits, pate_audits)
