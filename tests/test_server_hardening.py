"""Hardening, round three (issue #40, items 1-9; issue #36's proxy and per-address bounds):
what a hostile phone still did to the server, each through the real server and Flet's real
WebSocket protocol (tests/flet_wire.py), raw sockets on loopback, or the real CLI.

The server runs behind a proxy the host named (``--trusted-proxy 127.0.0.1``): a phone is a
client that comes with ``X-Forwarded-For: 192.168.77.5``, the host's own browser one that the
proxy on this computer forwards as ``127.0.0.1``.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flet_wire import Client
from table_server import free_port, log_of, start, stop, wait_ready

from scorepad.store import Store

PIN = "246810"
PHONE = {"X-Forwarded-For": "192.168.77.5"}
HOST = {"X-Forwarded-For": "127.0.0.1"}  # the proxy on this computer, forwarding its browser


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[Path, int, int, str]]:
    """A served table (--share, --pin, a trusted proxy) with one session; its join token."""
    db = tmp_path / "s.db"
    with Store(db) as store:
        sid = store.create_session(["Anna", "Boris", "Vera"])
    port = free_port()
    proc = start(
        db, port, "--share", "--pin", PIN, "--trusted-proxy", "127.0.0.1", "--join", str(sid)
    )
    try:
        wait_ready(proc, f"http://127.0.0.1:{port}/", tmp_path / f"server-{port}.log")
        deadline = time.monotonic() + 30
        while not (found := re.search(rf"/join/{sid}/([A-Za-z0-9_-]+)", log_of(db, port))):
            assert time.monotonic() < deadline and proc.poll() is None, log_of(db, port)
            time.sleep(0.1)
        yield db, port, sid, found[1]
    finally:
        stop(proc)


def type_pin(c: Client, value: Any) -> None:
    n = len(c.frames)
    c.props(c.control("pin-field"), {"value": value})
    c.event(c.control("pin-submit"))
    c.wait(lambda c: len(c.frames) > n and any(f[0] == 2 for f in c.frames[n:]))


# --- issue 36: what a trusted proxy forwards -----------------------------------------------------

# Through the trusted proxy: every spelling a proxy (or a phone behind it) may send, and the
# address it stands for; None: a stranger (never the proxy's own address, never the host).
SPELLINGS: list[tuple[list[tuple[str, str]], str | None]] = [
    ([("X-Forwarded-For", "192.168.77.5")], "192.168.77.5"),
    ([("X-Forwarded-For", "10.1.1.1, 192.168.77.5")], "192.168.77.5"),  # the proxy's last hop
    ([("X-Forwarded-For", "  10.1.1.1 ,192.168.77.5  ")], "192.168.77.5"),
    # A second line: one list with the first (RFC 9110), its last hop the proxy's.
    ([("X-Forwarded-For", "127.0.0.1"), ("X-Forwarded-For", "192.168.77.5")], "192.168.77.5"),
    ([("x-forwarded-for", "192.168.77.5"), ("X-FORWARDED-FOR", "127.0.0.1")], "127.0.0.1"),
    ([("X-Forwarded-For", "192.168.77.5:51234")], "192.168.77.5"),
    ([("X-Forwarded-For", "2001:db8::17")], "2001:db8::17"),
    ([("X-Forwarded-For", "[2001:db8::17]")], "2001:db8::17"),
    ([("X-Forwarded-For", "[2001:db8::17]:51234")], "2001:db8::17"),
    ([("X-Forwarded-For", "::ffff:192.168.77.5")], "192.168.77.5"),
    ([("X-Forwarded-For", "127.0.0.1")], "127.0.0.1"),  # the proxy says: its own computer
    ([("Forwarded", "for=192.168.77.5")], "192.168.77.5"),
    ([("Forwarded", 'for="192.168.77.5:4711"')], "192.168.77.5"),
    ([("Forwarded", 'for="[2001:db8:cafe::17]:4711"')], "2001:db8:cafe::17"),
    ([("Forwarded", 'for="[2001:db8:cafe::17]"')], "2001:db8:cafe::17"),
    ([("Forwarded", "for=127.0.0.1;proto=http;by=10.0.0.1, For=192.168.77.5")], "192.168.77.5"),
    (
        [("Forwarded", "for=127.0.0.1"), ("Forwarded", "proto=https;FOR=192.168.77.5")],
        "192.168.77.5",
    ),
    ([("Forwarded", 'for="192.168.77.5:_hidden"')], "192.168.77.5"),  # an obfuscated port
    ([("Forwarded", 'by=x;for="192.168.77.5";host="a,b;c"')], "192.168.77.5"),
    ([("X-Forwarded-For", "192.168.77.5"), ("Forwarded", "for=192.168.77.5")], "192.168.77.5"),
    # What garbles it, or says nothing: a stranger.
    ([], None),
    ([("X-Real-IP", "127.0.0.1")], None),  # not read: a proxy that sets only it forwards strangers
    ([("X-Forwarded-For", "")], None),
    ([("X-Forwarded-For", " , ")], None),
    ([("X-Forwarded-For", "unknown")], None),
    ([("X-Forwarded-For", "192.168.77.5, unknown")], None),
    ([("X-Forwarded-For", "127.0.0.1, not-an-address")], None),
    ([("X-Forwarded-For", "127.0.0.1"), ("X-Forwarded-For", "garbage")], None),
    ([("X-Forwarded-For", "[127.0.0.1]")], None),  # brackets hold IPv6 only
    ([("X-Forwarded-For", "[::1")], None),
    ([("X-Forwarded-For", "127.0.0.1:99999999")], None),
    ([("X-Forwarded-For", "localhost")], None),
    ([("X-Forwarded-For", "127.0.0.1 127.0.0.2")], None),
    ([("Forwarded", "for=unknown")], None),
    ([("Forwarded", 'for="_gazonk"')], None),  # an obfuscated identifier
    ([("Forwarded", "for=_hidden")], None),
    ([("Forwarded", "proto=https;by=127.0.0.1")], None),  # no for= in the last element
    ([("Forwarded", "for=192.168.77.5, proto=https")], None),
    ([("Forwarded", "for=127.0.0.1;for=192.168.77.5")], None),  # two for= in one element
    ([("Forwarded", 'for="127.0.0.1')], None),  # an unclosed quote
    ([("Forwarded", "for=2001:db8::1")], None),  # RFC 7239: IPv6 quoted and in brackets...
    ([("Forwarded", "")], None),
    # ... and the two headers must agree: one of them is the proxy's, the other may be the phone's.
    ([("X-Forwarded-For", "192.168.77.5"), ("Forwarded", "for=127.0.0.1")], None),
    ([("Forwarded", "for=192.168.77.5"), ("X-Forwarded-For", "127.0.0.1")], None),
]


def test_every_spelling_of_the_forwarded_address() -> None:
    from scorepad.app.server.wire import UNKNOWN, peer_of

    proxy = frozenset({"127.0.0.1"})
    for headers, expected in SPELLINGS:
        scope = {
            "client": ("127.0.0.1", 40000),
            "headers": [(k.lower().encode(), v.encode()) for k, v in headers],
        }
        assert peer_of(scope, proxy) == (expected or UNKNOWN), headers
        # Not through the proxy: the socket's address, whatever the headers say.
        assert peer_of({**scope, "client": ("192.168.1.9", 1)}, proxy) == "192.168.1.9"
        assert peer_of(scope) == "127.0.0.1"
    # The proxy named in another spelling of its address is the same proxy.
    scope = {"client": ("::1", 1), "headers": [(b"x-forwarded-for", b"192.168.77.5")]}
    assert peer_of(scope, frozenset({"0:0::1"})) == "192.168.77.5"
    assert peer_of(scope, frozenset({"not-an-address"})) == "::1"


def test_a_phone_behind_the_trusted_proxy_never_gets_the_hosts_rights(
    table: tuple[Path, int, int, str],
) -> None:
    """Through the real server: what the issue's phone sent (a second line, ``unknown``, a
    bracketed address, only ``Forwarded:``, nothing) opens neither the host's list nor its PIN
    screen; the proxy forwarding its own computer's browser does."""
    db, port, sid, _ = table
    hostile = [h for h, expected in SPELLINGS if expected != "127.0.0.1"]
    assert len(hostile) >= 40
    for headers in hostile:
        with Client(port, headers=headers) as c:
            c.wait(lambda c: c.has("join-needed"))
            assert not c.has("pin-field") and not c.has("sessions-list"), headers
    with Client(port, headers=HOST) as host:
        host.wait(lambda c: c.has("pin-field"))  # the host's computer: types the PIN given
        type_pin(host, PIN)
        host.wait(lambda c: c.has(f"session-delete-{sid}"))
    with Store(db) as store:
        assert [s.id for s in store.sessions()] == [sid]
