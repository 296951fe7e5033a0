"""``privref audit-library NAME``: run the shipped regression suite of one DP library (issue 37).

The suites live in :mod:`privref.audits.libraries` (one per library of
:data:`~privref.audits.libraries.LIBRARIES`: OpenDP, diffprivlib, PyDP, PipelineDP, Tumult Core):
correct and deliberately misconfigured configurations of the library's public mechanisms, each
with the verdict it must get, in both views (IEEE-754 and real arithmetic) where outputs are
floats.  The run is that of ``privref blackbox-suite`` on the shipped file (one line per entry,
the false-alarm bound of the run and the summary on stderr, ``--json``, ``--html``), after two
checks:

* the library is installed (else one ``error:`` line naming the extra that installs it, exit 6:
  nothing was checked);
* its version is in the range the suite was checked against (else a usage error, exit 2, naming
  the installed version and the range; ``--any-version`` runs anyway and records it).

``--list`` prints the entries, ``--coverage`` the library's coverage table (every public
noise-adding mechanism, covered by which entries or why not), ``--coverage-markdown PATH``
writes ``docs/library-coverage.md`` for every library; none of them needs the library.

Exit status: that of ``privref blackbox-suite`` (0 every verdict as expected, 1 a verdict
differs or an entry could not run, 5 a target failed, 6 nothing checked), 2 on a usage error.
"""

from __future__ import annotations

import argparse
import sys

from privref.audits.blackbox.runner import MAX_WORKERS
from privref.audits.libraries import (
    LIBRARIES,
    UnsupportedVersion,
    coverage_markdown,
    library_suite,
    read_coverage,
)
from privref.reference.errors import InvalidArgument

from . import blackbox_cli
from .blackbox_suite import check_budget, load_suite, run_cases
from .commands.exit_codes import EXIT_NOTHING_CHECKED, EXIT_OK
from .reports.output import check_output_path, write_text_atomic

__all__ = ["configure_parser", "run"]

_PREFIX = "privref audit-library"


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``audit-library`` arguments to ``parser``."""
    parser.add_argument("name", metavar="NAME", nargs="?",
                        help=f"the library: {', '.join(LIBRARIES)}")
    parser.add_argument("--json", metavar="PATH", help="write every report, the summary, the "
                        "false-alarm bound and the exit status to PATH")
    parser.add_argument("--html", metavar="PATH", help="write an HTML page, one row per entry")
    parser.add_argument("--only", metavar="TEXT", action="append",
                        help="run only entries whose name contains TEXT (repeatable)")
    parser.add_argument("--workers", default="2", metavar="W",
                        help="worker processes per audit unless an entry sets them (default 2)")
    parser.add_argument("--any-version", action="store_true",
                        help="run even when the installed version is outside the tested range")
    parser.add_argument("--list", action="store_true", help="print the entries and exit")
    parser.add_argument("--coverage", action="store_true",
                        help="print the library's coverage table and exit")
    parser.add_argument("--coverage-markdown", metavar="PATH",
                        help="write the coverage table of every library (docs/library-coverage.md)")


def run(args: argparse.Namespace) -> int:
    """Run the shipped suite of ``args.name`` (see the module docstring); the exit status."""
    if args.coverage_markdown:
        target = check_output_path("--coverage-markdown", args.coverage_markdown)
        write_text_atomic(target, coverage_markdown(), flag="--coverage-markdown")
        if args.name is None:
            return EXIT_OK
    if args.name is None:
        raise InvalidArgument(f"NAME is required: one of {', '.join(LIBRARIES)}")
    lib = library_suite(args.name)
    blackbox_cli._int(args.workers, "--workers", 1, MAX_WORKERS)
    for flag in ("json", "html"):
        if getattr(args, flag):
            check_output_path(f"--{flag}", getattr(args, flag))
    cases = load_suite(lib.suite_file)
    if args.only:
        cases = tuple(c for c in cases if any(o in c.name for o in args.only))
        if not cases:
            raise InvalidArgument(f"--only {args.only}: no entry of the {lib.name} suite matches")
    if args.list or args.coverage:
        if args.list:
            for case in cases:
                real = f", real {case.expect_real}" if case.expect_real else ""
                print(f"{case.name}  expect {case.expect}{real}  samples {case.samples:,}")
        if args.coverage:
            for row in read_coverage(lib.name):
                where = ", ".join(row.entries) if row.entries else f"not covered: {row.reason}"
                print(f"{row.api}  [{row.noise}]  {where}")
        return EXIT_OK
    check_budget(cases, f"the {lib.name} suite")
    version = lib.installed()
    if version is None:
        print(f"{_PREFIX}: error: nothing was checked: {lib.distribution} is not installed here; "
              f"pip install 'privref[{lib.extra}]' (tested: {lib.distribution}"
              f"{lib.tested_text})", file=sys.stderr)
        return EXIT_NOTHING_CHECKED
    note = ""
    try:
        lib.check_version(version)
    except UnsupportedVersion:
        if not args.any_version:
            raise
        note = (f"{lib.distribution} {version} is outside the tested range {lib.tested_text} "
                "(--any-version)")
        print(f"warning: {note}", file=sys.stderr)
    header = [f"library {lib.distribution} {version} (tested {lib.tested_text})"]
    if note:
        header.append(f"warning: {note}")
    print(header[0], file=sys.stderr)
    return run_cases(cases, args.workers, json_path=args.json, source=lib.suite_file,
                     prefix=_PREFIX, html_path=args.html, header=header,
                     extra_json={"library": lib.distribution, "library_version": version,
                                 "tested_range": lib.tested_text,
                                 "untested_version": bool(note)})
