"""The ``privref`` command line: the parser of every command and :func:`main`.

Each command's flags and body live in its own module of :mod:`privref.app.commands` (``audit
blackbox`` and ``blackbox-suite`` in :mod:`privref.app.blackbox_cli` and
:mod:`privref.app.blackbox_suite`).  :func:`main` maps every outcome to one of the documented exit
codes (:data:`EXIT_CODES`, :mod:`.exit_codes`): no traceback reaches the user unless
``PRIVREF_DEBUG=1``.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import traceback
from collections.abc import Sequence
from typing import Any

from privref import reference
from privref.audits.blackbox.errors import TargetFailure
from privref.reference.errors import OutputError, PrivrefError

from .. import blackbox_cli
from . import audit as audit_command
from . import lemmas as lemmas_command
from .exit_codes import (
    EXIT_CODES,
    EXIT_INTERNAL,
    EXIT_NOTHING_CHECKED,
    EXIT_OK,
    EXIT_TARGET,
    EXIT_UNDECIDED,
    EXIT_USAGE,
    EXIT_VIOLATION,
)

__all__ = ["EXIT_CODES", "EXIT_INTERNAL", "EXIT_NOTHING_CHECKED", "EXIT_OK", "EXIT_TARGET",
           "EXIT_UNDECIDED", "EXIT_USAGE", "EXIT_VIOLATION", "main"]

COMMANDS = """\
commands:
  audit            exactly audit every built-in mechanism on its neighbor universe
  audit blackbox   Monte Carlo lower bound on the privacy loss of any callable
  blackbox-suite   run a suite file of black-box audits: one line per target, exit 0 only
                   when every verdict is the expected one and something was checked
  audit-prediction black-box audit of a prediction service (PATE, GNMax, yours) on the
                   natural, poison or query-choosing adversary's pair
  audit-library    run the shipped suite of a DP library (opendp, diffprivlib, pydp,
                   pipelinedp, tmlt): both views, exit 0 only when every verdict is expected
  lemmas           print the lemma ledger (and run its checks with --check)
  learn            learning-curve experiment: labeled/unlabeled sample complexity vs d
  illustrate       illustrations of paper 003 (public data): JSON table and PNG plot
  experiments      sample complexity of the paper 002 predictors: JSON and PNG
  table4           paper 001's Table 4 (PATE-PSQ/ASQ accuracy on Mushroom, a9a): JSON, PNG
  pate-theory      paper 001's rate theorems (rates) and Appendix E margins (margins)
  account KIND     certified accounting, as enclosures: gaussian (calibrate Gaussian
                   noise, ex-post epsilon), dpsgd, compose, convert, calibrate
  check-accountant run a third-party accountant over a grid of tasks and classify each
                   answer against privref's certified enclosure (inside / conservative /
                   unsafe)

