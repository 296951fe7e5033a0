"""Targets that declare themselves: claim, neighbor relation, pairs, input domain, library.

A file or module target (``fn(data, rng)``) may carry these attributes, set by hand or by the
:func:`declare` decorator; :func:`read_declaration` validates them when the target is loaded
(a bad value is a :class:`~privref.audits.blackbox.errors.TargetLoadError` naming the attribute
and what is allowed):

``privref_claim``
    a pure claim (an epsilon: ``"1/2"``, ``"ln(3)"``, ``1``), a :class:`PrivacyClaim`, a
    :class:`ZCDPClaim` (ρ-zCDP), a :class:`GDPClaim` (μ-GDP), a :class:`ProfileClaim`
    (a privacy profile, finitely many
    (ε, δ) points), or a mapping ``{"epsilon": E, "delta": D}``, ``{"rho": R}`` (optionally
    ``"delta"``: the point audited by default, and ``"approx_delta"``: approximate zCDP),
    ``{"mu": M}`` (μ-GDP, optionally ``"delta"``)
    or ``{"profile": [[E1, D1], ...]}``;
``privref_relation``
    the neighbor relation the claim is stated under: a name (``"add-remove"``) or a relation
    of :mod:`privref.reference.neighbors`;
``privref_pairs``
    recommended neighboring pairs ``[[a, b], ...]`` (checked under the declared relation);
``privref_domain``
    the input domain, the pair search's space: an :class:`InputDomain` or a mapping with
    ``elements``, ``sizes`` and ``bounds`` (the clamp bounds ``[low, high]`` of a
    clamp-and-sum; both become search elements); a size 0 (the empty dataset) is kept under
    add-remove and refused under every other relation, where it has no neighbor;
``privref_library``
    the DP library the target uses: a distribution name, whose version is read from the
    installed distribution (:func:`library_version`).

Contradictions are errors: a second :func:`declare` on a function that already declares
something, and a given relation that differs from the declared one
(:func:`relation_in_force`, unless explicitly overridden).  Floats are taken at their exact
binary value.  Claims are audited at one (ε, δ) point,
:func:`audited_point`, the single place where a zCDP or profile claim is converted, or at several,
:func:`profile_points` (a zCDP claim on a grid of δ, a profile at its own points).
"""

from __future__ import annotations

import importlib.metadata
import os
import sys
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import ModuleType
from typing import TypeVar

from privref.reference.accounting import zcdp_epsilon, zcdp_order, zcdp_to_dp_epsilon
from privref.reference.errors import InvalidArgument, PrivrefError
from privref.reference.fdp import gaussian_dp
from privref.reference.neighbors import (
    AddRemove,
    LabelSubstitution,
    LInf,
    NeighborRelation,
    PublicPrivate,
    Substitution,
)
from privref.reference.privacy import (
    Claim,
    GDPClaim,
    PrivacyClaim,
    ProfileClaim,
    ZCDPClaim,
    parse_epsilon,
)
from privref.reference.reals import Order, Real, compare, log, rational
from privref.reference.validate import ExactInput, check_delta, to_fraction

from .errors import MissingDependency, TargetLoadError
from .search import MAX_SEARCH_SIZE, SearchSpace, relation_from_name, relation_name_safe

__all__ = [
    "ATTRIBUTES",
    "DEFAULTED_RELATION",
    "LIBRARY_SOURCES",
    "MAX_PROFILE_POINTS",
    "OVERRIDDEN_RELATION",
    "ZCDP_DELTAS",
    "AuditPoint",
    "Declaration",
    "DeclaredClaim",
    "GDPClaim",
    "InputDomain",
    "LibraryVersion",
    "ProfileClaim",
    "ZCDPClaim",
    "audited_point",
    "claim_json",
    "claim_text",
    "declare",
    "detect_libraries",
    "distributions_by_package",
    "library_version",
    "profile_points",
    "read_declaration",
    "relation_in_force",
    "search_space",
]

ATTRIBUTES = ("privref_claim", "privref_relation", "privref_pairs", "privref_domain",
              "privref_library")
"""The attributes a target may declare itself with (read by :func:`read_declaration`)."""

DEFAULTED_RELATION = ("relation defaulted to substitution; neither --relation (API: relation=) "
                      "nor the target declares one (privref_relation / declare(relation=...)). "
                      "A claim stated under add-remove audited on substitution pairs can give a "
                      "false VIOLATION: state the relation of the claim")
"""The warning attached to a report whose relation was neither given nor declared."""

OVERRIDDEN_RELATION = ("relation OVERRIDDEN: the relation given (--relation / relation=) differs "
                       "from the one the target declares and was accepted only because of "
                       "--override-declared-relation (API: override_relation=True); a claim "
                       "stated under the declared relation audited under another can give a "
                       "false VIOLATION")
"""The warning attached to a report whose given relation overrode the declared one."""

ZCDP_DELTAS: tuple[Fraction, ...] = tuple(Fraction(1, 10**k) for k in range(2, 7))
"""The δ grid at which :func:`profile_points` audits a ρ-zCDP claim by default: 10⁻², …, 10⁻⁶."""

MAX_PROFILE_POINTS = 32
"""Most δ values :func:`profile_points` accepts (each point costs a share of the confidence)."""

_RELATIONS = (Substitution, AddRemove, LInf, LabelSubstitution, PublicPrivate)

Pair = tuple[tuple[Hashable, ...], tuple[Hashable, ...]]


DeclaredClaim = Claim
"""What a target may claim: (ε, δ)-DP (pure when δ = 0), ρ-zCDP, or a privacy profile (the claim
family :data:`privref.reference.privacy.Claim`, shared with the exact auditor)."""


