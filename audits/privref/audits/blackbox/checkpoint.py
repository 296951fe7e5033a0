"""The black-box auditor's checkpoint: completed chunks on disk, so an interrupted run resumes.

With ``checkpoint`` set (``--checkpoint``), every completed chunk is appended (and fsynced) to a
JSON-lines file whose first line fingerprints the parameters; a rerun with the same parameters
skips the chunks found there, and a file written for other parameters is refused
(CheckpointError).  Integrity: every chunk line carries ``sha256`` = SHA-256 of (SHA-256 of the
header line || the line's canonical JSON without that field), so a flipped byte, a chunk spliced
in from another run's file, an edited header or a truncated line is refused (CheckpointError),
never trusted.  (Not a defence against a forger who recomputes the digests; it catches
corruption and accidental edits.)
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import io
import json
import os
from collections.abc import Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from privref.reference.errors import InvalidArgument, OutputError

from .batch import Batch

__all__ = ["Checkpoint", "CheckpointError", "Counted", "Key", "canonical"]

Key = tuple[int, int, int, int]
"""A chunk's key: (stage, candidate index, side, chunk)."""


class CheckpointError(InvalidArgument):
    """A checkpoint file is unreadable, tampered with, truncated, or written for other parameters.

    A PrivrefError (a usage error, exit status 2): the message names ``--checkpoint`` and the file.
    """



@dataclass(frozen=True, slots=True)
class Counted:
    """One held-out chunk, counted: its size, each event's hits, and its first outcome (kind checks)."""

    size: int
    hits: tuple[int, ...]
    head: Batch



def _encode(o: object) -> object:
    if o is None or isinstance(o, bool | int | float | str):
        return o
    if isinstance(o, tuple):
        return {"t": [_encode(x) for x in o]}
    raise CheckpointError(f"--checkpoint cannot store outcomes of type {type(o).__name__} "
                          f"({o!r}); use numbers, strings, bools, None or tuples, or run without "
                          "--checkpoint")


def _decode(o: object) -> Hashable:
    if isinstance(o, dict):
        return tuple(_decode(x) for x in o["t"])
    if not (o is None or isinstance(o, bool | int | float | str)):
        raise TypeError(f"not an outcome: {o!r}")
    return o


def canonical(record: dict[str, Any]) -> bytes:
    """The canonical JSON bytes of a record (sorted keys, no spaces, ASCII): what is digested."""
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


