"""``privref.testing``: black-box privacy audits as pytest tests, with the false-alarm
probability of the whole run stated and bounded (a union bound over the audits).

The pytest plugin itself is :mod:`privref.app.pytest_plugin`, registered as the ``pytest11``
entry point ``privref`` when privref is installed; this module re-exports its public names::

    import privref
    import privref.testing

    @privref.testing.audit(samples=20_000)
    @privref.declare(epsilon="ln(3)", relation="substitution", pairs=[([0], [1])])
    def test_randomized_response(data, rng):
        return data[0] if rng.random() < 0.75 else 1 - data[0]

Importing it imports pytest.  Usage, options and the proof: docs/pytest-plugin.md.
"""

from .app.pytest_plugin import (
    DEFAULT_CONFIDENCE,
    DEFAULT_SAMPLES,
    AuditDecorator,
    AuditRecord,
    AuditSpec,
    audit,
    privref_audit,
    union_bound,
)

__all__ = ["DEFAULT_CONFIDENCE", "DEFAULT_SAMPLES", "AuditDecorator", "AuditRecord", "AuditSpec",
           "audit", "privref_audit", "union_bound"]
