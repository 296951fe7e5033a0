"""Black-box targets: both spec forms, vectorized detection, every bad-input path, rng misuse."""

from __future__ import annotations

import random
import textwrap
from collections.abc import Hashable
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from privref.audits.blackbox.target import (
    OutcomeError,
    TargetCallError,
    TargetError,
    TargetLoadError,
    draw,
    load_target,
    outcome_kind,
    probe_randomness,
    target_from_callable,
)
from privref.reference.errors import PrivrefError
from privref.reference.privacy import PrivacyClaim
from privref.reference.randomized_response import randomized_response

RR = """
def rr(data, rng):
    b = data[0]
    return b if rng.random() < 0.75 else 1 - b

def rr_vec(data, rng, size):
    keep = rng.random(size) < 0.75
    return np.where(keep, data[0], 1 - data[0])

def rr_forced_scalar(data, rng, size=None):
    return data[0]
rr_forced_scalar.privref_vectorized = False

def rr_flagged(data, rng, n):
    return [data[0]] * n
rr_flagged.privref_vectorized = True

NOT_CALLABLE = 3

class Holder:
    @staticmethod
    def sample(data, rng):
        return 0
"""


def _write(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / name
    path.write_text("import numpy as np\n" + textwrap.dedent(body), encoding="utf-8")
    return path


def rng(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


def test_file_target_loads_and_draws(tmp_path: Path) -> None:
    path = _write(tmp_path, "mech.py", RR)
    t = load_target(f"{path}:rr")
    assert t.name == f"{path}:rr" and t.spec == t.name and not t.vectorized
    assert t.package is None and t.package_version is None
    batch = draw(t, [1], rng(), 200)
    assert batch.kind == "number" and isinstance(batch.values, np.ndarray)
    assert set(batch.values.tolist()) == {0, 1}


def test_module_target_loads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pkg = tmp_path / "thirdparty_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    _write(pkg, "mech.py", RR)
    monkeypatch.syspath_prepend(str(tmp_path))
    t = load_target("thirdparty_pkg.mech:rr_vec")
    assert t.vectorized and t.spec == "thirdparty_pkg.mech:rr_vec"
    assert t.package == "thirdparty_pkg" and t.package_version is None  # not installed
    assert len(draw(t, [0], rng(), 50)) == 50
    assert load_target("thirdparty_pkg.mech:Holder.sample").function([0], rng()) == 0


def test_module_target_found_in_working_directory(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Console scripts lack the working directory on sys.path; the loader adds it."""
    _write(tmp_path, "cwd_only_mech.py", RR)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.path", [p for p in __import__("sys").path if p not in ("", ".")])
    assert load_target("cwd_only_mech:rr").name == "cwd_only_mech:rr"


def test_installed_package_version_is_reported() -> None:
    t = load_target("privref.reference.randomized_response:flip_bit")
    assert t.package == "privref" and t.package_version


def test_vectorized_rule(tmp_path: Path) -> None:
    """Third positional parameter named size, unless privref_vectorized says otherwise."""
    path = _write(tmp_path, "mech.py", RR)
    assert load_target(f"{path}:rr_vec").vectorized
    assert not load_target(f"{path}:rr_forced_scalar").vectorized
    assert load_target(f"{path}:rr_flagged").vectorized
    assert not load_target(f"{path}:rr").vectorized


def test_mechanism_attribute_uses_its_sampler(tmp_path: Path) -> None:
    path = tmp_path / "builtin.py"
    path.write_text("from privref.reference.randomized_response import randomized_response\n"
                    "RR = randomized_response('3/4')\n")
    t = load_target(f"{path}:RR")
    assert not t.vectorized and t.package == "privref"
    assert set(np.asarray(draw(t, [0], rng(), 100).values).tolist()) == {0, 1}
    direct = target_from_callable(randomized_response("3/4"))
    assert direct.name == "randomized response"


@pytest.mark.parametrize(("spec", "message"), [
    ("no_colon_here", "must look like 'package.module:function'"),
    (":fn", "must look like"),
    ("mod:", "must look like"),
    ("surely_not_a_module_xyz:fn", "cannot import target 'surely_not_a_module_xyz:fn': "
                                   "ModuleNotFoundError"),
    ("missing/file.py:fn", "file missing/file.py does not exist"),
])
def test_bad_specs(spec: str, message: str) -> None:
    with pytest.raises(TargetLoadError, match=message.replace("(", r"\(")) as info:
        load_target(spec)
    assert isinstance(info.value, PrivrefError)


def test_module_that_fails_to_import(tmp_path: Path) -> None:
    path = _write(tmp_path, "broken.py", "import does_not_exist_pkg\n")
    with pytest.raises(TargetLoadError, match=r"cannot import target .*broken.py:f.*No module named"):
        load_target(f"{path}:f")
    path = _write(tmp_path, "raises.py", "raise RuntimeError('boom at import')\n")
    with pytest.raises(TargetLoadError, match="RuntimeError: boom at import"):
        load_target(f"{path}:f")


def test_missing_attribute_and_not_callable(tmp_path: Path) -> None:
    path = _write(tmp_path, "mech.py", RR)
    with pytest.raises(TargetLoadError, match="has no attribute 'nope'"):
        load_target(f"{path}:nope")
    with pytest.raises(TargetLoadError, match="is a int, not callable"):
        load_target(f"{path}:NOT_CALLABLE")
    with pytest.raises(TargetLoadError, match="not callable"):
        target_from_callable(42)
    with pytest.raises(TargetLoadError, match=r"must accept \(data, rng\)"):
        target_from_callable(lambda data: 0)


def test_target_that_raises_names_target_input_and_exception() -> None:
    def bad(data: list[int], rng: np.random.Generator) -> int:
        raise ZeroDivisionError("no noise today")
    t = target_from_callable(bad, "bad")
    with pytest.raises(TargetCallError, match=r"target bad raised on data=\[3, 4\]: "
                                              r"ZeroDivisionError: no noise today"):
        draw(t, (3, 4), rng(), 5)


def _sequence_target(outcomes: list[object]) -> object:
    it = iter(outcomes)

    def f(data: list[int], rng: np.random.Generator) -> object:
        return next(it)
    return f


@pytest.mark.parametrize(("outcomes", "message"), [
    ([1, 2, "x"], r"draw #2 is 'x' \(label\) but draw #0 was 1 \(number\)"),
    ([(1, 2), (1, 2), 3], r"draw #2 is 3 \(number\) but draw #0 was \(1, 2\) \(tuple\(number, number\)\)"),
    ([[1, 2], {"a": 1}], "dicts have no canonical order"),
    ([{1, 2}], "return a frozenset or a sorted tuple"),
])
def test_inconsistent_or_bad_outcomes(outcomes: list[object], message: str) -> None:
    t = target_from_callable(_sequence_target(outcomes), "seq")
    with pytest.raises(OutcomeError, match=message):
        draw(t, [0], rng(), len(outcomes))


def test_outcome_kinds_and_normalization() -> None:
    assert outcome_kind(3) == outcome_kind(np.float32(2.5)) == "number"
    assert outcome_kind(True) == outcome_kind("a") == outcome_kind(None) == "label"
    assert outcome_kind((1, "a")) == "tuple(number, label)"
    t = target_from_callable(_sequence_target([np.int64(1), 2.5, 3]), "mixed")
    batch = draw(t, [0], rng(), 3)  # ints and floats are one kind: numbers, stored as floats
    assert isinstance(batch.values, np.ndarray) and batch.values.tolist() == [1.0, 2.5, 3.0]
    t = target_from_callable(_sequence_target([(np.int64(1), "a"), (2, "b")]), "tuples")
    assert draw(t, [0], rng(), 2).values == [(1, "a"), (2, "b")]


def test_vectorized_outputs_checked() -> None:
    def wrong_length(data: list[int], rng: np.random.Generator, size: int) -> list[int]:
        return [0] * (size - 1)

    def matrix(data: list[int], rng: np.random.Generator, size: int) -> np.ndarray:
        return np.zeros((size, 2), dtype=np.int64)

    def scalar(data: list[int], rng: np.random.Generator, size: int) -> int:
        return 0
    with pytest.raises(OutcomeError, match="returned 4 outcomes for size=5"):
        draw(target_from_callable(wrong_length, "w"), [0], rng(), 5)
    batch = draw(target_from_callable(matrix, "m"), [0], rng(), 3)
    assert batch.outcomes() == [(0, 0)] * 3 and batch.kind == "tuple(number, number)"
    assert isinstance(batch.values, np.ndarray) and batch.values.shape == (3, 2)  # kept packed

    def nan_row(data: list[int], rng: np.random.Generator, size: int) -> np.ndarray:
        out = np.zeros((size, 2))
        out[1, 1] = np.nan
        return out
    assert np.isnan(np.asarray(draw(target_from_callable(nan_row, "n"), [0], rng(), 3).values)[1, 1])  # NaN
    with pytest.raises(OutcomeError, match="must return a sequence"):
        draw(target_from_callable(scalar, "s"), [0], rng(), 3)


def test_target_cannot_mutate_the_shared_input() -> None:
    def mutating(data: list[int], rng: np.random.Generator) -> int:
        data.append(1)
        return len(data)
    assert list(draw(target_from_callable(mutating, "mut"), (0,), rng(), 3).values) == [2, 2, 2]


def honest(data: list[int], rng: np.random.Generator) -> int:
    return int(rng.integers(0, 1000))


def global_numpy(data: list[int], rng: np.random.Generator) -> int:
    return int(np.random.randint(0, 1000))


def global_random(data: list[int], rng: np.random.Generator) -> int:
    return random.randrange(1000)


def constant(data: list[int], rng: np.random.Generator) -> Hashable:
    return ("same", 1)


def test_rng_misuse_is_detected() -> None:
    assert probe_randomness(target_from_callable(honest), [0], seed=1) == ([], [])
    for bad in (global_numpy, global_random):
        warnings, notes = probe_randomness(target_from_callable(bad), [0], seed=1)
        assert len(warnings) == 1 and "hidden randomness" in warnings[0] and not notes
    warnings, notes = probe_randomness(target_from_callable(constant), [0], seed=1)
    assert not warnings and notes and notes[0].startswith("deterministic")


class OwnRandomness:
    """Like an OpenDP adapter: cannot be seeded, and says so."""

    uses_own_randomness = True
    __qualname__ = "own"

    def __call__(self, data: list[int], rng: np.random.Generator) -> float:
        return float(np.random.default_rng().random())


def test_declared_own_randomness_is_a_note_not_a_warning() -> None:
    warnings, notes = probe_randomness(target_from_callable(OwnRandomness(), "own"), [0], seed=1)
    assert not warnings and len(notes) == 1 and "uses_own_randomness" in notes[0]


def test_errors_share_the_root() -> None:
    for cls in (TargetLoadError, TargetCallError, OutcomeError):
        assert issubclass(cls, TargetError) and issubclass(cls, PrivrefError)


def test_registered_third_party_names_load(monkeypatch: pytest.MonkeyPatch) -> None:
    """``library:name-with-hyphen`` goes to the adapters registry (never a module:function).

    The registry's own build (which imports the library, slowly) is replaced
    here; test_adapters.py covers it.
    """
    from types import SimpleNamespace

    from privref.audits.blackbox import adapters
    name = adapters.third_party_target_names()[0]
    claim = PrivacyClaim.of(Fraction(1, 2))
    built = SimpleNamespace(function=rr_vec_for_registry, library="lib", library_version="9.9",
                            claim=claim, pairs=(((0,), ()),))
    monkeypatch.setattr(adapters, "third_party_target", lambda n: built)
    t = load_target(name)
    assert (t.name, t.spec, t.package, t.package_version, t.vectorized) == (name, name, "lib",
                                                                            "9.9", True)
    assert t.claim == claim and t.pairs == (((0,), ()),)  # declared, for the CLI's defaults
    with pytest.raises(TargetLoadError, match="nor a registered third-party target; known: "):
        load_target("diffprivlib:no-such-thing")


def rr_vec_for_registry(data: list[int], rng: np.random.Generator, size: int) -> np.ndarray:
    return np.zeros(size, dtype=np.int64)


def _rr_program(data: tuple[int, ...], keep: Fraction = Fraction(3, 4)):  # type: ignore[no-untyped-def]
    """docs/api.md's randomized response, written as a probabilistic program (it yields)."""
    from privref import bernoulli

    kept = yield from bernoulli(keep)
    return data[0] if kept else 1 - data[0]


def test_a_probabilistic_program_is_sampled_not_called() -> None:
    """A generator function of the data alone is a program: each draw is its exact sample, so
    outcomes are its values (compared by value), never generator objects (issue 32)."""
    from privref.audits.blackbox.target import draw, target_from_callable

    t = target_from_callable(_rr_program)
    batch = draw(t, [1], np.random.default_rng(5), 4000)
    ones = int(np.sum(np.asarray(batch.values) == 1))
    assert set(batch.outcomes()) == {0, 1} and 2800 < ones < 3200  # P[1] = 3/4


def test_outcomes_compared_by_identity_or_none_are_refused() -> None:
    from privref.audits.blackbox.batch import make_batch
    from privref.audits.blackbox.errors import OutcomeError

    def gen() -> object:
        yield 0

    class Plain:
        pass

    for raw, why in (([gen(), gen()], "generator is compared by identity"),
                     ([Plain(), Plain()], "Plain is compared by identity"),
                     ([1.0, None], r"returned None \(draw #1\)"),
                     ([tuple(range(300))], "300 entries, more than MAX_OUTCOME_ENTRIES=256"),
                     (["x" * 2000], "2000 characters, more than MAX_LABEL_LENGTH=1024")):
        with pytest.raises(OutcomeError, match=why):
            make_batch(raw, "t", [0])
    # singletons and value types stay accepted
    assert make_batch([(None, 1), (None, 2)], "t", [0]).kind == "tuple(label, number)"


def test_negative_zero_is_its_own_discrete_outcome() -> None:
    from privref.audits.blackbox.outcomes import NEG_ZERO, canonical, outcome_keys

    assert canonical(-0.0) is NEG_ZERO and canonical(0.0) == 0.0
    assert outcome_keys(np.array([0.0, -0.0, 1.0])) == [0.0, NEG_ZERO, 1.0]
    assert outcome_keys(np.array([[0.0, -0.0]]))[0] == (0.0, NEG_ZERO)
