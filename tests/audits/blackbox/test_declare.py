"""Targets that declare themselves: attributes and decorator, validation, the audited point of a
zCDP or profile claim, the search space from the declared domain, libraries, registration."""

from __future__ import annotations

import itertools
import json
import textwrap
from collections.abc import Hashable
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from privref.app.blackbox_cli import run
from privref.audits.blackbox import adapters
from privref.audits.blackbox.declarations import (
    DEFAULTED_RELATION,
    ZCDP_DELTAS,
    InputDomain,
    LibraryVersion,
    ProfileClaim,
    ZCDPClaim,
    audited_point,
    claim_json,
    declare,
    detect_libraries,
    profile_points,
    read_declaration,
    relation_in_force,
    search_space,
)
from privref.audits.blackbox.runner import AuditConfig, run_audit
from privref.audits.blackbox.search import candidate_pairs
from privref.audits.blackbox.target import TargetLoadError, load_target, target_from_callable
from privref.reference.accounting import zcdp_epsilon, zcdp_to_dp_epsilon
from privref.reference.errors import InvalidArgument
from privref.reference.neighbors import AddRemove, Substitution
from privref.reference.privacy import PrivacyClaim
from privref.reference.reals import Order, compare, log, rational

from ...stats import AUDIT_CONFIDENCE

# A clamp-and-sum over [0, 10] with two-sided geometric noise P[k] ∝ exp(-|k|/4): adding or
# removing one entry moves the sum by at most 10, so its true epsilon is exactly 10/4 = 5/2.
CLAMP_SUM = """
import numpy as np
from privref.audits.blackbox import declare

ALPHA = float(np.exp(-1 / 4))

def _noisy(data, rng, size):
    total = sum(min(max(x, 0), 10) for x in data)
    p = 1 - ALPHA
    return total + rng.geometric(p, size) - rng.geometric(p, size)

@declare(epsilon=1, relation="add-remove", bounds=(0, 10), sizes=[1], library="numpy")
def overclaimed(data, rng, size):
    return _noisy(data, rng, size)

@declare(epsilon=1, relation="add-remove", sizes=[1])
def overclaimed_no_domain(data, rng, size):
    return _noisy(data, rng, size)

@declare(rho="1/8", delta="1/1000", relation="add-remove", pairs=[[[10], []]])
def zcdp(data, rng, size):
    return _noisy(data, rng, size)

def by_hand(data, rng):
    return 0
by_hand.privref_claim = {"profile": [["1", "1/100"], ["2", "1/1000"]]}
by_hand.privref_relation = "substitution"
by_hand.privref_domain = {"elements": [0, 1, 2]}

def bad_claim(data, rng):
    return 0
bad_claim.privref_claim = "twelve"
"""


@pytest.fixture
def target_file(tmp_path: Path) -> Path:
    path = tmp_path / "clamp_sum.py"
    path.write_text(textwrap.dedent(CLAMP_SUM), encoding="utf-8")
    return path


def test_decorated_file_target_declares_everything(target_file: Path) -> None:
    target = load_target(f"{target_file}:overclaimed")
    assert isinstance(target.claim, PrivacyClaim)
    assert target.claim.epsilon.exact == 1 and target.claim.delta == 0
    assert target.relation == AddRemove()
    assert target.domain == InputDomain((), (1,), (0, 10))
    assert target.package == "numpy" and target.package_version == np.__version__
    assert target.libraries[0] == LibraryVersion("numpy", np.__version__, "declared")
    assert target.vectorized


def test_attributes_set_by_hand(target_file: Path) -> None:
    target = load_target(f"{target_file}:by_hand")
    assert isinstance(target.claim, ProfileClaim)
    assert [(str(p.epsilon), p.delta) for p in target.claim.points] == [
        ("1", Fraction(1, 100)), ("2", Fraction(1, 1000))]
    assert target.relation == Substitution() and target.pairs is None
    assert target.domain is not None and target.domain.search_elements() == (0, 1, 2)
    # the module imports numpy and privref: numpy is detected, privref is not a library
    assert [lib.name for lib in target.libraries] == ["numpy"]
    assert target.libraries[0].source == "detected"


def test_bad_attribute_is_a_load_error_naming_it(target_file: Path) -> None:
    with pytest.raises(TargetLoadError, match=r"target .*bad_claim: privref_claim='twelve'.*"
                                              r"allowed: an epsilon"):
        load_target(f"{target_file}:bad_claim")


