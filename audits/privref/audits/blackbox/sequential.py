"""Sequential black-box audits: draw in rounds, stop at the first proved VIOLATION.

:func:`run_sequential_audit` audits like :func:`privref.audits.blackbox.runner.run_audit`,
but spends the budget ``config.samples`` (per side per confirmed pair) in a schedule of
rounds fixed before any draw (:func:`schedule`): ``n_0 = first_round``, then ``2 n_0``,
``4 n_0``, ..., and a last round that takes the whole rest of the budget (between one and three
times the size the doubling would give it), so the rounds sum to exactly the budget.  Round
``r`` is a complete fixed-budget audit (:func:`~privref.audits.blackbox.runner.run_audit`:
pair search and screening, event selection, the exact Clopper–Pearson bound) on ``n_r``
**fresh** samples per side, drawn from its own seed (:func:`round_seed`), at failure
probability ``alpha_r`` (:func:`spending`).  The run stops after the first round whose verdict
is VIOLATION, or after the last round.

Carried selection (``carry=True``, the default).  Round 0 selects its events on a selection
split of its own draws and bounds them on the held-out rest, as run_audit does.  A later round
``r`` chooses its events, for each pair it confirms that an earlier round confirmed too, on
outcomes drawn by the earlier rounds (:func:`carried_selection`: for each such pair the first
``room = selection_cap // confirm`` outcomes per side of the earlier rounds' confirmation draws,
oldest first), and bounds them on **all** ``n_r`` of its own draws: no selection split and no
validation split in round ``r`` (the pooled test's dealing, when it applies, deals all ``n_r``).
A pair that no earlier round confirmed splits as in round 0.  The pairs are chosen as in
run_audit: by the round's own screening stage (given pairs: all of them, or the ``confirm``
best on the screening draws), whose draws are apart from its confirmation draws (stage 0
against stage 1 of the chunk keys).  Memory: at most ``room`` outcomes per side per confirmed
pair are carried, i.e. at most ``selection_cap`` per side, what the streaming estimator keeps
for its selection split anyway.  With a custom estimator or the HTML report's samples, or
``carry=False``, every round splits its own draws (the code path before carrying).
Why it is valid: let ``F_{r-1}`` be everything drawn before round ``r`` and ``S_r`` its
screening draws.  The pairs are a function of ``S_r``, the events of ``(F_{r-1}, S_r)``;
round ``r``'s confirmation draws are fresh (its own seed, stage 1 keys), hence independent of
both.  Conditionally on ``(F_{r-1}, S_r)`` the events are fixed, and the held-out argument of
:mod:`privref.audits.blackbox.estimate` (Clopper–Pearson bounds of fixed events on i.i.d.
draws, a union bound over the events, pairs and views) gives ``P(E_r | F_{r-1}, S_r) <=
alpha_r``, so ``P(E_r) <= alpha_r`` unconditionally: the very guarantee each round needs below.
The outcomes carried were also used by the earlier rounds' own bounds; that does not matter,
as no round's bound reads a draw that chose its events (folklore: sample splitting, here across
rounds).

Why the bound holds at any stopping time (the argument; folklore: Bonferroni over a
pre-declared group-sequential schedule, cf. Jennison and Turnbull 2000, *Group Sequential
Methods*, ch. 2, and alpha spending, Lan and DeMets 1983).  Let ``E_r`` be the event "round
``r``'s reported bound (any confirmed pair, any view, any tested point) exceeds the target's
true loss".  Each round is a fixed-budget audit whose guarantee (run_audit's docstring) is
``P(E_r) <= alpha_r`` whatever happened before it: the draws it bounds on are fresh and its
seed is fixed in advance; the events it bounds may depend on the earlier rounds (carried
selection, above), but only through draws independent of the ones it bounds, so the guarantee
holds conditionally on the earlier rounds and hence unconditionally (only *whether* it runs
depends on them too, and an event about a round that does not run is not reported).  The schedule and the
``alpha_r`` are fixed before any draw and sum to at most ``alpha = 1 - confidence`` (checked
exactly, in Fractions).  By the union bound, ``P(E_0 ∪ ... ∪ E_{R-1}) <= Σ alpha_r <=
alpha``: with probability at least ``confidence`` *every* bound of *every* round that could
be run is valid, simultaneously.  On that event any data-dependent stopping rule, "stop at the
first VIOLATION" included, reports only valid bounds; so the verdict VIOLATION is false with
probability at most ``1 - confidence``, and the reported ``epsilon_lower_bound`` (the largest
over the rounds run) is a lower bound at ``confidence``.  No float decides anything: each round's
verdict is decided by the exact arithmetic of the fixed audit, and the spending is exact.

Spending (:func:`spending`): uniform, ``alpha_r = alpha / R``.  A Clopper–Pearson bound pays
for its level roughly through ``ln(1/alpha_r)``, so the samples a given violation needs grow
about like ``ln(1/alpha_r)``; uniform spending costs every look the same additive ``ln R``
(R <= 32 rounds for any budget up to 10**10), where a decreasing spending (alpha/2, alpha/4, ...) would gain
at most a factor ``ln(2/alpha)/ln(R/alpha)`` (0.77 at R = 6, alpha = 1/20) on the first look
only, less than the factor 2 between consecutive round sizes, so it rarely moves the stopping
round of a gross violation, while it costs the last (largest) round up to ``ln(2^R/alpha)``,
i.e. power at full budget.  A spending that gives every round the whole alpha would not be
valid (its union bound is ``R·alpha``); ``tests/audits/blackbox/test_sequential.py`` checks
that such a spending is refused and that it is seen to raise the false-alarm rate.

Power at full budget.  The last round sees about 1/2 to 3/4 of the budget at ``alpha/R``,
so at its full budget a sequential audit is less powerful than the fixed one (which sees all
of it at ``alpha``); the fixed mode stays the default (docs/blackbox-sequential.md measures
both).  With carried selection the last round bounds on all of its draws (the fixed audit on
half of the budget), and selects on up to ``room`` outcomes of the earlier rounds.

Screening.  With a pair search, every round screens its candidates afresh (its own seed)
and confirms the best on fresh samples, exactly as run_audit does (with carried selection
too: a pair's carried outcomes are used when the round confirms it again); a given
``screening_samples`` (meant for the whole budget) is scaled to each round's share of it.

Seeds.  Round ``r`` runs run_audit with the seed
``SeedSequence(seed, spawn_key=(SEQUENTIAL_KEY, r)).generate_state(4, uint32)`` read as one
128-bit integer: reproducible from the user's seed, different for every round, and the fixed
mode's sampling (seeded from ``seed`` itself) is unchanged.  The report gives the user's seed,
the schedule, the spending, each round's seed, samples, alpha, bound and verdict, the round
that stopped and why, ``samples_used`` and the bound at stop (:class:`SequentialRecord`).

Not supported in sequential mode (InvalidArgument before any draw): ``config.checkpoint``
(a checkpoint binds one fixed run).  A ``first_round`` below 2 or above the budget is refused,
and so is a schedule whose rounds would exceed :data:`MAX_ROUNDS`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

import numpy as np

from privref.reference.errors import InvalidArgument

from .batch import merge_batches
from .config import AuditConfig, limit_text, low_power
from .engines import ProgressReporter
from .report import BlackboxReport, BlackboxVerdict, SequentialRecord, SequentialRound
from .runner import CarriedSamples, Estimator, run_audit
from .search import Pair
from .target import Batch, Target

__all__ = [
    "MAX_ROUNDS",
    "MIN_FIRST_ROUND",
    "SEQUENTIAL_KEY",
    "carried_selection",
    "check_spending",
    "default_first_round",
    "round_seed",
    "run_sequential_audit",
    "schedule",
    "spending",
]

SEQUENTIAL_KEY = 0x5E9
"""First entry of the spawn key that derives the rounds' seeds (the fixed mode uses 0 and 1)."""

