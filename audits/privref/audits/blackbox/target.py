"""Black-box targets: loading ``module:function`` or ``file.py:function``, calling it, checking outcomes.

A target is any callable ``fn(data, rng) -> outcome`` where ``data`` is the
dataset as a Python list and ``rng`` a :class:`numpy.random.Generator`.  An
optional vectorized form ``fn(data, rng, size)`` returns ``size`` outcomes
(a sequence, or a numpy array whose rows are the outcomes).

Vectorized rule (documented in docs/blackbox.md): a target is vectorized
when its attribute ``privref_vectorized`` is ``True``; when that attribute is
absent, when the third positional parameter of its signature is named
``size``.  ``privref_vectorized = False`` forces the scalar form.

Outcomes: numbers (NaN and ±inf included), labels (other hashable values), or
tuples/lists/arrays of these of any length and nesting, all draws of one audit
of one class; checked and converted by :mod:`privref.audits.blackbox.batch`
(the rule: docs/blackbox-outcomes.md).

A generator function (a probabilistic program that yields its random choices,
:mod:`privref.reference.program`) is a target too: it is sampled exactly by
:func:`privref.reference.program.sample` on ``tuple(data)``, as a Mechanism is.

Failures.  Whatever the target raises (``SystemExit`` and every other
``BaseException`` included; ``KeyboardInterrupt`` stays the user's interrupt)
becomes :class:`TargetCallError`; an outcome that is refused (``None``, compared
by identity, too large: :mod:`.batch`) becomes :class:`OutcomeError`.

Timeout.  Every call of the target must return within ``timeout`` seconds
(:data:`DEFAULT_TIMEOUT` unless given; a vectorized call counts as one call).
In the main thread of a process (the command line, each worker process, a
test suite's thread) the call is interrupted by ``SIGALRM`` and
:class:`TargetTimeout` is raised; a call that overruns is also detected when it
returns (a target that caught the alarm, or a non-main thread).  Under
supervision (:mod:`.isolation`: the command line and suites run every audit in
a child process group) a watchdog thread also ends the whole group
:data:`TIMEOUT_GRACE` seconds past the deadline, so the limit holds whatever the
target does with signals and exceptions.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
import importlib.util
import inspect
import math
import os
import random
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType

import numpy as np

from privref.reference.errors import InvalidArgument
from privref.reference.mechanism import Mechanism
from privref.reference.neighbors import NeighborRelation

from .batch import Batch, describe_outcome, make_batch, outcome_kind
from .declarations import (
    DeclaredClaim,
    InputDomain,
    LibraryVersion,
    detect_libraries,
    distributions_by_package,
    read_declaration,
)
from .errors import OutcomeError, TargetCallError, TargetError, TargetLoadError, TargetTimeout
from .isolation import TIMEOUT_GRACE, watchdog_arm

__all__ = [
    "DEFAULT_TIMEOUT",
    "MAX_TIMEOUT",
    "TIMEOUT_GRACE",
    "Batch",
    "OutcomeError",
    "Target",
    "TargetCallError",
    "TargetError",
    "TargetLoadError",
    "TargetTimeout",
    "check_timeout",
    "draw",
    "load_target",
    "make_batch",
    "outcome_kind",
    "probe_randomness",
    "target_from_callable",
]

DEFAULT_TIMEOUT = 60.0
"""Seconds one call of the target may take unless told otherwise (``--timeout``, ``timeout=``);
a vectorized call of ``size`` outcomes is one call."""


MAX_TIMEOUT = 86_400.0 * 7
"""Largest per-call timeout accepted (a week)."""


def check_timeout(value: object, name: str = "timeout") -> float:
    """A per-call timeout in seconds: a finite number with 0 < value <= MAX_TIMEOUT.

    Accepts int, float, Fraction or a decimal string; raises InvalidArgument naming ``name``.
    """
    if isinstance(value, bool):
        raise InvalidArgument(f"{name}={value!r} must be a number of seconds > 0")
    try:
        seconds = float(value.strip() if isinstance(value, str) else value)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        raise InvalidArgument(f"{name}={value!r} must be a number of seconds > 0") from None
    shown = value.strip() if isinstance(value, str) else repr(value)
    if not math.isfinite(seconds) or seconds <= 0:
        raise InvalidArgument(f"{name}={shown} must be a number of seconds > 0")
    if seconds > MAX_TIMEOUT:
        raise InvalidArgument(f"{name}={shown} must be <= {MAX_TIMEOUT:.0f} (a week)")
    return seconds


class _Expired(BaseException):
    """Raised by the SIGALRM handler; a BaseException so that the target's ``except Exception``
    cannot swallow it."""


class _Watch:
    """Arms a per-call timer: SIGALRM in a main thread, a check on return elsewhere."""

    def __init__(self, seconds: float | None, name: str = "") -> None:
        self.seconds = seconds
        self.name = name
        self.signals = (seconds is not None and hasattr(signal, "setitimer")
                        and threading.current_thread() is threading.main_thread())
        self.old: object = None
        self.started = 0.0

    def __enter__(self) -> _Watch:
        if self.signals:
            def expire(signum: int, frame: object) -> None:
                raise _Expired()
            self.old = signal.signal(signal.SIGALRM, expire)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.signals:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.old)  # type: ignore[arg-type]

    def start(self) -> None:
        if self.seconds is None:
            return
        self.started = time.monotonic()
        if self.signals:
            signal.setitimer(signal.ITIMER_REAL, self.seconds)
        watchdog_arm(self.started + self.seconds, self.seconds, self.name)

    def stop(self) -> bool:
        """Disarm; True when the call overran (the alarm was caught or ignored, or no signals)."""
        if self.seconds is None:
            return False
        watchdog_arm(None)
        if self.signals:
            signal.setitimer(signal.ITIMER_REAL, 0)
        return time.monotonic() - self.started > self.seconds


def _timed_out(target: Target, data: Sequence[object], seconds: float) -> TargetTimeout:
    return TargetTimeout(f"target {target.name} did not return within the per-call limit "
                         f"timeout={seconds:g} s on data={describe_outcome(list(data))}; raise it with "
                         "--timeout (API: timeout=) or fix the target")


@dataclass(frozen=True, slots=True)
class Target:
    """A loaded black-box target.

    ``spec`` is the ``module:function`` or ``file.py:function`` string it was
    loaded from (so worker processes can re-load it), or ``None`` for an
    in-process callable.  ``package``/``package_version`` describe the
    distribution that provides the target's top-level package (None when
    unknown, e.g. for a file target).  ``claim`` and ``pairs`` are what the
    target declares about itself, used by the CLI when ``--epsilon`` or
    ``--pair`` is omitted: a registered third-party target declares its
    library's claim and its recommended pairs, a built-in Mechanism its claim.
    ``relation`` is the neighbor relation the target's claim is stated under
    (None: not declared; the auditors then default to substitution).

    A file or module target declares these itself (``privref_claim``,
    ``privref_relation``, ``privref_pairs``, ``privref_domain``,
    ``privref_library``, or the :func:`privref.audits.blackbox.declarations.declare`
    decorator), validated at load time.  ``claim`` is then the declared claim
    as stated (also ρ-zCDP or a profile; converted to an audited point by
    :func:`privref.audits.blackbox.declarations.audited_point`); ``domain`` is the
    declared input domain (the pair search's space); ``libraries`` the
    distributions the target uses with their installed versions (declared,
    registered, or detected from the modules its module imports).
    """

    name: str
    function: Callable[..., object]
    vectorized: bool
    spec: str | None = None
    package: str | None = None
    package_version: str | None = None
    claim: DeclaredClaim | None = None
    pairs: tuple[tuple[tuple[Hashable, ...], tuple[Hashable, ...]], ...] | None = None
    relation: NeighborRelation | None = None
    domain: InputDomain | None = None
    libraries: tuple[LibraryVersion, ...] = ()


def _vectorized(fn: Callable[..., object], name: str) -> bool:
    flag = getattr(fn, "privref_vectorized", None)
    if flag is not None:
        if not isinstance(flag, bool):
            raise TargetLoadError(f"target {name}: privref_vectorized={flag!r} must be True or False")
        return flag
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):  # builtins without a signature: scalar form
        return False
    positional = [p for p in sig.parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    variadic = any(p.kind is p.VAR_POSITIONAL for p in sig.parameters.values())
    if len(positional) < 2 and not variadic:
        raise TargetLoadError(f"target {name} must accept (data, rng); its signature is {sig}")
    return len(positional) >= 3 and positional[2].name == "size"


def _package_version(module_name: str) -> tuple[str | None, str | None]:
    top = module_name.split(".")[0]
    for dist in [*distributions_by_package().get(top, []), top]:
        try:
            return dist, importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            continue
    return top, None


def target_from_callable(fn: object, name: str | None = None) -> Target:
    """Wrap an in-process callable or a :class:`privref.reference.mechanism.Mechanism` as a Target.

    A Mechanism is audited through its exact sampler (``Mechanism.sampler()``).
    Raises TargetLoadError when ``fn`` is not callable.
    """
    if isinstance(fn, Mechanism):
        sampler = fn.sampler()
        return Target(name or fn.name, sampler, False, None, "privref",
                      _package_version("privref")[1], claim=fn.claim, relation=fn.relation)
    label = name or getattr(fn, "__qualname__", None) or repr(fn)
    if not callable(fn):
        raise TargetLoadError(f"target {label} is a {type(fn).__name__}, not callable")
    if _is_program(fn):
        return _program_target(fn, label, None)
    module = getattr(fn, "__module__", None)
    package, version = _package_version(module) if isinstance(module, str) else (None, None)
    return _declared(Target(label, fn, _vectorized(fn, label), None, package, version),
                     sys.modules.get(module) if isinstance(module, str) else None)


def _is_program(fn: object) -> bool:
    """A probabilistic program of the data alone: a generator function callable with one
    positional argument (any other parameter has a default)."""
    if not inspect.isgeneratorfunction(fn):
        return False
    try:
        inspect.signature(fn).bind(())
    except TypeError:
        return False
    return True


def _program_target(program: Callable[..., object], name: str, spec: str | None) -> Target:
    """A probabilistic program (a generator function yielding its random choices) as a target:
    each draw runs it once on ``tuple(data)`` with :func:`privref.reference.program.sample`, the
    exact sampler a Mechanism uses, so its verdict is the one its law implies."""
    from privref.reference.program import sample

    def run(data: list[Hashable], rng: np.random.Generator) -> object:
        return sample(program, tuple(data), rng=rng)  # type: ignore[arg-type]

    run.__name__ = getattr(program, "__name__", "program")
    base = Target(name, run, False, spec, "privref", _package_version("privref")[1])
    module = getattr(program, "__module__", None)
    found = _declared(replace(base, function=program),
                      sys.modules.get(module) if isinstance(module, str) else None)
    return replace(found, function=run, vectorized=False)


def _declared(target: Target, module: ModuleType | None) -> Target:
    """``target`` with its declaration (validated) and its libraries: the declared one first,
    then those detected from ``module`` (see declarations.detect_libraries)."""
    found = read_declaration(target.function, target.name)
    libraries = [] if found.library is None else [found.library]
    libraries += [lib for lib in detect_libraries(module, target.function)
                  if lib.name not in {x.name for x in libraries}]
    package, version = target.package, target.package_version
    if found.library is not None:
        package, version = found.library.name, found.library.version
    return replace(target, package=package, package_version=version,
                   claim=found.claim if found.claim is not None else target.claim,
                   relation=found.relation if found.relation is not None else target.relation,
                   pairs=found.pairs if found.pairs is not None else target.pairs,
                   domain=found.domain, libraries=tuple(libraries))


def _file_module(path: Path, spec: str) -> ModuleType:
    resolved = path.resolve()
    if resolved.is_dir():
        raise TargetLoadError(f"cannot import target {spec!r}: {path} is a directory, not a "
                              "Python file")
    if resolved.exists() and not resolved.is_file():
        raise TargetLoadError(f"cannot import target {spec!r}: {path} is not a regular file "
                              "(a device, a pipe or a socket)")
    if not resolved.is_file():
        raise TargetLoadError(f"cannot import target {spec!r}: file {path} does not exist")
    digest = hashlib.sha1(str(resolved).encode()).hexdigest()[:12]
    name = f"_privref_target_{resolved.stem}_{digest}"
    if name in sys.modules:
        return sys.modules[name]
    module_spec = importlib.util.spec_from_file_location(name, resolved)
    if module_spec is None or module_spec.loader is None:
        raise TargetLoadError(f"cannot import target {spec!r}: {path} is not a Python file")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module
    try:
        module_spec.loader.exec_module(module)
    except KeyboardInterrupt:
        del sys.modules[name]
        raise
    except BaseException as exc:  # SystemExit at import time included: never a silent exit
        del sys.modules[name]
        raise TargetLoadError(f"cannot import target {spec!r}: {type(exc).__name__}: {exc}") from exc
    return module


def _import(module_name: str, spec: str) -> ModuleType:
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        # console scripts do not put the working directory on sys.path; retry with it
        cwd = os.getcwd()
        if exc.name == module_name.split(".")[0] and cwd not in sys.path:
            sys.path.insert(0, cwd)
            return _import(module_name, spec)
        raise TargetLoadError(f"cannot import target {spec!r}: {type(exc).__name__}: {exc}") from exc
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # SystemExit at import time included: never a silent exit
        raise TargetLoadError(f"cannot import target {spec!r}: {type(exc).__name__}: {exc}") from exc


def _third_party(spec: str) -> Target:
    """A registered third-party target (``opendp:count-laplace``; see audits.blackbox.adapters)."""
    from . import adapters  # imports no third-party library until a target is built

    user = adapters.registered_target(spec)
    if user is not None:
        return _declared(_from_builder(spec, user), None)
    if not adapters.is_third_party_name(spec):
        raise TargetLoadError(f"target={spec!r} is neither 'module:function' (the function name "
                              "contains '-') nor a registered third-party target; known: "
                              + ", ".join(adapters.third_party_target_names()))
    built = adapters.third_party_target(spec)
    return Target(spec, built.function, _vectorized(built.function, spec), spec,
                  str(built.library), built.library_version, claim=built.claim,
                  pairs=tuple((tuple(a), tuple(b)) for a, b in built.pairs),
                  relation=getattr(built, "relation", None), domain=getattr(built, "domain", None),
                  libraries=(LibraryVersion(str(built.library), built.library_version,
                                            "registered"),))


def _from_builder(spec: str, builder: Callable[[], object]) -> Target:
    """Call a builder registered with adapters.register_target; TargetLoadError when it fails."""
    try:
        fn = builder()
    except (TargetError, KeyboardInterrupt):
        raise
    except BaseException as exc:
        raise TargetLoadError(f"target {spec!r}: its registered builder raised "
                              f"{type(exc).__name__}: {exc}") from exc
    if not callable(fn):
        raise TargetLoadError(f"target {spec!r}: its registered builder returned a "
                              f"{type(fn).__name__}, not a callable target")
    return Target(spec, fn, _vectorized(fn, spec), spec)


def load_target(spec: str) -> Target:
    """Load ``package.module:function`` or ``path/to/file.py:function`` (attribute may be dotted).

    A name whose function part contains ``-`` (``opendp:count-laplace``) is a
    registered third-party target (audits.blackbox.adapters); its library's
    errors (MissingDependency) propagate.

    Raises TargetLoadError (naming ``spec``) when the module cannot be
    imported (with the import error), the attribute is missing, or it is not
    callable.  An attribute holding a Mechanism is audited through its sampler.
    """
    module_part, sep, attr = spec.rpartition(":")
    if not sep or not module_part or not attr:
        raise TargetLoadError(f"target={spec!r} must look like 'package.module:function' or "
                              "'path/to/file.py:function'")
    if "-" in attr and "/" not in module_part and not module_part.endswith(".py"):
        return _third_party(spec)
    is_file = module_part.endswith(".py") or "/" in module_part or os.sep in module_part
    module = _file_module(Path(module_part), spec) if is_file else _import(module_part, spec)
    obj: object = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise TargetLoadError(f"target {spec!r}: {module_part} has no attribute {attr!r}")
        obj = getattr(obj, part)
    if isinstance(obj, Mechanism):
        base = target_from_callable(obj, spec)
        return Target(spec, base.function, False, spec, base.package, base.package_version,
                      claim=base.claim, relation=base.relation)
    if not callable(obj):
        raise TargetLoadError(f"target {spec!r} is a {type(obj).__name__}, not callable")
    if _is_program(obj):
        return _program_target(obj, spec, spec)
    package, version = (None, None) if is_file else _package_version(module_part)
    return _declared(Target(spec, obj, _vectorized(obj, spec), spec, package, version), module)


def _call_failed(target: Target, data: Sequence[object], exc: BaseException) -> TargetCallError:
    frames = traceback.format_exception(type(exc), exc, exc.__traceback__)
    where = ""
    for line in reversed(frames):
        if line.lstrip().startswith("File "):
            where = " (at " + line.strip().splitlines()[0] + ")"
            break
    return TargetCallError(f"target {target.name} raised on data={describe_outcome(list(data))}: "
                           f"{type(exc).__name__}: {exc}{where}")


def draw(target: Target, data: Sequence[object], rng: np.random.Generator, size: int,
         timeout: float | None = None) -> Batch:
    """``size`` outcomes of the target on ``data``, checked (see module docstring).

    Each scalar call gets a fresh copy of ``data``, so a target that mutates
    its input cannot affect later draws.  Raises TargetCallError when the
    target raises, TargetTimeout when a call takes longer than ``timeout``
    seconds (None: no limit), OutcomeError on a bad or inconsistent outcome.
    """
    with _Watch(timeout, target.name) as watch:
        try:
            return _draw(target, data, rng, size, watch)
        except _Expired:
            assert timeout is not None
            raise _timed_out(target, data, timeout) from None


def _call(watch: _Watch, fn: Callable[..., object], *args: object) -> object:
    watch.start()
    try:
        return fn(*args)
    finally:
        if watch.stop():
            raise _Expired()


def _draw(target: Target, data: Sequence[object], rng: np.random.Generator, size: int,
          watch: _Watch) -> Batch:
    try:
        if target.vectorized:
            raw = _call(watch, target.function, list(data), rng, size)
            if not isinstance(raw, np.ndarray | Sequence) or isinstance(raw, str | bytes):
                raise OutcomeError(f"target {target.name} is vectorized but returned "
                                   f"{describe_outcome(raw)} for size={size}; it must return a sequence "
                                   "or numpy array of size outcomes")
            if len(raw) != size:
                raise OutcomeError(f"target {target.name} returned {len(raw)} outcomes for "
                                   f"size={size} on data={describe_outcome(list(data))}")
            return make_batch(raw, target.name, data)
        return make_batch([_call(watch, target.function, list(data), rng) for _ in range(size)],
                          target.name, data)
    except (TargetError, _Expired, KeyboardInterrupt):
        raise
    except BaseException as exc:  # SystemExit, GeneratorExit, ...: the target failed all the same
        raise _call_failed(target, data, exc) from None


def _same(a: Batch, b: Batch) -> bool:
    if isinstance(a.values, np.ndarray) and isinstance(b.values, np.ndarray):
        return bool(np.array_equal(a.values, b.values, equal_nan=True))  # NaN is an outcome
    return a.outcomes() == b.outcomes()


@contextmanager
def seeded_globals(seq: np.random.SeedSequence) -> Iterator[None]:
    """Seed the global ``random`` and ``numpy.random`` states from ``seq``; restore them after."""
    words = seq.generate_state(4)
    py_state = random.getstate()
    np_state = np.random.get_state()
    try:
        random.seed(int.from_bytes(words.tobytes(), "little"))
        np.random.seed(words)
        yield
    finally:
        random.setstate(py_state)
        np.random.set_state(np_state)


def probe_randomness(target: Target, data: Sequence[object], *, seed: int,
                     draws: int = 8, timeout: float | None = None) -> tuple[list[str], list[str]]:
    """Check that the target's randomness comes from ``rng``; return (warnings, notes).

    Draws ``draws`` outcomes twice with generators seeded identically and
    once with another seed.  Identical seeds giving different outcomes means
    hidden randomness (a global RNG, ``random``, os.urandom, ...): a warning,
    because results are then not reproducible from the seed.  Outcomes that
    never vary across seeds are noted as deterministic.  Raises like :func:`draw`.
    """
    ss = np.random.SeedSequence(seed, spawn_key=(2**31 - 1,))
    s1, s2, g1, g2 = ss.spawn(4)
    # the two identically seeded draws see different global states, so a target that reads the
    # global RNGs is told apart by the seed alone (deterministically), not by chance
    with seeded_globals(g1):
        first = draw(target, data, np.random.Generator(np.random.PCG64(s1)), draws, timeout)
    with seeded_globals(g2):
        again = draw(target, data, np.random.Generator(np.random.PCG64(s1)), draws, timeout)
    with seeded_globals(g1):
        other = draw(target, data, np.random.Generator(np.random.PCG64(s2)), draws, timeout)
    warnings: list[str] = []
    notes: list[str] = []
    if not _same(first, again) and getattr(target.function, "uses_own_randomness", False) is True:
        notes.append(f"target {target.name} declares uses_own_randomness: its draws do not come "
                     "from `rng`, so results are not reproducible from --seed")
    elif not _same(first, again):
        warnings.append(
            f"hidden randomness: target {target.name} gave different outcomes for two generators "
            "seeded identically, so it draws randomness outside `rng` (numpy.random.*, the random "
            "module, os.urandom, ...); results are not reproducible from --seed. The runner reseeds "
            "the global `random` and `numpy.random` states per chunk so that chunks stay "
            "independent, but other sources are not controlled")
    values = [*first.outcomes(), *other.outcomes()]
    if all(v == values[0] for v in values):
        notes.append(f"deterministic: target {target.name} returned {describe_outcome(values[0])} in all "
                     f"{2 * draws} probe draws on data={describe_outcome(list(data))}")
    return warnings, notes
