"""``privref audit blackbox TARGET``: the command-line front end of the black-box auditor.

:func:`configure_parser` adds the arguments to a sub-parser and :func:`run`
executes a parsed namespace.  Every nonsense flag raises a PrivrefError whose
message names the flag (``--samples=-5 must be an int >= 2``); the caller
(app.cli.main) prints it on one line and exits with status 2 (3 for an
OutputError: a result that could not be written mid-run).  Exit status of
:func:`run`: 0 for NO_VIOLATION_FOUND, 1 for VIOLATION.

Everything that can be checked before the run is: every flag, every given pair
(neighboring under ``--relation``, or within ``--group K``), and every output
path (``--json``, ``--html``, ``--checkpoint``: parent folder exists, not a
directory, writable).  Warnings known before the run (duplicate pairs,
LOW-POWER) are printed on stderr at once and recorded in the report.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import secrets
import sys
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TextIO

from privref.audits.blackbox.curves import MAX_CURVE_EPSILONS, MAX_ORDERS, CurveRequest
from privref.audits.blackbox.declarations import (
    DEFAULTED_RELATION,
    ProfileClaim,
    ZCDPClaim,
    audited_point,
    profile_points,
    relation_in_force,
    search_space,
)
from privref.audits.blackbox.isolation import supervise
from privref.audits.blackbox.report import (
    BlackboxReport,
    BlackboxVerdict,
    with_declarations,
    write_json,
)
from privref.audits.blackbox.runner import (
    DEFAULT_SELECTION_CAP,
    MAX_CONFIDENCE,
    MAX_POINTS,
    MAX_SAMPLES,
    MAX_SEED,
    MAX_WORKERS,
    AuditConfig,
    check_pairs,
    run_audit,
)
from privref.audits.blackbox.search import (
    MAX_SEARCH_SIZE,
    RELATIONS,
    Pair,
    SearchSpace,
    relation_from_name,
)
from privref.audits.blackbox.target import DEFAULT_TIMEOUT, Target, check_timeout, load_target
from privref.reference.errors import InvalidArgument, OutputError, PrivrefError
from privref.reference.neighbors import NeighborRelation
from privref.reference.privacy import Claim, GDPClaim, PrivacyClaim, parse_epsilon
from privref.reference.reals import Real
from privref.reference.validate import check_delta, to_fraction

from .reports.html_report import write_html
from .reports.output import check_output_path, same_file

__all__ = ["AuditPlan", "TerminalProgress", "audit_target", "configure_parser", "parse_config",
           "run"]

DEFAULT_SAMPLES = 100_000


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``audit blackbox`` arguments to ``parser`` (values are validated in :func:`run`)."""
    parser.add_argument("target", metavar="TARGET",
                        help="'package.module:function' or 'path/to/file.py:function'; the "
                             "function takes (data, rng) or (data, rng, size)")
    parser.add_argument("--epsilon", default=None, metavar="EPS",
                        help="claimed epsilon, exact: '1', '1/2', '0.25', 'ln(3)', '2*ln(3/2)' "
                             "(required unless the target declares its claim: privref_claim / "
                             "privref.declare, registered targets, built-in mechanisms)")
    parser.add_argument("--point", nargs=2, action="append", default=[],
                        metavar=("EPS", "DELTA"),
                        help="another (epsilon, delta) point of the claim's privacy profile to "
                             "test in the same run (repeatable, each point once; the confidence "
                             "is split evenly over all points)")
    parser.add_argument("--delta", default=None, metavar="DELTA",
                        help="claimed delta, exact (default: the target's declared delta, else "
                             "0); for a declared rho-zCDP, mu-GDP (or --mu) or profile claim, the "
                             "delta of the (epsilon, delta) point audited")
    parser.add_argument("--mu", default=None, metavar="MU",
                        help="claim mu-GDP (Dong, Roth and Su 2022) instead of --epsilon: exact "
                             "mu in (0, 64]; audited at --delta, else at delta = 1e-2 ... 1e-6")
    parser.add_argument("--curves", action="store_true",
                        help="also report lower bounds on delta(epsilon), mu-GDP, Renyi "
                             "divergences and zCDP rho from the run's events (at the same "
                             "confidence; docs/blackbox-curves.md)")
    parser.add_argument("--curve-epsilons", default=None, metavar="LIST",
                        help="the epsilon grid of the delta curve (implies --curves): comma-"
                             "separated exact values in [0, 64], at most 256 (default 0, 1/4, "
                             "..., 8)")
    parser.add_argument("--orders", default=None, metavar="LIST",
                        help="the Renyi orders of the curves (implies --curves): comma-separated "
                             "exact values in (1, 256], at most 32 (default 3/2,2,3,4,8,16,32)")
    parser.add_argument("--pair", nargs=2, action="append", metavar=("JSON_A", "JSON_B"),
                        help="a neighboring pair as two JSON lists, e.g. --pair '[0]' '[1]' "
                             "(repeatable; without it: the target's recommended pairs if it "
                             "declares any, else a search)")
    parser.add_argument("--search", action="store_true",
                        help="search neighboring pairs even when the target recommends pairs")
    parser.add_argument("--samples", default=str(DEFAULT_SAMPLES), metavar="N",
                        help=f"samples per side of each confirmed pair (default {DEFAULT_SAMPLES}, "
                             f"at most 10**{len(str(MAX_SAMPLES)) - 1}; '10**6' and '1e6' work)")
    parser.add_argument("--confidence", default="0.95", metavar="C",
                        help="confidence of the lower bound, exact, in (0, 1 - 10**-15] "
                             "(default 0.95)")
    parser.add_argument("--seed", default=None, metavar="S",
                        help="master seed, an int in [0, 2**128) (default: a fresh random seed, "
                             "shown in the report)")
    parser.add_argument("--group", default="1", metavar="K",
                        help="group privacy: accept pairs within distance K under the relation "
                             "and test the group claim (K*eps, delta*sum_{j<K} e^(j*eps)) "
                             "(default 1: neighbors only)")
    parser.add_argument("--timeout", default=str(DEFAULT_TIMEOUT), metavar="SECONDS",
                        help=f"seconds one call of the target may take (default "
                             f"{DEFAULT_TIMEOUT:g}); a call that takes longer is an error")
    parser.add_argument("--json", metavar="PATH",
                        help="write the JSON report (also the partial report on errors)")
    parser.add_argument("--html", metavar="PATH",
                        help="write a self-contained HTML report with plots (also the partial "
                             "report on errors)")
    parser.add_argument("--no-float-events", action="store_true",
                        help="leave out the events that read the bits of float outputs: audit the "
                             "algorithm as if in real arithmetic (default: included)")
    parser.add_argument("--workers", default=None, metavar="W",
                        help=f"worker processes (default: all cores; at most {MAX_WORKERS}, "
                             "4 per core)")
    parser.add_argument("--checkpoint", metavar="FILE",
                        help="save completed chunks to FILE and resume from it")
    parser.add_argument("--backend", default="local", choices=("local", "dask"),
                        help="where chunks run: local processes (default) or Dask (a local "
                             "cluster of --workers processes, or --scheduler); the report does "
                             "not depend on it (docs/blackbox-cluster.md)")
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help="with --backend dask: an existing Dask scheduler, e.g. "
                             "tcp://host:8786")
    parser.add_argument("--selection-cap", default=None, metavar="N",
                        help="largest selection split per side of the streaming estimator "
                             "(default 2**20); only it is kept in memory")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--relation", default=None, metavar="REL",
                        help=f"neighbor relation of the pairs (given pairs are checked against "
                             f"it; the search generates it): {', '.join(RELATIONS)} (default: "
                             "the target's declared relation, else substitution, with a warning; "
                             "one contradicting the declared relation is an error unless "
                             "--override-declared-relation)")
    parser.add_argument("--override-declared-relation", action="store_true",
                        help="audit under --relation even though the target declares another "
                             "relation (recorded in the report as OVERRIDDEN, with a warning)")
    parser.add_argument("--elements", default=None, metavar="JSON",
                        help="values an entry may take in the pair search (default: the "
                             "target's declared domain, clamp bounds included, else [0, 1])")
    parser.add_argument("--sizes", default=None, metavar="JSON",
                        help="dataset sizes for the pair search (default: the target's "
                             "declared sizes, else [1, 2, 3])")
    parser.add_argument("--screening-samples", default=None, metavar="N",
                        help="samples per side per candidate when screening searched pairs "
                             "(default min(N, max(1000, N/10)))")
    parser.add_argument("--confirm", default="3", metavar="K",
                        help="pairs confirmed on fresh samples after screening (default 3)")
    parser.add_argument("--sequential", action="store_true",
                        help="spend --samples in rounds of fresh samples (--first-round, then "
                             "doubling) and stop at the first round that proves a VIOLATION, "
                             "at the same confidence (docs/blackbox-sequential.md)")
    parser.add_argument("--first-round", default=None, metavar="N",
                        help="with --sequential: samples per side of the first round (default "
                             "max(1000, N/1024), at most --samples)")