def _fn(data: list[Hashable], rng: np.random.Generator) -> int:
    return 0


@pytest.mark.parametrize(("attribute", "value", "message"), [
    ("privref_claim", {"epsilon": 1, "rho": 1}, "'epsilon' and 'rho' are alternatives"),
    ("privref_claim", {"epsilon": -1}, "must be >= 0"),
    ("privref_claim", {"rho": 0}, "rho=0 must be an exact number > 0"),
    ("privref_claim", {"profile": []}, "at least one"),
    ("privref_claim", True, "allowed: an epsilon"),
    ("privref_relation", "neighbours", "allowed: a name"),
    ("privref_relation", 3, "allowed: a name"),
    ("privref_pairs", [[[0], [0, 0, 1]]], "not neighbors under the declared relation"),
    ("privref_pairs", "[[0], [1]]", "allowed: a non-empty list of pairs"),
    ("privref_domain", {"bounds": [10, 0]}, "low > high"),
    ("privref_domain", {"elements": [0, 0]}, "distinct"),
    ("privref_domain", {"elements": []}, "give elements, sizes or bounds"),
    ("privref_domain", {"elements": [0, 1], "colour": 1}, "unknown keys"),
    ("privref_library", "", "allowed: the name of a distribution"),
])
def test_every_bad_declaration_names_the_attribute(attribute: str, value: object,
                                                   message: str) -> None:
    def fn(data: list[Hashable], rng: np.random.Generator) -> int:
        return 0
    setattr(fn, "privref_relation", "substitution")  # noqa: B010 - pairs are checked under it
    setattr(fn, attribute, value)
    with pytest.raises(TargetLoadError, match=f"target t: {attribute}") as info:
        read_declaration(fn, "t")
    assert message in str(info.value)
    with pytest.raises(TargetLoadError, match=attribute):  # and the loader refuses it
        target_from_callable(fn, "t")


def test_a_library_not_installed_is_declared_and_its_audit_is_refused() -> None:
    """issue 37: @declare(library=...) of a library missing here does not break the file at
    import; loading the target for an audit raises MissingDependency (a suite SKIPs it)."""
    from privref.audits.blackbox.errors import MissingDependency

    @declare(epsilon=1, library="no-such-distribution-xyz")
    def fn(data: list[Hashable], rng: np.random.Generator) -> int:
        return 0

    library = getattr(fn, "privref_library")  # noqa: B009 - set by declare
    assert library.name == "no-such-distribution-xyz" and library.version is None
    with pytest.raises(MissingDependency, match=r"target t: declares library "
                       r"'no-such-distribution-xyz'.*not installed here: pip install"):
        read_declaration(fn, "t")
    with pytest.raises(MissingDependency, match="not installed"):
        target_from_callable(fn, "t")


def test_declare_states_uses_own_randomness() -> None:
    """issue 37: a target drawing from its library's own generator says so in declare; the
    audit then notes it (not reproducible from the seed) instead of warning of hidden
    randomness."""
    import random

    from privref.audits.blackbox.target import probe_randomness

    @declare(epsilon=1, relation="substitution", uses_own_randomness=True)
    def own(data: list[Hashable], rng: np.random.Generator) -> int:
        return int(random.random() < 0.5)  # ignores rng

    assert getattr(own, "uses_own_randomness") is True  # noqa: B009 - set by declare
    warnings, notes = probe_randomness(target_from_callable(own, "own"), (0,), seed=1)
    assert not warnings and any("declares uses_own_randomness" in n for n in notes)
    with pytest.raises(TargetLoadError, match="uses_own_randomness='yes'"):
        declare(epsilon=1, uses_own_randomness="yes")  # type: ignore[arg-type]


def test_decorator_refuses_two_claims_and_a_lone_delta() -> None:
    with pytest.raises(TargetLoadError, match=r"privref_claim: declare\(\) got epsilon and rho"):
        declare(epsilon=1, rho=1)
    with pytest.raises(TargetLoadError, match="needs epsilon, rho or mu"):
        declare(delta="1/10")
    with pytest.raises(TargetLoadError, match="privref_relation"):
        declare(relation="nope")


