"""Malformed inputs to ``privref audit-prediction`` and to the prediction-service target API.

Covers the flags (checked before anything runs, exit 2), a user service that cannot be loaded
(exit 2), and a service that fails while it is audited (exit 5): fit raising, a label outside the
declared set, a service declared deterministic that is not.  Budgets are tiny (--samples 200).
"""

from __future__ import annotations

from privref.app.commands.exit_codes import EXIT_TARGET

from .harness import Case

SERVICES = """
from privref.audits.blackbox.prediction_target import PredictionService

def _fit(data, rng):
    return tuple(data)

def _refuse(data, rng):
    raise RuntimeError("no training today")

REFUSES = PredictionService("refuses", _refuse, lambda m, q, rng: 0, frozenset({0, 1}))
OUTSIDE = PredictionService("outside", _fit, lambda m, q, rng: 7, frozenset({0, 1}))
LIAR = PredictionService("liar", _fit, lambda m, q, rng: int(rng.integers(2)), frozenset({0, 1}),
                         deterministic=True)
NOCLAIM = PredictionService("noclaim", _fit, lambda m, q, rng: 0, frozenset({0, 1}))
NOT_A_SERVICE = 5
"""

_FILES = {"svc.py": SERVICES}
_USER = ("--pair", "[0]", "[1]", "--query", "0", "--samples", "200", "--epsilon", "1")


def _cli(id: str, names: str, *argv: str, exit_code: int = 2) -> Case:
    return Case(id=f"audit-prediction-{id}", names=names, argv=("audit-prediction", *argv),
                exit_code=exit_code, files=_FILES)


def _api(id: str, names: str, body: str, error: str = "PrivrefError") -> Case:
    head = ("from privref.audits.blackbox.prediction_target import *\n"
            "from privref.audits.blackbox.prediction_adversaries import *\n"
            "from pathlib import Path\n")
    return Case(id=f"audit-prediction-{id}", names=names, api=head + body, error=error)


CASES: list[Case] = [
    _cli("queries-zero", r"--queries=0 must be an int >= 1", "gaussian-pate", "--queries", "0"),
    _cli("queries-huge", r"--queries=65 must be <= 64", "gaussian-pate", "--queries", "65"),
    _cli("samples-one", r"--samples=1 must be an int >= 2", "gaussian-pate", "--samples", "1"),
    _cli("adversary-unknown", r"--adversary.*invalid choice", "gaussian-pate", "--adversary",
         "oracle"),
    _cli("data-dir-missing", r"--data-dir .*agaricus.txt.train is missing", "gaussian-pate",
         "--data-dir", "{cwd}/nowhere"),
    _cli("service-unknown", r"SERVICE='oracle' must be one of", "oracle"),
    _cli("builtin-with-pair", r"--pair/--query are for a user service", "gaussian-pate",
         "--pair", "[0]", "[1]"),
    _cli("user-without-pair", r"a user service needs --pair", "svc.py:REFUSES"),
    _cli("user-missing-file", r"cannot load service 'nope.py:X': file nope.py does not exist",
         "nope.py:X", *_USER),
    _cli("user-not-a-service", r"NOT_A_SERVICE is a int, not a PredictionService",
         "svc.py:NOT_A_SERVICE", *_USER),
    _cli("user-no-claim", r"service 'noclaim' declares no claim: give --epsilon",
         "svc.py:NOCLAIM", "--pair", "[0]", "[1]", "--query", "0"),
    _cli("refuses-to-fit", r"fit of service 'refuses' raised .*RuntimeError: no training today",
         "svc.py:REFUSES", *_USER, exit_code=EXIT_TARGET),
    _cli("label-outside", r"service 'outside' answered 7 at query 0, outside its declared labels",
         "svc.py:OUTSIDE", *_USER, exit_code=EXIT_TARGET),
    _cli("not-deterministic", r"service 'liar' declares deterministic=True but answered",
         "svc.py:LIAR", *_USER, exit_code=EXIT_TARGET),
    _api("service-labels-empty", r"labels=frozenset\(\) .* must be a non-empty frozenset",
         "PredictionService('x', lambda d, r: d, lambda m, q, r: 0, frozenset())"),
    _api("service-fit-not-callable", r"fit=5 of service 'x' must be callable",
         "PredictionService('x', 5, lambda m, q, r: 0, frozenset({0}))"),
    _api("target-no-queries", r"queries=\(\) must hold at least one query",
         "prediction_target(gaussian_pate_service(1, 2, '1/1000'), [])"),
    _api("target-too-many-queries", r"queries: 65 given, at most 64",
         "prediction_target(gaussian_pate_service(1, 2, '1/1000'), list(range(65)))"),
    _api("target-not-a-service", r"service=5 must be a PredictionService",
         "prediction_target(5, [0])"),
    _api("gaussian-delta-zero", r"delta=0 must be > 0", "gaussian_pate_service(1, 2, 0)"),
    _api("gnmax-sigma-negative", r"sigma2=-1 must be > 0", "gnmax_service(1, -1, '1/1000')"),
    _api("plan-adversary-unknown", r"adversary='oracle' must be one of natural, poison, queries",
         "plan_adversary('oracle', train=Path('a'), test=Path('b'))"),
    _api("plan-adversary-missing-file", r"path=nowhere must be a readable LIBSVM file",
         "plan_adversary('poison', train=Path('nowhere'), test=Path('b'))"),
    _api("exact-loss-no-law", r"service 'x' has no exact law",
         "exact_loss(PredictionService('x', lambda d, r: d, lambda m, q, r: 0, "
         "frozenset({0})), [0], [1], [0], 0)"),
]