_POWER = re.compile(r"^\s*(\d{1,6})\s*(\*\*|e|E)\s*(\d{1,6})\s*$")


def _int(text: object, flag: str, minimum: int, maximum: int | None = None,
         limit_text: str | None = None) -> int:
    """An int flag: digits, or ``B**K`` / ``BeK`` (e.g. ``10**6``, ``1e6``), within [minimum, maximum]."""
    raw = str(text).strip()
    shown = raw if len(raw) <= 40 else raw[:37] + "..."
    limit = "" if maximum is None else f" and <= {limit_text or maximum}"
    m = _POWER.match(raw)
    if m:
        base, op, k = int(m.group(1)), m.group(2), int(m.group(3))
        if op == "**":
            digits = k * math.log10(base) if base > 1 else 0.0
        else:  # BeK = B * 10**K
            digits = math.log10(base) + k if base > 0 else 0.0
        if digits > (4300 if maximum is None else math.log10(maximum) + 1):
            raise InvalidArgument(f"{flag}={shown} must be <= {limit_text or maximum}")
        value = int(base**k) if op == "**" else base * 10**k
    else:
        if not re.fullmatch(r"[+-]?\d{1,4300}", raw):
            raise InvalidArgument(f"{flag}={text!r} must be an int >= {minimum}{limit}")
        value = int(raw)
    if value < minimum:
        raise InvalidArgument(f"{flag}={value} must be an int >= {minimum}")
    if maximum is not None and value > maximum:
        raise InvalidArgument(f"{flag}={shown} must be <= {limit_text or maximum}")
    return value


