"""One front door for pairs and claims (issue 32, items 4 and 5; "What to build" item 3).

Every entry point (``privref audit blackbox``, suites, ``assert_private``, ``run_audit``) checks
given pairs under the relation in force (NotNeighboring naming the pair, the relation and the
distance); public config and declaration value types refuse bad fields at construction; and
contradictory declarations (stacked ``@declare``, a ``--relation`` against the declared one, a
declared size 0 under substitution, a repeated ``--point``, ``epsilon`` with ``rho``) are
errors, never silently merged or dropped.
"""

from __future__ import annotations

from .harness import EXIT_OK, EXIT_USAGE, Case

MECH = '''
from privref.audits.blackbox import declare


def laplace(data, rng):
    return sum(data) + rng.laplace(0, 1.0)


@declare(epsilon=1, relation="add-remove")
def count(data, rng):
    return len(data) + rng.laplace(0, 1.0)
'''

EPS_AND_RHO = '''
def f(data, rng):
    return data[0]


f.privref_claim = {"epsilon": 1, "rho": 1}
'''

STACKED = '''
from privref.audits.blackbox import declare


@declare(relation="add-remove")
@declare(epsilon=1)
def f(data, rng):
    return data[0]
'''

SIZE_ZERO_SUB = '''
from privref.audits.blackbox import declare


@declare(epsilon=1, relation="substitution", sizes=[0, 1])
def f(data, rng):
    return len(data)
'''

SIZE_ZERO = '''
from privref.audits.blackbox import declare


@declare(epsilon=1, sizes=[0])
def f(data, rng):
    return len(data) + rng.laplace(0, 1.0)
'''

FILES: dict[str, str | bytes] = {"mech.py": MECH}

HEAD = ("import sys; sys.path.insert(0, '{cwd}')\n"
        "from mech import laplace, count\n"
        "from privref.audits.blackbox import AuditConfig, run_audit, target_from_callable\n"
        "from privref.audits.blackbox.api import assert_private\n")

BB = ("audit", "blackbox")
COUNT = (*BB, "mech.py:count", "--workers", "1", "--quiet", "--seed", "1", "--samples", "200")
LAP = (*BB, "mech.py:laplace", "--epsilon", "1", "--workers", "1", "--quiet", "--seed", "1",
       "--samples", "200")


def _api(id: str, names: str, code: str, error: str = "PrivrefError") -> Case:
    return Case(id=f"decl-api-{id}", names=names, api=HEAD + code, error=error, files=FILES)


def _cli(id: str, names: str, *argv: str, files: dict[str, str | bytes] | None = None,
         exit_code: int = EXIT_USAGE) -> Case:
    return Case(id=f"decl-cli-{id}", names=names, argv=argv, exit_code=exit_code,
                files={**FILES, **(files or {})})


