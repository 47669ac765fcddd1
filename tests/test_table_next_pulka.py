"""Phones get the table, not the host (issue #21, item 3): a phone with the PIN may start the next
pulka at its table when the host turned the switch on, through the real server and Flet's real
WebSocket protocol. The new pulka has the same players and game; the join link and every phone
of the table follow it; the list of sessions and the administration stay on the host's computer.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from support.flet_wire import Client
from test_table_writing import PIN, deals, headers_since, navigate, numbered, served, tap
from test_table_writing import writing_phone as phone_with_pin

from scorepad.app.server.grants import Grants
from scorepad.store import Store

REFUSED = "The host has not let phones start the next pulka: ask at the host's computer."
RASPASY = {"type": "raspasy", "tricks": {"0": 2, "1": 5, "2": 3}}


def sessions(db: Path) -> list[int]:
    with Store(db) as store:
        return [s.id for s in store.sessions()]


def allowed(db: Path, sid: int) -> bool:
    with Store(db) as store:
        return Grants(store.db, threading.RLock()).next_allowed(sid)


def until(check: object, timeout: float = 30.0) -> None:
    """Wait for a state of the database (the server writes it; nothing is drawn for it)."""
    deadline = time.monotonic() + timeout
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, "the state never came"
        time.sleep(0.1)


def host_switch(port: int, sid: int, on: bool) -> None:
    """The host, on this computer: the PIN, the session, "Share the table", the switch.  Its
    browser comes through the proxy on this computer, which says so (a request through the
    trusted proxy that says nothing is a stranger's, issue #36)."""
    with Client(port, headers={"X-Forwarded-For": "127.0.0.1"}) as host:
        host.wait(lambda c: c.has("pin-field"))
        n = len(host.frames)
        host.props(host.control("pin-field"), {"value": PIN})
        host.event(host.control("pin-submit"))
        host.wait(lambda c: c.has("sessions-list") and len(c.frames) > n)
        tap(host, f"session-open-{sid}")
        host.wait(lambda c: c.has("share-table"))
        tap(host, "share-table")
        host.wait(lambda c: c.has("share-next"))
        switch = host.control("share-next")
        host.props(switch, {"value": on})
        host.event(switch, "change", str(on).lower())


def test_a_phone_starts_the_next_pulka_only_when_the_host_lets_it(tmp_path: Path) -> None:
    with (
        served(tmp_path, "sochi", ["Anna", "Boris", "Vera"], [RASPASY]) as (db, port, sid, token),
        phone_with_pin(port, sid, token) as first,
        phone_with_pin(port, sid, token) as other,
    ):
        navigate(other, "nav-entry")
        other.wait(lambda c: any(numbered(h, 2) for h in headers_since(c, 0)))
        assert not allowed(db, sid)  # off by default
        first.wait(lambda c: c.has("next-pulka-open"))
        tap(first, "next-pulka-open")
        first.wait(lambda c: c.has("next-pulka-start"))
        assert first.shows("The same players and game: Anna, Boris, Vera; ")
        # Vera deals first (the deal passed to Boris after deal 1; the phone picks her).
        dealer = first.control("next-pulka-dealer")
        first.props(dealer, {"value": "2"})
        first.event(dealer, "select", "2")
        tap(first, "next-pulka-start")
        first.wait(lambda c: c.shows(REFUSED))
        assert sessions(db) == [sid]

        host_switch(port, sid, True)
        until(lambda: allowed(db, sid))
        n = len(other.frames)
        tap(first, "next-pulka-start")
        until(lambda: len(sessions(db)) == 2)
        (new,) = [s for s in sessions(db) if s != sid]
        first.wait(lambda c: any(numbered(h, 1) for h in headers_since(c, 0)))
        with Store(db) as store:
            made = store.load(new).session
            assert made.players == ["Anna", "Boris", "Vera"]
            assert made.convention == "sochi" and made.pool_target == 20
            assert made.first_dealer == 2
        assert deals(db, sid) != [] and deals(db, new) == []
        # The link and the switch moved to the new pulka; the other phone followed it.
        with Store(db) as store:
            grants = Grants(store.db, threading.RLock())
            assert grants.opens(new, token) and not grants.opens(sid, token)
            assert grants.next_allowed(new)
        other.wait(lambda c, n=n: len(c.frames) > n)  # the sheet of the new pulka
        m = len(other.frames)
        navigate(other, "nav-entry")
        other.wait(lambda c, m=m: any(numbered(h, 1) for h in headers_since(c, m)))
        # Still no list of sessions and no administration on a phone.
        for c in (first, other):
            assert not c.has("nav-sessions") and not c.has("sessions-list")
            assert not any(c.has(f"session-delete-{s}") for s in (sid, new))
        # A phone that opens the old address lands on the game being played.
        with Client(port, f"/join/{sid}/{token}", prefs=dict(first.prefs)) as again:
            again.wait(lambda c: c.has("nav-entry"))
            navigate(again, "nav-entry")
            again.wait(lambda c: any(numbered(h, 1) for h in headers_since(c, 0)))
            assert not again.has("sessions-list")
        assert first.crashed == [] and other.crashed == []


def test_the_switch_is_off_again_when_the_host_turns_it_off(tmp_path: Path) -> None:
    with served(tmp_path, "balkan", ["Anna", "Boris", "Vera"], []) as (db, port, sid, token):
        host_switch(port, sid, True)
        until(lambda: allowed(db, sid))
        host_switch(port, sid, False)
        until(lambda: not allowed(db, sid))
        with phone_with_pin(port, sid, token) as c:
            c.wait(lambda c: c.has("next-pulka-open"))
            tap(c, "next-pulka-open")
            c.wait(lambda c: c.has("next-pulka-start"))
            tap(c, "next-pulka-start")
            c.wait(lambda c: c.shows(REFUSED))
        assert sessions(db) == [sid]


def test_a_viewer_and_a_phone_of_another_table_cannot_start_it(tmp_path: Path) -> None:
    """The check is made on the server (access.require_next), not only by hiding the button."""
    from scorepad.app.server.access import Access, Gate, NotAllowed

    with Store(tmp_path / "n.db", check_same_thread=False) as store:
        sid = store.create_session(["Anna", "Boris", "Vera"])
        other = store.create_session(["Anna", "Boris", "Vera"])
        grants = Grants(store.db, threading.RLock())
        gate = Gate(PIN, grants=grants)
        device = "d" * 24
        access = Access(gate, device, scope=sid, link=grants.link(sid))
        grants.allow_next(sid, True)
        with pytest.raises(NotAllowed) as viewer:  # no PIN on this device yet
            access.require_next(sid)
        assert viewer.value.render("en") == (
            "This device may only look at the sheet: enter the table PIN to write."
        )
        assert gate.enter(device, PIN) is None
        access.require_next(sid)  # the PIN, the link, the switch: allowed
        with pytest.raises(NotAllowed):  # not at another table
            access.require_next(other)
        grants.allow_next(sid, False)
        with pytest.raises(NotAllowed) as off:
            access.require_next(sid)
        assert off.value.render("en") == REFUSED
