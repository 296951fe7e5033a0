"""Third-party black-box targets: OpenDP measurements and diffprivlib mechanisms, audited by name.

A *third-party target* is a registered use of a mechanism from another DP
library, wrapped in privref's black-box target convention: a callable
``fn(data: list, rng: numpy.random.Generator) -> outcome`` and, where the
library can draw many outcomes at once, a vectorized form
``fn(data, rng, size) -> size outcomes`` (see audits.blackbox.target).  Each
registry entry states, next to the callables:

* the **claim** the library makes for this use, read from the library itself
  (an OpenDP measurement's privacy map ``meas.map(d_in)``; a diffprivlib
  mechanism's ``epsilon``/``delta`` attributes), converted exactly
  (``Fraction(float)`` is the float's exact binary value);
* the neighbor **relation** the claim is stated for and recommended
  neighboring **pairs**, each with its exact privacy loss;
* the **true epsilon**: the exact supremum of the privacy loss over all
  neighbors under the relation, of the mechanism's law in exact arithmetic
  (closed forms: Laplace of scale b on a query of sensitivity Δ has
  eps = Δ/b), so that an auditor's verdict can be judged;
* whether the use is **correct** or a **deliberately misconfigured** one
  (``misconfiguration`` says how), in which case the true epsilon exceeds the
  claim.

Names look like ``opendp:count-laplace``; the part after the colon always
contains a hyphen, so a registry name is never a valid ``module:function``
spec and the two kinds of target names cannot collide (:func:`is_third_party_name`).

Randomness: diffprivlib mechanisms are driven by ``rng`` itself (their
``random_state`` is a ``numpy.random.RandomState`` wrapping ``rng``'s bit
generator), so runs are reproducible from the seed.  OpenDP cannot be seeded:
its samplers draw every bit from a thread-local CTR-DRBG seeded by the
operating system (``opendp::traits::samplers::fill_bytes``), so OpenDP
adapters ignore ``rng``, carry ``uses_own_randomness = True``, and their
results are not bit-reproducible (they remain statistically valid: every draw
is independent).

The libraries are optional (extras ``privref[opendp]`` and
``privref[diffprivlib]``) and imported only when a target of theirs is built;
when one is missing or broken, :class:`MissingDependency` names the extra.
"""

from __future__ import annotations

import importlib
import importlib.metadata
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from types import ModuleType
from typing import ClassVar, Final

import numpy as np

from privref.reference.errors import InvalidArgument
from privref.reference.neighbors import NeighborRelation
from privref.reference.privacy import PrivacyClaim
from privref.reference.reals import Real
from privref.reference.validate import check_int

from .adapter_types import (
    AdapterDefinition,
    Implementation,
    Library,
    Outcomes,
    Pair,
)
from .adapters_diffprivlib import DEFINITIONS as DIFFPRIVLIB
from .adapters_opendp import DEFINITIONS as OPENDP
from .declarations import InputDomain
from .errors import MissingDependency

__all__ = [
    "LIBRARIES",
    "TARGET_ENTRY_POINT_GROUP",
    "AdapterDefinition",
    "Implementation",
    "Library",
    "MissingDependency",
    "Outcomes",
    "Pair",
    "ScalarSampler",
    "ThirdPartyTarget",
    "VectorSampler",
    "is_third_party_name",
    "register_target",
    "registered_target",
    "registered_target_names",
    "require",
    "third_party_target",
    "third_party_target_names",
    "third_party_targets",
    "unregister_target",
]

LIBRARIES: Final[tuple[Library, ...]] = ("opendp", "diffprivlib")

_MODULE: Final[dict[Library, str]] = {"opendp": "opendp.prelude", "diffprivlib": "diffprivlib.mechanisms"}
_OWN_RANDOMNESS: Final[dict[Library, bool]] = {"opendp": True, "diffprivlib": False}
"""Whether a library's samplers ignore ``rng`` (OpenDP has no seeding API; diffprivlib takes random_state)."""



