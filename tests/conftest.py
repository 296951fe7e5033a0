"""Shared test configuration: hypothesis profiles and the statistical-test constants.

Profiles: ``ci`` (default; derandomized, bounded examples, no deadline) and
``deep`` (many more examples, for local runs: HYPOTHESIS_PROFILE=deep pytest).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=40, derandomize=True, deadline=None,
                          database=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("deep", max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
