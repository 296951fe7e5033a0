"""OpenDP: the Gaussian measurement's zCDP composed R times and converted to (ε, δ) by
``make_zCDP_to_approxDP`` (its privacy profile's ``epsilon`` and ``delta``), and that conversion on
a measurement charging exactly ρ (``cdp_delta``, the subject of OpenDP pull request 2820).

The user measurement of the zCDP task needs the ``honest-but-curious`` feature: its privacy map
returns the task's ρ as given.  The DP-SGD kinds are not offered: OpenDP 0.16 has no
amplification by Poisson subsampling (``make_population_amplification`` is for a simple random
sample of a known population, sampled without replacement) and no PLD composition.
"""

from __future__ import annotations

from .adapter import Library, Method

__all__ = ["LIBRARY"]

_COMPOSED = """
import opendp.prelude as dp
dp.enable_features("contrib")
gaussian = dp.m.make_gaussian(dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float),
                              scale=$sigma)
profile = dp.c.make_zCDP_to_approxDP(dp.c.make_composition([gaussian] * $queries)).map(1.0)
"""

LIBRARY = Library("opendp", "opendp", "opendp", (
    Method("make_gaussian composed, make_zCDP_to_approxDP .epsilon", "gaussian_epsilon",
           _COMPOSED + "result = profile.epsilon($delta)\n"),
    Method("make_gaussian composed, make_zCDP_to_approxDP .delta", "gaussian_delta",
           _COMPOSED + "result = profile.delta($epsilon)\n"),
    Method("make_zCDP_to_approxDP .delta (cdp_delta)", "zcdp_delta", """
import opendp.prelude as dp
dp.enable_features("contrib", "honest-but-curious")
charged = dp.m.make_user_measurement(
    dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float),
    dp.zero_concentrated_divergence(), lambda x: x, lambda d_in: $rho)
result = dp.c.make_zCDP_to_approxDP(charged).map(1.0).delta($epsilon)
"""),
))
"""OpenDP's methods."""