def require(library: Library, target: str) -> ModuleType:
    """Import ``library``'s entry module (opendp.prelude, diffprivlib.mechanisms) for ``target``.

    Raises MissingDependency when it is absent (``ModuleNotFoundError`` for
    the library itself) or present but failing to import (any other
    ImportError, e.g. diffprivlib 0.6.6 with scikit-learn >= 1.9).
    """
    module = _MODULE[library]
    extra = f"pip install 'privref[{library}]'"
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name is not None and module.startswith(exc.name):
            raise MissingDependency(
                f"target {target!r} needs the {library} library, which is not installed "
                f"({exc}); install it with {extra}") from exc
        raise MissingDependency(
            f"target {target!r}: {library} is installed but cannot be imported "
            f"(ModuleNotFoundError: {exc}); reinstall it with {extra}") from exc
    except ImportError as exc:
        raise MissingDependency(
            f"target {target!r}: {library} is installed but cannot be imported "
            f"({type(exc).__name__}: {exc}); {extra} pins versions known to work") from exc


@dataclass(frozen=True, slots=True)
class ScalarSampler:
    """The ``(data, rng) -> outcome`` form of a registered target.

    Holds only the target's name, so it pickles (worker processes rebuild the
    library objects, which are often unpicklable, on first use).
    ``uses_own_randomness`` is True when the library cannot be driven by
    ``rng`` (OpenDP): the loader's hidden-randomness probe is then expected
    to see different outcomes for identical seeds.
    """

    target: str
    uses_own_randomness: bool
    privref_vectorized: ClassVar[bool] = False

    def __call__(self, data: list[Hashable], rng: np.random.Generator) -> Hashable:
        """One outcome on ``data`` (see the target's description for the accepted entries)."""
        return _implementation(self.target).one(list(data), rng)


@dataclass(frozen=True, slots=True)
class VectorSampler:
    """The ``(data, rng, size) -> size outcomes`` form of a registered target (see ScalarSampler)."""

    target: str
    uses_own_randomness: bool
    privref_vectorized: ClassVar[bool] = True

    def __call__(self, data: list[Hashable], rng: np.random.Generator, size: int) -> Outcomes:
        """``size`` independent outcomes on ``data``: an int64/float64 array for numbers, else a list."""
        size = check_int(int(size) if isinstance(size, np.integer) else size, "size", minimum=0)
        many = _implementation(self.target).many
        if many is None:  # pragma: no cover - VectorSampler is only made for vectorized targets
            raise InvalidArgument(f"target {self.target!r} has no vectorized form")
        return many(list(data), rng, size)


@dataclass(frozen=True, slots=True)
class ThirdPartyTarget:
    """A registered third-party target, built (its library imported and its claim read).

    See :class:`AdapterDefinition` for the meaning of the fields it shares.
    ``claim`` is the library's own claim for this use; for a correct use
    ``true_epsilon <= claim.epsilon``, for a misconfigured one
    ``true_epsilon > claim.epsilon`` (both checked by the tests).
    ``sample`` is the scalar form; ``sample_many`` the vectorized form or
    None; :attr:`function` is the one an auditor should call.
    """

    name: str
    library: Library
    library_version: str
    description: str
    claim: PrivacyClaim
    claim_source: str
    documented_claim: PrivacyClaim
    relation: NeighborRelation
    pairs: tuple[Pair, ...]
    pair_epsilons: tuple[Real, ...]
    true_epsilon: Real
    true_epsilon_attained: bool
    misconfiguration: str | None
    reference: str
    outcome_type: type
    uses_own_randomness: bool
    sample: ScalarSampler
    sample_many: VectorSampler | None
    float_leak: str | None = None
    domain: InputDomain | None = None

    @property
    def correct(self) -> bool:
        """True for a correct use of the library, False for a deliberately misconfigured one."""
        return self.misconfiguration is None

    @property
    def private_as_implemented(self) -> bool:
        """Correct, and no known floating-point leak: the implementation itself meets its claim."""
        return self.correct and self.float_leak is None

    @property
    def function(self) -> ScalarSampler | VectorSampler:
        """The fastest form: the vectorized one when the library allows it, else the scalar one."""
        return self.sample_many if self.sample_many is not None else self.sample

    @property
    def json_pairs(self) -> tuple[tuple[list[Hashable], list[Hashable]], ...]:
        """The recommended pairs as lists, the form of ``--pair JSON JSON``."""
        return tuple((list(a), list(b)) for a, b in self.pairs)


