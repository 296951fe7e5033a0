"""The black-box auditor's validation corpus: a zoo of mechanisms with known true privacy loss
(correct and deliberately broken variants) and the oracle bound of an auditor that knows the
best event.  Used by the tests and benchmarks to measure the auditor; not part of the auditor.
"""
