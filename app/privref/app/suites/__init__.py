"""The built-in audit suite of ``privref audit``.

:func:`.builtin.builtin_audits` lists every exact-audit row (:class:`.row.BuiltinAudit`): the
reference mechanisms' (:mod:`.builtin`), the learners of papers 000/003/004 (:mod:`.learners`)
and paper 001's mechanisms (:mod:`.pate`); :func:`.prediction.prediction_audits` lists the
predictors of paper 002, audited per query point.
"""