@dataclass(frozen=True, slots=True)
class InputDomain:
    """The input domain a target declares: entry values, dataset sizes and clamp bounds.

    ``elements`` are the values an entry may take (in increasing order for numbers);
    ``bounds`` the clamp bounds ``(low, high)`` of a clamp-and-sum, both added to the
    search elements (:meth:`search_elements`) so that the search reaches the full
    sensitivity; ``sizes`` the dataset sizes (None: the search's default).
    """

    elements: tuple[Hashable, ...] = ()
    sizes: tuple[int, ...] | None = None
    bounds: tuple[Fraction | int, Fraction | int] | None = None

    def __post_init__(self) -> None:
        """Validate every field (InvalidArgument naming it and the accepted values); lists
        become tuples and float bounds their exact binary values."""
        elements = _dataset(self.elements)
        if elements is None or len(set(elements)) != len(elements):
            raise InvalidArgument(f"elements={self.elements!r} must be a list of distinct "
                                  "hashable values")
        object.__setattr__(self, "elements", elements)
        if self.sizes is not None:
            raw = self.sizes
            if (isinstance(raw, str | bytes) or not isinstance(raw, Sequence) or not raw
                    or not all(isinstance(v, int) and not isinstance(v, bool)
                               and 0 <= v <= MAX_SEARCH_SIZE for v in raw)):
                raise InvalidArgument(f"sizes={raw!r} must be None or a non-empty list of ints "
                                      f"in [0, {MAX_SEARCH_SIZE}]")
            object.__setattr__(self, "sizes", tuple(raw))
        if self.bounds is not None:
            raw_b = self.bounds
            if (isinstance(raw_b, str | bytes) or not isinstance(raw_b, Sequence)
                    or len(raw_b) != 2 or not all(_number(v) for v in raw_b)):
                raise InvalidArgument(f"bounds={raw_b!r} must be None or [low, high] numbers")
            lo, hi = (to_fraction(v, "bounds") for v in raw_b)
            if lo > hi:
                raise InvalidArgument(f"bounds={raw_b!r}: low > high; must be [low, high]")
            object.__setattr__(self, "bounds", tuple(
                int(v) if v.denominator == 1 else v for v in (lo, hi)))

    def search_elements(self) -> tuple[Hashable, ...]:
        """``elements`` with the two bounds added, sorted when all are numbers; () when empty."""
        values = list(self.elements)
        if self.bounds is not None:
            values += [b for b in self.bounds if b not in values]
        if all(_number(v) for v in values):
            values.sort(key=lambda v: Fraction(v))  # type: ignore[call-overload]
        return tuple(values)

    def to_json(self) -> dict[str, object]:
        """A JSON-able record (bounds as exact strings when not ints)."""
        return {"elements": [_show(v) for v in self.elements],
                "sizes": None if self.sizes is None else list(self.sizes),
                "bounds": None if self.bounds is None else [_show(b) for b in self.bounds]}


LIBRARY_SOURCES = ("declared", "registered", "detected")
"""How a target's library may be known (:attr:`LibraryVersion.source`)."""


@dataclass(frozen=True, slots=True)
class LibraryVersion:
    """A distribution a target uses, its installed version (None: not installed / unknown), and
    how it was found: ``declared`` (privref_library), ``registered`` (an adapter) or
    ``detected`` (imported by the target's module)."""

    name: str
    version: str | None
    source: str

    def __post_init__(self) -> None:
        """Validate every field (InvalidArgument naming it and the accepted values)."""
        if not isinstance(self.name, str) or not self.name.strip():
            raise InvalidArgument(f"name={self.name!r} must be a non-empty distribution name")
        if self.version is not None and not isinstance(self.version, str):
            raise InvalidArgument(f"version={self.version!r} must be None or a str")
        if self.source not in LIBRARY_SOURCES:
            raise InvalidArgument(f"source={self.source!r} must be one of "
                                  f"{', '.join(LIBRARY_SOURCES)}")

    def to_json(self) -> dict[str, str | None]:
        """``{"name", "version", "source"}``."""
        return {"name": self.name, "version": self.version, "source": self.source}


@dataclass(frozen=True, slots=True)
class Declaration:
    """A target's validated self-description (every field None when not declared)."""

    claim: DeclaredClaim | None = None
    relation: NeighborRelation | None = None
    pairs: tuple[Pair, ...] | None = None
    domain: InputDomain | None = None
    library: LibraryVersion | None = None

    def __post_init__(self) -> None:
        """Validate every field (InvalidArgument naming it and the accepted values): the claim
        and relation types, pairs neighboring under the relation, a size 0 only under
        add-remove."""
        if self.claim is not None and not isinstance(
                self.claim, PrivacyClaim | ZCDPClaim | ProfileClaim | GDPClaim):
            raise InvalidArgument(f"claim={self.claim!r} must be None, a PrivacyClaim, ZCDPClaim, "
                                  "ProfileClaim or GDPClaim")
        if self.relation is not None and not isinstance(self.relation, _RELATIONS):
            raise InvalidArgument(f"relation={self.relation!r} must be None or {_RELATION_ALLOWED}")
        if self.pairs is not None:
            try:
                object.__setattr__(self, "pairs", _pairs(self.pairs, self.relation, "pairs"))
            except TargetLoadError as exc:
                raise InvalidArgument(str(exc)) from None
        for name, value, kind in (("domain", self.domain, InputDomain),
                                  ("library", self.library, LibraryVersion)):
            if value is not None and not isinstance(value, kind):
                raise InvalidArgument(f"{name}={value!r} must be None or a {kind.__name__}")
        if (self.relation is not None and self.domain is not None
                and self.domain.sizes is not None and 0 in self.domain.sizes
                and not isinstance(self.relation, AddRemove)):
            raise InvalidArgument(_size_zero(self.relation, self.domain.sizes))