def _hashable(value: object) -> Hashable:
    if isinstance(value, list):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, dict):
        raise InvalidArgument("JSON objects are not dataset entries; use lists for tuples")
    assert isinstance(value, Hashable)
    return value


def _no_constant(name: str) -> object:
    raise InvalidArgument(f"{name} is not a finite number")


def _finite(value: object) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(_finite(v) for v in value)
    return True


def _json_list(text: str, flag: str) -> tuple[Hashable, ...]:
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except InvalidArgument as exc:
        raise InvalidArgument(f"{flag} {text[:60]!r}: entries must be finite numbers ({exc})"
                              ) from None
    except RecursionError:
        raise InvalidArgument(f"{flag} {text[:60]!r} is nested too deeply") from None
    except json.JSONDecodeError as exc:
        raise InvalidArgument(f"{flag} {text!r} is not valid JSON ({exc.msg} at column "
                              f"{exc.colno})") from None
    if not isinstance(value, list):
        raise InvalidArgument(f"{flag} {text!r} must be a JSON list (a dataset), not "
                              f"{type(value).__name__}")
    if not _finite(value):
        raise InvalidArgument(f"{flag} {text[:60]!r}: entries must be finite numbers (1e400 "
                              "overflows to inf)")
    try:
        return tuple(_hashable(v) for v in value)
    except InvalidArgument as exc:
        raise InvalidArgument(f"{flag} {text!r}: {exc}") from None


