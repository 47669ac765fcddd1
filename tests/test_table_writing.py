"""Writing at the shared table through the real server and Flet's WebSocket protocol (issue #21,
items 10 and 12): what a phone sends is checked by the server, not by the buttons it shows, and
every family's entry follows what another phone writes.

Phones join through a proxy the host named (``--trusted-proxy 127.0.0.1``), as in
test_table_safety.py: to the server each is a device on the network, not this computer.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from support.flet_wire import PATCH, Client
from support.table_server import shared_table

from conftest import typed
from scorepad.store import Store

PIN = "246810"
PHONE = {"X-Forwarded-For": "192.168.77.5"}


@contextmanager
def served(
    tmp_path: Path, convention: str, players: list[str], written: list[dict[str, Any]]
) -> Iterator[tuple[Path, int, int, str]]:
    """A shared table (--share, --pin) with one session and ``written`` deals; its join token."""
    db = tmp_path / f"{convention}.db"
    with Store(db) as store:
        sid = store.create_session(players, convention=convention)
        for seen, deal in enumerate(written):
            store.add_deal(sid, typed(store, sid, deal), seen=seen)
    with shared_table(db, sid, PIN) as (port, token):
        yield db, port, sid, token


def tap(c: Client, ident: str, name: str = "click") -> None:
    """A tap on the control ``ident`` shows, waiting for the server's answer (a state)."""
    n = len(c.frames)
    c.event(c.control(ident), name)
    c.wait(lambda c: any(f[0] == PATCH for f in c.frames[n:]))


def navigate(c: Client, ident: str) -> None:
    """A tap on a destination of the phone's bottom bar: what Flutter sends (the new index,
    then the bar's change event), waiting for the screen it opens."""
    found: tuple[int, int] | None = None

    def walk(v: Any) -> None:
        nonlocal found
        if isinstance(v, dict):
            destinations = v.get("destinations")
            if isinstance(destinations, list) and "_i" in v:
                for i, d in enumerate(destinations):
                    if f"'identifier': '{ident}'" in repr(d):
                        found = (v["_i"], i)
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    for f in c.frames:
        walk(f)
    assert found is not None, f"no destination {ident!r} on the page"
    bar, index = found
    n = len(c.frames)
    c.props(bar, {"selected_index": index})
    c.event(bar, "change", str(index))
    c.wait(lambda c: any(f[0] == PATCH for f in c.frames[n:]))


def writing_phone(port: int, sid: int, token: str) -> Client:
    """A phone at the join link that gave the PIN."""
    c = Client(port, f"/join/{sid}/{token}", prefs={}, headers=PHONE)
    c.wait(lambda c: c.has("pin-open"))
    tap(c, "pin-open")
    c.wait(lambda c: c.has("pin-field"))
    n = len(c.frames)
    c.props(c.control("pin-field"), {"value": PIN})
    c.event(c.control("pin-submit"))
    c.wait(lambda c: c.has("nav-entry") and len(c.frames) > n)
    return c


def headers_since(c: Client, n: int) -> list[str]:
    """The deal headers drawn from frame ``n`` on ("Deal 2: …"), oldest first."""
    out: list[str] = []

    def walk(v: Any) -> None:
        if isinstance(v, dict):
            if v.get("identifier") == "deal-header":
                content = v.get("content")
                if isinstance(content, dict) and isinstance(content.get("value"), str):
                    out.append(content["value"])
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    for f in c.frames[n:]:
        walk(f)
    return out


def numbered(header: str, n: int) -> bool:
    """A deal entry's header names deal ``n`` ("Deal 2: Anna deals…", a family's "Deal 2")."""
    return re.match(rf"Deal {n}(:|$)", header) is not None


def deals(db: Path, sid: int) -> list[Any]:
    with Store(db) as store:
        return [e.deal for e in store.load(sid).journal.live]


# --- 10. no count is written that nobody chose ---------------------------------------------------


def test_a_write_tapped_before_every_count_was_chosen_writes_nothing(tmp_path: Path) -> None:
    """An all-pass with only Boris's count chosen: Write is disabled on the screen, but a tap
    sent anyway (a hand-made client, or a tap racing the redraw) reaches the server, which
    asks the form again: Vera's count, which nobody chose, is never written as 0."""
    with (
        served(tmp_path, "sochi", ["Anna", "Boris", "Vera"], []) as (db, port, sid, token),
        writing_phone(port, sid, token) as c,
    ):
        navigate(c, "nav-entry")
        c.wait(lambda c: c.has("kind-raspasy"))
        tap(c, "kind-raspasy")
        c.wait(lambda c: c.has("tricks-1-10"))
        tap(c, "tricks-1-10")  # Boris took ten; Vera's count is not chosen yet
        told = c.count("message")
        tap(c, "confirm-deal")  # the disabled Write, tapped all the same
        c.wait(lambda c: c.count("message") > told)
        assert c.shows("Vera: how many tricks?")
        assert deals(db, sid) == []
        assert c.crashed == []
        tap(c, "tricks-2-0")  # now chosen: 10, 0 and Anna's 0 filled in
        tap(c, "confirm-deal")
        c.wait(lambda c: any(h.startswith("Deal 2:") for h in headers_since(c, 0)))
        (written,) = deals(db, sid)
        assert written.type == "raspasy" and written.tricks == {0: 0, 1: 10, 2: 0}


# --- 12. every family's untouched entry follows the table ---------------------------------------

