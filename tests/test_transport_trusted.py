"""The bound on incomplete requests per address spares the proxy the host named (every phone
comes from its address, with whole requests) and still holds for every other address: the real
server, raw sockets on loopback (issue #36's bound; guarded_http split for #34)."""

from __future__ import annotations

import select
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.table_server import free_port, start, stop, wait_ready

from scorepad.app.server.wire import Limits

PIN = "246810"
PROXY = "127.0.0.1"  # the proxy the host trusts
STRANGER = "127.0.0.2"


@pytest.fixture
def behind_a_proxy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """The server behind a trusted proxy on 127.0.0.1, its header limit shortened: its port."""
    monkeypatch.setenv("SCOREPAD_HEADER_WITHIN", "3")
    port = free_port()
    proc = start(tmp_path / "t.db", port, "--share", "--pin", PIN, "--trusted-proxy", PROXY)
    try:
        wait_ready(proc, f"http://127.0.0.1:{port}/", tmp_path / f"server-{port}.log")
        yield port
    finally:
        stop(proc)


def _half_requests(port: int, source: str, count: int) -> list[socket.socket]:
    """``count`` connections from ``source``, each with a request whose headers never end."""
    held = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
        s.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUser-Agent: slow".encode())
        held.append(s)
    return held


def _closed(held: list[socket.socket]) -> int:
    """How many of ``held`` the server has closed (an end of stream or a reset)."""
    readable, _, _ = select.select(held, [], [], 0)
    gone = 0
    for s in readable:
        try:
            gone += s.recv(64) == b""
        except ConnectionResetError:
            gone += 1
    return gone


def test_the_trusted_proxy_is_not_bounded_and_another_address_is(behind_a_proxy: int) -> None:
    port = behind_a_proxy
    cap = Limits().incomplete_per_address
    held = _half_requests(port, PROXY, cap + 8)
    held += _half_requests(port, STRANGER, cap + 8)
    try:
        time.sleep(0.5)
        assert _closed(held[: cap + 8]) == 0  # the proxy's: every one still waits for its headers
        assert _closed(held[cap + 8 :]) == 8  # the stranger's past the bound, closed at once
    finally:
        for s in held:
            s.close()
