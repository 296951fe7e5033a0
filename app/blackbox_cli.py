"""``privref audit blackbox TARGET``: the command-line front end of the black-box auditor.

:func:`configure_parser` adds the arguments to a sub-parser and :func:`run`
executes a parsed namespace.  Every nonsense flag raises a PrivrefError whose
message names the flag (``--samples=-5 must be an int >= 2``); the caller
(audits.cli.main) prints it on one line and exits with status 2.  Exit status
of :func:`run`: 0 for NO_VIOLATION_FOUND, 1 for VIOLATION.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
from collections.abc import Hashable
from fractions import Fraction
from pathlib import Path

from privref.audits.blackbox.report import BlackboxReport, BlackboxVerdict, write_json
from privref.audits.blackbox.runner import AuditConfig, run_audit
from privref.audits.blackbox.search import RELATIONS, Pair, SearchSpace
from privref.audits.blackbox.target import Target, load_target
from privref.reference.errors import InvalidArgument, PrivrefError
from privref.reference.privacy import parse_epsilon
from privref.reference.reals import Real
from privref.reference.validate import check_delta, to_fraction

from .html_report import write_html

__all__ = ["configure_parser", "run"]

DEFAULT_SAMPLES = 100_000


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``audit blackbox`` arguments to ``parser`` (values are validated in :func:`run`)."""
    parser.add_argument("target", metavar="TARGET",
                        help="'package.module:function' or 'path/to/file.py:function'; the "
                             "function takes (data, rng) or (data, rng, size)")
    parser.add_argument("--epsilon", default=None, metavar="EPS",
                        help="claimed epsilon, exact: '1', '1/2', '0.25', 'ln(3)', '2*ln(3/2)' "
                             "(required unless the target declares its claim: registered "
                             "third-party targets and built-in mechanisms)")
    parser.add_argument("--delta", default=None, metavar="DELTA",
                        help="claimed delta, exact (default: the target's declared delta, else 0)")
    parser.add_argument("--pair", nargs=2, action="append", metavar=("JSON_A", "JSON_B"),
                        help="a neighboring pair as two JSON lists, e.g. --pair '[0]' '[1]' "
                             "(repeatable; without it: the target's recommended pairs if it "
                             "declares any, else a search)")
    parser.add_argument("--search", action="store_true",
                        help="search neighboring pairs even when the target recommends pairs")
    parser.add_argument("--samples", default=str(DEFAULT_SAMPLES), metavar="N",
                        help=f"samples per side of each confirmed pair (default {DEFAULT_SAMPLES})")
    parser.add_argument("--confidence", default="0.95", metavar="C",
                        help="confidence of the lower bound, exact, in (0, 1) (default 0.95)")
    parser.add_argument("--seed", default=None, metavar="S",
                        help="master seed (default: a fresh random seed, shown in the report)")
    parser.add_argument("--json", metavar="PATH",
                        help="write the JSON report (also the partial report on errors)")
    parser.add_argument("--html", metavar="PATH",
                        help="write a self-contained HTML report with plots (also the partial "
                             "report on errors)")
    parser.add_argument("--no-float-events", action="store_true",
                        help="leave out the events that read the bits of float outputs: audit the "
                             "algorithm as if in real arithmetic (default: included)")
    parser.add_argument("--workers", default=None, metavar="W",
                        help="worker processes (default: all cores)")
    parser.add_argument("--checkpoint", metavar="FILE",
                        help="save completed chunks to FILE and resume from it")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--relation", default="substitution", metavar="REL",
                        help=f"neighbor relation for the pair search: {', '.join(RELATIONS)} "
                             "(default substitution)")
    parser.add_argument("--elements", default="[0, 1]", metavar="JSON",
                        help="values an entry may take in the pair search (default [0, 1])")
    parser.add_argument("--sizes", default="[1, 2, 3]", metavar="JSON",
                        help="dataset sizes for the pair search (default [1, 2, 3])")
    parser.add_argument("--screening-samples", default=None, metavar="N",
                        help="samples per side per candidate when screening searched pairs "
                             "(default min(N, max(1000, N/10)))")
    parser.add_argument("--confirm", default="3", metavar="K",
                        help="pairs confirmed on fresh samples after screening (default 3)")


def _int(text: object, flag: str, minimum: int) -> int:
    try:
        value = int(str(text).strip())
    except ValueError:
        raise InvalidArgument(f"{flag}={text!r} must be an int >= {minimum}") from None
    if value < minimum:
        raise InvalidArgument(f"{flag}={value} must be an int >= {minimum}")
    return value


def _hashable(value: object) -> Hashable:
    if isinstance(value, list):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, dict):
        raise InvalidArgument("JSON objects are not dataset entries; use lists for tuples")
    assert isinstance(value, Hashable)
    return value


def _json_list(text: str, flag: str) -> tuple[Hashable, ...]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidArgument(f"{flag} {text!r} is not valid JSON ({exc.msg} at column "
                              f"{exc.colno})") from None
    if not isinstance(value, list):
        raise InvalidArgument(f"{flag} {text!r} must be a JSON list (a dataset), not "
                              f"{type(value).__name__}")
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


