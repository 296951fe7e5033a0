"""The progress lines of the long commands (``privref audit --deep``, ``privref lemmas --check``)."""

from __future__ import annotations

import argparse
import sys

__all__ = ["progress"]


def progress(args: argparse.Namespace, i: int, total: int, what: str) -> None:
    """One counter line on stderr per item of a long command (none with --quiet)."""
    if not getattr(args, "quiet", False):
        print(f"[{i}/{total}] {what}", file=sys.stderr, flush=True)