def test_zcdp_point_is_the_cks_conversion_exactly() -> None:
    claim = ZCDPClaim(Fraction(1, 8))
    point = audited_point(claim, Fraction(1, 1000))
    assert point.delta == Fraction(1, 1000)
    # exactly accounting.zcdp_to_dp_epsilon's expression (Canonne-Kamath-Steinke 2020 Cor. 13)
    assert str(point.epsilon) == str(zcdp_to_dp_epsilon(Fraction(1, 8), Fraction(1, 1000)))
    # 1.5461 (the issue's OpenDP figure), below Lemma 51's 1/8 + 2·√(ln(1000)/8) = 1.9835
    box = point.epsilon.enclose()
    assert Fraction(15460, 10**4) < box.lo <= box.hi < Fraction(15462, 10**4)
    assert compare(point.epsilon, zcdp_epsilon(Fraction(1, 8), Fraction(1, 1000)))[0] is Order.LESS
    assert point.conversion is not None and "Corollary 13 at order alpha=" in point.conversion
    with pytest.raises(InvalidArgument, match=r"--delta .* must lie in \(0, 1\)"):
        audited_point(claim, None)
    with pytest.raises(InvalidArgument, match="--delta"):
        audited_point(claim, Fraction(0))
    # the declared delta is the default point
    default = audited_point(ZCDPClaim(Fraction(1, 8), Fraction(1, 10)), None)
    assert default.delta == Fraction(1, 10)
    # tiny rho at a large delta: Corollary 13's epsilon_alpha <= 0, so the point is (0, delta)
    zero = audited_point(ZCDPClaim(Fraction(1, 1000)), Fraction(1, 10))
    assert zero.epsilon.exact == 0 and zero.conversion is not None and "= 0" in zero.conversion


def test_profile_points_of_a_zcdp_claim_cover_the_default_delta_grid() -> None:
    points = profile_points(ZCDPClaim(Fraction(1, 8), Fraction(1, 1000)))
    assert [p.delta for p in points] == [Fraction(1, 10**k) for k in range(6, 1, -1)]
    assert tuple(p.delta for p in points) == tuple(sorted(ZCDP_DELTAS))
    for p in points:
        assert str(p.epsilon) == str(zcdp_to_dp_epsilon(Fraction(1, 8), p.delta))
    # epsilon decreases as delta grows, decided exactly
    for small, large in itertools.pairwise(points):
        assert compare(large.epsilon, small.epsilon)[0] is Order.LESS
    chosen = profile_points(ZCDPClaim(Fraction(1, 8)), ["1/10", Fraction(1, 100), "1/10"])
    assert [p.delta for p in chosen] == [Fraction(1, 100), Fraction(1, 10)]  # sorted, distinct


def test_profile_points_of_a_profile_are_its_own_points() -> None:
    profile = ProfileClaim((PrivacyClaim.of(3, Fraction(1, 10**6)),
                            PrivacyClaim.of(1, Fraction(1, 100)),
                            PrivacyClaim.of("ln(3)", Fraction(1, 1000))))
    points = profile_points(profile)
    assert [(str(p.epsilon), p.delta) for p in points] == [
        ("3", Fraction(1, 10**6)), (str(log(3)), Fraction(1, 1000)), ("1", Fraction(1, 100))]
    assert all(p.conversion is None for p in points)
    # an (epsilon, delta) claim is a one-point profile: larger deltas are implied, smaller are not
    single = profile_points(PrivacyClaim.of(1, Fraction(1, 100)), [Fraction(1, 100), "1/10"])
    assert [(p.epsilon.exact, p.delta) for p in single] == [(Fraction(1), Fraction(1, 100)),
                                                            (Fraction(1), Fraction(1, 10))]
    with pytest.raises(InvalidArgument, match="no point with delta <= 1/1000"):
        profile_points(PrivacyClaim.of(1, Fraction(1, 100)), [Fraction(1, 1000)])
    assert profile_points(PrivacyClaim.of(1))[0].delta == 0


@pytest.mark.parametrize(("deltas", "match"), [
    ([], "deltas"), ("1/10", "deltas"), ([0], r"deltas\[0\]=0 must lie in \(0, 1\)"),
    ([Fraction(1, 10), 1], r"deltas\[1\]=1"), (["x"], r"deltas\[0\]"),
    ([Fraction(1, 10**k) for k in range(1, 40)], "MAX_PROFILE_POINTS=32"),
])
def test_profile_points_refuses_bad_deltas(deltas: object, match: str) -> None:
    with pytest.raises(InvalidArgument, match=match):
        profile_points(ZCDPClaim(Fraction(1, 8)), deltas)  # type: ignore[arg-type]


