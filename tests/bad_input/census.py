"""The bad-input corpus's census: how many cases end in each class (harness.CLASSES).

``python -m tests.bad_input.census`` runs every case once (as the test does) and prints one
line per class and the cases that are not clean or ok; the closing notes of issues quote it.
"""

from __future__ import annotations

import collections
import sys

from .harness import CLASSES, classify, run_all
from .test_bad_input import CASES


def main() -> int:
    """Print the census; exit 0 when every case is clean or ok."""
    outcomes = run_all(CASES)
    counts = collections.Counter(classify(o) for o in outcomes.values())
    print(f"{len(CASES)} cases")
    for name in CLASSES:
        print(f"  {name:13} {counts.get(name, 0)}")
    bad = sorted((classify(o), o.case.id) for o in outcomes.values()
                 if classify(o) not in ("clean", "ok"))
    for kind, case_id in bad:
        print(f"{kind}: {case_id}")
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
