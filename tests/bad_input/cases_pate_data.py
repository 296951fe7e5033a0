"""Malformed inputs to paper 001's data, teachers and students (PATE).

Covers privref.app.datasets (the LIBSVM reader and the registry of known data sets),
privref.reference.learners.pate_teachers (per-record teacher assignment), reference/learners/
pate_students.py (the ERM student and 001 Algorithm 4) and privref.app.pate_students_sklearn (the
linear students).  Each case must end in one typed privref error whose one-line message names
the argument, and for file content the path and line (see harness.py).
"""

from __future__ import annotations

from collections.abc import Mapping

from .harness import Case

_HEAD = """
from fractions import Fraction
import numpy as np
from privref.app.experiments.datasets import load_known, load_libsvm
from privref.reference.concepts import thresholds_on
from privref.reference.learners.pate_teachers import assign_teachers, assign_teachers_by
from privref.reference.learners.pate_students import disagreement_active_learner, erm_student
C = thresholds_on(4)
"""


def _api(id: str, names: str, body: str, error: str = "PrivrefError",
         files: Mapping[str, str | bytes] | None = None) -> Case:
    return Case(id=id, names=names, api=_HEAD + body, error=error, files=files or {})


CASES: list[Case] = [
    # ---------------------------------------------------------------- LIBSVM reader
    _api("libsvm-missing-file", r"path='.*nope\.txt' cannot be read",
         "load_libsvm('{cwd}/nope.txt')", error="InvalidArgument"),
    _api("libsvm-directory", r"path='.*sub' is a directory",
         "load_libsvm('{cwd}/sub')", error="InvalidArgument", files={"sub/x.txt": "+1 1:1\n"}),
    _api("libsvm-malformed-line", r"path='.*bad\.txt' line 3: '1-1' is not of the form",
         "load_libsvm('{cwd}/bad.txt')", error="InvalidArgument",
         files={"bad.txt": "+1 1:1\n-1 2:1\n+1 1-1\n"}),
    _api("libsvm-non-binary-label", r"path='.*bad\.txt' line 2: label '3' is not binary",
         "load_libsvm('{cwd}/bad.txt')", error="UnknownLabel",
         files={"bad.txt": "1 1:1\n3 2:1\n"}),
    _api("libsvm-mixed-label-encodings", r"line 2: label '-1' mixes",
         "load_libsvm('{cwd}/bad.txt')", error="UnknownLabel", files={"bad.txt": "0 1:1\n-1 2:1\n"}),
    _api("libsvm-index-out-of-range", r"line 1: feature index 200 is out of range: n_features=126",
         "load_libsvm('{cwd}/bad.txt', n_features=126)", error="InvalidArgument",
         files={"bad.txt": "1 1:1 200:1\n"}),
    _api("libsvm-empty-file", r"path='.*empty\.txt' holds no example", "load_libsvm('{cwd}/empty.txt')",
         error="EmptyDataset", files={"empty.txt": ""}),
    _api("libsvm-over-size-limit", r"path='.*big\.txt' holds 14 bytes, over max_bytes=10",
         "load_libsvm('{cwd}/big.txt', max_bytes=10)", error="InvalidArgument",
         files={"big.txt": "1 1:1\n0 2:1\n\n\n"}),
    _api("libsvm-not-utf8", r"line 1: is not UTF-8", "load_libsvm('{cwd}/bin.txt')",
         error="InvalidArgument", files={"bin.txt": b"\xff\xfe 1:1\n"}),
    _api("known-unknown-name", r"name='real-sim'", "load_known('real-sim', '{cwd}')",
         error="InvalidArgument"),
    _api("known-missing-files", r"agaricus\.txt\.train.*cannot be read", "load_known('mushroom', '{cwd}')",
         error="InvalidArgument"),
    # ---------------------------------------------------------------- teachers
    _api("teachers-K-larger-than-data", r"K=4 must be <= 3, the number of records",
         "assign_teachers([b'a', b'b', b'c'], 4, 0)", error="InvalidArgument"),
    _api("teachers-K-zero", r"K=0 must be >= 1", "assign_teachers([b'a'], 0, 0)",
         error="InvalidArgument"),
    _api("teachers-K-by-rule-too-large", r"K=2 must be <= 1", "assign_teachers_by([0], 2, lambda k: 0)",
         error="InvalidArgument"),
    _api("teachers-key-float", r"record_keys\[0\]=0.5", "assign_teachers([0.5], 1, 0)",
         error="InvalidArgument"),
    _api("teachers-negative-seed", r"seed=-1", "assign_teachers([1], 1, -1)", error="InvalidArgument"),
    # ---------------------------------------------------------------- students
    _api("algorithm4-budget-zero", r"budget=0 must be >= 1",
         "disagreement_active_learner(C, [0, 1], C[2], budget=0, U=lambda j, g: 0)",
         error="InvalidArgument"),
    _api("algorithm4-negative-U", r"U\(1, gamma_j\)=-1/2 must be >= 0",
         "disagreement_active_learner(C, [0, 1], C[2], budget=2, U=lambda j, g: Fraction(-1, 2))",
         error="InvalidArgument"),
    _api("erm-student-bad-label", r"pseudo_labels\[1\]=7", "erm_student(C, [0, 1], [0, 7])",
         error="InvalidArgument"),
    _api("active-logistic-budget-zero", r"budget=0 must be >= 1",
         "from privref.app.experiments.pate_students_sklearn import active_logistic_student\n"
         "active_logistic_student(np.eye(3), lambda j: 0, budget=0, seed=0)", error="InvalidArgument"),
]