@dataclass(frozen=True, slots=True)
class AuditPoint:
    """The (ε, δ) point audited for a declared claim (a validated :class:`PrivacyClaim`), and how
    it was obtained (``conversion``: None when the claim is that point itself)."""

    claim: PrivacyClaim
    conversion: str | None

    def __post_init__(self) -> None:
        """Validate both fields (InvalidArgument naming the field)."""
        if not isinstance(self.claim, PrivacyClaim):
            raise InvalidArgument(f"claim={self.claim!r} must be a PrivacyClaim")
        if self.conversion is not None and not isinstance(self.conversion, str):
            raise InvalidArgument(f"conversion={self.conversion!r} must be None or a str")

    @property
    def epsilon(self) -> Real:
        """The point's ε."""
        return self.claim.epsilon

    @property
    def delta(self) -> Fraction:
        """The point's δ."""
        return self.claim.delta


def _number(v: object) -> bool:
    return isinstance(v, int | Fraction | float) and not isinstance(v, bool)


def _show(v: object) -> object:
    if isinstance(v, Fraction):
        return str(v) if v.denominator != 1 else int(v)
    return v if v is None or isinstance(v, bool | int | float | str) else repr(v)


def _fail(attribute: str, value: object, allowed: str, why: str = "") -> TargetLoadError:
    shown = repr(value)
    shown = shown if len(shown) <= 80 else shown[:77] + "..."
    return TargetLoadError(f"{attribute}={shown}{': ' + why if why else ''}; allowed: {allowed}")


_CLAIM_ALLOWED = ("an epsilon ('1/2', 'ln(3)', 1), PrivacyClaim, ZCDPClaim, ProfileClaim, "
                  "GDPClaim, or a mapping {'epsilon': E, 'delta': D} | {'rho': R[, 'delta': D]"
                  "[, 'approx_delta': A]} "
                  "| {'mu': M[, 'delta': D]} | {'profile': [[E, D], ...]}")


def _claim(value: object, attribute: str = "privref_claim") -> DeclaredClaim:
    if isinstance(value, PrivacyClaim | ZCDPClaim | ProfileClaim | GDPClaim):
        return value
    try:
        if isinstance(value, Mapping):
            keys = set(value)
            if keys <= {"epsilon", "delta"} and "epsilon" in keys:
                return PrivacyClaim.of(value["epsilon"], value.get("delta", 0))
            if keys <= {"rho", "delta", "approx_delta"} and "rho" in keys:
                delta = value.get("delta")
                return ZCDPClaim(to_fraction(value["rho"], "rho"),
                                 None if delta is None else check_delta(delta),
                                 check_delta(value.get("approx_delta", 0), "approx_delta"))
            if keys <= {"mu", "delta"} and "mu" in keys:
                delta = value.get("delta")
                return GDPClaim(to_fraction(value["mu"], "mu"),
                                None if delta is None else check_delta(delta))
            if keys == {"profile"}:
                points = value["profile"]
                if isinstance(points, str | bytes) or not isinstance(points, Sequence):
                    raise _fail(attribute, value, _CLAIM_ALLOWED, "profile must be a list")
                out = []
                for p in points:
                    if isinstance(p, str | bytes) or not isinstance(p, Sequence) or len(p) != 2:
                        raise _fail(attribute, value, _CLAIM_ALLOWED,
                                    f"profile point {p!r} must be [epsilon, delta]")
                    out.append(PrivacyClaim.of(p[0], p[1]))
                return ProfileClaim(tuple(out))
            kinds = sorted(keys & {"epsilon", "rho", "mu", "profile"})
            if len(kinds) > 1:
                raise _fail(attribute, value, _CLAIM_ALLOWED,
                            f"{' and '.join(repr(k) for k in kinds)} are alternatives (one claim "
                            "kind per target); accepted key sets: {'epsilon'}, "
                            "{'epsilon', 'delta'}, {'rho'}, {'rho', 'delta'}, {'mu'}, "
                            "{'mu', 'delta'}, {'profile'}")
            unknown = sorted(keys - {"epsilon", "rho", "mu", "profile", "delta"})
            raise _fail(attribute, value, _CLAIM_ALLOWED,
                        f"unknown keys {unknown}" if unknown else
                        f"keys {sorted(keys)}: 'delta' needs 'epsilon', 'rho' or 'mu'; 'profile' "
                        "stands alone")
        if isinstance(value, str | int | float | Fraction | Real) and not isinstance(value, bool):
            return PrivacyClaim(parse_epsilon(value))
    except TargetLoadError:
        raise
    except PrivrefError as exc:
        raise _fail(attribute, value, _CLAIM_ALLOWED, str(exc)) from None
    raise _fail(attribute, value, _CLAIM_ALLOWED)


_RELATION_ALLOWED = ("a name (substitution, add-remove, linf, label-substitution, "
                     "public-private:K) or a relation of privref.reference.neighbors")


def _relation(value: object, attribute: str = "privref_relation") -> NeighborRelation:
    if isinstance(value, _RELATIONS):
        return value
    if isinstance(value, str):
        try:
            return relation_from_name(value, attribute)
        except PrivrefError as exc:
            raise _fail(attribute, value, _RELATION_ALLOWED, str(exc)) from None
    raise _fail(attribute, value, _RELATION_ALLOWED)