PASSED = {"type": "game", "declarer": 1, "contract": "6S", "calls": ["pass", "pass"]}
FAMILIES = {
    "sochi": (["Anna", "Boris", "Vera"], PASSED),
    "balkan": (
        ["Ana", "Boris", "Vera"],
        {
            "type": "game",
            "declarer": 0,
            "bid": 4,
            "hand": False,
            "defence": {"1": "follow", "2": "follow"},
            "tricks": {"0": 6, "1": 2, "2": 2},
        },
    ),
    "prefa": (
        ["Ana", "Boris", "Vera"],
        {
            "type": "game",
            "declarer": 0,
            "contract": "6S",
            "defence": {"1": "whist", "2": "whist"},
            "tricks": {"0": 6, "1": 2, "2": 2},
        },
    ),
    "austrian": (
        ["Anton", "Brigitte", "Charlotte"],
        {
            "type": "game",
            "declarer": 0,
            "suit": "D",
            "defence": {"1": "play", "2": "play"},
            "tricks": {"0": 7, "1": 2, "2": 1},
        },
    ),
}


@pytest.mark.parametrize("convention", list(FAMILIES))
def test_an_untouched_entry_follows_another_phone_s_undo_and_redo(
    tmp_path: Path, convention: str
) -> None:
    """Phone A has the entry of deal 2 open and touches nothing; phone B undoes deal 1, then
    redoes it: A's entry shows deal 1, then deal 2 again, without a tap (pulya, bula, Prefa,
    the pot alike)."""
    players, first = FAMILIES[convention]
    with (
        served(tmp_path, convention, players, [first]) as (db, port, sid, token),
        writing_phone(port, sid, token) as a,
        writing_phone(port, sid, token) as b,
    ):
        navigate(a, "nav-entry")
        a.wait(lambda c: any(numbered(h, 2) for h in headers_since(c, 0)))
        navigate(b, "nav-history")
        b.wait(lambda c: c.has("undo"))
        for action, number in (("undo", 1), ("redo", 2)):
            n = len(a.frames)
            b.wait(lambda c, action=action: c.has(action))
            tap(b, action)
            a.wait(
                lambda c, n=n, number=number: any(numbered(h, number) for h in headers_since(c, n))
            )
        assert len(deals(db, sid)) == 1
        assert a.crashed == [] and b.crashed == []


# --- 9, 13. a deal written first: told by its number, never written twice by accident ----------


def test_a_different_deal_written_first_is_named_and_mine_is_written_next_only_when_chosen(
    tmp_path: Path,
) -> None:
    """Phone A enters Boris 6♠ not whisted; phone B writes an all-pass as deal 1 first. A is told
    at once, by the deal's number, in a note that leaves Write alone; A's Write is refused and
    shows B's deal beside A's own, with no Write to tap again; writing A's entry as deal 2 is a
    choice of its own, and then one more Write."""
    with (
        served(tmp_path, "sochi", ["Anna", "Boris", "Vera"], []) as (db, port, sid, token),
        writing_phone(port, sid, token) as a,
        writing_phone(port, sid, token) as b,
    ):
        for c in (a, b):
            navigate(c, "nav-entry")
            c.wait(lambda c: c.has("kind-raspasy"))
        for ident in ("declarer-1", "contract-6S", "call-pass", "call-pass"):
            tap(a, ident)
        for ident in ("kind-raspasy", "tricks-1-3", "tricks-2-3"):
            tap(b, ident)
        n = len(a.frames)
        tap(b, "confirm-deal")
        a.wait(lambda c: c.has("live-notice"))
        assert any(s.startswith("Deal 1 was just written on another device:") for s in a.strings())
        assert headers_since(a, n) == []  # A's entry is not redrawn under the finger
        tap(a, "confirm-deal")
        a.wait(lambda c: c.has("conflict"))
        assert a.shows("Deal 1 was written on another device first:")
        assert a.shows("The two differ: check at the table which is right.")
        assert len(deals(db, sid)) == 1
        n = len(a.frames)
        tap(a, "conflict-write-next")
        a.wait(lambda c: any(numbered(h, 2) for h in headers_since(c, n)))
        assert a.shows("Your entry is now the next deal: check it and write it.")
        assert len(deals(db, sid)) == 1  # the choice itself writes nothing
        tap(a, "confirm-deal")
        a.wait(lambda c: len(deals(db, sid)) == 2)
        first, second = deals(db, sid)
        assert first.type == "raspasy"
        assert (second.type, second.declarer, second.contract.code) == ("game", 1, "6S")


# --- 7. a field sent as a number is refused in a sentence -------------------------------------


def test_a_reason_sent_as_a_number_is_refused_in_a_sentence(tmp_path: Path) -> None:
    """The void's and the edit's reason fields hold whatever the client sends: a number is no
    reason, refused in a sentence (never the crash page), and nothing is written."""
    with (
        served(tmp_path, "sochi", ["Anna", "Boris", "Vera"], [PASSED]) as (db, port, sid, token),
        writing_phone(port, sid, token) as c,
    ):
        navigate(c, "nav-history")
        c.wait(lambda c: c.has("void-1"))
        tap(c, "void-1")
        c.wait(lambda c: c.has("void-reason"))
        c.props(c.control("void-reason"), {"value": 5})
        told = c.count("message")
        tap(c, "confirm-void")
        c.wait(lambda c: c.count("message") > told)
        assert c.shows("an edit or a void needs a reason")
        tap(c, "edit-1")
        c.wait(lambda c: c.has("edit-reason"))
        field = c.control("edit-reason")
        c.props(field, {"value": 7})
        c.event(field, "change", 7)  # no answer is drawn for it: the button stays disabled
        told = c.count("message")
        tap(c, "confirm-deal")  # disabled on the screen; sent all the same
        c.wait(lambda c: c.count("message") > told)
        assert c.shows("an edit or a void needs a reason")
        assert c.crashed == []
        with Store(db) as store:
            assert [a.kind for a in store.history(sid)] == ["add"]