def _flag(flag: str, exc: PrivrefError) -> InvalidArgument:
    return InvalidArgument(f"{flag}: {exc}")


def _epsilon(text: str) -> Real:
    try:
        return parse_epsilon(text, "epsilon")
    except PrivrefError as exc:
        raise _flag("--epsilon", exc) from None


def _points(given: list[list[str]]) -> tuple[PrivacyClaim, ...]:
    from privref.audits.blackbox.config import check_distinct_points

    if len(given) > MAX_POINTS - 1:
        raise InvalidArgument(f"--point given {len(given)} times; at most {MAX_POINTS - 1}")
    out: list[PrivacyClaim] = []
    for eps, delta in given:
        try:
            out.append(PrivacyClaim(parse_epsilon(eps, "epsilon"), check_delta(delta, "delta")))
        except PrivrefError as exc:
            raise _flag(f"--point {eps} {delta}", exc) from None
        try:
            check_distinct_points(tuple(out), 0)
        except PrivrefError:
            raise InvalidArgument(f"--point {eps} {delta} is given twice (as the same (epsilon, "
                                  "delta)); each point may be tested once (a repeat would only "
                                  "split the confidence)") from None
    return tuple(out)


def _list(text: str, flag: str, limit: int) -> list[str]:
    items = [x.strip() for x in text.split(",")]
    if not text.strip() or any(not x for x in items):
        raise InvalidArgument(f"{flag} {text[:60]!r} must be a non-empty comma-separated list of "
                              "exact numbers (an empty grid gives no curve)")
    if len(items) > limit:
        raise InvalidArgument(f"{flag}: {len(items)} values; at most {limit} are allowed")
    return items


def _curves(args: argparse.Namespace, claim: Claim | None) -> CurveRequest | None:
    """The curve request of ``--curves``/``--curve-epsilons``/``--orders`` (None: none)."""
    grid = getattr(args, "curve_epsilons", None)
    orders = getattr(args, "orders", None)
    if not getattr(args, "curves", False) and grid is None and orders is None:
        return None
    kwargs: dict[str, object] = {}
    if grid is not None:
        kwargs["epsilons"] = tuple(_list(grid, "--curve-epsilons", MAX_CURVE_EPSILONS))
    if orders is not None:
        kwargs["orders"] = tuple(_list(orders, "--orders", MAX_ORDERS))
    try:
        return CurveRequest(claim=claim, **kwargs)  # type: ignore[arg-type]
    except PrivrefError as exc:
        flag = "--curve-epsilons" if "epsilons" in str(exc) else "--orders"
        raise _flag(flag, exc) from None


def _relation(args: argparse.Namespace, target: Target | None) -> tuple[NeighborRelation, str]:
    name = getattr(args, "relation", None)
    given = None if name is None else relation_from_name(name, "--relation")
    return relation_in_force(given, None if target is None else target.relation,
                             bool(getattr(args, "override_declared_relation", False)))


def _confidence(text: str) -> Fraction:
    try:
        confidence = to_fraction(text, "confidence")
    except PrivrefError as exc:
        raise _flag("--confidence", exc) from None
    if not 0 < confidence < 1:
        raise InvalidArgument(f"--confidence={text} must lie strictly between 0 and 1")
    if confidence > MAX_CONFIDENCE:
        raise InvalidArgument(f"--confidence={text} must be <= 1 - 10**-15 (0.999999999999999)")
    return confidence


@dataclass(frozen=True, slots=True)
class AuditPlan:
    """A validated command line: the AuditConfig, the pairs (None: search), where the relation
    comes from (``given``/``declared``/``default``) and how the audited point follows from a
    declared zCDP or profile claim (None: no conversion)."""

    config: AuditConfig
    pairs: list[Pair] | None
    relation_source: str
    conversion: str | None
    sequential: bool = False
    first_round: int | None = None


