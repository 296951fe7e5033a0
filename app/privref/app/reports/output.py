"""Output files of the ``privref`` command: an early usability check and I/O-safe writers.

Two kinds of failure, two exit codes (see ``privref --help``):

* :func:`check_output_path` runs *before* any work and raises
  :class:`~privref.reference.errors.InvalidArgument` (a usage error, exit 2) naming the flag
  when the path cannot possibly be written: empty, a directory, a missing or non-directory
  parent, or no write permission;
* the writers (:func:`write_text_atomic`, :func:`write_json`, :func:`write_with`) raise
  :class:`~privref.reference.errors.OutputError` (exit 3) naming the flag when writing fails
  anyway (a full disk, a folder removed mid-run).  A regular file is written to a temporary
  file beside it and renamed over the target, so a failed write never leaves a truncated
  result; a special file (``/dev/stdout``, ``/dev/full``, a FIFO) is written in place.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, Any

from privref.reference.errors import InvalidArgument, OutputError

__all__ = ["check_output_path", "dumps_inline_lists", "same_file", "write_json", "write_text_atomic",
           "write_with"]


def check_output_path(flag: str, path: str | os.PathLike[str]) -> Path:
    """The path, checked writable before a run; InvalidArgument naming ``flag`` otherwise.

    Refuses: an empty path, an existing directory, a parent folder that is missing or not a
    folder, a parent (for a new file) or file (for an existing one) without write permission.
    Passing is not a promise that the write will succeed (the disk may fill up): the writers
    below report that as OutputError.
    """
    text = os.fspath(path)
    if not text.strip():
        raise InvalidArgument(f"{flag}={text!r} must be a file path, not empty")
    target = Path(text)
    if target.is_dir():
        raise InvalidArgument(f"{flag} {text}: is a directory; give a file path")
    parent = target.parent
    if not parent.exists():
        raise InvalidArgument(f"{flag} {text}: folder {parent} does not exist")
    if not parent.is_dir():
        raise InvalidArgument(f"{flag} {text}: {parent} is not a folder")
    if target.exists():
        if not os.access(target, os.W_OK):
            raise InvalidArgument(f"{flag} {text}: file is not writable")
    elif not os.access(parent, os.W_OK | os.X_OK):
        raise InvalidArgument(f"{flag} {text}: folder {parent} is not writable")
    return target


def _is_special(target: Path) -> bool:
    try:
        mode = target.stat().st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode)


def _fail(flag: str, path: Path, exc: OSError) -> OutputError:
    reason = exc.strerror or type(exc).__name__
    return OutputError(f"{flag} {path}: could not write the result ({reason})")


def _mode_for(target: Path) -> int:
    """The permission bits the result gets: the replaced file's, else what ``open`` would give.

    (``mkstemp`` creates 0600 files; a written report should read like any other new file.)
    """
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_with(path: str | os.PathLike[str], writer: Callable[[IO[bytes]], None], *,
               flag: str = "--json") -> None:
    """Call ``writer`` on a binary file that becomes ``path``; OutputError naming ``flag``.

    A regular file is replaced atomically (temporary file in the same folder, then
    ``os.replace``); on failure the temporary file is removed and the target is unchanged.
    """
    target = Path(path)
    try:
        if _is_special(target):
            with open(target, "wb") as fh:
                writer(fh)
            return
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                   dir=target.parent)
    except OSError as exc:
        raise _fail(flag, target, exc) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            writer(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, _mode_for(target))
        os.replace(tmp, target)
    except OSError as exc:
        raise _fail(flag, target, exc) from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def write_text_atomic(path: str | os.PathLike[str], text: str, *, flag: str = "--json") -> None:
    """Write ``text`` (UTF-8) to ``path`` via :func:`write_with`; OutputError naming ``flag``."""
    data = text.encode("utf-8")

    def put(fh: IO[bytes]) -> None:
        fh.write(data)

    write_with(path, put, flag=flag)


def _scalar(value: Any) -> bool:
    return not isinstance(value, (dict, list, tuple))


def dumps_inline_lists(value: Any, level: int = 0) -> str:
    """JSON text indented by 2 like ``json.dumps(value, indent=2)``, except that a list (or
    tuple) of scalars is written on one line: the same JSON value (``json.loads`` gives back
    what ``json.dumps`` would), in a fraction of the lines when per-run vectors are stored."""
    pad, inner = "  " * level, "  " * (level + 1)
    if isinstance(value, dict) and value:
        items = (f"{inner}{json.dumps(str(k), ensure_ascii=False)}: "
                 f"{dumps_inline_lists(v, level + 1)}" for k, v in value.items())
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    if isinstance(value, (list, tuple)) and value and not all(_scalar(v) for v in value):
        return "[\n" + ",\n".join(f"{inner}{dumps_inline_lists(v, level + 1)}"
                                   for v in value) + f"\n{pad}]"
    return json.dumps(value, ensure_ascii=False, default=str)


def write_json(path: str | os.PathLike[str], payload: Mapping[str, Any], *,
               flag: str = "--json", inline_lists: bool = False) -> None:
    """Write ``payload`` as indented JSON (non-JSON values via ``str``) with a final newline;
    with ``inline_lists``, lists of scalars on one line (:func:`dumps_inline_lists`)."""
    text = (dumps_inline_lists(payload) if inline_lists
            else json.dumps(payload, indent=2, ensure_ascii=False, default=str)) + "\n"
    write_text_atomic(path, text, flag=flag)


def same_file(a: Path, b: Path) -> bool:
    """True when ``a`` and ``b`` name one file (the same resolved path, or, when both exist, the
    same inode: a hard link, a symlink); an output path that is an input must be refused."""
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and a.samefile(b))
    except OSError:
        return False
