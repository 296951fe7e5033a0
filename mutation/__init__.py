"""privref's own mutation harness: named semantic operators, a scratch copy, the tests.

Run with ``python -m mutation`` (see docs/mutation.md).  Not part of the 15-minute CI.
"""