def test_profile_point_is_the_smallest_epsilon_with_delta_at_most_the_given_one() -> None:
    profile = ProfileClaim((PrivacyClaim.of(3, Fraction(1, 10**6)),
                            PrivacyClaim.of(1, Fraction(1, 100)),
                            PrivacyClaim.of("ln(3)", Fraction(1, 1000))))
    at_1000 = audited_point(profile, Fraction(1, 1000))
    assert str(at_1000.epsilon) == str(log(3)) and at_1000.conversion is None
    at_100 = audited_point(profile, Fraction(1, 100))   # (1, 1/100) beats ln 3 and 3
    assert at_100.epsilon.exact == 1
    at_50 = audited_point(profile, Fraction(1, 50))     # implied: (1, 1/100) -> (1, 1/50)
    assert at_50.epsilon.exact == 1 and at_50.delta == Fraction(1, 50)
    assert at_50.conversion is not None and "implies" in at_50.conversion
    with pytest.raises(InvalidArgument, match="no point with delta <= 1/10000000"):
        audited_point(profile, Fraction(1, 10**7))
    with pytest.raises(InvalidArgument, match=r"--delta .* is required"):
        audited_point(profile, None)


def test_pure_claim_point_and_claim_json() -> None:
    claim = PrivacyClaim.of("1/2")
    assert audited_point(claim, None).epsilon.exact == Fraction(1, 2)
    assert audited_point(claim, Fraction(1, 10)).delta == Fraction(1, 10)  # the user's choice
    assert claim_json(ZCDPClaim(Fraction(1, 8))) == {"kind": "zcdp", "rho": "1/8", "delta": None,
                                                     "approx_delta": "0"}
    assert claim_json(claim) == {"kind": "dp", "epsilon": "1/2", "delta": "0"}


def test_relation_in_force() -> None:
    assert relation_in_force(AddRemove(), None) == (AddRemove(), "given")
    assert relation_in_force(AddRemove(), AddRemove()) == (AddRemove(), "given")
    assert relation_in_force(None, AddRemove()) == (AddRemove(), "declared")
    assert relation_in_force(None, None) == (Substitution(), "default")


def test_a_given_relation_contradicting_the_declared_one_needs_the_override() -> None:
    """--relation substitution against a declared add-remove: an error naming both, unless
    overridden, and then the source is "override" (recorded in the report)."""
    with pytest.raises(InvalidArgument, match=r"substitution contradicts .* add-remove.*"
                                              r"override-declared-relation"):
        relation_in_force(Substitution(), AddRemove())
    assert relation_in_force(Substitution(), AddRemove(), True) == (Substitution(), "override")
    assert relation_in_force(Substitution(), None, True) == (Substitution(), "given")


def test_clamp_bounds_reach_the_full_sensitivity() -> None:
    domain = InputDomain(bounds=(0, 10))
    space = search_space(domain, AddRemove())
    assert space.elements == (0, 10)
    sums = {abs(sum(a) - sum(b)) for a, b in candidate_pairs(space, 0)}  # type: ignore[arg-type]
    assert max(sums) == 10                    # the add-remove search adds a 10
    default = search_space(None, AddRemove())
    assert max(abs(sum(a) - sum(b)) for a, b in candidate_pairs(default, 0)) == 1  # type: ignore[arg-type]
    # explicit elements win over the domain; elements and bounds merge, sorted
    assert search_space(domain, AddRemove(), elements=[0, 1]).elements == (0, 1)
    assert InputDomain((5, 2), None, (0, 10)).search_elements() == (0, 2, 5, 10)


def test_detected_libraries_of_a_module(target_file: Path) -> None:
    target = load_target(f"{target_file}:zcdp")
    assert target.libraries == (LibraryVersion("numpy", np.__version__, "detected"),)
    assert detect_libraries(None, zcdp_epsilon) == ()  # privref itself is not recorded


def _audit(argv: list[str], out: Path) -> dict[str, object]:
    import argparse

    from privref.app.blackbox_cli import configure_parser

    parser = argparse.ArgumentParser()
    configure_parser(parser)
    confidence = [] if "--confidence" in argv else ["--confidence", str(AUDIT_CONFIDENCE)]
    run(parser.parse_args([*argv, *confidence, "--workers", "1", "--quiet", "--json", str(out)]))
    report: dict[str, object] = json.loads(out.read_text())
    return report