Run 'privref COMMAND --help' for the options of a command.
"""


def _needs_extra(extra: str, missing: str, args: argparse.Namespace) -> int:
    """A command whose optional dependencies are absent: a usage error naming the extra."""
    raise PrivrefError(f"the {extra!r} extra is not installed (missing module {missing!r}): "
                       f"pip install 'privref[{extra}]'")


def _wanted(argv: Sequence[str]) -> str | None:
    """The command named on the command line (its first word that is not an option), if any."""
    return next((a for a in argv if not a.startswith("-")), None)


def _parser(wanted: str | None) -> argparse.ArgumentParser:
    """The ``privref`` parser.  The options of blackbox-suite, learn, illustrate, experiments,
    table4 and account are declared only when ``wanted`` names that command (they come from
    modules that import plotting and learning libraries, which ``privref audit`` never needs);
    otherwise those commands keep only their name and description."""
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(
        prog="privref", formatter_class=raw, epilog=EXIT_CODES,
        usage="%(prog)s [-h] [--version] COMMAND ...",
        description="Exact reference implementations of private learners, with auditors.\n\n"
                    + COMMANDS)
    parser.add_argument("--version", action="version", version=f"privref {reference.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", help=argparse.SUPPRESS)

    def command(parent: Any, name: str, description: str) -> argparse.ArgumentParser:
        made: argparse.ArgumentParser = parent.add_parser(
            name.split()[-1], prog=f"privref {name}", formatter_class=raw, epilog=EXIT_CODES,
            description=description)
        return made

    quiet_help = "no progress lines on stderr"
    audit = command(
        sub, "audit",
        "Compute, for every built-in mechanism, the exact worst-case privacy loss over every\n"
        "neighboring pair of its universe and decide its claim soundly (HOLDS / VIOLATED /\n"
        "UNDECIDED).  'privref audit blackbox TARGET ...' audits any callable instead\n"
        "(see 'privref audit blackbox --help').")
    audit_command.configure_parser(audit)
    audit.add_argument("--quiet", action="store_true", help=quiet_help)
    audit.set_defaults(func=audit_command.run)
    audit_kinds = audit.add_subparsers(dest="audit_kind", metavar="KIND",
                                       help="blackbox: audit any callable by sampling")
    blackbox = command(
        audit_kinds, "audit blackbox",
        "Sample TARGET on neighboring inputs and report a lower bound on its privacy loss that\n"
        "holds at the stated confidence (VIOLATION when it exceeds the claim); see\n"
        "docs/blackbox.md.")
    blackbox_cli.configure_parser(blackbox)
    blackbox.set_defaults(func=blackbox_cli.run)
    suite = command(
        sub, "blackbox-suite",
        "Run every black-box audit listed in SUITE (TOML or JSON: targets, claims, pairs,\n"
        "samples, seeds and the expected verdict); one line per target, then a summary of\n"
        "the entries run and skipped and the pairs and samples checked; exit 0 when every\n"
        "verdict is the expected one, 1 when one differs or an entry cannot run, 2 on a bad\n"
        "suite file (checked before any run), 5 when a target failed, 6 when nothing was\n"
        "checked (every entry skipped; --allow-empty: 0) (docs/blackbox.md).")
    if wanted == "blackbox-suite":
        from .. import blackbox_suite
        blackbox_suite.configure_parser(suite)
        suite.set_defaults(func=blackbox_suite.run)
    prediction = command(
        sub, "audit-prediction",
        "Audit a prediction service (fit + predict) black-box on neighboring training sets:\n"
        "one query or a sequence, adversary natural, poison or queries (Chadha et al. 2024);\n"
        "exit 0/1/2/3/5 as audit blackbox (docs/prediction-audit.md).")
    if wanted == "audit-prediction":
        from .. import prediction_cli
        prediction_cli.configure_parser(prediction)
        prediction.set_defaults(func=prediction_cli.run)
    library = command(
        sub, "audit-library",
        "Run the shipped regression suite of a DP library (opendp, diffprivlib, pydp,\n"
        "pipelinedp, tmlt): one line per mechanism and configuration, both views where\n"
        "outputs are floats; exit 0/1/5/6 as blackbox-suite, 6 when the library is not\n"
        "installed, 2 when its version is outside the tested range (docs/library-suites.md).")
    if wanted == "audit-library":
        from .. import library_cli
        library_cli.configure_parser(library)
        library.set_defaults(func=library_cli.run)
    lemmas = command(
        sub, "lemmas",
        "Print every ledger entry with its status; --check runs every check (one progress\n"
        "line per entry on stderr) and exits 1 when a result contradicts its recorded status.")
    lemmas_command.configure_parser(lemmas)
    lemmas.add_argument("--quiet", action="store_true", help=quiet_help)
    lemmas.set_defaults(func=lemmas_command.run)
    learn = command(
        sub, "learn",
        "Run the private learners on thresholds, intervals and rectangles over X_d for growing\n"
        "d; print the empirical labeled and unlabeled sample complexities, and write a JSON\n"
        "table (--json) and a PNG plot (--png) when asked (see docs/learning.md).  One\n"
        "progress line per grid cell on stderr.")
    if wanted == "learn":
        from . import learn as learn_command
        learn_command.configure_parser(learn)
        learn.add_argument("--quiet", action="store_true", help=quiet_help)
        learn.set_defaults(func=learn_command.run)
    illustrate = command(
        sub, "illustrate",
        "littlestone: Ldim vs VC of thresholds; semiprivate: private sample size, fully\n"
        "private vs semi-private, as the domain grows; public: public sample size against\n"
        "alpha and the 1/alpha lower bound (see docs/public-data.md).  Prints the table;\n"
        "writes JSON (--json) and a PNG plot (--png) when asked.")
    if wanted == "illustrate":
        from . import illustrate as illustrate_command
        illustrate_command.configure_parser(illustrate)
        illustrate.add_argument("--quiet", action="store_true", help=quiet_help)
        illustrate.set_defaults(func=illustrate_command.run)
    experiments = command(
        sub, "experiments",
        "Sample complexity of the prediction algorithms of paper 002 (Algorithms 1-3 and the\n"
        "baselines) on thresholds, intervals and unions of two intervals: exact losses given\n"
        "the draws, n* against alpha, JSON and PNG into --out (see\n"
        "docs/prediction-experiments.md).  One progress line per grid point on stderr.")
    if wanted == "experiments":
        from . import experiments as experiments_command
        experiments_command.configure_parser(experiments)
        experiments.add_argument("--quiet", action="store_true", help=quiet_help)
        experiments.set_defaults(func=experiments_command.run)
    table4 = command(
        sub, "table4",
        "001 Table 4's accuracy experiment on real data: PATE-PSQ and PATE-ASQ (Algorithms 3\n"
        "and 5 with Algorithm 1's Gaussian labels) and their non-private baselines on Mushroom\n"
        "and a9a from ../shared/data (or --data-dir; nothing is downloaded), ε in {1/2, 1, 2},\n"
        "30 seeded runs; accuracy, queries and the realized ε_ex_post beside the paper's\n"
        "figures; JSON, PNG and a docs page (see docs/pate-experiments.md).")
    if wanted == "table4":
        try:
            from . import table4 as table4_command
        except ImportError as exc:  # the realdata extra (scipy, scikit-learn) is not installed
            # its flags cannot be declared without the module: accept any, report the extra
            table4.set_defaults(func=functools.partial(_needs_extra, "realdata",
                                                       exc.name or str(exc)), missing_extra=True)
        else:
            table4_command.configure_parser(table4)
            table4.add_argument("--quiet", action="store_true", help=quiet_help)
            table4.set_defaults(func=table4_command.run)
    pate_theory = command(
        sub, "pate-theory",
        "rates: 001 Theorems 10, 22 and 28 measured on finite populations (thresholds and\n"
        "intervals, Massart and Tsybakov noise): PATE-ASQ against PATE-PSQ at equal (epsilon,\n"
        "delta), exact excess risks; margins: 001 Appendix E's teacher margins on a9a\n"
        "(realdata extra).  JSON and PNG into --out (see docs/pate-theory.md).")
    if wanted == "pate-theory":
        try:
            from . import pate_theory as pate_theory_command
        except ImportError as exc:  # pragma: no cover - the module needs numpy only
            pate_theory.set_defaults(func=functools.partial(_needs_extra, "realdata",
                                                            exc.name or str(exc)),
                                     missing_extra=True)
        else:
            pate_theory_command.configure_parser(pate_theory)
            pate_theory.add_argument("--quiet", action="store_true", help=quiet_help)
            pate_theory.set_defaults(func=pate_theory_command.run)
    account = command(
        sub, "account",
        "Certified privacy accounting (see docs/accounting.md); every answer an interval\n"
        "proved to contain the truth, printed with its width:\n"
        "  gaussian   sigma for Q Gaussian queries at (epsilon, delta); --realized R: ex-post eps\n"
        "  dpsgd      epsilon at delta (or delta at epsilon) of K Poisson-subsampled Gaussian\n"
        "             steps, add/remove (certified PLD)\n"
        "  compose    PLD composition of Gaussian, Laplace, randomized response, discrete\n"
        "             Laplace and subsampled Gaussian mechanisms\n"
        "  convert    zCDP (--rho), RDP (--rdp) or Gaussian DP (--mu) to (epsilon, delta)\n"
        "  calibrate  sigma_lo (proved unsafe) and sigma_hi (proved safe) for DP-SGD")
    account_kinds = account.add_subparsers(
        dest="account_kind", metavar="KIND", required=True,
        help="gaussian, dpsgd, compose, convert or calibrate")
    kinds = {
        "gaussian": "Calibrate sigma for Q sensitivity-1 Gaussian queries at (epsilon, delta) "
                    "(analytic\nGaussian mechanism, Balle-Wang 2018) and, with --realized R, the "
                    "epsilon at delta after\nR queries; both printed as proved enclosures "
                    "[lower, upper].",
        "dpsgd": "The epsilon at --delta (or the delta at --epsilon) after K steps of DP-SGD: "
                 "Poisson\nsampling at rate Q, Gaussian noise sigma (clipping norm 1), "
                 "add/remove neighbours,\nthe larger of the two orders of the certified PLD; "
                 "rate 1 is the analytic Gaussian.",
        "compose": "PLD composition of the mechanisms given by --mechanism (each "
                   "KIND:PARAMS[:COUNT]);\nprints the epsilon at --delta or the delta at "
                   "--epsilon and the relation it is for.",
        "convert": "(epsilon, delta) from zCDP (--rho, Canonne-Kamath-Steinke 2020), RDP "
                   "(--rdp, at --delta)\nor Gaussian DP (--mu: the analytic Gaussian with "
                   "that mu), as enclosures.",
        "calibrate": "sigma for K DP-SGD steps at (epsilon, delta): sigma_hi proved "
                     "(epsilon, delta)-DP, sigma_lo\nproved not (certified PLD; rate 1: the "
                     "analytic Gaussian).",
    }
    parsers = {kind: command(account_kinds, f"account {kind}", text)
               for kind, text in kinds.items()}
    if wanted == "account":
        from . import account as account_command
        from . import account_compose, account_convert, account_dpsgd
        account_command.configure_parser(parsers["gaussian"])
        parsers["gaussian"].set_defaults(func=account_command.run, command="account gaussian")
        for kind, configure, run in (
                ("dpsgd", account_dpsgd.configure_dpsgd, account_dpsgd.run_dpsgd),
                ("calibrate", account_dpsgd.configure_calibrate, account_dpsgd.run_calibrate),
                ("compose", account_compose.configure_parser, account_compose.run),
                ("convert", account_convert.configure_parser, account_convert.run)):
            configure(parsers[kind])
            parsers[kind].set_defaults(func=run, command=f"account {kind}")
    check = command(
        sub, "check-accountant",
        "Run the third-party accountant LIBRARY (autodp, dp-accounting, opendp, prv-accountant,\n"
        "or all) over the documented grid of tasks, each call in a child process under\n"
        "--task-timeout and a memory limit, and classify every answer against privref's\n"
        "certified enclosure: inside, conservative (above it), or unsafe (proved below the\n"
        "true value; printed with the code that reproduces it).  Exit 0: nothing unsafe;\n"
        "1: an unsafe bound; 5: the library failed to import, or a call raised, overran or\n"
        "returned NaN; 6: the library is not installed (docs/accountant-check.md).")
    if wanted == "check-accountant":
        from . import check_accountant as check_command
        check_command.configure_parser(check)
        check.set_defaults(func=check_command.run)
    return parser


def _command_name(args: argparse.Namespace) -> str:
    name = str(getattr(args, "command", None) or "")
    if name == "audit" and getattr(args, "audit_kind", None):
        name += f" {args.audit_kind}"
    return f"privref {name}" if name else "privref"


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``privref`` console script; returns the exit status.

    Guarantee: the status is one of :data:`EXIT_CODES` (130 on Ctrl-C); every failure ends in
    one stderr line ``privref CMD: error: MESSAGE`` (usage errors, OutputError) or ``privref
    CMD: internal error: TYPE: MESSAGE`` (anything unexpected), with a traceback only when
    the environment sets ``PRIVREF_DEBUG=1``.
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    wanted = _wanted(argv)
    parser = _parser(wanted)
    try:
        args, unknown = parser.parse_known_args(argv)
        if unknown and not getattr(args, "missing_extra", False):
            parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    except SystemExit as exc:  # argparse: --help / --version (0) or a usage error (2)
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    if args.command is None:
        parser.print_usage(sys.stderr)
        print("privref: error: a COMMAND is required (audit, audit blackbox, blackbox-suite, lemmas, learn, "
              "illustrate, experiments, table4, pate-theory, account, check-accountant); "
              "see 'privref --help'", file=sys.stderr)
        return EXIT_USAGE
    cmd = _command_name(args)
    debug = os.environ.get("PRIVREF_DEBUG") == "1"
    try:
        status: int = args.func(args)
        sys.stdout.flush()
    except OutputError as exc:
        if debug:
            traceback.print_exc()
        print(f"{cmd}: error: {_one_line(exc)}", file=sys.stderr)
        return EXIT_INTERNAL
    except TargetFailure as exc:  # the audited target failed: nothing was concluded
        if debug:
            traceback.print_exc()
        print(f"{cmd}: error: {_one_line(exc)}", file=sys.stderr)
        return EXIT_TARGET
    except PrivrefError as exc:
        if debug:
            traceback.print_exc()
        print(f"{cmd}: error: {_one_line(exc)}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"{cmd}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader of stdout went away (``privref lemmas | head``): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        print(f"{cmd}: error: standard output was closed early", file=sys.stderr)
        return EXIT_INTERNAL
    except Exception as exc:  # the last resort (MemoryError, RecursionError included)
        if debug:
            traceback.print_exc()
        print(f"{cmd}: internal error: {type(exc).__name__}: {_one_line(exc)}", file=sys.stderr)
        return EXIT_INTERNAL
    return status


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or "(no message)"


if __name__ == "__main__":
    sys.exit(main())
