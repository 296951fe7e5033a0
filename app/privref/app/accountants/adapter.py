"""What an adapter declares: a library and its methods, each one snippet of the library's own calls.

A :class:`Method` answers one task kind (:data:`~.tasks.KINDS`) with a short Python snippet (a
:class:`string.Template`: ``$sigma``, ``$queries``, ``$delta``, ``$epsilon``, ``$rho`` are replaced
by the task's parameters, floats by their round-tripping ``repr``) that sets ``result``.  The
snippet is both what the worker runs and what the report prints to reproduce an answer, so the
two never differ.  ``outputs`` names each float of ``result`` and its role: ``bound`` (the library
presents it as a valid privacy parameter: below the truth is unsafe) or ``estimate`` (the library
says it approximates: its side is reported, but it never makes the run fail).
"""

from __future__ import annotations

from dataclasses import dataclass
from string import Template

from .tasks import Task

__all__ = ["Library", "Method"]


@dataclass(frozen=True)
class Method:
    """One way a library answers one task kind (module doc)."""

    name: str
    kind: str
    code: str
    outputs: tuple[tuple[str, str], ...] = (("value", "bound"),)

    def snippet(self, task: Task) -> str:
        """The code answering ``task``: the template with the task's parameters filled in."""
        return Template(self.code.strip()).substitute({k: repr(v) for k, v in task.params}) + "\n"


@dataclass(frozen=True)
class Library:
    """A third-party accountant: its name on the command line, its import and distribution names,
    and its methods."""

    name: str
    module: str
    distribution: str
    methods: tuple[Method, ...]
