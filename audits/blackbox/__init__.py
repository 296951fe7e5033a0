"""The black-box auditor: Monte Carlo lower bounds on the privacy loss of any callable.

Work in progress (issue 3).  The public names are re-exported here as they land.
"""

__all__: list[str] = []