def _definitions() -> dict[str, AdapterDefinition]:
    return {d.name: d for d in (*OPENDP, *DIFFPRIVLIB)}


_BUILT: dict[str, Implementation] = {}


def _definition(name: str) -> AdapterDefinition:
    definitions = _definitions()
    if name not in definitions:
        raise InvalidArgument(f"target={name!r} is not a registered third-party target; known: "
                              + ", ".join(sorted(definitions)))
    return definitions[name]


def _implementation(name: str) -> Implementation:
    built = _BUILT.get(name)
    if built is None:
        definition = _definition(name)
        built = definition.build(require(definition.library, name))
        if built.claim.delta != definition.documented_claim.delta:
            raise InvalidArgument(f"{name}: the library claims delta={built.claim.delta}, "
                                  f"documented delta={definition.documented_claim.delta}")
        if (built.many is None) == definition.vectorized:
            raise InvalidArgument(f"{name}: vectorized={definition.vectorized} disagrees with "
                                  "its implementation")
        _BUILT[name] = built
    return built


def third_party_target_names(library: Library | None = None) -> tuple[str, ...]:
    """The registered names (sorted), optionally of one library; imports no library."""
    return tuple(sorted(n for n, d in _definitions().items() if library in (None, d.library)))


def is_third_party_name(spec: str) -> bool:
    """True when ``spec`` is a registered third-party target name such as ``opendp:count-laplace``."""
    return spec in _definitions()


def third_party_target(name: str) -> ThirdPartyTarget:
    """Build the registered target ``name`` (see the module docstring).

    Raises InvalidArgument for an unknown name (listing the known ones) and
    MissingDependency when its library is absent or cannot be imported.
    """
    definition = _definition(name)
    require(definition.library, name)  # every call, so a library removed later is still reported
    impl = _implementation(name)
    own = _OWN_RANDOMNESS[definition.library]
    return ThirdPartyTarget(
        name=name,
        library=definition.library,
        library_version=importlib.metadata.version(definition.library),
        description=definition.description,
        claim=impl.claim,
        claim_source=impl.claim_source,
        documented_claim=definition.documented_claim,
        relation=definition.relation,
        pairs=definition.pairs,
        pair_epsilons=definition.pair_epsilons,
        true_epsilon=definition.true_epsilon,
        true_epsilon_attained=definition.true_epsilon_attained,
        misconfiguration=definition.misconfiguration,
        reference=definition.reference,
        outcome_type=definition.outcome_type,
        uses_own_randomness=own,
        sample=ScalarSampler(name, own),
        sample_many=VectorSampler(name, own) if definition.vectorized else None,
        float_leak=definition.float_leak,
        domain=definition.domain,
    )


def third_party_targets(library: Library | None = None) -> tuple[ThirdPartyTarget, ...]:
    """Every registered target (optionally of one library), built, in name order.

    Raises MissingDependency when a needed library is absent or broken.
    """
    return tuple(third_party_target(n) for n in third_party_target_names(library))


_REGISTERED: dict[str, Callable[[], object]] = {}
"""Targets registered with :func:`register_target` in this process (name -> builder)."""


