"""Shipped regression suites for the Python DP ecosystem, one per library (issue 37).

Each library ``NAME`` of :data:`LIBRARIES` has three files in this package:

``targets_NAME.py``
    the library's public mechanisms as declared black-box targets (``@declare``: the claim in
    the library's own terms, the neighbor relation, pairs, input domain, library), correct
    configurations and deliberately misconfigured ones; the library is imported inside the
    targets, so the module loads without it;
``NAME.suite.toml``
    the suite (the format of ``privref blackbox-suite``): one entry per configuration with its
    expected verdict, and ``expect_real`` for the real-arithmetic view where outputs are floats;
``NAME.coverage.toml``
    every public noise-adding mechanism of the library: the suite entries that cover it, or
    why it is not covered (:func:`read_coverage`).

``privref audit-library NAME`` (:mod:`privref.app.library_cli`) runs the suite; the coverage
table is ``docs/library-coverage.md`` (:func:`coverage_markdown`).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from importlib import resources

from privref.reference.errors import InvalidArgument, PrivrefError

from ..blackbox.declarations import library_version

__all__ = ["LIBRARIES", "CoveredMechanism", "LibrarySuite", "UnsupportedVersion",
           "coverage_markdown", "library_suite", "read_coverage", "release"]


class UnsupportedVersion(PrivrefError):
    """The installed library's version is outside the range its suite was written and checked
    against (:attr:`LibrarySuite.tested`); ``privref audit-library --any-version`` runs anyway."""


@dataclass(frozen=True, slots=True)
class LibrarySuite:
    """One library's shipped suite: its name (``privref audit-library NAME``), the distribution
    whose installed version is checked, the privref extra that installs it, the tested release
    range ``low <= version < high`` and the module holding its targets.  ``folder`` holds the
    suite and coverage files (None: this package)."""

    name: str
    distribution: str
    extra: str
    tested: tuple[str, str]
    targets: str
    folder: str | None = None

    def _file(self, kind: str) -> str:
        if self.folder is not None:
            return f"{self.folder}/{self.name}.{kind}.toml"
        return str(resources.files(__package__) / f"{self.name}.{kind}.toml")

    @property
    def suite_file(self) -> str:
        """Path of the suite file ``NAME.suite.toml``."""
        return self._file("suite")

    @property
    def coverage_file(self) -> str:
        """Path of the coverage file ``NAME.coverage.toml``."""
        return self._file("coverage")

    @property
    def tested_text(self) -> str:
        """The tested range as a specifier, ``>=0.16.0,<0.17``."""
        return f">={self.tested[0]},<{self.tested[1]}"

    def installed(self) -> str | None:
        """The installed version of the distribution, None when it is not installed."""
        return library_version(self.distribution)

    def check_version(self, version: str) -> None:
        """UnsupportedVersion naming the version and the tested range when ``version`` is
        outside it."""
        low, high = (release(v) for v in self.tested)
        if not low <= release(version) < high:
            raise UnsupportedVersion(
                f"{self.distribution} {version} is installed; the {self.name} suite is tested on "
                f"{self.distribution}{self.tested_text}: install a tested version "
                f"(pip install 'privref[{self.extra}]') or pass --any-version to run it anyway")


LIBRARIES: dict[str, LibrarySuite] = {s.name: s for s in (
    LibrarySuite("opendp", "opendp", "opendp", ("0.16.0", "0.17"),
                 "privref.audits.libraries.targets_opendp"),
    LibrarySuite("diffprivlib", "diffprivlib", "diffprivlib", ("0.6.6", "0.7"),
                 "privref.audits.libraries.targets_diffprivlib"),
    LibrarySuite("pydp", "python-dp", "pydp", ("1.1.5", "1.2"),
                 "privref.audits.libraries.targets_pydp"),
    LibrarySuite("pipelinedp", "pipeline-dp", "pipelinedp", ("0.3.1", "0.4"),
                 "privref.audits.libraries.targets_pipelinedp"),
    LibrarySuite("tmlt", "tmlt.core", "tmlt", ("0.20.0", "0.21"),
                 "privref.audits.libraries.targets_tmlt"),
)}
"""The libraries with a shipped suite, by the name ``privref audit-library`` takes."""


def release(version: str) -> tuple[int, ...]:
    """The release numbers of a version string (``"0.16.0"`` -> (0, 16, 0); a pre-release or
    local suffix is dropped: ``"1.2.0rc1"`` -> (1, 2, 0)); InvalidArgument when it has none."""
    match = re.match(r"\s*v?(\d+(?:\.\d+)*)", version)
    if match is None:
        raise InvalidArgument(f"version={version!r} has no release number")
    parts = [int(p) for p in match.group(1).split(".")]
    while len(parts) > 1 and parts[-1] == 0:
        parts.pop()
    return tuple(parts)


def library_suite(name: str) -> LibrarySuite:
    """The shipped suite called ``name``; InvalidArgument listing the names otherwise."""
    if name not in LIBRARIES:
        raise InvalidArgument(f"NAME={name!r} is not a library with a shipped suite; known: "
                              f"{', '.join(LIBRARIES)}")
    return LIBRARIES[name]


@dataclass(frozen=True, slots=True)
class CoveredMechanism:
    """One public mechanism of a library: its API name, what it adds (``noise``), and either
    the suite entries that audit it (``entries``) or why it is not covered (``reason``)."""

    api: str
    noise: str
    entries: tuple[str, ...]
    reason: str | None


def read_coverage(name: str) -> tuple[CoveredMechanism, ...]:
    """The coverage table of library ``name`` (its ``NAME.coverage.toml``): every mechanism has
    ``api`` and ``noise``, and either a non-empty ``entries`` list or a ``reason``, never both;
    InvalidArgument naming the file and the mechanism otherwise."""
    suite = library_suite(name)
    with open(suite.coverage_file, "rb") as fh:
        raw = tomllib.load(fh)
    rows = raw.get("mechanism")
    if not isinstance(rows, list) or not rows:
        raise InvalidArgument(f"{suite.coverage_file}: it must list [[mechanism]] tables")
    found: list[CoveredMechanism] = []
    for row in rows:
        api, noise = row.get("api"), row.get("noise")
        entries, reason = row.get("entries", []), row.get("reason")
        if (not isinstance(api, str) or not isinstance(noise, str)
                or not isinstance(entries, list) or not all(isinstance(e, str) for e in entries)
                or (reason is not None and not isinstance(reason, str))
                or bool(entries) == (reason is not None) or set(row) - {"api", "noise", "entries",
                                                                         "reason"}):
            raise InvalidArgument(f"{suite.coverage_file}: mechanism {row!r} must have api, noise "
                                  "and either entries (suite entry names) or a reason")
        found.append(CoveredMechanism(api, noise, tuple(entries), reason))
    return tuple(found)


def coverage_markdown() -> str:
    """The coverage table of every library (``docs/library-coverage.md``), generated from the
    coverage files: one section per library, one row per public mechanism."""
    out = ["# Library coverage", "",
           "Every public noise-adding mechanism of the five libraries with a shipped suite, and",
           "the suite entries (`privref audit-library NAME`) that audit it, or why it is not",
           "covered.  Generated from `audits/privref/audits/libraries/NAME.coverage.toml` by",
           "`privref audit-library --coverage-markdown PATH`; a test checks this file is current.",
           ""]
    for suite in LIBRARIES.values():
        rows = read_coverage(suite.name)
        covered = sum(1 for r in rows if r.entries)
        out += [f"## {suite.name} ({suite.distribution}{suite.tested_text})", "",
                f"{covered} of {len(rows)} mechanisms covered.", "",
                "| mechanism | noise | covered by | why not |", "| --- | --- | --- | --- |"]
        for r in rows:
            entries = "<br>".join(f"`{e}`" for e in r.entries) or "-"
            out.append(f"| `{r.api}` | {r.noise} | {entries} | {r.reason or ''} |")
        out.append("")
    return "\n".join(out)
