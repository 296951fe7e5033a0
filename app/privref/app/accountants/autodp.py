"""autodp (Zhu, Wang et al.): the analytic Gaussian of ``dp_bank`` (what paper 001's experiments
used), its RDP-based composition (``mechanism_zoo`` + ``transformer_zoo``) and its σ calibration.

R queries with noise σ are one query with noise σ/√R for the analytic Gaussian functions (they take
the noise of a sensitivity-1 query).  ``privacy_calibrator`` is imported after ``mechanism_zoo``:
autodp issue #51 (it fails to import first).
"""

from __future__ import annotations

from .adapter import Library, Method

__all__ = ["LIBRARY"]

LIBRARY = Library("autodp", "autodp", "autodp", (
    Method("dp_bank.get_eps_ana_gaussian", "gaussian_epsilon", """
import math
from autodp import dp_bank
result = dp_bank.get_eps_ana_gaussian($sigma / math.sqrt($queries), $delta)
"""),
    Method("GaussianMechanism composed (RDP)", "gaussian_epsilon", """
from autodp import mechanism_zoo, transformer_zoo
gaussian = mechanism_zoo.GaussianMechanism(sigma=$sigma)
result = transformer_zoo.Composition()([gaussian], [$queries]).get_approxDP($delta)
"""),
    Method("exp(dp_bank.get_logdelta_ana_gaussian)", "gaussian_delta", """
import math
from autodp import dp_bank
result = math.exp(dp_bank.get_logdelta_ana_gaussian($sigma / math.sqrt($queries), $epsilon))
"""),
    Method("privacy_calibrator.ana_gaussian_mech", "gaussian_sigma", """
import math
import autodp.mechanism_zoo
from autodp import privacy_calibrator
result = privacy_calibrator.ana_gaussian_mech($epsilon, $delta)["sigma"] * math.sqrt($queries)
"""),
))
"""autodp's methods."""
