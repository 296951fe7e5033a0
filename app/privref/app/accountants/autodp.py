"""autodp (Zhu, Wang et al.): the analytic Gaussian of ``dp_bank`` (what paper 001's experiments
used), its RDP-based composition (``mechanism_zoo`` + ``transformer_zoo``) and its σ calibration.

R queries with noise σ are one query with noise σ/√R for the analytic Gaussian functions (they take
the noise of a sensitivity-1 query).  DP-SGD (k steps of the Poisson-subsampled Gaussian):
``SubsampleGaussianMechanism`` through RDP (its default), and through the characteristic function
(Zhu, Dong & Wang 2022: ``AmplificationBySampling_pld`` of a ``GaussianMechanism(phi_off=False)``
composed by ``ComposeAFA``), the larger of the add-only and remove-only answers, as autodp's
docstring says to combine them for add/remove.  (``SubsampleGaussianMechanism(phi_off=False)``,
the route that docstring shows, raises KeyError 'gamma' in 0.2.3.1: it passes ``prob`` where
``phi_bank`` reads ``gamma``.)  ``privacy_calibrator`` is imported after
``mechanism_zoo``: autodp issue #51 (it fails to import first).
"""

from __future__ import annotations

from .adapter import Library, Method

__all__ = ["LIBRARY"]

_SUB_RDP = """
from autodp import mechanism_zoo
mech = mechanism_zoo.SubsampleGaussianMechanism({"prob": $q, "sigma": $sigma, "coeff": $steps})
"""

_SUB_PHI = """
from autodp import mechanism_zoo, transformer_zoo
mechs = []
for n in ("add_only", "remove_only"):
    gaussian = mechanism_zoo.GaussianMechanism(sigma=$sigma, phi_off=False, name="GM")
    sampled = transformer_zoo.AmplificationBySampling_pld(PoissonSampling=True, neighboring=n)(
        gaussian, $q)
    mechs.append(transformer_zoo.ComposeAFA()([sampled], [$steps]))
"""

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
    Method("SubsampleGaussianMechanism (RDP) get_approxDP", "poisson_gaussian_epsilon", _SUB_RDP + """
result = mech.get_approxDP($delta)
"""),
    Method("AmplificationBySampling_pld + ComposeAFA (phi, max of add/remove) get_approxDP",
           "poisson_gaussian_epsilon", _SUB_PHI + """
result = max(m.get_approxDP($delta) for m in mechs)
"""),
    Method("SubsampleGaussianMechanism (RDP) get_approx_delta", "poisson_gaussian_delta",
           _SUB_RDP + """
result = mech.get_approx_delta($epsilon)
"""),
    Method("AmplificationBySampling_pld + ComposeAFA (phi, max of add/remove) get_approx_delta",
           "poisson_gaussian_delta", _SUB_PHI + """
result = max(m.get_approx_delta($epsilon) for m in mechs)
"""),
))
"""autodp's methods."""
