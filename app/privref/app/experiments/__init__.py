"""The paper experiments behind ``privref learn``, ``illustrate``, ``experiments`` and ``table4``.

:mod:`.learning` (learning curves of the private learners), :mod:`.illustrations` (paper 003's
illustrations), :mod:`.prediction` (paper 002's sample complexities) and :mod:`.pate` (paper
001's Table 4 on real data, with :mod:`.datasets`, :mod:`.pate_students_sklearn` and the
paper's printed figures in :mod:`.paper_table4`).  Each computes results as plain data; the
command lines are in :mod:`privref.app.commands`, the files they write in
:mod:`privref.app.reports`.
"""
