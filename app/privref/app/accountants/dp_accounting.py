"""Google's dp-accounting: the PLD and RDP accountants on R composed Gaussian events and on k
composed ``PoissonSampledDpEvent``s of a Gaussian (DP-SGD, add/remove: both accountants' default
relation), and the closed-form ``gaussian_mechanism`` functions (ε and σ of one sensitivity-1
query, so R queries with noise σ are one query with noise σ/√R).

dp-accounting pins ``attrs<24``, which conflicts with the test extra's crosshair-tool; it is in
the ``accounting`` extra only.
"""

from __future__ import annotations

from .adapter import Library, Method

__all__ = ["LIBRARY"]

_PLD = """
from dp_accounting import dp_event
from dp_accounting.pld import pld_privacy_accountant
accountant = pld_privacy_accountant.PLDAccountant()
accountant.compose(dp_event.GaussianDpEvent($sigma), $queries)
"""

_RDP = """
from dp_accounting import dp_event
from dp_accounting.rdp import rdp_privacy_accountant
accountant = rdp_privacy_accountant.RdpAccountant()
accountant.compose(dp_event.GaussianDpEvent($sigma), $queries)
"""

_POISSON = """
from dp_accounting import dp_event
event = dp_event.PoissonSampledDpEvent($q, dp_event.GaussianDpEvent($sigma))
"""

_POISSON_PLD = _POISSON + """
from dp_accounting.pld import pld_privacy_accountant
accountant = pld_privacy_accountant.PLDAccountant()
accountant.compose(event, $steps)
"""

_POISSON_RDP = _POISSON + """
from dp_accounting.rdp import rdp_privacy_accountant
accountant = rdp_privacy_accountant.RdpAccountant()
accountant.compose(event, $steps)
"""

LIBRARY = Library("dp-accounting", "dp_accounting", "dp-accounting", (
    Method("PLDAccountant.get_epsilon", "gaussian_epsilon",
           _PLD + "result = accountant.get_epsilon($delta)\n"),
    Method("RdpAccountant.get_epsilon", "gaussian_epsilon",
           _RDP + "result = accountant.get_epsilon($delta)\n"),
    Method("gaussian_mechanism.get_epsilon_gaussian", "gaussian_epsilon", """
import math
from dp_accounting.gaussian_mechanism import get_epsilon_gaussian
result = get_epsilon_gaussian($sigma / math.sqrt($queries), $delta)
"""),
    Method("PLDAccountant.get_delta", "gaussian_delta", _PLD + "result = accountant.get_delta($epsilon)\n"),
    Method("RdpAccountant.get_delta", "gaussian_delta", _RDP + "result = accountant.get_delta($epsilon)\n"),
    Method("gaussian_mechanism.get_sigma_gaussian", "gaussian_sigma", """
import math
from dp_accounting.gaussian_mechanism import get_sigma_gaussian
result = get_sigma_gaussian($epsilon, $delta) * math.sqrt($queries)
"""),
    Method("PLDAccountant Poisson-sampled get_epsilon", "poisson_gaussian_epsilon",
           _POISSON_PLD + "result = accountant.get_epsilon($delta)\n"),
    Method("RdpAccountant Poisson-sampled get_epsilon", "poisson_gaussian_epsilon",
           _POISSON_RDP + "result = accountant.get_epsilon($delta)\n"),
    Method("PLDAccountant Poisson-sampled get_delta", "poisson_gaussian_delta",
           _POISSON_PLD + "result = accountant.get_delta($epsilon)\n"),
    Method("RdpAccountant Poisson-sampled get_delta", "poisson_gaussian_delta",
           _POISSON_RDP + "result = accountant.get_delta($epsilon)\n"),
))
"""dp-accounting's methods."""
