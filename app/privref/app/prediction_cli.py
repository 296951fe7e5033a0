"""``privref audit-prediction SERVICE``: black-box audit of a prediction service (docs/prediction-audit.md).

SERVICE is a built-in PATE service (``gaussian-pate``, ``svt-pate``, ``gnmax``,
``misconfigured-pate``: :mod:`privref.audits.blackbox.prediction_target`), whose neighboring
pair and queries come from ``--adversary natural|poison|queries``
(:mod:`privref.audits.blackbox.prediction_adversaries`, Chadha et al. 2024) on the LIBSVM
files of ``--data-dir``; or ``file.py:NAME`` / ``module:NAME`` holding a
:class:`~privref.audits.blackbox.prediction_target.PredictionService`, audited on the given
``--pair`` and ``--query`` values.  The first ``--queries`` queries are answered (one query: the
label is the outcome; more: the tuple of labels).  Exit status as ``privref audit blackbox``:
0 NO_VIOLATION_FOUND, 1 VIOLATION, 2 usage error (a bad flag, a service that cannot be loaded,
a missing data file), 3 an output that cannot be written, 5 the service failed (fit raised, a
label outside its declared set, a declared-deterministic service that is not).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
from collections.abc import Hashable
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

from privref.audits.blackbox.config import AuditConfig
from privref.audits.blackbox.curves import CurveRequest
from privref.audits.blackbox.errors import TargetLoadError
from privref.audits.blackbox.isolation import supervise
from privref.audits.blackbox.prediction_adversaries import ADVERSARIES, plan_adversary
from privref.audits.blackbox.prediction_target import (
    EXACT_MAX_QUERIES,
    MAX_QUERIES,
    PredictionService,
    answer_curves,
    exact_loss,
    gaussian_pate_service,
    gnmax_service,
    misconfigured_pate_service,
    prediction_target,
    svt_pate_service,
)
from privref.audits.blackbox.report import BlackboxVerdict, write_json
from privref.audits.blackbox.runner import run_audit
from privref.reference.errors import InvalidArgument
from privref.reference.privacy import PrivacyClaim, parse_epsilon
from privref.reference.validate import check_delta

from .blackbox_cli import _confidence, _int, _json_list
from .checkout import default_data_dir

__all__ = ["BUILT_IN", "build_service", "configure_parser", "run"]

BUILT_IN = ("gaussian-pate", "svt-pate", "gnmax", "misconfigured-pate")
"""The built-in prediction services."""

def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``audit-prediction`` arguments (validated in :func:`run`)."""
    parser.add_argument("service", metavar="SERVICE",
                        help=f"{', '.join(BUILT_IN)}, or file.py:NAME / module:NAME holding a "
                             "PredictionService")
    parser.add_argument("--adversary", default="queries", choices=ADVERSARIES,
                        help="built-in services: natural data, one poisoned record, or poisoned "
                             "record and chosen queries (default: queries)")
    parser.add_argument("--queries", default="1", metavar="N",
                        help=f"queries answered, 1..{MAX_QUERIES} (default 1)")
    parser.add_argument("--epsilon", default=None, metavar="EPS",
                        help="built-in services: the epsilon they are calibrated for (default "
                             "2); a user service that declares no claim: the claimed epsilon")
    parser.add_argument("--delta", default=None, metavar="DELTA",
                        help="built-in services: their delta (default 1/100000); a user "
                             "service without a claim: the claimed delta (default 0)")
    parser.add_argument("--sigma2", default="4", metavar="S2",
                        help="gnmax: the noise variance per class count (default 4)")
    parser.add_argument("--teachers", default="11", metavar="K",
                        help="built-in services: teachers (default 11)")
    parser.add_argument("--records", default="2", metavar="R",
                        help="built-in services: training records per teacher (default 2)")
    parser.add_argument("--data-dir", default=None, metavar="DIR",
                        help="folder of agaricus.txt.train and agaricus.txt.test (LIBSVM), read "
                             "from disk (default: ../shared/data beside the checkout, as for "
                             "privref table4)")
    parser.add_argument("--pair", nargs=2, metavar=("JSON_A", "JSON_B"),
                        help="a user service: the neighboring training datasets, JSON lists")
    parser.add_argument("--query", action="append", default=[], metavar="JSON",
                        help="a user service: a query point, JSON (repeatable)")
    parser.add_argument("--samples", default="100000", metavar="N",
                        help="samples per side (default 100000)")
    parser.add_argument("--seed", default="0", metavar="S", help="seed (default 0)")
    parser.add_argument("--confidence", default="0.95", metavar="C",
                        help="confidence of the bound (default 0.95)")
    parser.add_argument("--curves", action="store_true",
                        help="also report black-box mu-GDP, Renyi and rho lower bounds "
                             "(privref.audits.blackbox.curves) and, for one query of a service "
                             "with an exact law, the exact mu and Renyi divergences")
    parser.add_argument("--json", default=None, metavar="PATH", help="write the JSON report")


