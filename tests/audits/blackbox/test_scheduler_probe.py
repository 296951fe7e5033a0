"""``--scheduler`` must answer as a Dask scheduler (issue 32, item 8): an HTTP server, silent or
answering, is refused within the probe's limit with a message naming the flag, never a hang or a
3 EiB allocation; a server that sends a Dask-sized frame length passes the probe."""

from __future__ import annotations

import socket
import struct
import threading
from collections.abc import Iterator

import pytest

from privref.audits.blackbox import engines
from privref.audits.blackbox.engines import check_scheduler
from privref.reference.errors import InvalidArgument


@pytest.fixture
def server() -> Iterator[tuple[socket.socket, list[bytes]]]:
    """A local listener that sends each accepted connection the bytes queued in ``answers``."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    answers: list[bytes] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            if answers:
                conn.sendall(answers.pop(0))
            threading.Timer(2.0, conn.close).start()

    threading.Thread(target=serve, daemon=True).start()
    yield listener, answers
    listener.close()


def _address(listener: socket.socket) -> str:
    return f"tcp://127.0.0.1:{listener.getsockname()[1]}"


def test_an_http_answer_is_refused_at_once(server: tuple[socket.socket, list[bytes]]) -> None:
    listener, answers = server
    answers.append(b"HTTP/1.1 400 Bad Request\r\n\r\n")
    with pytest.raises(InvalidArgument, match=r"--scheduler .* not a Dask scheduler .*'HTTP/1\.1'"):
        check_scheduler(_address(listener))


def test_a_silent_server_is_refused_after_the_probe(server: tuple[socket.socket, list[bytes]],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engines, "SCHEDULER_PROBE_SECONDS", 0.3)
    with pytest.raises(InvalidArgument, match=r"no Dask handshake within 0\.3 s"):
        check_scheduler(_address(server[0]))


def test_a_dask_sized_frame_passes_the_probe(server: tuple[socket.socket, list[bytes]]) -> None:
    listener, answers = server
    answers.append(struct.pack("<Q", 120) + b"\x00" * 8)
    check_scheduler(_address(listener))  # no error: it looks like a Dask handshake


@pytest.mark.parametrize(("address", "why"), [("http://h:8787", "an http address is a dashboard"),
                                              ("ftp://h:1", "unknown scheme 'ftp'"),
                                              ("tcp://h", "must look like tcp://HOST:PORT")])
def test_addresses_that_are_not_a_schedulers_are_refused_without_a_connection(
        address: str, why: str) -> None:
    with pytest.raises(InvalidArgument, match=why):
        check_scheduler(address)