def parse_config(args: argparse.Namespace, target: Target | None = None) -> AuditPlan:
    """Validate the namespace into an :class:`AuditPlan`.

    An omitted ``--epsilon`` comes from ``target.claim`` (a zCDP or profile
    claim is audited at the point :func:`~privref.audits.blackbox.declarations.audited_point`
    gives at ``--delta``, else the declared delta; a profile, or a zCDP claim without a
    delta, with no ``--delta`` is audited at all of
    :func:`~privref.audits.blackbox.declarations.profile_points` at once), an omitted ``--relation``
    from ``target.relation`` (else substitution, recorded as defaulted), an
    omitted ``--elements``/``--sizes`` from ``target.domain`` and omitted
    ``--pair``s from ``target.pairs`` (unless ``--search``); without a
    declared claim ``--epsilon`` is required.  Given pairs are checked here
    (:func:`privref.audits.blackbox.runner.check_pairs`): NotNeighboring names
    ``--pair``, the pair and the relation.
    """
    declared = None if target is None else target.claim
    mu = getattr(args, "mu", None)
    if mu is not None:
        if args.epsilon is not None:
            raise InvalidArgument("--mu and --epsilon exclude each other: give one claim")
        try:
            declared = GDPClaim.of(mu)
        except PrivrefError as exc:
            raise _flag("--mu", exc) from None
    try:
        given_delta = None if args.delta is None else check_delta(args.delta, "delta")
    except PrivrefError as exc:
        raise _flag("--delta", exc) from None
    conversion = None
    profile: tuple[PrivacyClaim, ...] = ()
    if args.epsilon is not None:
        claim = PrivacyClaim(_epsilon(args.epsilon), given_delta or Fraction(0))
    elif declared is not None and given_delta is None and (
            isinstance(declared, ProfileClaim)
            or (isinstance(declared, ZCDPClaim | GDPClaim) and declared.delta is None)):
        # a declared profile, or a zCDP claim stating no delta, without --delta: test the whole
        # profile (a zCDP claim at declarations.ZCDP_DELTAS) in one run, each point at alpha/k
        points = profile_points(declared)
        claim, profile = points[0].claim, tuple(p.claim for p in points[1:])
        conversion = f"{len(points)} profile points tested under one confidence budget: " + \
            "; ".join(p.conversion or f"({p.epsilon}, {p.delta})" for p in points)
    elif declared is not None:
        point = audited_point(declared, given_delta)
        claim, conversion = point.claim, point.conversion
    else:
        name = "" if target is None else f" {target.name!r}"
        raise InvalidArgument(f"--epsilon is required: the target{name} declares no privacy claim")
    confidence = _confidence(args.confidence)
    group = _int(getattr(args, "group", "1"), "--group", 1, 1000)
    relation, relation_source = _relation(args, target)
    pairs = None
    if args.pair:
        if getattr(args, "search", False):
            raise InvalidArgument("--search and --pair exclude each other: give pairs or search")
        pairs = [(_json_list(a, "--pair"), _json_list(b, "--pair")) for a, b in args.pair]
        check_pairs(pairs, relation, group, name="--pair",
                    defaulted=relation_source == "default")
    elif target is not None and target.pairs and not getattr(args, "search", False):
        pairs = [(tuple(a), tuple(b)) for a, b in target.pairs]
    seed = secrets.randbits(32) if args.seed is None else _int(args.seed, "--seed", 0, MAX_SEED,
                                                                "2**128 - 1")
    workers = (min(os.cpu_count() or 1, MAX_WORKERS) if args.workers is None
               else _int(args.workers, "--workers", 1, MAX_WORKERS,
                         f"{MAX_WORKERS} (4 x os.cpu_count())"))
    timeout = _timeout(getattr(args, "timeout", str(DEFAULT_TIMEOUT)))
    elements = None if args.elements is None else _json_list(args.elements, "--elements")
    sizes = None if args.sizes is None else _json_list(args.sizes, "--sizes")
    if sizes is not None:
        if not all(isinstance(s, int) and not isinstance(s, bool) for s in sizes):
            raise InvalidArgument(f"--sizes {args.sizes!r} must be a JSON list of ints")
        if any(isinstance(s, int) and s > MAX_SEARCH_SIZE for s in sizes):
            raise InvalidArgument(f"--sizes {args.sizes[:60]!r}: every size must be <= "
                                  f"{MAX_SEARCH_SIZE}")
    try:
        space = search_space(None if target is None else target.domain, relation, elements,
                             None if sizes is None else [s for s in sizes if isinstance(s, int)])
    except PrivrefError as exc:
        if pairs is not None and "cannot be searched" in str(exc):
            space = SearchSpace()  # pairs are given: the search space is never used
        else:
            flag = "--relation" if "cannot be searched" in str(exc) else "--elements/--sizes"
            raise _flag(flag, exc) from None
    screening = (None if args.screening_samples is None
                 else _int(args.screening_samples, "--screening-samples", 2, MAX_SAMPLES,
                           f"10**{len(str(MAX_SAMPLES)) - 1}"))
    samples = _int(args.samples, "--samples", 2, MAX_SAMPLES, f"10**{len(str(MAX_SAMPLES)) - 1}")
    config = AuditConfig(
        claim, confidence=confidence,
        samples=samples, seed=seed, workers=workers,
        checkpoint=None if args.checkpoint is None else Path(args.checkpoint),
        progress=not args.quiet and sys.stderr.isatty(), screening_samples=screening,
        confirm=_int(args.confirm, "--confirm", 1, 1000), search=space,
        float_events=not args.no_float_events, relation=relation, group=group, timeout=timeout,
        override_relation=relation_source == "override",
        points=profile + _points(getattr(args, "point", [])),
        curves=_curves(args, None if args.epsilon is not None else declared),
        backend=args.backend, scheduler=_scheduler(args), selection_cap=(
            DEFAULT_SELECTION_CAP if args.selection_cap is None
            else _int(args.selection_cap, "--selection-cap", 1, MAX_SAMPLES,
                      f"10**{len(str(MAX_SAMPLES)) - 1}")))
    from privref.audits.blackbox.runner import audited_claim

    audited_claim(config)  # a vacuous group claim is a usage error, found before the run
    sequential, first_round = _sequential(args, config)
    return AuditPlan(config, pairs, relation_source, conversion, sequential, first_round)