MIN_FIRST_ROUND = 2
"""Smallest first round (the smallest ``samples`` of a fixed audit)."""

MAX_ROUNDS = 40
"""Most rounds in a schedule (doubling from 2 spends the largest budget, 10**10, in 32)."""


def default_first_round(budget: int) -> int:
    """The default first round for ``budget`` samples per side: ``max(1000, budget // 1024)``,
    at most the budget (so a budget of 10^5 gives rounds 1000, 2000, ..., about 10 looks at
    most for any budget)."""
    return min(budget, max(1000, budget // 1024))


def schedule(budget: int, first_round: int) -> tuple[int, ...]:
    """The pre-declared round sizes (per side per confirmed pair): ``first_round``, doubling,
    and a last round taking the rest of ``budget``; they sum to exactly ``budget``.

    A round of size ``s`` is taken while the budget left after it is at least ``2 s`` (the next
    doubling); otherwise the round takes everything left (so the last round is at least the
    size the doubling gives it and below three times that).  InvalidArgument naming
    ``first_round`` (CLI ``--first-round``) when it is below 2 or above ``budget`` ("no budget
    for the first round"), naming ``samples`` when the budget is below 2.
    """
    for name, value in (("samples", budget), ("first_round", first_round)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidArgument(f"{name}={value!r} must be an int")
    if budget < MIN_FIRST_ROUND:
        raise InvalidArgument(f"samples={budget}: a sequential run has no budget left for a "
                              f"round; the budget must be >= {MIN_FIRST_ROUND}")
    if first_round < MIN_FIRST_ROUND:
        raise InvalidArgument(f"first_round (--first-round)={first_round} must be an int >= "
                              f"{MIN_FIRST_ROUND}")
    if first_round > budget:
        raise InvalidArgument(f"first_round (--first-round)={limit_text(first_round)} exceeds the "
                              f"budget samples={limit_text(budget)}: no budget left for the first "
                              "round; lower --first-round or raise --samples")
    sizes: list[int] = []
    left, size = budget, first_round
    while True:
        if left - size < 2 * size:
            sizes.append(left)
            break
        sizes.append(size)
        left -= size
        size *= 2
    if len(sizes) > MAX_ROUNDS:  # unreachable within MAX_SAMPLES; kept as the stated bound
        raise InvalidArgument(f"first_round={first_round}: {len(sizes)} rounds; at most "
                              f"{MAX_ROUNDS}")
    return tuple(sizes)


def spending(alpha: Fraction, rounds: int) -> tuple[Fraction, ...]:
    """Uniform alpha spending: ``alpha / rounds`` for each round (exact), summing to ``alpha``.

    See the module docstring for why uniform; :func:`check_spending` is the validity check."""
    if rounds < 1:
        raise InvalidArgument(f"rounds={rounds} must be >= 1")
    return tuple(Fraction(alpha) / rounds for _ in range(rounds))


def check_spending(alphas: Sequence[Fraction], alpha: Fraction) -> None:
    """InvalidArgument unless every ``alphas[r]`` lies in (0, 1) and their exact sum is at most
    ``alpha``: the union bound over the rounds (module docstring) needs exactly this."""
    if not alphas:
        raise InvalidArgument("spending: at least one round")
    for r, a in enumerate(alphas):
        if not isinstance(a, Fraction | int) or isinstance(a, bool) or not 0 < a < 1:
            raise InvalidArgument(f"spending[{r}]={a!r} must be an exact Fraction in (0, 1)")
    total = sum(alphas, Fraction(0))
    if total > alpha:
        raise InvalidArgument(f"spending sums to {total} > alpha = 1 - confidence = {alpha}: the "
                              "rounds' bounds would not hold together at the stated confidence")


def round_seed(seed: int, r: int) -> int:
    """Round ``r``'s master seed: SeedSequence(seed, spawn_key=(SEQUENTIAL_KEY, r)) as a 128-bit
    int (below 2**128, the largest seed of an audit)."""
    words = np.random.SeedSequence(seed, spawn_key=(SEQUENTIAL_KEY, r)).generate_state(4, np.uint32)
    return sum(int(w) << (32 * i) for i, w in enumerate(words))


def _screening(config: AuditConfig, n: int) -> int | None:
    """A round's screening samples: a given ``screening_samples`` (meant for the whole budget)
    scaled to the round's share ``n / samples``, at least 2; None keeps run_audit's default
    (``min(n, max(1000, n // 10))`` of the round's ``n``)."""
    if config.screening_samples is None:
        return None
    return max(2, config.screening_samples * n // config.samples)


def _draws(report: BlackboxReport) -> int:
    return sum(2 * p.samples for p in report.pairs)


def _head(batch: Batch, size: int) -> Batch:
    return batch if len(batch) <= size else Batch(batch.kind, batch.values[:size], batch.first,
                                                  batch.conversions)


def carried_selection(carry: CarriedSamples, report: BlackboxReport
                      ) -> dict[Pair, tuple[Batch, Batch]]:
    """The selection samples the next round carries: for each pair ``report`` confirmed, its
    carried sample followed by the outcomes this round kept (``carry.kept``), at most
    ``carry.room`` per side; the other pairs' samples are dropped, so memory stays at most
    ``room`` outcomes per side per confirmed pair.  Every outcome comes from a round already
    run, so the next round's events are independent of its own draws."""
    out: dict[Pair, tuple[Batch, Batch]] = {}
    for result in report.pairs:
        if result.stage != "confirmation":
            continue
        pair = result.pair
        parts = [p for p in (carry.selection.get(pair), carry.kept.get(pair)) if p is not None]
        if not parts:
            continue
        sides = tuple(_head(merge_batches([p[side] for p in parts], report.target, pair[side]),
                            carry.room) for side in (0, 1))
        if len(sides[0]) and len(sides[1]):
            out[pair] = (sides[0], sides[1])
    return out


def run_sequential_audit(target: Target | Callable[..., Any], config: AuditConfig,
                         pairs: Sequence[Pair] | None = None, *,
                         first_round: int | None = None,
                         estimator: Estimator | None = None,
                         on_partial: Callable[[BlackboxReport], None] | None = None,
                         keep_witness_samples: bool = False,
                         on_warning: Callable[[str], None] | None = None,
                         progress: ProgressReporter | None = None,
                         carry: bool = True,
                         _spending: Callable[[Fraction, int], tuple[Fraction, ...]] = spending,
                         ) -> BlackboxReport:
    """Audit ``target`` in rounds (:func:`schedule` of ``config.samples`` from ``first_round``,
    default :func:`default_first_round`); stop at the first round whose verdict is VIOLATION.

    Guarantee (module docstring): with probability at least ``config.confidence`` every bound of
    every round is valid simultaneously, so the returned report's VIOLATION is false with
    probability at most ``1 - confidence`` and its ``epsilon_lower_bound`` (the largest over the
    rounds run) holds at ``confidence``, whenever the run stopped.  The report is the witness
    round's (the round that stopped on VIOLATION, else the round with the largest bound, the
    latest on ties), with the user's ``seed`` and ``confidence`` and its ``sequential`` record;
    its ``samples`` is that round's size, ``samples_used`` the sum over the rounds run.

    ``carry`` (default True): rounds after the first select their events on the earlier
    rounds' outcomes and bound on all of their own draws (module docstring, "Carried
    selection"); False: every round splits its own draws.

    The other arguments are those of :func:`~privref.audits.blackbox.runner.run_audit`, passed
    to every round; warnings are de-duplicated, and a LOW-POWER warning of a round other than
    the last becomes a note (a small early round is expected to be weak); the last round's, when
    every pair it confirmed selected on carried outcomes, is checked again with all of its draws
    held out (``low_power(..., held=n)``) and dropped when they could detect a violation.  Every
    check that needs no sampling (the config, ``first_round`` against the budget, the spending,
    no checkpoint) is done before the first draw.
    """
    if not isinstance(config, AuditConfig):
        raise InvalidArgument(f"config={config!r} must be an AuditConfig")
    config.__post_init__()
    if config.checkpoint is not None:
        raise InvalidArgument("checkpoint (--checkpoint) cannot be used with a sequential audit "
                              "(a checkpoint binds one fixed run); leave it out")
    n0 = default_first_round(config.samples) if first_round is None else first_round
    sizes = schedule(config.samples, n0)
    alpha = 1 - config.confidence
    alphas = _spending(alpha, len(sizes))
    check_spending(alphas, alpha)
    rounds: list[SequentialRound] = []
    reports: list[BlackboxReport] = []
    warned: list[str] = []
    notes: list[str] = []
    deferred: list[str] = []  # the last round's LOW-POWER while it may bound on all its draws
    dropped: list[str] = []

    def warn_once(last: bool, r: int, defer: bool = False) -> Callable[[str], None]:
        def warn(message: str) -> None:
            if message.startswith("LOW-POWER") and defer:
                deferred.append(message)
            elif message.startswith("LOW-POWER") and not last:
                notes.append(f"round {r} alone: {message}")
            elif message not in warned:
                warned.append(message)
                if on_warning is not None:
                    on_warning(message)
        return warn

    def record(stopped_on: str, bound: float) -> SequentialRecord:
        return SequentialRecord(config.samples, n0, sizes, alphas, tuple(rounds), stopped_on,
                                sum(q.samples for q in rounds), sum(q.draws for q in rounds),
                                bound)

    def partial(report: BlackboxReport) -> None:
        if on_partial is not None:
            on_partial(replace(report, seed=config.seed, confidence=config.confidence,
                               sequential=record(report.status, 0.0)))

    room = config.selection_cap // config.confirm
    carrying = carry and estimator is None and not keep_witness_samples and room >= 1
    selection: dict[Pair, tuple[Batch, Batch]] = {}
    for r, (n, a) in enumerate(zip(sizes, alphas, strict=True)):
        last = r == len(sizes) - 1
        seed = round_seed(config.seed, r)
        round_config = replace(config, samples=n, confidence=1 - a, seed=seed,
                               screening_samples=_screening(config, n))
        held = CarriedSamples(selection, room) if carrying else None
        report = run_audit(target, round_config, pairs, estimator=estimator, on_partial=partial,
                           keep_witness_samples=keep_witness_samples,
                           on_warning=warn_once(last, r, last and bool(selection)),
                           progress=progress, _carry=held)
        assert report.verdict is not None
        used = 0 if held is None else max(held.used.values(), default=0)
        if deferred:  # the warning's premise (a held-out half) holds only for a split round
            confirmed = sum(p.stage == "confirmation" for p in report.pairs)
            every = held is not None and len(held.used) == confirmed
            fixed = low_power(round_config, confirmed, held=n) if every else deferred[0]
            if fixed != deferred[0]:
                dropped.append(deferred[0])
            if fixed is not None:
                warn_once(last, r)(fixed)
        if held is not None:
            selection = carried_selection(held, report)
        rounds.append(SequentialRound(r, n, a, seed, report.verdict.value,
                                      report.epsilon_lower_bound, _draws(report),
                                      "earlier rounds" if used else "split", used))
        if not keep_witness_samples or report.verdict is BlackboxVerdict.VIOLATION or last:
            reports.append(report)
        else:  # only the witness round's samples are kept
            reports.append(replace(report, witness_samples=None))
        if report.verdict is BlackboxVerdict.VIOLATION:
            break
    final = reports[-1]
    stopped_on = "violation" if final.verdict is BlackboxVerdict.VIOLATION else "budget"
    witness = final if stopped_on == "violation" else max(
        reversed(reports), key=lambda q: q.epsilon_lower_bound)
    own = [w for w in witness.warnings
           if (not w.startswith("LOW-POWER") or witness is final) and w not in dropped]
    return replace(witness, seed=config.seed, confidence=config.confidence,
                   verdict=final.verdict,
                   warnings=tuple(dict.fromkeys([*own, *warned])),
                   notes=tuple(dict.fromkeys([*witness.notes, *notes])),
                   elapsed_seconds=sum(q.elapsed_seconds for q in reports),
                   sequential=record(stopped_on, final.epsilon_lower_bound))