def _hashable(value: object) -> Hashable:
    if isinstance(value, list | tuple):
        return tuple(_hashable(v) for v in value)
    if not isinstance(value, Hashable):
        raise TypeError(type(value).__name__)
    return value


def _dataset(value: object) -> tuple[Hashable, ...] | None:
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        return None
    try:
        return tuple(_hashable(v) for v in value)
    except TypeError:
        return None


_PAIRS_ALLOWED = "a non-empty list of pairs [a, b] of datasets (lists), e.g. [[[0], [1]]]"


def _pairs(value: object, relation: NeighborRelation | None,
           attribute: str = "privref_pairs") -> tuple[Pair, ...]:
    if isinstance(value, str | bytes) or not isinstance(value, Sequence) or not value:
        raise _fail(attribute, value, _PAIRS_ALLOWED)
    out: list[Pair] = []
    for p in value:
        if isinstance(p, str | bytes) or not isinstance(p, Sequence) or len(p) != 2:
            raise _fail(attribute, value, _PAIRS_ALLOWED, f"entry {p!r} is not a pair")
        a, b = _dataset(p[0]), _dataset(p[1])
        if a is None or b is None:
            raise _fail(attribute, value, _PAIRS_ALLOWED, f"entry {p!r} is not a pair of lists "
                        "of hashable entries")
        if relation is not None and not relation.are_neighbors(a, b):
            raise _fail(attribute, value, _PAIRS_ALLOWED, f"{list(a)} and {list(b)} are not "
                        f"neighbors under the declared relation {relation_name_safe(relation)}")
        out.append((a, b))
    return tuple(out)


_DOMAIN_ALLOWED = ("an InputDomain or a mapping with 'elements' (a list of entry values), "
                   f"'sizes' (ints in [0, {MAX_SEARCH_SIZE}]) and 'bounds' ([low, high] numbers, "
                   "low <= high)")


def _domain(value: object, attribute: str = "privref_domain") -> InputDomain:
    if isinstance(value, InputDomain):
        raw: Mapping[str, object] = {"elements": value.elements, "sizes": value.sizes,
                                     "bounds": value.bounds}
    elif isinstance(value, Mapping):
        raw = value
    else:
        raise _fail(attribute, value, _DOMAIN_ALLOWED)
    unknown = set(raw) - {"elements", "sizes", "bounds"}
    if unknown:
        raise _fail(attribute, value, _DOMAIN_ALLOWED, f"unknown keys {sorted(unknown)}")
    elements_raw = raw.get("elements") or ()
    elements = _dataset(elements_raw)
    if elements is None or len(set(elements)) != len(elements):
        raise _fail(attribute, value, _DOMAIN_ALLOWED, "elements must be a list of distinct "
                    "hashable values")
    sizes_raw = raw.get("sizes")
    sizes: tuple[int, ...] | None = None
    if sizes_raw is not None:
        if (isinstance(sizes_raw, str | bytes) or not isinstance(sizes_raw, Sequence)
                or not sizes_raw
                or not all(isinstance(s, int) and not isinstance(s, bool)
                           and 0 <= s <= MAX_SEARCH_SIZE for s in sizes_raw)):
            raise _fail(attribute, value, _DOMAIN_ALLOWED, "bad sizes")
        sizes = tuple(int(s) for s in sizes_raw)
    bounds_raw = raw.get("bounds")
    bounds: tuple[Fraction | int, Fraction | int] | None = None
    if bounds_raw is not None:
        if (isinstance(bounds_raw, str | bytes) or not isinstance(bounds_raw, Sequence)
                or len(bounds_raw) != 2 or not all(_number(b) for b in bounds_raw)):
            raise _fail(attribute, value, _DOMAIN_ALLOWED, "bounds must be [low, high] numbers")
        try:
            lo, hi = (to_fraction(b, "bounds") for b in bounds_raw)
        except PrivrefError as exc:
            raise _fail(attribute, value, _DOMAIN_ALLOWED, str(exc)) from None
        if lo > hi:
            raise _fail(attribute, value, _DOMAIN_ALLOWED, "low > high")
        bounds = (int(lo) if lo.denominator == 1 else lo, int(hi) if hi.denominator == 1 else hi)
    if not elements and bounds is None and sizes is None:
        raise _fail(attribute, value, _DOMAIN_ALLOWED, "give elements, sizes or bounds")
    return InputDomain(elements, sizes, bounds)


def library_version(name: str) -> str | None:
    """The version of the installed distribution ``name`` (importlib.metadata), None if absent."""
    try:
        return importlib.metadata.version(name)
    except (importlib.metadata.PackageNotFoundError, ValueError):
        return None


_DISTRIBUTIONS: dict[tuple[tuple[str, tuple[str, ...]], ...], Mapping[str, list[str]]] = {}


