"""Bad-input cases for ``privref learn --theorems``, equal-privacy calibration and the Theorem 5.7
learner's API (issue 33 item 5).

Each refusal is one ``privref learn: error: ...`` line naming the flag (exit 2), or an
InvalidArgument naming the parameter; all are raised before any experiment runs.
"""

from __future__ import annotations

from .harness import Case

_API = """
from fractions import Fraction
from privref.app.experiments import learning as lr
from privref.reference.concepts import thresholds
from privref.reference.learners.active import theorem57_learner, theorem57_pool
from privref.reference.learners.generic import klnrs_learner
from privref.reference.privacy import PrivacyClaim
"""


def _cli(id: str, names: str, *argv: str) -> Case:
    return Case(id=id, names=names, argv=("learn", "--theorems", *argv))


def _api(id: str, names: str, body: str) -> Case:
    return Case(id=id, names=names, api=_API + body, error="InvalidArgument")


CASES: list[Case] = [
    _cli("learn-theorems-quick", "--quick", "--quick"),
    _cli("learn-theorems-learners", "--learners", "--learners", "klnrs"),
    _cli("learn-theorems-families", "--families", "--families", "intervals"),
    _cli("learn-theorems-unlabeled", "--unlabeled", "--unlabeled", "64"),
    _cli("learn-theorems-dims-big", r"--dims=9 must be an int in \[1, 8\]", "--dims", "9"),
    _cli("learn-theorems-dims-garbage", "--dims", "--dims", "2,x"),
    _cli("learn-theorems-epsilon-big", r"--epsilon=2 must lie in \(0, 1\]", "--epsilon", "2"),
    _cli("learn-theorems-epsilon-zero", "--epsilon", "--epsilon", "0"),
    _cli("learn-theorems-epsilon-garbage", "--epsilon", "--epsilon", "nan"),
    _cli("learn-theorems-labeled-big", r"--labeled=5000 must be an int in \[1, 4096\]",
         "--labeled", "5000"),
    _cli("learn-theorems-runs-big", r"--runs=20000 must be an int in \[1, 10000\]",
         "--runs", "20000"),
    _cli("learn-theorems-pool-too-big", "MAX_POOL.*--epsilon", "--dims", "8", "--epsilon",
         "1/100"),
    _cli("learn-theorems-json-missing-dir", "--json", "--json", "{cwd}/missing/t.json"),
    Case(id="learn-epsilon-over-limit", names=r"--epsilon=2000 must lie in \(0, 1000\]",
         argv=("learn", "--quick", "--epsilon", "2000")),
    _api("learn-api-base-epsilon-unknown", "learner", "lr.base_epsilon('nope', Fraction(1))"),
    _api("learn-api-theorem-config-epsilon", "epsilon",
         "lr.TheoremConfig(epsilon=Fraction(3, 2))"),
    _api("learn-api-theorem-config-pal-sizes", "pal_sizes", "lr.TheoremConfig(pal_sizes=(7,))"),
    _api("learn-api-window-family", "window",
         "lr.ExperimentConfig(families=('intervals',), window=4)"),
    _api("learn-api-window-negative", "window",
         "lr.ExperimentConfig(families=('thresholds',), window=-1)"),
    _api("learn-api-pool-n", "n=", "theorem57_pool(PrivacyClaim.of(1), 0, 1)"),
    _api("learn-api-pool-epsilon", "epsilon", "theorem57_pool(PrivacyClaim.of(1), 3, 0)"),
    _api("learn-api-theorem57-epsilon-range", "ln 3",
         "theorem57_learner(klnrs_learner(thresholds(2), epsilon=1), alpha=Fraction(1, 4), "
         "beta=Fraction(1, 4), n=24, m=64, epsilon=3, constants=lr.SCALED_004)"),
]