def register_target(name: str, builder: Callable[[], object], *, replace: bool = False) -> None:
    """Register a target under ``name`` (``library:some-name``, with a hyphen after the colon,
    so it is never a ``module:function`` spec): ``load_target(NAME)`` (and ``privref audit
    blackbox NAME`` run by ``cli.main`` in this process) then call ``builder()`` and audit the
    callable it returns, reading its declaration (``privref_claim``, ``privref_relation``,
    ``privref_pairs``, ``privref_domain``, ``privref_library``; see
    audits.blackbox.declarations).

    The builder runs at load time (so it may import its library lazily).  The registry lives
    in this process: worker processes inherit it under the ``fork`` start method (Linux);
    elsewhere audit with one worker.  The ``privref`` command, a separate process, sees a
    target only through an entry point of group ``privref.targets`` (:func:`registered_target`).
    Raises InvalidArgument for a malformed name, a name of a built-in adapter, a name already
    registered (unless ``replace``), or a builder that is not callable.
    """
    prefix, sep, rest = name.partition(":") if isinstance(name, str) else ("", "", "")
    if not prefix or not sep or "-" not in rest or "/" in prefix or prefix.endswith(".py"):
        raise InvalidArgument(f"name={name!r} must look like 'library:some-name' (a hyphen after "
                              "the colon, so that it is never a module:function spec)")
    if name in _definitions():
        raise InvalidArgument(f"name={name!r} is a built-in third-party target; choose another")
    if name in _REGISTERED and not replace:
        raise InvalidArgument(f"name={name!r} is already registered; pass replace=True")
    if not callable(builder):
        raise InvalidArgument(f"builder={builder!r} must be a callable returning the target")
    _REGISTERED[name] = builder


TARGET_ENTRY_POINT_GROUP: Final = "privref.targets"
"""The entry-point group of installed distributions' targets (name = target name, value =
``module:builder``), consulted by :func:`registered_target` for a name not registered here."""


def registered_target(name: str) -> Callable[[], object] | None:
    """The builder of the target named ``name``, or None when there is none.

    In order: a builder registered with :func:`register_target` in this process, else an entry
    point named ``name`` in the group :data:`TARGET_ENTRY_POINT_GROUP` (``privref.targets``) of
    an installed distribution, whose value ``module:builder`` names the builder.  A built-in
    name or a name that does not look like ``library:some-name`` is never taken from an entry
    point.  The returned builder loads the entry point when called, so a missing module or a
    failing import surfaces there (``load_target`` reports it as a TargetLoadError); two
    distributions declaring the same name are refused with InvalidArgument when it is called.
    """
    if name in _REGISTERED:
        return _REGISTERED[name]
    prefix, sep, rest = name.partition(":") if isinstance(name, str) else ("", "", "")
    if not prefix or not sep or "-" not in rest or name in _definitions():
        return None
    import importlib.metadata

    found = [ep for ep in importlib.metadata.entry_points(group=TARGET_ENTRY_POINT_GROUP)
             if ep.name == name]
    if not found:
        return None

    def builder() -> object:
        values = sorted({ep.value for ep in found})
        if len(values) > 1:
            raise InvalidArgument(f"target {name!r} is declared by several entry points of group "
                                  f"{TARGET_ENTRY_POINT_GROUP!r}: {', '.join(values)}")
        made = found[0].load()
        if not callable(made):
            raise InvalidArgument(f"entry point {name} = {found[0].value} "
                                  f"({TARGET_ENTRY_POINT_GROUP}) is a {type(made).__name__}, not "
                                  "a builder (a callable returning the target)")
        return made()

    return builder


def registered_target_names() -> tuple[str, ...]:
    """The names registered with :func:`register_target` in this process, sorted."""
    return tuple(sorted(_REGISTERED))


def unregister_target(name: str) -> None:
    """Remove ``name`` from the targets registered with :func:`register_target` (no-op if absent)."""
    _REGISTERED.pop(name, None)
