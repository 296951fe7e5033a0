"""The mechanism zoo: correct and incorrect published mechanisms whose true epsilon is known.

Issue 3, item 5.  Every :class:`ZooEntry` is a black-box target (a
``(data, rng)`` sampler and a vectorized ``(data, rng, size)`` form) together
with its claimed (ε, δ), its true ε (exact, a rigorous enclosure, or
:data:`NOT_PRIVATE`) and how that is known, the neighboring pairs and events
that witness the worst case with their exact probabilities, and the source.

========================  ========  =============================================
family                    entries   module
========================  ========  =============================================
sparse vector (Lyu et     svt1..6   :mod:`validation.zoo_svt`
al. 2017, Algs. 1-6)
report-noisy-max          2         :mod:`validation.zoo_selection`
exponential mechanism     2         :mod:`validation.zoo_selection`
noisy histogram           2         :mod:`validation.zoo_additive`
Laplace mechanism         3         :mod:`validation.zoo_additive`
DP-Sniper's benchmarks    20        :mod:`validation.zoo_dpsniper`
(Bichsel et al. 2021)               (:func:`dpsniper_entries`, names ``dpsniper_*``)
========================  ========  =============================================

See docs/blackbox-zoo.md for the table of verdicts, witnesses and sample budgets.
"""

from __future__ import annotations

from privref.reference.errors import InvalidArgument

from .zoo_additive import histogram_entries, laplace_entries
from .zoo_dpsniper import dpsniper_entries
from .zoo_selection import exponential_entries, noisy_max_entries
from .zoo_svt import svt_entries
from .zoo_types import (
    NOT_PRIVATE,
    NotPrivate,
    Sampler,
    TrueEpsilon,
    Vectorized,
    Witness,
    ZooEntry,
    rows_as_outcomes,
)

__all__ = [
    "NOT_PRIVATE",
    "NotPrivate",
    "Sampler",
    "TrueEpsilon",
    "Vectorized",
    "Witness",
    "ZooEntry",
    "dpsniper_entries",
    "rows_as_outcomes",
    "zoo",
    "zoo_entry",
]


def zoo() -> tuple[ZooEntry, ...]:
    """Every zoo entry, correct and incorrect variants side by side.

    The zoo's own entries come first, then DP-Sniper's 20 benchmark mechanisms
    (:func:`dpsniper_entries`, each aliased by its DP-Sniper class name).
    Entries are built afresh on each call (their pairs are lists); the exact
    computations behind them are memoized, so only the first call is slow
    (a few seconds).
    """
    return (*svt_entries(), *noisy_max_entries(), *histogram_entries(), *exponential_entries(),
            *laplace_entries(), *dpsniper_entries())


def zoo_entry(name: str) -> ZooEntry:
    """The entry called ``name`` (or with ``name`` among its aliases, e.g. StatDP's 'iSVT3').

    Raises InvalidArgument listing the valid names for an unknown one.
    """
    entries = zoo()
    for entry in entries:
        if name == entry.name or name in entry.aliases:
            return entry
    valid = ", ".join(e.name + (f" ({'/'.join(e.aliases)})" if e.aliases else "") for e in entries)
    raise InvalidArgument(f"name={name!r} is not a zoo entry; valid names: {valid}")