def build_service(name: str, queries: int, epsilon: str, delta: str, sigma2: str
                  ) -> PredictionService:
    """The built-in service ``name`` for ``queries`` answers; InvalidArgument names SERVICE."""
    if name == "gaussian-pate":
        return gaussian_pate_service(queries, epsilon, delta)
    if name == "misconfigured-pate":
        return misconfigured_pate_service(queries, epsilon, delta)
    if name == "gnmax":
        return gnmax_service(queries, sigma2, delta)
    if name == "svt-pate":
        return svt_pate_service(queries, 1, epsilon, delta)
    raise InvalidArgument(f"SERVICE={name!r} must be one of {', '.join(BUILT_IN)} or "
                          "file.py:NAME")


def _load(spec: str) -> PredictionService:
    module_part, sep, attr = spec.rpartition(":")
    if not sep or not module_part or not attr:
        raise InvalidArgument(f"SERVICE={spec!r} must be one of {', '.join(BUILT_IN)} or "
                              "file.py:NAME")
    try:
        if module_part.endswith(".py"):
            path = Path(module_part)
            if not path.is_file():
                raise TargetLoadError(f"cannot load service {spec!r}: file {path} does not exist")
            mspec = importlib.util.spec_from_file_location(f"_privref_service_{path.stem}", path)
            assert mspec is not None and mspec.loader is not None
            module = importlib.util.module_from_spec(mspec)
            mspec.loader.exec_module(module)
        else:
            module = importlib.import_module(module_part)
    except TargetLoadError:
        raise
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise TargetLoadError(f"cannot load service {spec!r}: {type(exc).__name__}: {exc}"
                              ) from None
    obj = getattr(module, attr, None)
    if not isinstance(obj, PredictionService):
        raise TargetLoadError(f"service {spec!r}: {attr} is a {type(obj).__name__}, not a "
                              "PredictionService")
    return obj


@dataclass(frozen=True, slots=True)
class _Plan:
    """The checked flags."""

    queries: int
    samples: int
    seed: int
    confidence: Fraction
    builtin: bool
    data_dir: Path
    teachers: int
    records: int


def _plan(args: argparse.Namespace) -> _Plan:
    """Every flag checked before anything runs."""
    queries = _int(args.queries, "--queries", 1, MAX_QUERIES)
    samples = _int(args.samples, "--samples", 2, 10**8, "10**8")
    seed = _int(args.seed, "--seed", 0, 2**63 - 1, "2**63 - 1")
    confidence = _confidence(args.confidence)
    builtin = args.service in BUILT_IN
    if builtin and (args.pair or args.query):
        raise InvalidArgument("--pair/--query are for a user service; a built-in service "
                              "takes its pair and queries from --adversary")
    if not builtin and ":" not in args.service:
        raise InvalidArgument(f"SERVICE={args.service!r} must be one of {', '.join(BUILT_IN)} "
                              "or file.py:NAME")
    if not builtin and (not args.pair or not args.query):
        raise InvalidArgument("a user service needs --pair JSON_A JSON_B and at least one "
                              "--query JSON")
    if len(args.query) > MAX_QUERIES:
        raise InvalidArgument(f"--query given {len(args.query)} times; at most {MAX_QUERIES}")
    data_dir = Path(args.data_dir) if args.data_dir is not None else (
        default_data_dir() if builtin else Path("."))
    if builtin:
        for name in ("agaricus.txt.train", "agaricus.txt.test"):
            if not (data_dir / name).is_file():
                raise InvalidArgument(f"--data-dir {data_dir}: {name} is missing (the data are "
                                      "read from disk, never downloaded)")
    if args.json is not None and not Path(args.json).parent.is_dir():
        raise InvalidArgument(f"--json {args.json}: directory {Path(args.json).parent} does "
                              "not exist")
    return _Plan(queries, samples, seed, confidence, builtin, data_dir,
                 _int(args.teachers, "--teachers", 1, 1001),
                 _int(args.records, "--records", 1, 1000))


