"""One front door for pairs and claims (issue 32 items 4 and 5, "What to build" item 3).

Every entry point checks given pairs under the relation in force with the one function
(:func:`privref.audits.blackbox.pairs.check_pairs`); public config and declaration value types
refuse bad fields at construction; contradictory declarations are errors.  Cheap: no test here
draws more than a few hundred samples.
"""

from __future__ import annotations

import argparse
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from privref.app.blackbox_cli import configure_parser, parse_config
from privref.audits.blackbox import declare
from privref.audits.blackbox.api import assert_private
from privref.audits.blackbox.config import AuditConfig
from privref.audits.blackbox.declarations import (
    OVERRIDDEN_RELATION,
    AuditPoint,
    Declaration,
    InputDomain,
    LibraryVersion,
    read_declaration,
    search_space,
)
from privref.audits.blackbox.report import with_declarations
from privref.audits.blackbox.runner import run_audit
from privref.audits.blackbox.search import candidate_pairs
from privref.audits.blackbox.target import TargetLoadError, target_from_callable
from privref.reference.errors import InvalidArgument, NotNeighboring, PrivrefError
from privref.reference.neighbors import AddRemove, LInf, Substitution
from privref.reference.privacy import PrivacyClaim

from ...stats import AUDIT_CONFIDENCE as CONF


def laplace_count(data: list[int], rng: np.random.Generator) -> float:
    """A correct 1-DP Laplace count under substitution of one 0/1 entry."""
    return float(sum(data)) + float(rng.laplace(0.0, 1.0))


LAPLACE = target_from_callable(laplace_count, "laplace_count")
FAR = [((0, 0, 0), (1, 1, 1))]


