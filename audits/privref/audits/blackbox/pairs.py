"""The pair rules of the black-box auditor: which pairs may be audited, and which are confirmed.

Given pairs must be neighboring under ``config.relation`` (or, with ``config.group = k``, within
distance k; the claim tested is then the group claim (kε, δ·Σ_{j<k} e^{jε})): anything else is
NotNeighboring, never a verdict.  Exact duplicates (also up to order) are dropped with a
warning, and entries must be finite.  :func:`check_pairs` with ``relation=None`` checks only the
datasets themselves; :func:`~privref.audits.blackbox.runner.run_audit` always passes the relation
in force (given, else declared, else substitution).  Searched candidates on
which the target raises are skipped (:func:`usable_candidates`); after screening, the pairs to
confirm are :func:`confirmed_pairs`.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence

from privref.reference.errors import InvalidArgument, NotNeighboring, TooLargeToEnumerate
from privref.reference.neighbors import AddRemove, NeighborRelation, relation_distance

from .config import MAX_DATASET_SIZE
from .engines import sample_chunk
from .report import PairResult
from .search import Pair, relation_name_safe
from .target import Target, TargetCallError, TargetTimeout

__all__ = ["check_pairs", "confirmed_pairs", "usable_candidates"]


def usable_candidates(target: Target, candidates: Sequence[Pair], seed: int,
                      warnings: list[str], timeout: float | None) -> list[Pair]:
    """The searched candidates on which the target does not raise (one outcome per side, drawn
    from the probe stream ``(9, i, side, 0)``); a warning names the skipped ones.  A timeout
    propagates; TargetCallError when the target raises on every candidate."""
    usable: list[Pair] = []
    failures: list[str] = []
    for i, pair in enumerate(candidates):
        try:
            for side in (0, 1):
                sample_chunk(target, pair[side], seed, (9, i, side, 0), 1, timeout)
        except TargetTimeout:
            raise
        except TargetCallError as exc:
            failures.append(str(exc))
            continue
        usable.append(pair)
    if not usable:
        raise TargetCallError(f"target {target.name} raised on every one of the {len(candidates)} "
                              f"candidate pairs (give --pair, --elements or --sizes); first: "
                              f"{failures[0]}")
    if failures:
        warnings.append(f"{len(failures)} of {len(candidates)} searched candidate pairs were "
                        f"skipped because the target raised on them; first: {failures[0]}")
    return usable


def _show(d: Sequence[Hashable]) -> str:
    text = repr(list(d))
    return text if len(text) <= 60 else text[:57] + "...]"


def _finite(x: object) -> bool:
    if isinstance(x, float):
        return math.isfinite(x)
    if isinstance(x, complex):
        return math.isfinite(x.real) and math.isfinite(x.imag)
    if isinstance(x, tuple):
        return all(_finite(y) for y in x)
    return True


def _distance_text(relation: NeighborRelation, a: Sequence[Hashable],
                   b: Sequence[Hashable]) -> str:
    try:
        dist = relation_distance(relation, tuple(a), tuple(b))
    except TooLargeToEnumerate:
        return "distance not computed (datasets too long)"
    return "unreachable (infinite distance)" if dist is None else f"distance {dist}"


def _pair_key(pair: Pair) -> tuple[str, str]:
    a, b = repr(pair[0]), repr(pair[1])
    return (a, b) if a <= b else (b, a)


def check_pairs(pairs: Sequence[Pair], relation: NeighborRelation | None, group: int = 1, *,
                name: str = "pair", defaulted: bool = False) -> tuple[list[Pair], int]:
    """Validate given pairs; return them without duplicates and the number of duplicates dropped.

    Each dataset: at most MAX_DATASET_SIZE entries, hashable, finite numbers only; the two
    datasets differ; under ``relation`` (unless None) they are neighbors, or with ``group = k``
    at distance at most k.  Raises InvalidArgument / NotNeighboring whose message starts with
    ``name`` and the pair, and names the relation and the pair's distance under it.  The one
    neighbourhood check of every entry point (command line, suites, ``assert_private``,
    ``run_audit``).  A duplicate (also up to order: the estimator
    tests both directions) would only split the confidence, so it is dropped.

    ``defaulted``: ``relation`` is the default (substitution: none given, none declared).  A pair
    refused there but neighboring under add-remove then gets the migration message of an older
    command line, which accepted such pairs unstated: it names the flag that now states the
    relation (``--relation add-remove``; API ``relation='add-remove'``).
    """
    out: dict[tuple[str, str], Pair] = {}
    duplicates = 0
    for a, b in pairs:
        where = f"{name} {_show(a)} vs {_show(b)}"
        for d in (a, b):
            if len(d) > MAX_DATASET_SIZE:
                raise InvalidArgument(f"{where}: a dataset of {len(d)} entries; sizes must be "
                                      f"<= {MAX_DATASET_SIZE}")
            try:
                hash(d)
            except TypeError:
                raise InvalidArgument(f"{where}: entries must be hashable (numbers, strings, "
                                      "tuples), not lists or dicts") from None
            if not all(_finite(x) for x in d):
                raise InvalidArgument(f"{where}: entries must be finite numbers (no inf or NaN; "
                                      "1e400 overflows to inf)")
        if a == b:
            raise InvalidArgument(f"{where}: the two datasets are equal")
        if relation is not None:
            rel = relation_name_safe(relation)
            if group == 1 and not relation.are_neighbors(a, b):
                if defaulted and AddRemove().are_neighbors(a, b):
                    raise NotNeighboring(
                        f"{where} is an add-remove pair (one entry added or removed), but no "
                        f"relation was given or declared, so the default {rel} is in force "
                        "(earlier versions accepted such a pair unstated; every pair is now "
                        "checked against the relation audited): state it with --relation "
                        "add-remove (API: relation='add-remove', or "
                        "declare(relation='add-remove'))")
                raise NotNeighboring(
                    f"{where} is not neighboring under {rel} ({relation}): "
                    f"{_distance_text(relation, a, b)}; give a neighboring pair, choose the "
                    "relation (--relation / relation=), or test group privacy "
                    "(--group K / group=K)")
            if group > 1:
                try:
                    dist = relation_distance(relation, a, b)
                except TooLargeToEnumerate as exc:  # pragma: no cover - sizes capped above
                    raise InvalidArgument(f"{where}: {exc}") from None
                if dist is None or dist > group:
                    far = "unreachable" if dist is None else f"at distance {dist}"
                    raise NotNeighboring(
                        f"{where} is {far} under {rel} ({relation}), more than the group size "
                        f"--group {group} (API: group={group})")
        key = _pair_key((a, b))
        if key in out:
            duplicates += 1
            continue
        out[key] = (a, b)
    return list(out.values()), duplicates


def confirmed_pairs(screened: Sequence[PairResult], confirm: int) -> list[PairResult]:
    """The ``confirm`` screened pairs to confirm: the best of each view, in turn.

    Pairs are ranked twice, by the real-arithmetic bound (a two-view pair's ``real_estimate``,
    else its only estimate) and by the headline estimate (the IEEE-754 view), and picked
    alternately from the two rankings, the real one first, skipping repeats.  A floating-point
    leak shows on most pairs of a float mechanism with a saturated bound, so ranking by the
    larger bound alone would pick pairs blind to the algorithm's own loss.  With one view the
    two rankings coincide and this is the best ``confirm`` pairs.  Ties go to the lower index.
    """
    def real(r: PairResult) -> float:
        return (r.real_estimate if r.real_estimate is not None else r.estimate).epsilon_lower_bound

    by_real = sorted(screened, key=lambda r: (-real(r), r.index))
    by_view = sorted(screened, key=lambda r: (-r.estimate.epsilon_lower_bound, r.index))
    picked: dict[int, PairResult] = {}
    for first, second in zip(by_real, by_view, strict=True):
        for r in (first, second):
            if len(picked) < confirm and r.index not in picked:
                picked[r.index] = r
    return list(picked.values())