def test_declared_domain_lets_the_search_find_the_overclaim(target_file: Path,
                                                            tmp_path: Path) -> None:
    # Statistical, fixed seed (deterministic).  True epsilon 5/2 against a declared 1: the
    # search over the declared bounds finds pair ([0], [0, 10]) (loss 5/2); over the default
    # elements [0, 1] the worst pair has loss 1/4 < 1, so no violation is possible there
    # (a VIOLATION would be a false positive, probability <= 0.05).
    found = _audit([f"{target_file}:overclaimed", "--samples", "20000", "--seed", "4"],
                   tmp_path / "a.json")
    assert found["verdict"] == "VIOLATION" and found["relation"] == "add-remove"
    assert found["relation_source"] == "declared" and found["warnings"] == []
    assert found["search"]["elements"] == [0, 10]  # type: ignore[index]
    assert found["libraries"] == [{"name": "numpy", "version": np.__version__,
                                   "source": "declared"}]
    missed = _audit([f"{target_file}:overclaimed_no_domain", "--samples", "20000", "--seed", "4"],
                    tmp_path / "b.json")
    assert missed["verdict"] == "NO_VIOLATION_FOUND"
    assert missed["search"]["elements"] == [0, 1]  # type: ignore[index]


def test_zcdp_claim_is_recorded_and_audited_at_its_point(target_file: Path,
                                                         tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    report = _audit([f"{target_file}:zcdp", "--samples", "2000", "--seed", "1"],
                    tmp_path / "z.json")
    assert report["declared_claim"] == {"kind": "zcdp", "rho": "1/8", "delta": "1/1000",
                                        "approx_delta": "0"}
    assert report["claimed_epsilon_exact"] == str(zcdp_to_dp_epsilon(Fraction(1, 8),
                                                                      Fraction(1, 1000)))
    assert report["claimed_delta_exact"] == "1/1000" and report["pair"] == [[10], []]
    assert "Corollary 13" in str(report["claim_conversion"])
    out = capsys.readouterr().out
    assert "declared claim   1/8-zCDP" in out and "relation         add-remove (declared" in out
    # --delta picks another point of the same claim
    other = _audit([f"{target_file}:zcdp", "--samples", "2000", "--seed", "1", "--delta", "1/100"],
                   tmp_path / "z2.json")
    assert other["claimed_delta_exact"] == "1/100"
    assert other["claimed_epsilon_exact"] == str(zcdp_to_dp_epsilon(Fraction(1, 8),
                                                                     Fraction(1, 100)))


def test_assert_private_audits_the_declared_claim() -> None:
    # correct claim (true eps of rr is exactly ln 3); fixed seed, so deterministic; a false
    # VIOLATION has probability <= 0.05
    from privref.audits.blackbox import assert_private

    @declare(epsilon="ln(3)", relation="substitution", pairs=[[[0], [1]]])
    def rr(data: list[int], rng: np.random.Generator) -> int:
        return data[0] if rng.random() < 0.75 else 1 - data[0]

    report = assert_private(rr, samples=2000, seed=1, confidence=AUDIT_CONFIDENCE)
    assert isinstance(report.declared_claim, PrivacyClaim) and report.claim_conversion is None
    assert str(report.claimed_epsilon) == str(log(3)) and report.claimed_delta == 0
    assert report.relation_source == "declared" and report.witness is not None
    assert report.witness.pair == ((0,), (1,)) and report.warnings == ()
    assert report.search is None and report.candidates == 1  # the declared pair, no search


def test_defaulted_relation_is_warned(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "plain.py"
    path.write_text("def rr(data, rng):\n    return data[0] if rng.random() < 0.75 else "
                    "1 - data[0]\n", encoding="utf-8")
    report = _audit([f"{path}:rr", "--epsilon", "ln(3)", "--samples", "500", "--seed", "1",
                     "--pair", "[0]", "[1]"], tmp_path / "r.json")
    assert report["relation_source"] == "default" and report["warnings"] == [DEFAULTED_RELATION]
    captured = capsys.readouterr()
    assert f"warning: {DEFAULTED_RELATION}" in captured.err
    assert "relation         substitution (DEFAULTED" in captured.out


def test_register_target_and_load_it() -> None:
    @declare(epsilon="ln(3)", relation="substitution", pairs=[[[0], [1]]])
    def rr(data: list[Hashable], rng: np.random.Generator) -> Hashable:
        return data[0] if rng.random() < 0.75 else 1 - data[0]  # type: ignore[operator]

    name = "mylib:rr-test-register"
    adapters.register_target(name, lambda: rr, replace=True)
    try:
        target = load_target(name)
        assert target.spec == name and isinstance(target.claim, PrivacyClaim)
        assert str(target.claim.epsilon) == str(log(3))
        assert target.pairs == (((0,), (1,)),) and name in adapters.registered_target_names()
        with pytest.raises(InvalidArgument, match="already registered"):
            adapters.register_target(name, lambda: rr)
    finally:
        adapters.unregister_target(name)
    for bad, message in (("mylib:rr", "must look like"), ("opendp:count-laplace", "built-in")):
        with pytest.raises(InvalidArgument, match=message):
            adapters.register_target(bad, lambda: rr)
    adapters.register_target("mylib:bad-builder", lambda: 3, replace=True)
    try:
        with pytest.raises(TargetLoadError, match="returned a int, not a callable"):
            load_target("mylib:bad-builder")
    finally:
        adapters.unregister_target("mylib:bad-builder")


def test_a_declared_profile_is_audited_at_every_point_in_one_run(target_file: Path,
                                                                   tmp_path: Path) -> None:
    # by_hand declares (1, 1/100) and (2, 1/1000) and returns 0 always: both points hold
    report = _audit([f"{target_file}:by_hand", "--samples", "2000", "--seed", "1",
                     "--pair", "[0]", "[1]"], tmp_path / "p.json")
    profile = report["pairs"][0]["profile"]  # type: ignore[index]
    assert [(p["epsilon_exact"], p["delta_exact"]) for p in profile] == [("2", "1/1000"),
                                                                        ("1", "1/100")]
    assert "2 profile points tested under one confidence budget" in str(report["claim_conversion"])
    assert report["verdict"] == "NO_VIOLATION_FOUND"
    # with --delta, the one point at that delta
    one = _audit([f"{target_file}:by_hand", "--samples", "2000", "--seed", "1", "--delta",
                  "1/100", "--pair", "[0]", "[1]"], tmp_path / "q.json")
    assert one["pairs"][0]["profile"] == []  # type: ignore[index]


def test_the_decorator_does_not_shadow_its_module() -> None:
    """``privref.audits.blackbox.declare`` is the decorator; its module is ``declarations``, reachable
    by attribute (docs cite names such as ``declarations.audited_point``)."""
    import types

    import privref.audits.blackbox as blackbox

    assert callable(blackbox.declare) and not isinstance(blackbox.declare, types.ModuleType)
    assert isinstance(blackbox.declarations, types.ModuleType)
    assert blackbox.declarations.declare is blackbox.declare
    assert blackbox.declarations.audited_point is blackbox.audited_point


def test_a_direct_run_audit_report_records_the_targets_declarations(target_file: Path) -> None:
    """run_audit alone (no CLI, no assert_private) records the target's declared claim and its
    libraries; the relation's source stays unknown (null), as only a caller knows it."""
    target = load_target(f"{target_file}:overclaimed")
    config = AuditConfig(epsilon=rational(1), samples=2000, seed=1, timeout=None,
                         relation=target.relation, confidence=AUDIT_CONFIDENCE)
    report = run_audit(target, config, [((3,), (3, 4))])
    assert report.declared_claim == target.claim
    assert report.libraries == target.libraries and report.libraries[0].name == "numpy"
    assert report.relation_source is None
    found = report.to_json()
    assert found["libraries"][0]["name"] == "numpy" and found["declared_claim"]["kind"] == "dp"


# A leaky Gaussian: with probability 1/20 it releases its input's bit outright, otherwise a
# Gaussian of sigma 2 (rho = 1/8 on the bit), rounded to an integer (no float bits to read).
# Conditioned on "no leak" (probability 19/20 on
# both inputs) it is 1/8-zCDP: (1/8, 1/20)-approximately zCDP and no less (the leak alone is a
# 1/20 gap at every epsilon).
LEAKY = """
import numpy as np
from privref.audits.blackbox import declare

def _leaky(data, rng, size):
    leak = rng.random(size) < 0.05
    noisy = np.rint(data[0] + 2.0 * rng.standard_normal(size)).astype(np.int64)  # post-processing
    return np.where(leak, 100 + data[0], noisy)

@declare(rho="1/8", approx_delta="1/20", delta="3/40", relation="substitution",
         pairs=[[[0], [1]]])
def stated(data, rng, size):
    return _leaky(data, rng, size)

@declare(rho="1/8", approx_delta="1/200", delta="1/100", relation="substitution",
         pairs=[[[0], [1]]])
def understated(data, rng, size):
    return _leaky(data, rng, size)
"""


def test_approximate_zcdp_point_adds_the_conditioning_term() -> None:
    """(rho, a)-approximate zCDP at delta: (eps_rho(delta - a) + ln(1/(1 - a)), delta), exactly."""
    claim = ZCDPClaim(Fraction(1, 2), None, Fraction(1, 100))
    point = audited_point(claim, Fraction(1, 10))
    expected = zcdp_to_dp_epsilon(Fraction(1, 2), Fraction(9, 100)) + log(Fraction(100, 99))
    assert str(point.claim.epsilon) == str(expected)
    assert point.claim.delta == Fraction(1, 10)
    assert "approximate zCDP" in str(point.conversion)
    with pytest.raises(InvalidArgument, match="must exceed the claim's approx_delta=1/100"):
        audited_point(claim, Fraction(1, 100))
    # the default delta grid keeps only deltas above approx_delta
    small = ZCDPClaim(Fraction(1, 2), None, Fraction(1, 10**4))
    assert [p.claim.delta for p in profile_points(small)] == [Fraction(1, 1000), Fraction(1, 100)]
    with pytest.raises(InvalidArgument, match="no default delta exceeds the claim's approx_delta"):
        profile_points(claim)
    with pytest.raises(InvalidArgument, match="approx_delta"):
        ZCDPClaim(Fraction(1), Fraction(1, 100), Fraction(1, 50))
    with pytest.raises(TargetLoadError, match=r"approx_delta=\.\.\.\) needs rho"):
        declare(epsilon=1, approx_delta="1/10")
    assert claim_json(claim)["approx_delta"] == "1/100"


def test_approximate_zcdp_claims_are_audited(tmp_path: Path) -> None:
    """Fixed seeds.  Stated at its true (1/8, 1/20) the leaky Gaussian passes (a VIOLATION would
    be a false alarm, probability <= 10^-7); with approx_delta 1/200 at delta 1/100 it is
    flagged: the leak event alone has probability 1/20 > 1/100 under one input and 0 under the
    other."""
    path = tmp_path / "leaky.py"
    path.write_text(LEAKY, encoding="utf-8")
    fine = _audit([f"{path}:stated", "--samples", "20000", "--seed", "2",
                   "--confidence", str(AUDIT_CONFIDENCE)], tmp_path / "s.json")
    assert fine["verdict"] == "NO_VIOLATION_FOUND"
    assert fine["declared_claim"]["approx_delta"] == "1/20"  # type: ignore[index]
    bad = _audit([f"{path}:understated", "--samples", "20000", "--seed", "2",
                  "--confidence", str(AUDIT_CONFIDENCE)], tmp_path / "u.json")
    assert bad["verdict"] == "VIOLATION"


def test_the_distribution_map_is_read_again_only_when_installed_metadata_changes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """distributions_by_package parses the installed metadata once, again when a folder of
    sys.path gains a *.dist-info, not for a folder without metadata (a test's tmp folder)."""
    import importlib.metadata

    from privref.audits.blackbox import declarations

    reads: list[int] = []

    def counted() -> dict[str, list[str]]:
        reads.append(1)
        return {"read": [str(len(reads))]}

    monkeypatch.setattr(importlib.metadata, "packages_distributions", counted)
    monkeypatch.setattr(declarations, "_DISTRIBUTIONS", {})
    assert declarations.distributions_by_package() == {"read": ["1"]}
    assert declarations.distributions_by_package() == {"read": ["1"]}
    monkeypatch.syspath_prepend(str(tmp_path))
    assert declarations.distributions_by_package() == {"read": ["1"]}
    (tmp_path / "fake-1.0.dist-info").mkdir()
    assert declarations.distributions_by_package() == {"read": ["2"]}
    assert len(declarations._DISTRIBUTIONS) == 1  # only the current map is kept
