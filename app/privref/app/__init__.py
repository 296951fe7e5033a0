"""privref's application layer: the ``privref`` command, the built-in audit suite, the paper
experiments (learning curves, illustrations, paper 002's predictors, paper 001's Table 4) and what
they write (JSON, Markdown, PNG, the HTML presentation of black-box reports).

Subpackages by role: :mod:`.commands` (the argparse front end and one module per command),
:mod:`.suites` (the built-in audit suite), :mod:`.experiments` (the experiments, their data and
students) and :mod:`.reports` (the output writers, the Markdown page and the plots).
:mod:`.cli` is the console entry point; :mod:`.blackbox_cli` and :mod:`.blackbox_suite` are
``privref audit blackbox`` and ``privref blackbox-suite``; :mod:`.checkout` finds the source
checkout.

Dependencies point one way: this layer imports :mod:`privref.audits` and :mod:`privref.proofs`,
which import :mod:`privref.reference`; nothing below imports this layer.
"""

if __name__ != "privref.app":  # one importable name per module (docs/layout.md)
    raise ImportError(f"import privref.app, not {__name__}: this folder is privref.app")