def run(args: argparse.Namespace) -> int:
    """Run ``privref audit-prediction``: 0 NO_VIOLATION_FOUND, 1 VIOLATION (module docstring).

    Flags are checked first (InvalidArgument, exit 2); the service runs supervised
    (:func:`~privref.audits.blackbox.isolation.supervise`), so its failures are exit 5.
    """
    plan = _plan(args)
    return supervise(lambda: _run(args, plan))


def _run(args: argparse.Namespace, plan: _Plan) -> int:
    ell = plan.queries
    extra = ""
    pair: tuple[tuple[Hashable, ...], tuple[Hashable, ...]]
    queries: tuple[Hashable, ...]
    if plan.builtin:
        service = build_service(args.service, ell, args.epsilon or "2",
                                args.delta or "1/100000", args.sigma2)
        adv = plan_adversary(args.adversary, train=plan.data_dir / "agaricus.txt.train",
                             test=plan.data_dir / "agaricus.txt.test",
                             teachers=plan.teachers, records_per_teacher=plan.records,
                             queries=ell, seed=plan.seed)
        pair = (adv.a, adv.b)
        queries = adv.queries
        print(adv.description)
        print(f"votes on a: {list(adv.votes_a)}; on b: {list(adv.votes_b)}")
    else:
        service = _load(args.service)
        pair = (_json_list(args.pair[0], "--pair"), _json_list(args.pair[1], "--pair"))
        queries = tuple(_json_list(f"[{q}]", "--query")[0] for q in args.query)[:ell]
    if service.claim is None and args.epsilon is None:
        raise InvalidArgument(f"service {service.name!r} declares no claim: give --epsilon")
    if service.claim is None:
        service = replace(service, claim=PrivacyClaim(parse_epsilon(args.epsilon, "--epsilon"),
                                                      check_delta(args.delta or 0, "--delta")))
    target = prediction_target(service, queries)
    request = CurveRequest() if args.curves else None
    config = AuditConfig(service.claim, samples=plan.samples, seed=plan.seed,
                         confidence=plan.confidence, workers=1, curves=request)
    report = run_audit(target, config, [pair])
    print(report.summary())
    if service.law is not None and len(queries) > EXACT_MAX_QUERIES:
        extra = f"exact loss not computed (more than {EXACT_MAX_QUERIES} queries)"
        print(extra)
    elif service.law is not None:
        truth = exact_loss(service, pair[0], pair[1], queries, config.delta)
        extra = f"exact loss on the pair at delta={truth.delta}: {truth.lower:.6g}"
        print(extra)
    if request is not None and service.law is not None and len(queries) == 1:
        try:
            exact = answer_curves(service, pair[0], pair[1], queries[0], orders=request.orders)
        except InvalidArgument as exc:  # more than two outcomes (SVT-PATE's ⊥)
            print(f"exact curves not computed: {exc}")
        else:
            mu = "unbounded" if exact.mu is None else f"{float(exact.mu[0]):.6g}"
            print(f"exact mu on the pair: {mu}; exact Renyi: " + ", ".join(
                f"D_{float(o):g} = {float(lo):.6g}" for o, (lo, _hi) in
                zip(exact.orders, exact.renyi, strict=True)))
    if args.json is not None:
        body = report.to_json()
        body["prediction"] = {"service": service.name, "queries": len(queries),
                              "adversary": args.adversary if plan.builtin else None,
                              "exact": extra or None}
        write_json(args.json, body)
        print(f"wrote {args.json}")
    return 1 if report.verdict is BlackboxVerdict.VIOLATION else 0
