"""The console entry point of ``privref`` (``[project.scripts]`` in pyproject.toml): :func:`main`.

The command line itself is :mod:`privref.app.commands.cli`; this module keeps the entry point's
name ``privref.app.cli:main`` stable.
"""

from __future__ import annotations

import sys

from .commands.cli import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
