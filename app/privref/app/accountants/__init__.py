"""Third-party accountants checked against privref's certified accountants (``privref check-accountant``).

:mod:`.tasks` holds the documented grid of tasks, :mod:`.certify` privref's enclosure of each and
the exact classification of an answer, :mod:`.worker` the subprocess that runs a library under a
time and memory limit, and one small module per library (:mod:`.autodp`, :mod:`.prv_accountant`,
:mod:`.opendp`, :mod:`.dp_accounting`) maps a task to that library's calls.  See
docs/accountant-check.md.
"""
