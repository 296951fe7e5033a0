"""Bad-input cases for ``privref check-accountant``: usage errors exit 2 naming the argument; a
JSON path that cannot be written mid-run exits 3.  A library that is not installed (exit 6), fails
to import or raises (exit 5) is covered in tests/app/test_check_accountant.py, where a stand-in
library can be put on the path."""

from __future__ import annotations

from .harness import EXIT_INTERNAL, EXIT_TARGET, Case

_ONE = ("--only", "delta-s1.0-R1-e1.0")


def _cli(id: str, names: str, *argv: str, exit_code: int = 2) -> Case:
    return Case(id=id, names=names, argv=("check-accountant", *argv), exit_code=exit_code)


CASES: list[Case] = [
    _cli("check-accountant-no-library", "LIBRARY|library"),
    _cli("check-accountant-unknown-library", "LIBRARY='tensorflow-privacy'", "tensorflow-privacy"),
    _cli("check-accountant-timeout-zero", "--task-timeout", "autodp", "--task-timeout", "0"),
    _cli("check-accountant-timeout-negative", "--task-timeout", "autodp", "--task-timeout", "-1"),
    _cli("check-accountant-timeout-nan", "--task-timeout", "autodp", "--task-timeout", "nan"),
    _cli("check-accountant-timeout-huge", "--task-timeout", "autodp", "--task-timeout", "1e9"),
    _cli("check-accountant-only-nothing", "--only", "autodp", "--only", "no-such-task"),
    _cli("check-accountant-only-other-kind", "--only.*selects no task dp-accounting answers",
         "dp-accounting", "--only", "zcdp"),
    _cli("check-accountant-json-is-directory", "--json", "autodp", *_ONE, "--json", "{cwd}"),
    _cli("check-accountant-json-dev-full", "--json", "autodp", *_ONE, "--json", "/dev/full",
         exit_code=EXIT_INTERNAL),
    _cli("check-accountant-overrun", "overran|timeout", "autodp", "--only", "eps-s300.0-R100000",
         "--task-timeout", "1e-6", exit_code=EXIT_TARGET),
]