CASES: list[Case] = [
    # item 4: run_audit checks neighbourhood under the relation in force (default substitution)
    _api("run-audit-not-neighboring",
         r"\[0, 0, 0\] vs \[1, 1, 1\] is not neighboring under substitution.*distance 3",
         "run_audit(target_from_callable(laplace), AuditConfig(epsilon=1, samples=200), "
         "[([0, 0, 0], [1, 1, 1])])", error="NotNeighboring"),
    _api("run-audit-declared-relation", r"\[0\] vs \[1\] is not neighboring under add-remove",
         "run_audit(target_from_callable(count), AuditConfig(epsilon=1, samples=200), "
         "[([0], [1])])", error="NotNeighboring"),
    _api("run-audit-group-too-far", r"\[0, 0, 0\] vs \[1, 1, 1\] is at distance 3.*--group 2",
         "run_audit(target_from_callable(laplace), AuditConfig(epsilon=1, samples=200, group=2), "
         "[([0, 0, 0], [1, 1, 1])])", error="NotNeighboring"),
    _api("assert-private-not-neighboring", r"pairs entry \[0, 0\] vs \[1, 1\].*distance 2",
         "assert_private(laplace, epsilon=1, pairs=[([0, 0], [1, 1])], samples=200)",
         error="NotNeighboring"),
    _api("run-audit-pairs-not-a-list", r"pairs=5 must be a list of pairs",
         "run_audit(target_from_callable(laplace), AuditConfig(epsilon=1, samples=200), 5)",
         error="InvalidArgument"),
    _api("run-audit-target-a-string", r"target='mech.py:laplace' must be a Target",
         "run_audit('mech.py:laplace', AuditConfig(epsilon=1, samples=200), [([0], [1])])",
         error="InvalidArgument"),
    # item 4: numeric configs refuse bad values at construction, naming the field
    _api("config-relation-bad-name", r"relation='bogus' must be one of substitution",
         "AuditConfig(epsilon=1, relation='bogus')", error="InvalidArgument"),
    _api("config-relation-not-a-relation", r"relation=3 must be None, a name",
         "AuditConfig(epsilon=1, relation=3)", error="InvalidArgument"),
    _api("config-progress-not-bool", r"progress=3 must be True or False",
         "AuditConfig(epsilon=1, progress=3)", error="InvalidArgument"),
    _api("config-float-events-not-bool", r"float_events='no' must be True or False",
         "AuditConfig(epsilon=1, float_events='no')", error="InvalidArgument"),
    _api("config-checkpoint-not-a-path", r"checkpoint=5 must be None or a file path",
         "AuditConfig(epsilon=1, checkpoint=5)", error="InvalidArgument"),
    _api("config-duplicate-points", r"points\[1\].*\(2, 0\) repeats points\[0\]",
         "from privref.reference.privacy import PrivacyClaim\n"
         "AuditConfig(epsilon=1, points=(PrivacyClaim.of(2), PrivacyClaim.of(2)))",
         error="InvalidArgument"),
    _api("config-point-repeats-claim", r"points\[0\].*repeats the claim's own point",
         "from privref.reference.privacy import PrivacyClaim\n"
         "AuditConfig(epsilon=1, points=(PrivacyClaim.of(1),))", error="InvalidArgument"),
    _api("input-domain-bad-sizes", r"sizes=\(-1,\) must be None or a non-empty list of ints",
         "from privref.audits.blackbox.declarations import InputDomain\n"
         "InputDomain(sizes=(-1,))", error="InvalidArgument"),
    _api("input-domain-bad-bounds", r"bounds=\(3, 1\): low > high",
         "from privref.audits.blackbox.declarations import InputDomain\n"
         "InputDomain(bounds=(3, 1))", error="InvalidArgument"),
    _api("library-version-bad-source", r"source='guessed' must be one of declared, registered",
         "from privref.audits.blackbox.declarations import LibraryVersion\n"
         "LibraryVersion('numpy', None, 'guessed')", error="InvalidArgument"),
    _api("declaration-pairs-not-neighbors", r"\[0, 0\] and \[1, 1\] are not neighbors",
         "from privref.audits.blackbox.declarations import Declaration\n"
         "from privref.reference.neighbors import Substitution\n"
         "Declaration(relation=Substitution(), pairs=(((0, 0), (1, 1)),))",
         error="InvalidArgument"),
    _api("declaration-size-zero-substitution", r"size 0 cannot be searched under substitution",
         "from privref.audits.blackbox.declarations import Declaration, InputDomain\n"
         "from privref.reference.neighbors import Substitution\n"
         "Declaration(relation=Substitution(), domain=InputDomain(sizes=(0, 1)))",
         error="InvalidArgument"),
    # item 5: contradictory declarations
    _api("stacked-declare", r"declare\(\): 'f' already declares privref_claim",
         "from privref.audits.blackbox import declare\n"
         "@declare(relation='add-remove')\n@declare(epsilon=1)\ndef f(data, rng):\n"
         "    return data[0]\n", error="TargetLoadError"),
    _api("declare-size-zero-substitution", r"size 0 cannot be searched under substitution",
         "from privref.audits.blackbox import declare\n"
         "declare(epsilon=1, relation='substitution', sizes=[0])", error="TargetLoadError"),
    _api("assert-private-relation-contradicts",
         r"substitution contradicts the relation the target declares, add-remove.*"
         r"override_relation=True",
         "assert_private(count, relation='substitution', pairs=[([0], [1])], samples=200)",
         error="InvalidArgument"),
    _api("assert-private-override-not-bool", r"override_relation='yes' must be True or False",
         "assert_private(count, relation='substitution', override_relation='yes', "
         "pairs=[([0], [1])], samples=200)", error="InvalidArgument"),
    _cli("relation-contradicts-declared",
         r"--relation .*substitution contradicts the relation the target declares, add-remove"
         r".*--override-declared-relation",
         *COUNT, "--relation", "substitution", "--pair", "[0]", "[1]"),
    Case(id="decl-cli-relation-override-is-reported", names="", argv=(
        *COUNT, "--relation", "substitution", "--override-declared-relation", "--pair", "[0]",
        "[1]", "--confidence", "0.9999999"), exit_code=EXIT_OK, files=FILES,
        verdict=r"relation +substitution \(OVERRIDDEN",
        stderr=r"warning: relation OVERRIDDEN"),
    _cli("duplicate-point", r"--point 2 0 is given twice",
         *LAP, "--pair", "[0]", "[1]", "--point", "2", "0", "--point", "2", "0"),
    _cli("point-repeats-the-claim", r"--point.*\(1, 0\) repeats the claim's own point",
         *LAP, "--pair", "[0]", "[1]", "--point", "1", "0"),
    _cli("epsilon-and-rho", r"'epsilon' and 'rho' are alternatives.*accepted key sets",
         *BB, "f.py:f", "--pair", "[0]", "[1]", files={"f.py": EPS_AND_RHO}),
    _cli("stacked-declare", r"already declares privref_claim.*one declare",
         *BB, "f.py:f", "--pair", "[0]", "[1]", files={"f.py": STACKED}),
    _cli("declared-size-zero-under-substitution", r"size 0 cannot be searched under substitution",
         *BB, "f.py:f", "--quiet", files={"f.py": SIZE_ZERO_SUB}),
    _cli("declared-size-zero-defaulted-substitution",
         r"--relation: .*sizes \[0\]: size 0 cannot be searched under substitution",
         *BB, "f.py:f", "--quiet", "--workers", "1", "--samples", "200",
         files={"f.py": SIZE_ZERO}),
    _cli("pair-not-neighboring-distance",
         r"--pair \[0, 0, 0\] vs \[1, 1, 1\] is not neighboring under substitution.*distance 3",
         *LAP, "--pair", "[0,0,0]", "[1,1,1]"),
]