def parse_config(args: argparse.Namespace, target: Target | None = None
                 ) -> tuple[AuditConfig, list[Pair] | None]:
    """Validate the namespace into an AuditConfig and the pairs (None: search).

    An omitted ``--epsilon``/``--delta`` comes from ``target.claim`` and
    omitted ``--pair``s from ``target.pairs`` (unless ``--search``); without
    a declared claim ``--epsilon`` is required.
    """
    declared = None if target is None else target.claim
    if args.epsilon is not None:
        epsilon, default_delta = _epsilon(args.epsilon), Fraction(0)
    elif declared is not None:
        epsilon, default_delta = declared.epsilon, declared.delta
    else:
        name = "" if target is None else f" {target.name!r}"
        raise InvalidArgument(f"--epsilon is required: the target{name} declares no privacy claim")
    try:
        delta = default_delta if args.delta is None else check_delta(args.delta, "delta")
    except PrivrefError as exc:
        raise _flag("--delta", exc) from None
    try:
        confidence = to_fraction(args.confidence, "confidence")
    except PrivrefError as exc:
        raise _flag("--confidence", exc) from None
    if not 0 < confidence < 1:
        raise InvalidArgument(f"--confidence={args.confidence} must lie strictly between 0 and 1")
    pairs = None
    if args.pair:
        if getattr(args, "search", False):
            raise InvalidArgument("--search and --pair exclude each other: give pairs or search")
        pairs = [(_json_list(a, "--pair"), _json_list(b, "--pair")) for a, b in args.pair]
    elif target is not None and target.pairs and not getattr(args, "search", False):
        pairs = [(tuple(a), tuple(b)) for a, b in target.pairs]
    seed = secrets.randbits(32) if args.seed is None else _int(args.seed, "--seed", 0)
    workers = (os.cpu_count() or 1) if args.workers is None else _int(args.workers, "--workers", 1)
    if args.relation not in RELATIONS:
        raise InvalidArgument(f"--relation={args.relation!r} must be one of {', '.join(RELATIONS)}")
    elements = _json_list(args.elements, "--elements")
    sizes = _json_list(args.sizes, "--sizes")
    if not all(isinstance(s, int) and not isinstance(s, bool) for s in sizes):
        raise InvalidArgument(f"--sizes {args.sizes!r} must be a JSON list of ints")
    try:
        space = SearchSpace(relation=args.relation, elements=elements,
                            sizes=tuple(s for s in sizes if isinstance(s, int)))
    except PrivrefError as exc:
        raise _flag("--elements/--sizes", exc) from None
    screening = (None if args.screening_samples is None
                 else _int(args.screening_samples, "--screening-samples", 2))
    config = AuditConfig(
        epsilon=epsilon, delta=delta, confidence=confidence,
        samples=_int(args.samples, "--samples", 2), seed=seed, workers=workers,
        checkpoint=None if args.checkpoint is None else Path(args.checkpoint),
        progress=not args.quiet and sys.stderr.isatty(), screening_samples=screening,
        confirm=_int(args.confirm, "--confirm", 1), search=space,
        float_events=not args.no_float_events)
    return config, pairs


def run(args: argparse.Namespace) -> int:
    """Run ``privref audit blackbox``: 0 for NO_VIOLATION_FOUND, 1 for VIOLATION.

    Raises PrivrefError (one-line message naming the flag or the target) on
    bad input or a misbehaving target; with ``--json`` / ``--html`` the
    partial report is written first.
    """
    if args.epsilon is not None:
        parse_config(args)  # every flag is checked before the target is imported
    html = getattr(args, "html", None)
    for flag, path in (("--json", args.json), ("--html", html)):
        if path and not Path(path).parent.exists():
            raise InvalidArgument(f"{flag} {path}: directory {Path(path).parent} does not exist")
    target = load_target(args.target)
    config, pairs = parse_config(args, target)
    if args.epsilon is None:
        print(f"claim ({config.epsilon}, {config.delta}) declared by the target", file=sys.stderr)
    if not args.pair and pairs is not None:
        print(f"pairs: the target's {len(pairs)} recommended pair(s) (--search to search instead)",
              file=sys.stderr)

    def save_partial(report: BlackboxReport) -> None:
        if args.json:
            write_json(args.json, report.to_json())
            print(f"partial report ({report.status}) written to {args.json}", file=sys.stderr)
        if html:
            write_html(html, report)
            print(f"partial report ({report.status}) written to {html}", file=sys.stderr)

    report = run_audit(target, config, pairs, on_partial=save_partial,
                       keep_witness_samples=bool(html))
    print(report.summary())
    if args.json:
        write_json(args.json, report.to_json())
        print(f"wrote {args.json}")
    if html:
        write_html(html, report)
        print(f"wrote {html}")
    return 1 if report.verdict is BlackboxVerdict.VIOLATION else 0

