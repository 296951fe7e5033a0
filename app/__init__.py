"""privref's application layer: the ``privref`` command, the built-in audit suite, the paper
experiments (learning curves, illustrations) and the HTML presentation of black-box reports.

Dependencies point one way: this layer imports :mod:`privref.audits` and :mod:`privref.proofs`,
which import :mod:`privref.reference`; nothing below imports this layer.
"""
