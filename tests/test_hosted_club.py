"""A club night on the hosted server (issue #36) without a browser: the page that creates a
night is its owner (a server-issued secret, stored hashed, migration 9) and directs it from
anywhere; no other page does (not a table's owner, not the operator); the night's table links
work for the phones as on the LAN.  Through the access layer, on a real SQLite file and a real
PostgreSQL."""

from __future__ import annotations

import datetime as dt
import hashlib
import threading
from typing import Any

import pytest

from scorepad.app.server.access import NotAllowed
from scorepad.app.server.hosted import Hosted, HostedAccess, HostedGate, hosted_parts
from scorepad.club.store import ClubStore, table_pin
from scorepad.store import Store

PLAYERS = ["Anna", "Boris", "Vera", "Gleb", "Dmitri", "Elena", "Fyodor"]
NOT_DIRECTOR = "Only the phone that created this club night may direct it."


@pytest.fixture
def served(target: str) -> Any:
    store = Store(target, check_same_thread=False)
    hosted, gate = hosted_parts(
        store, threading.RLock(), per_hour=3, admin_secret="the operator's secret here"
    )
    yield store, hosted, gate
    store.close()


def page(gate: HostedGate, hosted: Hosted, device: str, address: str = "198.51.100.7") -> Any:
    gate.meet(device)
    return HostedAccess(gate, device, address=address, hosted=hosted)


def night(store: Store, access: HostedAccess) -> int:
    """A night made as the nights screen makes it (club/common.attempt's check first)."""
    access.require_director(None)
    nid = ClubStore(store).create_night(
        "Friday", date=dt.date(2026, 12, 4), tours=2, deals_per_tour=4
    )
    access.made_night(nid)
    return nid


def test_the_page_that_creates_a_night_directs_it_and_nobody_else(served: Any) -> None:
    store, hosted, gate = served
    phone = page(gate, hosted, "d" * 24)
    nid = night(store, phone)
    assert phone.directs(nid)
    phone.require_director(nid)
    # Kept hashed: the database holds the SHA-256 of the secret, never the secret.
    secret = phone.nights[nid]
    assert len(secret) >= 22
    rows = store.backend.query("SELECT night, secret FROM night_owners")
    assert rows == [{"night": nid, "secret": hashlib.sha256(secret.encode()).hexdigest()}]
    # The browser keeps it: a new page of that browser directs the night again (checked in
    # the database), a browser that forged or copied a wrong secret does not.
    again = page(gate, hosted, "d" * 24)
    again.held(phone.stored())
    assert again.nights == {nid: secret} and again.directs(nid)
    forged = page(gate, hosted, "f" * 24)
    forged.held(phone.stored().replace(secret, "A" * len(secret)))
    assert forged.nights == {} and not forged.directs(nid)
    # Another page: no director's screen, every action refused, before anything is written.
    stranger = page(gate, hosted, "s" * 24, address="203.0.113.9")
    assert not stranger.directs(nid)
    for who in (stranger, forged):
        with pytest.raises(NotAllowed) as refused:
            who.require_director(nid)
        assert refused.value.render("en") == NOT_DIRECTOR
        assert refused.value.render("ru") == (
            "Управлять этим клубным вечером может только телефон, который его создал."
        )
    # A night of another page is not this page's either (each night its own secret).
    theirs = night(store, stranger)
    assert stranger.directs(theirs) and not stranger.directs(nid)
    assert not phone.directs(theirs)
    with pytest.raises(NotAllowed):
        phone.require_director(theirs)


def test_a_table_owner_or_the_operator_does_not_direct_a_night(served: Any) -> None:
    store, hosted, gate = served
    director = page(gate, hosted, "d" * 24)
    nid = night(store, director)
    # A game's owner: its secret names no night, even when it carries the same number.
    owner = page(gate, hosted, "o" * 24)
    sid = store.create_session(PLAYERS[:4], convention="sochi")
    owner.made(sid)
    owner.nights = {nid: owner.owned[sid]}
    assert not owner.directs(nid)
    # The operator's admin grant opens the admin page, never a night's director's screens.
    token, _ = hosted.admin.enter("a" * 24, "the operator's secret here", "203.0.113.9")
    operator = page(gate, hosted, "a" * 24)
    operator.admin_token = token
    assert operator.admin and not operator.directs(nid)
    with pytest.raises(NotAllowed):
        operator.require_director(nid)
    # And the night's secret is no game's owner secret nor an admin grant.
    director.owned = {sid: director.nights[nid]}
    director.admin_token = director.nights[nid]
    assert not director.owns(sid) and not director.admin


def test_a_new_night_counts_as_a_creation(served: Any) -> None:
    store, hosted, gate = served
    phone = page(gate, hosted, "d" * 24)
    for _ in range(3):  # per_hour=3 in this server
        night(store, phone)
    before = ClubStore(store).nights()
    with pytest.raises(NotAllowed) as refused:
        phone.require_director(None)
    assert "3 games were started from this network within the hour" in refused.value.render("en")
    assert ClubStore(store).nights() == before


def test_the_directors_night_plays_its_tables_with_phones_as_on_the_lan(served: Any) -> None:
    store, hosted, gate = served
    director = page(gate, hosted, "d" * 24, address="192.0.2.1")
    nid = night(store, director)
    club = ClubStore(store)
    # The director checks players in and draws the first tour (each step its check first).
    for name in PLAYERS:
        director.require_director(nid)
        club.check_in(nid, name)
    director.require_director(nid)
    club.draw(nid)
    views = club.tables(nid)
    assert len(views) == 2 and sorted(len(v.players) for v in views) == [3, 4]
    # A phone at a table: its join link (a random token) and the table's own PIN.
    sid = views[0].session_id
    pin = table_pin(store, sid)
    assert pin is not None and gate.table_pins(sid) == pin
    phone = page(gate, hosted, "p" * 24, address="198.51.100.20")
    phone.scope = sid
    phone.link = hosted.grants.link(sid)
    assert phone.link_open and not phone.may_write
    with pytest.raises(NotAllowed):
        phone.require_write(sid)
    assert phone.enter("000000" if pin != "000000" else "111111") is not None
    assert phone.enter(pin) is None
    assert phone.may_write
    phone.require_write(sid)
    # That phone writes at its table only, and directs nothing.
    with pytest.raises(NotAllowed):
        phone.require_write(views[1].session_id)
    assert not phone.directs(nid)
    with pytest.raises(NotAllowed):
        phone.require_director(nid)
    # The browser's front page keeps the table it joined (checked against the club's PIN).
    phone.joined[sid] = phone.link
    back = page(gate, hosted, "p" * 24)
    back.held(phone.stored())
    assert back.joined == {sid: phone.link}
