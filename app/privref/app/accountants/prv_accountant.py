"""prv_accountant (Gopi, Lee, Wutschitz 2021): the PRV accountant's upper bound and estimate, for
R Gaussian queries and for k steps of ``PoissonSubsampledGaussianMechanism`` (DP-SGD, add/remove),
and its σ search ``find_noise_multiplier`` (at sampling probability 1).

Its error parameters are the ones its documentation calls typical: eps_error 10⁻² and
delta_error δ/1000 for ε; for δ(ε), eps_error 10⁻² and delta_error 10⁻¹².  Its lower bound is not
classified (a lower bound below the truth is not a privacy claim).
"""

from __future__ import annotations

from .adapter import Library, Method

__all__ = ["LIBRARY"]

_PRV = """
from prv_accountant import PRVAccountant
from prv_accountant.privacy_random_variables import GaussianMechanism
"""

_POISSON = """
from prv_accountant import PRVAccountant
from prv_accountant.privacy_random_variables import PoissonSubsampledGaussianMechanism
prv = PoissonSubsampledGaussianMechanism(sampling_probability=$q, noise_multiplier=$sigma)
"""

LIBRARY = Library("prv-accountant", "prv_accountant", "prv-accountant", (
    Method("PRVAccountant.compute_epsilon", "gaussian_epsilon", _PRV + """
accountant = PRVAccountant(prvs=[GaussianMechanism(noise_multiplier=$sigma)],
                           max_self_compositions=[$queries], eps_error=1e-2,
                           delta_error=$delta / 1000)
low, estimate, upper = accountant.compute_epsilon(delta=$delta, num_self_compositions=[$queries])
result = (upper, estimate)
""", (("upper", "bound"), ("estimate", "estimate"))),
    Method("PRVAccountant.compute_delta", "gaussian_delta", _PRV + """
accountant = PRVAccountant(prvs=[GaussianMechanism(noise_multiplier=$sigma)],
                           max_self_compositions=[$queries], eps_error=1e-2, delta_error=1e-12)
low, estimate, upper = accountant.compute_delta(epsilon=$epsilon, num_self_compositions=[$queries])
result = (upper, estimate)
""", (("upper", "bound"), ("estimate", "estimate"))),
    Method("PRVAccountant Poisson-subsampled compute_epsilon", "poisson_gaussian_epsilon",
           _POISSON + """
accountant = PRVAccountant(prvs=[prv], max_self_compositions=[$steps], eps_error=1e-2,
                           delta_error=$delta / 1000)
low, estimate, upper = accountant.compute_epsilon(delta=$delta, num_self_compositions=[$steps])
result = (upper, estimate)
""", (("upper", "bound"), ("estimate", "estimate"))),
    Method("PRVAccountant Poisson-subsampled compute_delta", "poisson_gaussian_delta", _POISSON + """
accountant = PRVAccountant(prvs=[prv], max_self_compositions=[$steps], eps_error=1e-2,
                           delta_error=1e-12)
low, estimate, upper = accountant.compute_delta(epsilon=$epsilon, num_self_compositions=[$steps])
result = (upper, estimate)
""", (("upper", "bound"), ("estimate", "estimate"))),
    Method("dpsgd.find_noise_multiplier", "gaussian_sigma", """
from prv_accountant.dpsgd import find_noise_multiplier
result = find_noise_multiplier(sampling_probability=1.0, num_steps=$queries,
                               target_epsilon=$epsilon, target_delta=$delta)
"""),
))
"""prv_accountant's methods."""