def _sequential(args: argparse.Namespace, config: AuditConfig) -> tuple[bool, int | None]:
    """``--sequential`` and ``--first-round``, checked against the budget before any draw."""
    from privref.audits.blackbox.sequential import default_first_round, schedule

    sequential = bool(getattr(args, "sequential", False))
    text = getattr(args, "first_round", None)
    if not sequential:
        if text is not None:
            raise InvalidArgument("--first-round needs --sequential")
        return False, None
    if config.checkpoint is not None:
        raise InvalidArgument("--checkpoint cannot be used with --sequential (a checkpoint binds "
                              "one fixed run); leave one out")
    first = None if text is None else _int(text, "--first-round", 2, MAX_SAMPLES,
                                           f"10**{len(str(MAX_SAMPLES)) - 1}")
    try:
        schedule(config.samples, default_first_round(config.samples) if first is None else first)
    except PrivrefError as exc:
        raise InvalidArgument(str(exc).replace("first_round (--first-round)", "--first-round")
                              .replace("samples=", "--samples=")) from None
    return True, first


def _scheduler(args: argparse.Namespace) -> str | None:
    if args.scheduler is None:
        return None
    if args.backend != "dask":
        raise InvalidArgument(f"--scheduler {args.scheduler!r} needs --backend dask")
    address = str(args.scheduler)
    if not address or any(c.isspace() for c in address):
        raise InvalidArgument(f"--scheduler {address!r} must be an address such as "
                              "tcp://host:8786")
    return address  # checked to answer as a Dask scheduler by engines.check_scheduler


def _timeout(text: object) -> float:
    try:
        return check_timeout(text, "--timeout")
    except PrivrefError as exc:
        raise InvalidArgument(str(exc)) from None


def _outputs(args: argparse.Namespace) -> list[tuple[str, str]]:
    return [(flag, path) for flag, path in (("--json", args.json),
                                            ("--html", getattr(args, "html", None)),
                                            ("--checkpoint", getattr(args, "checkpoint", None)))
            if path is not None]


