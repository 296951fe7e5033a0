"""privref's application layer: the ``privref`` command, the built-in audit suite, the paper
experiments (learning curves, illustrations) and the HTML presentation of black-box reports.

Dependencies point one way: this layer imports :mod:`privref.audits` and :mod:`privref.proofs`,
which import :mod:`privref.reference`; nothing below imports this layer.
"""

if __name__ != "privref.app":  # one importable name per module (docs/layout.md)
    raise ImportError(f"import privref.app, not {__name__}: this folder is privref.app")