def _cli(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    configure_parser(parser)
    return parser.parse_args(["t.py:f", "--workers", "1", "--seed", "1", *argv])


# ------------------------------------------------------------ item 4: neighbourhood everywhere

def test_run_audit_refuses_the_issue_pair_instead_of_a_false_violation() -> None:
    """The issue's case: a correct 1-DP Laplace count on [0,0,0] vs [1,1,1] through run_audit
    (no relation given) was a false VIOLATION (eps >= 2.79); now NotNeighboring names the pair,
    the relation (substitution, the default) and the distance, before any sampling."""
    with pytest.raises(NotNeighboring, match=r"\[0, 0, 0\] vs \[1, 1, 1\] is not neighboring "
                                             r"under substitution .*: distance 3"):
        run_audit(LAPLACE, AuditConfig(epsilon=1, samples=200, confidence=CONF), FAR)


def test_every_entry_point_refuses_the_same_pair_with_the_same_check() -> None:
    """CLI (parse_config, also the suites' path), assert_private and run_audit give the same
    NotNeighboring message body: one checking function."""
    messages = []
    for call in (
        lambda: parse_config(_cli("--epsilon", "1", "--pair", "[0,0,0]", "[1,1,1]")),
        lambda: assert_private(laplace_count, epsilon=1, pairs=FAR, samples=200, confidence=CONF),
        lambda: run_audit(LAPLACE, AuditConfig(epsilon=1, samples=200, confidence=CONF), FAR),
    ):
        with pytest.raises(NotNeighboring) as info:
            call()
        messages.append(str(info.value).split(" ", 1)[1].split("vs", 1)[1])
    assert len(set(messages)) == 1, messages
    assert "distance 3" in messages[0] and "substitution" in messages[0]


def test_group_allows_the_group_size_only() -> None:
    """group=k is the documented exception: distance <= k is accepted (group claim tested)."""
    with pytest.raises(NotNeighboring, match=r"at distance 3 .* --group 2"):
        run_audit(LAPLACE, AuditConfig(epsilon=1, samples=200, confidence=CONF, group=2), FAR)
    report = run_audit(LAPLACE, AuditConfig(epsilon=1, samples=200, confidence=CONF, group=3), FAR)
    assert report.group == 3 and report.relation == "substitution"


def test_run_audit_uses_the_declared_relation_when_none_is_given() -> None:
    @declare(relation="add-remove")
    def count(data: list[int], rng: np.random.Generator) -> float:
        return float(len(data)) + float(rng.laplace(0.0, 1.0))

    target = target_from_callable(count)
    with pytest.raises(NotNeighboring, match="under add-remove"):
        run_audit(target, AuditConfig(epsilon=1, samples=200, confidence=CONF), [((0,), (1,))])
    report = run_audit(target, AuditConfig(epsilon=1, samples=200, confidence=CONF), [((0,), (0, 1))])
    assert report.relation == "add-remove"
    # an explicit relation in the config is the relation in force
    report = run_audit(LAPLACE, AuditConfig(epsilon=1, samples=200, confidence=CONF, relation=LInf()), FAR)
    assert report.relation == "linf"


# ------------------------------------------------------------ item 4: configs refuse bad values

@pytest.mark.parametrize(("kwargs", "message"), [
    ({"relation": "bogus"}, r"relation='bogus' must be one of substitution"),
    ({"relation": 3}, r"relation=3 must be None, a name .* or a relation"),
    ({"progress": 3}, r"progress=3 must be True or False"),
    ({"float_events": "no"}, r"float_events='no' must be True or False"),
    ({"checkpoint": 5}, r"checkpoint=5 must be None or a file path"),
    ({"points": (PrivacyClaim.of(2), PrivacyClaim.of(2))}, r"points\[1\].*repeats points\[0\]"),
    ({"points": (PrivacyClaim.of(1),)}, r"points\[0\].*repeats the claim's own point"),
])
def test_audit_config_refuses_bad_fields_at_construction(kwargs: dict[str, Any],
                                                         message: str) -> None:
    with pytest.raises(InvalidArgument, match=message):
        AuditConfig(epsilon=1, **kwargs)


def test_a_field_forced_past_the_constructor_is_refused_before_sampling() -> None:
    """run_audit re-validates the config: a relation forced in as a str (the raw AttributeError
    of the issue) is an InvalidArgument naming the field."""
    config = AuditConfig(epsilon=1, samples=200)
    object.__setattr__(config, "relation", "add-remove")
    with pytest.raises(InvalidArgument, match=r"relation='add-remove' must be None, a name"):
        run_audit(LAPLACE, config, [((0,), (1,))])


def test_run_audit_refuses_a_target_that_is_not_one() -> None:
    """A str or None as target was a raw AttributeError ('... has no attribute name'); a plain
    (data, rng) callable is wrapped as assert_private does."""
    for bad in ("t.py:f", None, 3):
        with pytest.raises(InvalidArgument, match=r"target=.* must be a Target"):
            run_audit(bad, AuditConfig(epsilon=1, samples=200), [((0,), (1,))])  # type: ignore[arg-type]
    report = run_audit(laplace_count, AuditConfig(epsilon=1, samples=200, confidence=CONF),
                       [((0,), (1,))])
    assert report.target.endswith("laplace_count")


def test_audit_config_accepts_names_and_paths() -> None:
    config = AuditConfig(epsilon=1, relation="add-remove", checkpoint="cp.bin")  # type: ignore[arg-type]
    assert config.relation == AddRemove() and config.checkpoint == Path("cp.bin")
    assert AuditConfig(epsilon=1).relation is None


@pytest.mark.parametrize(("build", "message"), [
    (lambda: InputDomain(elements=(0, 0)), r"elements=\(0, 0\) must be a list of distinct"),
    (lambda: InputDomain(sizes=(-1,)), r"sizes=\(-1,\) must be None or a non-empty list"),
    (lambda: InputDomain(sizes=()), r"sizes=\(\) must be None or a non-empty list"),
    (lambda: InputDomain(bounds=(3, 1)), r"bounds=\(3, 1\): low > high"),
    (lambda: InputDomain(bounds=("a", 1)), r"bounds=\('a', 1\) must be None or \[low, high\]"),  # type: ignore[arg-type]
    (lambda: LibraryVersion("", None, "declared"), r"name='' must be a non-empty"),
    (lambda: LibraryVersion("x", 3, "declared"), r"version=3 must be None or a str"),  # type: ignore[arg-type]
    (lambda: LibraryVersion("x", None, "guessed"), r"source='guessed' must be one of"),
    (lambda: AuditPoint("1", None), r"claim='1' must be a PrivacyClaim"),  # type: ignore[arg-type]
    (lambda: Declaration(claim=1), r"claim=1 must be None, a PrivacyClaim"),  # type: ignore[arg-type]
    (lambda: Declaration(relation="add-remove"), r"relation='add-remove' must be None or"),  # type: ignore[arg-type]
    (lambda: Declaration(relation=Substitution(), pairs=(((0, 0), (1, 1)),)),
     r"\[0, 0\] and \[1, 1\] are not neighbors"),
    (lambda: Declaration(domain={"sizes": [1]}), r"domain=.* must be None or a InputDomain"),  # type: ignore[arg-type]
    (lambda: Declaration(relation=Substitution(), domain=InputDomain(sizes=(0, 1))),
     r"size 0 cannot be searched under substitution"),
])
def test_declaration_value_types_refuse_bad_fields(build: Any, message: str) -> None:
    with pytest.raises(InvalidArgument, match=message):
        build()


def test_declaration_value_types_normalize_good_fields() -> None:
    domain = InputDomain(elements=[0, 1], sizes=[0, 2], bounds=(0.5, 2))  # type: ignore[arg-type]
    assert domain.elements == (0, 1) and domain.sizes == (0, 2)
    assert domain.bounds == (Fraction(1, 2), 2)
    assert Declaration(relation=AddRemove(), domain=InputDomain(sizes=(0,))).domain == \
        InputDomain(sizes=(0,))


# ------------------------------------------------------------ item 5: contradictions are errors

def test_stacked_declare_is_refused_at_decoration_time() -> None:
    def f(data: list[int], rng: np.random.Generator) -> int:
        return data[0]

    declare(epsilon=1)(f)
    with pytest.raises(TargetLoadError, match=r"'.*f' already declares privref_claim .*; give "
                                              r"every declaration in one declare"):
        declare(relation="add-remove")(f)
    assert not hasattr(f, "privref_relation")  # nothing was merged

    def g(data: list[int], rng: np.random.Generator) -> int:
        return data[0]

    g.privref_relation = "add-remove"  # type: ignore[attr-defined]
    with pytest.raises(TargetLoadError, match="already declares privref_relation"):
        declare(epsilon=1)(g)


def test_a_contradicting_relation_is_an_error_unless_overridden_and_then_reported() -> None:
    @declare(epsilon=1, relation="add-remove")
    def count(data: list[int], rng: np.random.Generator) -> float:
        return float(len(data)) + float(rng.laplace(0.0, 1.0))

    with pytest.raises(InvalidArgument, match=r"substitution contradicts the relation the target "
                                              r"declares, add-remove"):
        assert_private(count, relation="substitution", pairs=[([0], [1])], samples=200, confidence=CONF)
    with pytest.raises(InvalidArgument, match="override_relation='yes' must be True or False"):
        assert_private(count, relation="substitution", pairs=[([0], [1])], samples=200,
                       override_relation="yes")  # type: ignore[arg-type]
    report = assert_private(count, relation="substitution", pairs=[([0], [1])], samples=200,
                            override_relation=True, confidence=CONF)
    assert report.relation_source == "override" and report.warnings[0] == OVERRIDDEN_RELATION
    assert "OVERRIDDEN" in report.summary() and report.to_json()["relation_source"] == "override"
    # the same relation as declared is no contradiction
    report = assert_private(count, relation="add-remove", pairs=[([0], [0, 1])], samples=200, confidence=CONF)
    assert report.relation_source == "given"
    # the command line: the same check, the override flag, the recorded source
    target = target_from_callable(count)
    with pytest.raises(InvalidArgument, match="--override-declared-relation"):
        parse_config(_cli("--relation", "substitution", "--pair", "[0]", "[1]"), target)
    plan = parse_config(_cli("--relation", "substitution", "--override-declared-relation",
                             "--pair", "[0]", "[1]"), target)
    assert plan.relation_source == "override" and plan.config.relation == Substitution()


def test_run_audit_applies_the_same_rule_to_the_config_relation() -> None:
    """run_audit resolves the relation with the same function: a config relation contradicting
    the declared one is refused unless override_relation, then warned about once."""
    @declare(relation="add-remove")
    def count(data: list[int], rng: np.random.Generator) -> float:
        return float(len(data)) + float(rng.laplace(0.0, 1.0))

    with pytest.raises(InvalidArgument, match=r"substitution contradicts .* add-remove"):
        run_audit(count, AuditConfig(epsilon=1, samples=200, relation="substitution"),
                  [((0,), (1,))])
    seen: list[str] = []
    report = run_audit(count, AuditConfig(epsilon=1, samples=200, confidence=CONF,
                                          relation="substitution", override_relation=True),
                       [((0,), (1,))], on_warning=seen.append)
    assert report.relation == "substitution" and seen.count(OVERRIDDEN_RELATION) == 1
    assert with_declarations(report, relation_source="override").warnings.count(
        OVERRIDDEN_RELATION) == 1
    with pytest.raises(InvalidArgument, match="override_relation='yes' must be True or False"):
        AuditConfig(epsilon=1, override_relation="yes")  # type: ignore[arg-type]


def test_with_declarations_records_an_override_once() -> None:
    report = run_audit(LAPLACE, AuditConfig(epsilon=1, samples=200, confidence=CONF, relation=Substitution()),
                       [((0,), (1,))])
    once = with_declarations(report, relation_source="override")
    assert with_declarations(once, relation_source="override").warnings.count(
        OVERRIDDEN_RELATION) == 1


def test_declared_size_zero_is_kept_under_add_remove_and_refused_under_substitution() -> None:
    """Under add-remove the empty dataset is a legitimate input (its neighbours are the
    one-entry datasets): kept, and the search reaches it.  Under substitution it has no
    neighbour: an error naming the sizes and the relation, never a silent drop."""
    space = search_space(InputDomain(sizes=(0,)), AddRemove())
    assert space.sizes == (0,)
    assert any(len(a) == 0 or len(b) == 0 for a, b in candidate_pairs(space, 0))
    for sizes in ((0,), (0, 2)):
        with pytest.raises(InvalidArgument, match=rf"sizes {re.escape(str(list(sizes)))}: size 0 cannot be "
                                                  r"searched under substitution"):
            search_space(InputDomain(sizes=sizes), Substitution())
    with pytest.raises(TargetLoadError, match="size 0 cannot be searched under substitution"):
        declare(epsilon=1, relation="substitution", sizes=[0])

    def f(data: list[int], rng: np.random.Generator) -> int:
        return len(data)

    f.privref_relation = "linf"  # type: ignore[attr-defined]
    f.privref_domain = {"sizes": [0, 1]}  # type: ignore[attr-defined]
    with pytest.raises(TargetLoadError, match="size 0 cannot be searched under linf"):
        read_declaration(f, "f")


def test_a_repeated_point_is_an_error() -> None:
    with pytest.raises(InvalidArgument, match=r"--point 2 0 is given twice"):
        parse_config(_cli("--epsilon", "1", "--pair", "[0]", "[1]", "--point", "2", "0",
                          "--point", "2", "0"))
    with pytest.raises(InvalidArgument, match=r"--point\) \(1, 0\) repeats the claim's own"):
        parse_config(_cli("--epsilon", "1", "--pair", "[0]", "[1]", "--point", "1", "0"))
    plan = parse_config(_cli("--epsilon", "1", "--pair", "[0]", "[1]", "--point", "2", "0",
                             "--point", "2", "1/100"))
    assert len(plan.config.points) == 2


@pytest.mark.parametrize(("claim", "message"), [
    ({"epsilon": 1, "rho": 1}, r"'epsilon' and 'rho' are alternatives .* accepted key sets: "
                               r"\{'epsilon'\}, \{'epsilon', 'delta'\}, \{'rho'\}"),
    ({"epsilon": 1, "profile": [[1, 0]]}, r"'epsilon' and 'profile' are alternatives"),
    ({"delta": 0}, r"'delta' needs 'epsilon', 'rho' or 'mu'"),
    ({"epsilon": 1, "colour": 1}, r"unknown keys \['colour'\]"),
])
def test_claim_mapping_messages_say_what_is_accepted(claim: object, message: str) -> None:
    def f(data: list[int], rng: np.random.Generator) -> int:
        return data[0]

    f.privref_claim = claim  # type: ignore[attr-defined]
    with pytest.raises(PrivrefError, match=message):
        read_declaration(f, "f")


def test_the_defaulted_relation_warning_is_printed_once(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 32 item 9: the long warning appeared on stderr and again in the summary; now once
    (the summary's relation line says DEFAULTED), and the JSON keeps it in ``warnings``."""
    import json

    from privref.app.commands.cli import main
    from privref.audits.blackbox.declarations import DEFAULTED_RELATION

    (tmp_path / "t.py").write_text("def f(data, rng):\n    return data[0]\n")
    out = tmp_path / "r.json"
    status = main(["audit", "blackbox", f"{tmp_path}/t.py:f", "--epsilon", "1", "--pair", "[0]",
                   "[1]", "--samples", "200", "--seed", "1", "--quiet", "--workers", "1",
                   "--json", str(out)])
    text = "".join(capsys.readouterr())
    assert status == 1 and text.count("relation defaulted") == 1
    assert "DEFAULTED" in text and DEFAULTED_RELATION in json.loads(out.read_text())["warnings"]