def _target_files(target: Target) -> list[Path]:
    """The source files of a loaded target (its module's file), which no output may overwrite."""
    files = []
    module = sys.modules.get(getattr(target.function, "__module__", "") or "")
    for where in (target.spec.rpartition(":")[0] if target.spec else None,
                  getattr(module, "__file__", None)):
        if where and (where.endswith(".py") or os.sep in where) and Path(where).exists():
            files.append(Path(where))
    return files


def _check_not_inputs(args: argparse.Namespace, inputs: list[Path]) -> None:
    """InvalidArgument when an output path of the run is one of ``inputs`` (the target's file,
    a suite file) or another output of the same run: a report never overwrites an input."""
    outputs = _outputs(args)
    for i, (flag, path) in enumerate(outputs):
        for source in inputs:
            if same_file(Path(path), source):
                raise InvalidArgument(f"{flag} {path} is the target's own file {source}; the "
                                      "report would overwrite it: choose another path")
        for other_flag, other in outputs[:i]:
            if same_file(Path(path), Path(other)):
                raise InvalidArgument(f"{flag} {path} is also the {other_flag} path; each output "
                                      "of a run needs its own file")


def _check_outputs(args: argparse.Namespace, inputs: Sequence[Path] = ()) -> None:
    """Every output path usable before the run, none an input (the target's file when it is a
    file, ``inputs``) or another output: InvalidArgument naming the flag otherwise."""
    spec = str(getattr(args, "target", "") or "")
    module_part = spec.rpartition(":")[0]
    files = [*inputs, *([Path(module_part)] if module_part.endswith(".py") else [])]
    _check_not_inputs(args, files)
    for flag, path in _outputs(args):
        target = check_output_path(flag, path)
        if flag == "--checkpoint" and target.exists():
            continue  # an existing checkpoint is read (and checked) by the runner
        _probe(flag, target)


def _probe(flag: str, target: Path) -> None:
    """Open the path for appending (creating nothing that is left behind): permission checks
    can pass for root where the file system still refuses (/proc, /sys, read-only mounts)."""
    existed = target.exists()
    try:
        with open(target, "a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise InvalidArgument(f"{flag} {target}: cannot be written "
                              f"({exc.strerror or type(exc).__name__})") from None
    finally:
        if not existed and target.exists() and target.is_file():
            target.unlink()


def _write_html(path: str, report: BlackboxReport) -> None:
    try:
        write_html(path, report)
    except OSError as exc:
        raise OutputError(f"--html {path}: could not write the report "
                          f"({exc.strerror or type(exc).__name__})") from None


def _warn(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr)


def _note(message: str) -> None:
    print(message, file=sys.stderr)


class TerminalProgress:
    """A one-line progress bar with rate and ETA on stderr (only when enabled): the command
    line's :class:`~privref.audits.blackbox.engines.ProgressReporter` for :func:`run_audit`."""

    def __init__(self, enabled: bool, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self.total = 0
        self.done = 0
        self.label = ""
        self.start = time.perf_counter()
        self.last = 0.0

    def begin(self, label: str, total: int) -> None:
        """Start a stage of ``total`` samples."""
        self.label, self.total, self.done = label, total, 0
        self.start = time.perf_counter()
        self.last = 0.0
        self._draw(force=True)

    def advance(self, n: int) -> None:
        """Record ``n`` more samples."""
        self.done += n
        self._draw(force=self.done >= self.total)

    def _draw(self, *, force: bool) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if not force and now - self.last < 0.2:
            return
        self.last = now
        frac = self.done / self.total if self.total else 1.0
        elapsed = now - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done) / rate if rate > 0 else math.inf
        eta_text = "--:--" if math.isinf(eta) else f"{int(eta) // 60}:{int(eta) % 60:02d}"
        bar = "#" * int(frac * 24) + "-" * (24 - int(frac * 24))
        self.stream.write(f"\r{self.label} [{bar}] {frac:4.0%} {self.done}/{self.total} "
                          f"{rate:,.0f}/s ETA {eta_text} ")
        self.stream.flush()

    def end(self) -> None:
        """Finish the line."""
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()