def _metadata_dirs() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each ``sys.path`` folder holding distribution metadata, with the names of its
    ``*.dist-info`` / ``*.egg-info`` entries (a listing per folder, about a millisecond)."""
    found = []
    for entry in sys.path:
        try:
            with os.scandir(entry or ".") as listing:
                names = tuple(sorted(e.name for e in listing
                                     if e.name.endswith((".dist-info", ".egg-info"))))
        except OSError:  # a zip file, a missing folder
            continue
        if names:
            found.append((entry, names))
    return tuple(found)


def distributions_by_package() -> Mapping[str, list[str]]:
    """``importlib.metadata.packages_distributions()`` (top-level module name -> the
    distributions providing it), read again only when the installed distributions on
    ``sys.path`` change (a metadata folder added or removed; a folder without metadata, such
    as a test's temporary folder, changes nothing): it parses every installed distribution's
    file list (about 0.4 s in this project's environment), and every audit of an in-process
    callable asked for it twice.  Only the current mapping is kept."""
    key = _metadata_dirs()
    if key not in _DISTRIBUTIONS:
        _DISTRIBUTIONS.clear()
        try:
            _DISTRIBUTIONS[key] = importlib.metadata.packages_distributions()
        except Exception:  # pragma: no cover - broken metadata in the environment
            return {}
    return _DISTRIBUTIONS[key]


def _library(value: object, attribute: str = "privref_library") -> LibraryVersion:
    """The declared library with its installed version, None when it is not installed here: a
    declaration is read without the library (one targets file may span several environments);
    auditing the target then raises MissingDependency (:func:`read_declaration`)."""
    if isinstance(value, LibraryVersion):
        return value
    if not isinstance(value, str) or not value.strip():
        raise _fail(attribute, value, "the name of a distribution, e.g. 'opendp'")
    return LibraryVersion(value.strip(), library_version(value.strip()), "declared")


def read_declaration(fn: object, name: str) -> Declaration:
    """The validated declaration of the target ``fn`` (loaded as ``name``) from its attributes.

    Raises TargetLoadError ``target NAME: privref_X=VALUE: why; allowed: ...`` on a bad value;
    declared pairs must be neighbors under the declared relation.  A declared library that is
    not installed here raises MissingDependency (the declaration itself, ``@declare``, is read
    without it, so one targets file may span several environments).
    """
    def get(attribute: str) -> object:
        return getattr(fn, attribute, None)

    try:
        relation = None if get("privref_relation") is None else _relation(get("privref_relation"))
        domain = None if get("privref_domain") is None else _domain(get("privref_domain"))
        if (relation is not None and domain is not None and domain.sizes is not None
                and 0 in domain.sizes and not isinstance(relation, AddRemove)):
            raise TargetLoadError(_size_zero(relation, domain.sizes))
        declaration = Declaration(
            claim=None if get("privref_claim") is None else _claim(get("privref_claim")),
            relation=relation,
            pairs=None if get("privref_pairs") is None else _pairs(get("privref_pairs"), relation),
            domain=domain,
            library=None if get("privref_library") is None else _library(get("privref_library")))
    except TargetLoadError as exc:
        raise TargetLoadError(f"target {name}: {exc}") from None
    if declaration.library is not None and declaration.library.version is None:
        lib = declaration.library.name
        raise MissingDependency(f"target {name}: declares library {lib!r} (privref_library), "
                                f"which is not installed here: pip install {lib} to audit it "
                                "(privref blackbox-suite skips such an entry)")
    return declaration


F = TypeVar("F", bound=Callable[..., object])


def declare(*, epsilon: Real | ExactInput | None = None, delta: ExactInput | None = None,
            rho: ExactInput | None = None,
            profile: Sequence[tuple[Real | ExactInput, ExactInput]] | None = None,
            relation: NeighborRelation | str | None = None,
            pairs: Sequence[Sequence[Sequence[Hashable]]] | None = None,
            elements: Sequence[Hashable] | None = None, sizes: Sequence[int] | None = None,
            bounds: tuple[int | Fraction | float, int | Fraction | float] | None = None,
            library: str | None = None, mu: ExactInput | None = None,
            uses_own_randomness: bool | None = None,
            approx_delta: ExactInput | None = None) -> Callable[[F], F]:
    """Decorator setting a target's ``privref_*`` attributes, validated at once.

    Claim: ``epsilon`` (with ``delta``, default 0), or ``rho`` (ρ-zCDP; ``delta`` is then the
    point audited by default; with ``approx_delta`` δ_a > 0, (ρ, δ_a)-approximate zCDP, OpenDP's
    native claim for its threshold measurements, audited at :func:`audited_point`'s point), or
    ``mu`` (μ-GDP, Dong, Roth and Su 2022; ``delta`` as for
    ``rho``), or ``profile=[(eps, delta), ...]``: at most one kind.  The
    other arguments are those of :func:`read_declaration`'s attributes (``elements``,
    ``sizes`` and ``bounds`` form ``privref_domain``).  Raises TargetLoadError naming the
    attribute on a bad value, and at decoration time when the function already declares
    something (stacked ``@declare`` calls would merge silently).  ``uses_own_randomness=True``
    says the target draws from its library's own generator, not from ``rng`` (a library that
    cannot be seeded): the audit then notes that it is not reproducible from the seed instead of
    warning of hidden randomness.  Example::

        @declare(epsilon="2.5", relation="add-remove", bounds=(0, 10), library="opendp")
        def clamp_sum(data, rng): ...
    """
    kinds = [k for k, v in (("epsilon", epsilon), ("rho", rho), ("mu", mu),
                            ("profile", profile)) if v is not None]
    if len(kinds) > 1:
        raise TargetLoadError(f"privref_claim: declare() got {' and '.join(kinds)}; allowed: "
                              "one of epsilon (with delta), rho (with delta), mu (with delta) "
                              "or profile")
    if delta is not None and not kinds:
        raise TargetLoadError("privref_claim: declare(delta=...) needs epsilon, rho or mu")
    if approx_delta is not None and rho is None:
        raise TargetLoadError("privref_claim: declare(approx_delta=...) needs rho (approximate "
                              "zCDP, Bun and Steinke 2016 Def. 8.1)")
    if uses_own_randomness is not None and not isinstance(uses_own_randomness, bool):
        raise TargetLoadError(f"uses_own_randomness={uses_own_randomness!r}: allowed: True or "
                              "False (the target draws from its library's own generator)")
    claim_raw: object = None
    if epsilon is not None:
        claim_raw = {"epsilon": epsilon, "delta": 0 if delta is None else delta}
    elif rho is not None:
        claim_raw = {"rho": rho, "delta": delta}
        if approx_delta is not None:
            claim_raw["approx_delta"] = approx_delta
    elif mu is not None:
        claim_raw = {"mu": mu, "delta": delta}
    elif profile is not None:
        claim_raw = {"profile": list(profile)}
    rel = None if relation is None else _relation(relation)
    domain_raw = None
    if elements is not None or sizes is not None or bounds is not None:
        domain_raw = {"elements": list(elements or ()), "sizes": sizes, "bounds": bounds}
    values = {
        "privref_claim": None if claim_raw is None else _claim(claim_raw),
        "privref_relation": rel,
        "privref_pairs": None if pairs is None else _pairs(pairs, rel),
        "privref_domain": None if domain_raw is None else _domain(domain_raw),
        "privref_library": None if library is None else _library(library),
    }
    domain = values["privref_domain"]
    if (isinstance(domain, InputDomain) and domain.sizes is not None and 0 in domain.sizes
            and rel is not None and not isinstance(rel, AddRemove)):
        raise TargetLoadError(_size_zero(rel, domain.sizes))

    def apply(fn: F) -> F:
        already = [a for a in ATTRIBUTES if getattr(fn, a, None) is not None]
        if already:
            raise TargetLoadError(
                f"declare(): {getattr(fn, '__qualname__', fn)!r} already declares "
                f"{', '.join(already)} (a second @declare, or attributes set by hand); give "
                "every declaration in one declare(...) call")
        for attribute, value in values.items():
            if value is not None:
                setattr(fn, attribute, value)
        if uses_own_randomness is not None:
            setattr(fn, "uses_own_randomness", uses_own_randomness)  # noqa: B010 - read by name
        return fn

    return apply


def relation_in_force(given: NeighborRelation | None, declared: NeighborRelation | None,
                      override: bool = False) -> tuple[NeighborRelation, str]:
    """The relation an audit uses and where it comes from: ``given`` (``"given"``: --relation /
    relation=), else ``declared`` (``"declared"``), else Substitution (``"default"``; the
    report then carries :data:`DEFAULTED_RELATION`).

    A ``given`` relation that differs from the ``declared`` one is a contradiction: InvalidArgument
    naming both, unless ``override`` (--override-declared-relation, API
    ``override_relation=True``); the source is then ``"override"`` and the report carries
    :data:`OVERRIDDEN_RELATION`.  The one place every entry point resolves the relation."""
    if not isinstance(override, bool):
        raise InvalidArgument(f"override_relation={override!r} must be True or False")
    if given is not None:
        if declared is not None and given != declared:
            if override:
                return given, "override"
            raise InvalidArgument(
                f"--relation (API: relation=) {relation_name_safe(given)} contradicts the "
                f"relation the target declares, {relation_name_safe(declared)}; omit it to "
                "audit the declared one, or give --override-declared-relation (API: "
                "override_relation=True) to audit under the given one (recorded in the report)")
        return given, "given"
    if declared is not None:
        return declared, "declared"
    return Substitution(), "default"


def _size_zero(relation: NeighborRelation, sizes: Sequence[int]) -> str:
    return (f"privref_domain sizes {list(sizes)}: size 0 cannot be searched under "
            f"{relation_name_safe(relation)}: the empty dataset has no neighbor there (only "
            "add-remove relates it to a one-entry dataset); declare relation='add-remove' or "
            "sizes >= 1")


def search_space(domain: InputDomain | None, relation: NeighborRelation,
                 elements: Sequence[Hashable] | None = None,
                 sizes: Sequence[int] | None = None) -> SearchSpace:
    """The pair search's space: explicit ``elements``/``sizes`` win, else the declared domain's
    (clamp bounds included), else the defaults ``[0, 1]`` and ``[1, 2, 3]``.  A declared size 0
    is kept under add-remove and refused (InvalidArgument) under any other relation, where the
    empty dataset has no neighbor."""
    default = SearchSpace()
    if elements is None:
        declared = () if domain is None else domain.search_elements()
        elements = declared or default.elements
    if sizes is None:
        sizes = default.sizes if domain is None or domain.sizes is None else domain.sizes
        if 0 in sizes and not isinstance(relation, AddRemove):
            raise InvalidArgument(_size_zero(relation, sizes))
    return SearchSpace(relation=relation, elements=tuple(elements), sizes=tuple(sizes))


def _smallest(points: Sequence[PrivacyClaim]) -> PrivacyClaim:
    best = points[0]
    for p in points[1:]:
        order = compare(p.epsilon, best.epsilon)[0]
        if order is Order.UNDECIDED:
            raise TargetLoadError(f"privref_claim: cannot order the profile's epsilons "
                                  f"{p.epsilon} and {best.epsilon} exactly")
        if order is Order.LESS:
            best = p
    return best


def _conversion_delta(claim: ZCDPClaim | GDPClaim, delta: Fraction | None) -> Fraction:
    """The δ at which a zCDP or GDP claim is converted: ``delta``, else the claim's own; it must
    lie in (0, 1) (InvalidArgument naming ``--delta``)."""
    d = claim.delta if delta is None else delta
    if d is None or not 0 < d < 1:
        raise InvalidArgument(f"--delta (API: delta=) must lie in (0, 1) to audit the "
                              f"declared {claim_text(claim)} claim at an (epsilon, delta) "
                              f"point; got {d}")
    return d


def _approximate_zcdp_point(claim: ZCDPClaim, delta: Fraction | None) -> AuditPoint:
    """The point implied by (ρ, δ_a)-approximate zCDP at total δ > δ_a.

    With δ' = δ - δ_a: (ε_ρ(δ') + ln(1/(1 - δ_a)), δ)-DP, ε_ρ of
    :func:`~privref.reference.accounting.zcdp_to_dp_epsilon`.  Proof (Bun and Steinke 2016,
    Definition 8.1): with E, E' the events of probability >= 1 - δ_a on which M(x)|E and
    M(x')|E' are ρ-zCDP close, P(S) <= P(E) P(S|E) + δ_a <= P(E) (e^ε Q(S|E') + δ') + δ_a and
    Q(S|E') <= Q(S)/Q(E'), P(E)/Q(E') <= 1/(1 - δ_a).  The ln(1/(1 - δ_a)) term is needed under
    this conditional reading and harmless under the mixture reading (M(x) = (1 - δ_a) P' +
    δ_a P''), where the point also holds; so the point is implied under both."""
    d = _conversion_delta(claim, delta)
    if d <= claim.approx_delta:
        raise InvalidArgument(f"--delta (API: delta=)={d} must exceed the claim's approx_delta="
                              f"{claim.approx_delta}: the audited delta includes it")
    rest = d - claim.approx_delta
    eps = zcdp_to_dp_epsilon(claim.rho, rest) + log(1 / (1 - claim.approx_delta))
    return AuditPoint(PrivacyClaim(eps, d),
                      f"{claim_text(claim)} -> (epsilon_rho(delta - approx_delta) + "
                      f"ln(1/(1 - approx_delta)), delta) (Bun and Steinke 2016 Def. 8.1, "
                      f"conditional events) at delta={d}")


def audited_point(claim: DeclaredClaim, delta: Fraction | None) -> AuditPoint:
    """The (ε, δ) point audited for ``claim`` at ``delta`` (None: the claim's own δ).

    Every point returned is implied by the claim, so a VIOLATION at it refutes the claim:

    * (ε, δ_c)-DP: (ε, δ) with δ = ``delta`` if given (the user's choice), else δ_c;
    * ρ-zCDP: (ε, δ)-DP with ε = :func:`privref.reference.accounting.zcdp_to_dp_epsilon`, an
      exact Real: Canonne, Kamath and Steinke 2020 Corollary 13 at a rational order α (valid at
      every α), or 001 Lemma 51's ρ + 2√(ρ ln(1/δ)) when that is smaller; δ must lie in (0, 1);
    * μ-GDP: (ε, δ)-DP with ε = :meth:`privref.reference.fdp.GaussianDP.epsilon_at`, a rational
      with δ_μ(ε) <= δ proved (the upper end of the enclosure of δ_μ(ε) of Dong, Roth and Su
      2022 Corollary 2.13 is <= δ), so the point is implied; δ must lie in (0, 1);
    * a profile: (ε_i, δ) for the smallest ε_i among the points with δ_i <= δ
      ((ε_i, δ_i)-DP implies (ε_i, δ)-DP for δ >= δ_i), compared exactly.

    Raises InvalidArgument naming ``--delta`` when no point exists.
    """
    if isinstance(claim, PrivacyClaim):
        return AuditPoint(PrivacyClaim(claim.epsilon, claim.delta if delta is None else delta),
                          None)
    if isinstance(claim, ZCDPClaim) and claim.approx_delta:
        return _approximate_zcdp_point(claim, delta)
    if isinstance(claim, ZCDPClaim):
        d = _conversion_delta(claim, delta)
        eps = zcdp_to_dp_epsilon(claim.rho, d)
        if str(eps) == str(zcdp_epsilon(claim.rho, d)):
            how = ("(rho + 2*sqrt(rho*ln(1/delta)), delta) by 001 Lemma 51 (Bun and Steinke 2016 "
                   "Prop. 1.3), tighter here than Canonne, Kamath and Steinke 2020 Corollary 13")
        else:
            how = (f"(epsilon_alpha, delta) by Canonne, Kamath and Steinke 2020 Corollary 13 at "
                   f"order alpha={zcdp_order(claim.rho, d)}"
                   + (" (epsilon_alpha <= 0, so epsilon = 0)" if eps.exact == 0 else "")
                   + ", tighter than 001 Lemma 51")
        return AuditPoint(PrivacyClaim(eps, d), f"{claim_text(claim)} -> {how} at delta={d}")
    if isinstance(claim, GDPClaim):
        d = _conversion_delta(claim, delta)
        e = gaussian_dp(claim.mu).epsilon_at(d)
        return AuditPoint(PrivacyClaim(rational(e), d),
                          f"{claim_text(claim)} -> (epsilon, delta) with delta_mu(epsilon) <= "
                          f"delta proved (Dong, Roth and Su 2022 Corollary 2.13) at delta={d}")
    deltas = sorted({p.delta for p in claim.points})
    if delta is None:
        if len(deltas) > 1:
            raise InvalidArgument(f"--delta (API: delta=) is required to audit the declared "
                                  f"profile: it has points at delta in "
                                  f"{[str(d) for d in deltas]}")
        delta = deltas[0]
    usable = [p for p in claim.points if p.delta <= delta]
    if not usable:
        raise InvalidArgument(f"--delta={delta}: the declared profile has no point with delta <= "
                              f"{delta} (its deltas: {[str(d) for d in deltas]})")
    best = _smallest(usable)
    return AuditPoint(PrivacyClaim(best.epsilon, delta), None if best.delta == delta else
                      f"profile point ({best.epsilon}, {best.delta}) implies "
                      f"({best.epsilon}, {delta}) since {delta} >= {best.delta}")


def profile_points(claim: DeclaredClaim, deltas: Sequence[ExactInput] | None = None
                   ) -> tuple[AuditPoint, ...]:
    """The (ε, δ) points audited for ``claim`` at each δ of ``deltas``, in increasing δ.

    Each point is :func:`audited_point` of the claim, so every point is implied by the claim and a
    VIOLATION at any of them refutes it.  Default δ values: :data:`ZCDP_DELTAS` (10⁻², …, 10⁻⁶)
    for a ρ-zCDP or μ-GDP claim; a profile's own δ_i (one point per distinct δ_i, at the smallest ε among
    its points with δ_j <= δ_i); an (ε, δ)-claim is a one-point profile (δ values below its own
    δ are not implied and are refused).  ``deltas``: at most :data:`MAX_PROFILE_POINTS` distinct
    exact numbers in (0, 1) (for a profile or an (ε, δ)-claim, δ = 0 is allowed); a bad value
    raises InvalidArgument naming ``deltas``.
    """
    if isinstance(claim, PrivacyClaim):
        claim = ProfileClaim((claim,))
    if deltas is None:
        chosen = tuple(sorted(ZCDP_DELTAS if isinstance(claim, ZCDPClaim | GDPClaim)
                              else {p.delta for p in claim.points}))
        if isinstance(claim, ZCDPClaim) and claim.approx_delta:
            chosen = tuple(d for d in chosen if d > claim.approx_delta)
            if not chosen:
                raise InvalidArgument(f"deltas: no default delta exceeds the claim's "
                                      f"approx_delta={claim.approx_delta}; give deltas above it")
    else:
        if isinstance(deltas, str | bytes) or not isinstance(deltas, Sequence) or not deltas:
            raise InvalidArgument(f"deltas={deltas!r} must be a non-empty sequence of numbers in "
                                  "(0, 1)")
        if len(deltas) > MAX_PROFILE_POINTS:
            raise InvalidArgument(f"deltas has {len(deltas)} values; at most "
                                  f"MAX_PROFILE_POINTS={MAX_PROFILE_POINTS} are allowed")
        values = set()
        for i, raw in enumerate(deltas):
            d = to_fraction(raw, f"deltas[{i}]")
            low_ok = d >= 0 if isinstance(claim, ProfileClaim) else d > 0
            if not low_ok or d >= 1:
                raise InvalidArgument(f"deltas[{i}]={d} must lie in "
                                      f"{'[0, 1)' if isinstance(claim, ProfileClaim) else '(0, 1)'}")
            values.add(d)
        chosen = tuple(sorted(values))
    return tuple(audited_point(claim, d) for d in chosen)


def claim_text(claim: DeclaredClaim) -> str:
    """A one-line rendering: ``(1/2, 0)-DP``, ``1/8-zCDP``, ``profile {(1, 1/100), ...}``."""
    if isinstance(claim, PrivacyClaim):
        return f"({claim.epsilon}, {claim.delta})-DP"
    if isinstance(claim, ZCDPClaim):
        return str(claim)
    if isinstance(claim, GDPClaim):
        return f"{claim.mu}-GDP"
    return "profile {" + ", ".join(f"({p.epsilon}, {p.delta})" for p in claim.points) + "}"


def claim_json(claim: DeclaredClaim) -> dict[str, object]:
    """The declared claim, faithfully (exact strings): ``{"kind": "dp"|"zcdp"|"profile", ...}``."""
    if isinstance(claim, PrivacyClaim):
        return {"kind": "dp", "epsilon": str(claim.epsilon), "delta": str(claim.delta)}
    if isinstance(claim, ZCDPClaim):
        return {"kind": "zcdp", "rho": str(claim.rho),
                "delta": None if claim.delta is None else str(claim.delta),
                "approx_delta": str(claim.approx_delta)}
    if isinstance(claim, GDPClaim):
        return {"kind": "gdp", "mu": str(claim.mu),
                "delta": None if claim.delta is None else str(claim.delta)}
    return {"kind": "profile",
            "points": [[str(p.epsilon), str(p.delta)] for p in claim.points]}


def detect_libraries(module: ModuleType | None, function: object = None) -> tuple[LibraryVersion, ...]:
    """The third-party distributions a target's module imports, with their installed versions.

    Looks at the module's globals (imported modules, and functions/classes imported from
    other modules) and at ``function.__module__``; maps each top-level module name to its
    distribution (``importlib.metadata.packages_distributions``), skipping the standard
    library, privref itself and the target's own top-level package.  Sorted by name; source
    ``detected``.
    """
    tops: set[str] = set()
    if module is not None:
        for value in list(vars(module).values()):
            origin = value.__name__ if isinstance(value, ModuleType) else getattr(
                value, "__module__", None)
            if isinstance(origin, str) and origin and origin != module.__name__:
                tops.add(origin.split(".")[0])
    origin = getattr(function, "__module__", None)
    if isinstance(origin, str) and (module is None or origin != module.__name__):
        tops.add(origin.split(".")[0])
    mapping = distributions_by_package()
    if module is not None:  # the target's own package is not a library it uses
        tops.discard(module.__name__.split(".")[0])
    found: dict[str, LibraryVersion] = {}
    for top in tops:
        if top in sys.stdlib_module_names or top.startswith("_") or top == "builtins":
            continue
        for dist in mapping.get(top, []):
            if dist.lower() == "privref" or dist in found:
                continue
            found[dist] = LibraryVersion(dist, library_version(dist), "detected")
    return tuple(found[k] for k in sorted(found, key=str.lower))