class Checkpoint:
    """Append-only JSON-lines store of completed chunks, keyed by (stage, index, side, chunk).

    Integrity: see the module docstring (a SHA-256 per chunk line, chained to the header);
    a tampered, truncated or foreign file raises CheckpointError naming ``--checkpoint``.
    Write failures raise OutputError.
    """

    VERSION = 3

    def __init__(self, path: Path, fingerprint: dict[str, Any]) -> None:
        self.path = path
        self.chunks: dict[Key, Batch] = {}
        self.counts: dict[Key, tuple[str, Counted]] = {}  # held-out chunks: (events digest, counts)
        if path.is_dir():
            raise CheckpointError(f"--checkpoint {path}: is a directory; give a file path")
        try:
            if path.exists() and path.stat().st_size > 0:
                self._load(fingerprint)
            else:
                if not path.parent.exists():
                    raise CheckpointError(
                        f"--checkpoint {path}: directory {path.parent} does not exist")
                header = json.dumps({"privref_checkpoint": self.VERSION,
                                     "fingerprint": fingerprint}, sort_keys=True) + "\n"
                with path.open("w", encoding="utf-8") as f:
                    f.write(header)
                self._chain = hashlib.sha256(header.encode("utf-8")).digest()
            self._file: TextIO = path.open("a", encoding="utf-8")
        except OSError as exc:
            raise OutputError(f"--checkpoint {path}: cannot use the file "
                              f"({exc.strerror or type(exc).__name__})") from None

    def _bad(self, what: str) -> CheckpointError:
        return CheckpointError(f"--checkpoint {self.path} {what}; delete it (or use another file) "
                               "to start over")

    def _load(self, fingerprint: dict[str, Any]) -> None:
        raw = self.path.read_bytes()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise CheckpointError(f"--checkpoint {self.path} is not a privref checkpoint (binary "
                                  "data); delete it or use another file") from None
        lines = text.split("\n")
        try:
            header = json.loads(lines[0])
            old = header["fingerprint"]
            version = header["privref_checkpoint"]
            if not isinstance(old, dict):
                raise TypeError
        except (ValueError, KeyError, TypeError, IndexError):
            raise CheckpointError(f"--checkpoint {self.path} is not a privref checkpoint (no "
                                  "header line); delete it or use another file") from None
        if version != self.VERSION:
            raise self._bad(f"has format version {version!r}, not {self.VERSION}")
        for name in sorted(set(old) | set(fingerprint)):
            if old.get(name) != fingerprint.get(name):
                raise CheckpointError(
                    f"--checkpoint {self.path} was written for other parameters ({name}: "
                    f"{old.get(name)!r} in the file, {fingerprint.get(name)!r} now); rerun with "
                    "the original parameters or use another file")
        self._chain = hashlib.sha256((lines[0] + "\n").encode("utf-8")).digest()
        body = lines[1:]
        if body and body[-1] == "":
            body = body[:-1]  # the final newline
        elif body or not text.endswith("\n"):
            raise self._bad("is truncated (its last line is incomplete)")
        for number, line in enumerate(body, start=2):
            try:
                record = json.loads(line)
                digest = record.pop("sha256")
            except (ValueError, KeyError, TypeError, AttributeError):
                raise self._bad(f"is corrupted or truncated at line {number}") from None
            if not isinstance(digest, str) or digest != hashlib.sha256(
                    self._chain + canonical(record)).hexdigest():
                raise self._bad(f"was tampered with: line {number} fails its SHA-256 digest")
            try:
                key: Key = (int(record["key"][0]), int(record["key"][1]), int(record["key"][2]),
                             int(record["key"][3]))
                if "hits" in record:  # a counted held-out chunk
                    head = Batch(record["kind"], [_decode(record["first"])], _decode(record["first"]))
                    hits = tuple(int(h) for h in record["hits"])
                    self.counts[key] = (str(record["events"]),
                                        Counted(int(record["size"]), hits, head))
                    continue
                if record["encoding"] == "npy":
                    values: np.ndarray | list[Hashable] = np.load(
                        io.BytesIO(base64.b64decode(record["data"])), allow_pickle=False)
                else:
                    values = [_decode(o) for o in record["data"]]
                batch = Batch(record["kind"], values, _decode(record["first"]))
            except (ValueError, KeyError, TypeError, IndexError, AssertionError, OSError):
                raise self._bad(f"has an unreadable chunk at line {number}") from None
            self.chunks[key] = batch

    def record(self, key: Key, batch: Batch) -> None:
        """Persist one completed chunk (flushed and fsynced before returning); OutputError on failure."""
        if isinstance(batch.values, np.ndarray):
            buf = io.BytesIO()
            np.save(buf, batch.values, allow_pickle=False)
            enc, data = "npy", base64.b64encode(buf.getvalue()).decode("ascii")
            payload: object = data
        else:
            enc, payload = "json", [_encode(o) for o in batch.values]
        record: dict[str, Any] = {"key": list(key), "kind": batch.kind,
                                  "first": _encode(batch.first), "encoding": enc, "data": payload}
        self._append(record)
        self.chunks[key] = batch

    def record_counts(self, key: Key, events: str, counted: Counted) -> None:
        """Persist one counted held-out chunk: its size, hits and the digest of the events counted."""
        record: dict[str, Any] = {"key": list(key), "kind": counted.head.kind,
                                  "first": _encode(counted.head.first), "events": events,
                                  "size": counted.size, "hits": list(counted.hits)}
        self._append(record)
        self.counts[key] = (events, counted)

    def _append(self, record: dict[str, Any]) -> None:
        record["sha256"] = hashlib.sha256(self._chain + canonical(record)).hexdigest()
        try:
            self._file.write(json.dumps(record) + "\n")
            self._file.flush()
            os.fsync(self._file.fileno())
        except OSError as exc:
            raise OutputError(f"--checkpoint {self.path}: could not write a chunk "
                              f"({exc.strerror or type(exc).__name__})") from None

    def close(self) -> None:
        """Close the file (the data is already on disk)."""
        with contextlib.suppress(OSError):  # every chunk was fsynced already
            self._file.close()