def audit_target(args: argparse.Namespace, target: Target, plan: AuditPlan, *,
                 on_partial: Callable[[BlackboxReport], None] | None = None,
                 keep_witness_samples: bool = False,
                 on_warning: Callable[[str], None] = _warn,
                 on_note: Callable[[str], None] = _note) -> BlackboxReport:
    """Run the audit ``plan`` of ``target`` and return its report with the declaration fields
    (relation source, declared claim and its conversion, libraries; report.with_declarations).
    Notes on stderr what comes from the target's declaration; a defaulted relation is warned
    about before sampling (``on_warning``) and recorded in the report."""
    config, pairs = plan.config, plan.pairs
    mu = getattr(args, "mu", None)
    if args.epsilon is None:
        on_note(f"claim ({config.epsilon}, {config.delta}) "
                + ("from --mu" if mu is not None else "declared by the target")
                + (f" ({plan.conversion})" if plan.conversion else ""))
    if not args.pair and pairs is not None:
        on_note(f"pairs: the target's {len(pairs)} recommended pair(s) (--search to search "
                "instead)")
    if plan.relation_source == "default":
        on_warning(DEFAULTED_RELATION)

    def annotate(report: BlackboxReport) -> BlackboxReport:
        return with_declarations(report, relation_source=plan.relation_source,
                                 declared_claim=(GDPClaim.of(mu) if mu is not None else
                                                 target.claim if args.epsilon is None else None),
                                 claim_conversion=plan.conversion, libraries=target.libraries)

    def partial(report: BlackboxReport) -> None:
        if on_partial is not None:
            on_partial(annotate(report))

    bar = TerminalProgress(True) if config.progress else None
    if plan.sequential:
        from privref.audits.blackbox.sequential import run_sequential_audit

        report = run_sequential_audit(target, config, pairs, first_round=plan.first_round,
                                      on_partial=partial,
                                      keep_witness_samples=keep_witness_samples,
                                      on_warning=on_warning, progress=bar)
    else:
        report = run_audit(target, config, pairs, on_partial=partial,
                           keep_witness_samples=keep_witness_samples, on_warning=on_warning,
                           progress=bar)
    return annotate(report)


def run(args: argparse.Namespace) -> int:
    """Run ``privref audit blackbox``: 0 for NO_VIOLATION_FOUND, 1 for VIOLATION.

    Raises PrivrefError (one-line message naming the flag or the target) on
    bad input (NotNeighboring for a pair that is not neighboring under the
    relation, InvalidArgument for an output path that is an input or another
    output of the run); TargetFailure (exit 5) when the target raised, exited,
    timed out or returned outcomes that cannot be compared; OutputError when a
    report cannot be written.  With ``--json`` / ``--html`` the partial report
    is written first.  Everything that runs the target's code (its import
    included) runs supervised (:func:`privref.audits.blackbox.isolation.supervise`).
    """
    if args.epsilon is not None:
        parse_config(args)  # every flag is checked before the target is imported
    _check_outputs(args)
    return supervise(lambda: _run(args))


def _run(args: argparse.Namespace) -> int:
    html = getattr(args, "html", None)
    target = load_target(args.target)
    _check_not_inputs(args, _target_files(target))
    plan = parse_config(args, target)

    def save_partial(report: BlackboxReport) -> None:
        try:
            if args.json:
                write_json(args.json, report.to_json())
                print(f"partial report ({report.status}) written to {args.json}", file=sys.stderr)
            if html:
                _write_html(html, report)
                print(f"partial report ({report.status}) written to {html}", file=sys.stderr)
        except PrivrefError as exc:  # the original error matters more; say why there is no file
            print(f"warning: no partial report: {exc}", file=sys.stderr)

    report = audit_target(args, target, plan, on_partial=save_partial,
                          keep_witness_samples=bool(html))
    print(report.summary())
    if args.json:
        write_json(args.json, report.to_json())
        print(f"wrote {args.json}")
    if html:
        _write_html(html, report)
        print(f"wrote {html}")
    return 1 if report.verdict is BlackboxVerdict.VIOLATION else 0
