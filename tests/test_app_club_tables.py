"""A club table on its players' own phones (real flet.Pages, no client, one PubSub hub as on a
server): each table's own PIN, who the phone is, the one-tap Confirm and Reject, a rejected
deal's card check, the director's announcement and correction from his screen, the director's
view and the live standings drawn again after a table's write."""

from __future__ import annotations

import asyncio
import datetime as dt
import threading
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import flet as ft
import msgpack
import pytest
from flet.controls.context import _context_page
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub
from support.flet_fakes import (
    RecordingConnection,
    _encode,
    by_id,
    find,
    fire,
    navigate,
    texts,
    type_into,
)

import scorepad.app.frame.screens  # noqa: F401  (registers every screen)
from scorepad.app.club import public
from scorepad.app.club.director import director_screen
from scorepad.app.club.tables import table_pins
from scorepad.app.frame import live, outside
from scorepad.app.frame.shell import Shell
from scorepad.app.screens.table import join
from scorepad.app.server.access import Access, Gate
from scorepad.app.server.grants import Grants
from scorepad.club.errors import ClubError
from scorepad.club.store import ClubStore, table_pin
from scorepad.store import Store

RASPASY = {"type": "raspasy", "tricks": {"0": 4, "1": 3, "2": 3}}


def page_on(hub: PubSubHub) -> tuple[ft.Page, Session]:
    """A page of a server whose pages share ``hub`` (as every page of one server does)."""
    conn = RecordingConnection()
    conn.pubsubhub = hub
    conn.loop = asyncio.get_running_loop()
    session = Session(conn)
    _context_page.set(session.page)
    session.apply_page_patch({"route": "/", "width": 360, "height": 740})
    msgpack.packb(session.get_page_patch(), default=_encode)
    return session.page, session


def ids(root: Any) -> set[str]:
    return {c.identifier for c in find(root, lambda c: isinstance(c, ft.Semantics))}


async def until(check: Callable[[], bool]) -> None:
    """Wait for a state (a page drawn again by the hub), never for a time: at most 20 s."""
    for _ in range(400):
        if check():
            return
        await asyncio.sleep(0.05)
    assert check()


class Night:
    """A night of six (two tables of three) on one store, the server's gate and its pages."""

    def __init__(self, tmp_path: Path, deals: int) -> None:
        self.store = Store(tmp_path / "club.db", check_same_thread=False)
        self.lock = threading.RLock()
        self.club = ClubStore(self.store)
        self.nid = self.club.create_night(
            "Friday", date=dt.date(2026, 12, 4), tours=2, deals_per_tour=deals, seed=5
        )
        for name in ("Anna", "Boris", "Vera", "Gleb", "Dima", "Zoya"):
            self.club.check_in(self.nid, name)
        self.club.draw(self.nid)
        self.grants = Grants(self.store.db, self.lock)
        self.gate = Gate(None, grants=self.grants, table_pins=table_pins(self.store, self.lock))
        self.hub = PubSubHub(loop=asyncio.get_running_loop())
        self.table = SimpleNamespace(gate=self.gate, grants=self.grants, sharing=None)

    def seats(self, table: int) -> tuple[int, ...]:
        return self.club.load(self.nid).tour(1).table(table).players

    def sid(self, table: int) -> int:
        return self.club.session_of(self.nid, 1, table)

    def phone(self, table: int, device: str) -> tuple[Shell, Session]:
        """A phone that opened table ``table``'s join link (from another computer)."""
        page, session = page_on(self.hub)
        access = Access(self.gate, device, loopback=False, address="192.168.1.20")
        shell = Shell(page, self.store, "en", self.lock, access=access)
        shell.table = self.table
        live.subscribe(shell)
        join(shell, self.sid(table), self.grants.link(self.sid(table)))
        return shell, session

    def host(self) -> tuple[Shell, Session]:
        page, session = page_on(self.hub)
        shell = Shell(page, self.store, "en", self.lock)
        live.subscribe(shell)
        shell.state.night = self.nid
        shell.show(director_screen)
        return shell, session


async def write_raspasy(shell: Shell, session: Session) -> str | None:
    """An all-pass written on the deal entry; the refusal shown there, if any; then the sheet."""
    await navigate(session, shell.page, "nav-entry")
    await fire(session, by_id(shell.page, "kind-raspasy"))
    # 3 tricks each for the two seats the entry asks (the third takes the rest, 4).
    asked = [s for s in (0, 1, 2) if f"tricks-{s}-3" in ids(shell.page)]
    for seat in asked[:2]:
        await fire(session, by_id(shell.page, f"tricks-{seat}-3"))
    await fire(session, by_id(shell.page, "confirm-deal"))
    refused = message(shell) if "message" in ids(shell.page) else None
    await navigate(session, shell.page, "nav-sheet")
    return refused


def first_asked(shell: Shell, tricks: int) -> int:
    """The first seat whose tricks the entry asks (the last one takes the rest)."""
    return next(s for s in (0, 1, 2) if f"tricks-{s}-{tricks}" in ids(shell.page))


async def correct_deal_1(
    shell: Shell, session: Session, store: Store, sid: int, reason: str
) -> int:
    """The director, on the History of table ``sid``, corrects deal 1: the first seat the
    entry asks gets 2 tricks; refused without a reason (nothing written), written with
    ``reason``.  The seat."""
    before = [a.kind for a in store.history(sid)]
    await fire(session, by_id(shell.page, "edit-1"))
    seat = first_asked(shell, 2)
    await fire(session, by_id(shell.page, f"tricks-{seat}-2"))
    await fire(session, by_id(shell.page, "confirm-deal"))  # no reason: refused, nothing written
    assert [a.kind for a in store.history(sid)] == before
    await type_into(session, by_id(shell.page, "edit-reason"), reason)
    await fire(session, by_id(shell.page, "confirm-deal"))
    assert [(a.kind, a.reason) for a in store.history(sid)][-1] == ("edit", reason)
    tricks = store.load(sid).session.deals[0].model_dump(mode="json")["tricks"]
    assert tricks[str(seat)] == 2 and sum(tricks.values()) == 10
    return seat


def message(shell: Shell) -> str:
    return str(by_id(shell.page, "message").content.value)


async def test_a_deal_is_confirmed_on_another_players_phone_and_a_rejected_one_is_audited(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(public, "REFRESH", 3600.0)  # the standings follow the write, not a timer
    n = Night(tmp_path, deals=2)
    sid, first, second, third = n.sid(1), *n.seats(1)
    names = dict(zip(n.seats(1), n.store.load(sid).session.players, strict=True))
    pin = table_pin(n.store, sid)
    assert pin is not None and len(pin) == 6 and pin != table_pin(n.store, n.sid(2))

    a, sa = n.phone(1, "device-of-the-first-player-0001")
    # The table's own PIN: without it the phone only looks.
    assert "viewer-note" in ids(a.page) and not a.access.may_write
    await fire(sa, by_id(a.page, "pin-open"))
    await type_into(sa, by_id(a.page, "pin-field"), table_pin(n.store, n.sid(2)) or "")
    await fire(sa, by_id(a.page, "pin-submit"))
    assert message(a) == "Wrong PIN. Tries left on this device: 4."  # another table's PIN
    await type_into(sa, by_id(a.page, "pin-field"), pin)
    await fire(sa, by_id(a.page, "pin-submit"))
    assert a.access.may_write and "viewer-note" not in ids(a.page)
    # That PIN opens this table only, for this device only.
    assert not Access(n.gate, "device-of-the-first-player-0001", scope=n.sid(2)).may_write
    assert not Access(n.gate, "another-device-that-gave-nothing", scope=sid).may_write

    b, sb = n.phone(1, "device-of-the-second-player-002")
    assert b.access.enter(pin) is None
    b.redraw()
    host, _sh = n.host()
    stand_page, _ = page_on(n.hub)
    token = n.club.standings_token(n.nid)
    public.public_standings(stand_page, n.store, "en", n.lock, token)
    assert "(T1 " not in by_id(stand_page, "club-public-1").value

    # A writes deal 1 once he said who he is.
    refused = await write_raspasy(a, sa)
    assert refused == "Choose who you are at table 1 first (on the sheet)."
    assert n.store.load(sid).session.deals == []
    await fire(sa, by_id(a.page, f"club-me-{first}"))
    assert by_id(a.page, "club-me").value == f"You are #{first} {names[first]}"
    assert await write_raspasy(a, sa) is None
    [mark] = n.club.marks(sid)
    assert (mark.state, mark.written_by) == ("provisional", first)
    assert by_id(a.page, "club-deal-1").value == (
        f"Deal 1 (All pass), written by #{first} {names[first]}: to confirm"
    )
    # The director's view and the live standings follow the write by themselves.
    await until(lambda: "1 deal, playing; 1 to confirm" in by_id(host.page, "club-table-1").value)
    await until(lambda: "(T1 " in by_id(stand_page, "club-public-1").value)

    # The writer is offered no Confirm for his own deal (issue #37); asked anyway, the night
    # refuses it with a sentence and nothing changes.
    assert "club-confirm-1" not in ids(a.page) and "club-waiting-1" in ids(a.page)
    with pytest.raises(ClubError) as refused_own:
        n.club.confirm(n.nid, 1, 1, n.club.marks(sid)[0].deal_id, by=first)
    assert refused_own.value.message.render("en") == (
        f"deal 1 was written by number {first}: another player at the table confirms it"
    )
    assert n.club.marks(sid)[0].state == "provisional"

    # B's phone shows the deal to confirm (drawn again live); one tap, once he said who he is.
    await until(lambda: "club-confirm-1" in ids(b.page))
    await fire(sb, by_id(b.page, "club-confirm-1"))
    assert message(b) == "Choose who you are at table 1 first (on the sheet)."
    await fire(sb, by_id(b.page, f"club-me-{second}"))
    await fire(sb, by_id(b.page, "club-confirm-1"))
    assert (n.club.marks(sid)[0].state, n.club.marks(sid)[0].decided_by) == ("confirmed", second)
    assert "club-deal-1" not in ids(b.page)
    await until(lambda: "club-deal-1" not in ids(a.page))  # A's phone too
    await until(lambda: "0 to confirm" in by_id(host.page, "club-table-1").value)

    # Deal 2: B rejects it; the deal is disputed and offers the card-by-card check.
    assert await write_raspasy(a, sa) is None
    await until(lambda: "club-reject-2" in ids(b.page))
    # Reject asks why first: no reason, and the deal stays to confirm; Back changes nothing.
    await fire(sb, by_id(b.page, "club-reject-2"))
    dialog = b.page._dialogs.controls[-1]
    await fire(sb, by_id(dialog, "club-reject-2-confirm"))
    assert message(b) == "deal 2: a rejection needs a reason (what is wrong with it)"
    assert n.club.marks(sid)[1].state == "provisional"
    await fire(sb, by_id(b.page, "club-reject-2"))
    dialog = b.page._dialogs.controls[-1]
    await type_into(sb, by_id(dialog, "club-reject-2-reason"), "  Vera had 4 tricks, not 3 ")
    await fire(sb, by_id(dialog, "club-reject-2-confirm"))
    assert (n.club.marks(sid)[1].state, n.club.marks(sid)[1].rejection) == (
        "disputed",
        "Vera had 4 tricks, not 3",
    )
    assert by_id(b.page, "club-deal-2").value == (
        f"Deal 2 (All pass) was rejected by #{second} {names[second]}: Vera had 4 tricks, "
        "not 3. Check it card by card, then write it again."
    )
    # The writer's phone reads why, in the rejecting player's words.
    await until(lambda: "rejected by" in str(getattr(by_id(a.page, "club-deal-2"), "value", "")))
    assert by_id(a.page, "club-deal-2").value == by_id(b.page, "club-deal-2").value
    await until(lambda: "a deal disputed" in by_id(host.page, "club-table-1").value)
    assert "club-dispute-1" in ids(host.page)
    await fire(sb, by_id(b.page, "club-audit-2"))
    assert b.screen is not None and b.screen.__name__ == "dispute_screen"
    assert b.state.dispute.deal == (n.club.marks(sid)[1].deal_id, 1)
    # Rewritten at the table (a reason, in the journal) it waits for a confirmation again.
    await until(lambda: "club-audit-2" in ids(a.page))
    await navigate(sa, a.page, "nav-history")
    await fire(sa, by_id(a.page, "edit-2"))
    await fire(sa, by_id(a.page, f"tricks-{first_asked(a, 2)}-2"))
    await type_into(sa, by_id(a.page, "edit-reason"), "the cards say 2 tricks")
    await fire(sa, by_id(a.page, "confirm-deal"))
    assert n.store.history(sid)[-1].reason == "the cards say 2 tricks"
    assert (n.club.marks(sid)[1].state, n.club.marks(sid)[1].written_by) == ("provisional", first)
    # The third player's phone, a viewer without the PIN, cannot confirm.
    c, sc = n.phone(1, "device-of-the-third-player-0003")
    await fire(sc, by_id(c.page, f"club-me-{third}"))
    await fire(sc, by_id(c.page, "club-confirm-2"))
    assert message(c) == "This device may only look at the sheet: enter the table PIN to write."
    assert n.club.marks(sid)[1].state == "provisional"
    n.store.close()


async def test_the_director_announces_to_every_table_and_corrects_a_deal_from_his_screen(
    tmp_path: Path,
) -> None:
    n = Night(tmp_path, deals=1)
    host, sh = n.host()
    phones = []
    for table in (1, 2):
        shell, session = n.phone(table, f"device-at-table-{table}-00000000")
        assert shell.access.enter(table_pin(n.store, n.sid(table))) is None
        shell.redraw()
        phones.append((shell, session))
    # An announcement without words is refused; one with words reaches every table's phones.
    await fire(sh, by_id(host.page, "club-announce"))
    assert message(host) == "an announcement needs a text"
    await type_into(sh, by_id(host.page, "club-announce-text"), "Last deal of the tour, please")
    await fire(sh, by_id(host.page, "club-announce"))
    said = "From the director: Last deal of the tour, please"
    assert by_id(host.page, "club-announced").value == said
    for shell, _ in phones:
        await until(lambda shell=shell: "club-announcement" in ids(shell.page))
        assert by_id(shell.page, "club-announcement").value == said

    # Both tables play their deal (the director's half-typed words stay); the tour ends.
    await type_into(sh, by_id(host.page, "club-announce-text"), "Tour 2 at ten")
    for table, (shell, session) in zip((1, 2), phones, strict=True):
        first, second, _ = n.seats(table)
        await fire(session, by_id(shell.page, f"club-me-{first}"))
        assert await write_raspasy(shell, session) is None
        n.club.confirm(n.nid, 1, table, n.club.marks(n.sid(table))[0].deal_id, by=second)
    await until(lambda: "1 deal, done" in by_id(host.page, "club-table-2").value)
    assert by_id(host.page, "club-announce-text").value == "Tour 2 at ten"
    await fire(sh, by_id(host.page, "club-end-tour"))
    await fire(sh, by_id(host.page, "confirm-end-tour"))
    assert n.club.load(n.nid).tour(1).state == "ended"

    # After the tour a player's change is refused; the director's, with a reason, is not.
    shell, session = phones[0]
    await navigate(session, shell.page, "nav-history")
    await fire(session, by_id(shell.page, "edit-1"))
    await fire(session, by_id(shell.page, f"tricks-{first_asked(shell, 2)}-2"))
    await type_into(session, by_id(shell.page, "edit-reason"), "I miscounted")
    await fire(session, by_id(shell.page, "confirm-deal"))
    assert message(shell) == (
        "tour 1 has ended: a deal at table 1 changes only by the director, with a reason"
    )
    sid = n.sid(1)
    assert [a.kind for a in n.store.history(sid)] == ["add"]
    # So are an undo and a void from the table's History.
    await navigate(session, shell.page, "nav-history")
    await fire(session, by_id(shell.page, "undo"))
    ended = "tour 1 has ended: a deal at table 1 changes only by the director, with a reason"
    assert message(shell) == ended
    await fire(session, by_id(shell.page, "void-1"))
    dialog = shell.page._dialogs.controls[-1]
    await type_into(session, by_id(dialog, "void-reason"), "misdeal")
    await fire(session, by_id(dialog, "confirm-void"))
    assert message(shell) == ended
    assert [a.kind for a in n.store.history(sid)] == ["add"]

    await fire(sh, by_id(host.page, "club-open-1"))
    assert host.sid == sid and host.screen is not None
    assert host.screen.__name__ == "history_screen"
    assert "club-director" in ids(host.page)
    await correct_deal_1(host, sh, n.store, sid, "the protocol says 2 tricks")
    assert [c["reason"] for c in n.club.corrections(n.nid)] == ["the protocol says 2 tricks"]
    await fire(sh, by_id(host.page, "club-director"))
    assert "Tour 1, table 1, deal 1: the protocol says 2 tricks" in texts(host.page)
    n.store.close()


async def test_a_void_and_an_undo_on_a_phone_wait_for_another_players_confirmation(
    tmp_path: Path,
) -> None:
    n = Night(tmp_path, deals=3)
    sid, first, second, _ = n.sid(1), *n.seats(1)
    host, _sh = n.host()
    phones = []
    for device, who in (
        ("device-of-the-first-player-0001", first),
        ("device-of-the-second-0002", second),
    ):
        shell, session = n.phone(1, device)
        assert shell.access.enter(table_pin(n.store, sid)) is None
        shell.redraw()
        await fire(session, by_id(shell.page, f"club-me-{who}"))
        phones.append((shell, session))
    (a, sa), (b, sb) = phones
    for _ in (1, 2):
        assert await write_raspasy(a, sa) is None
        n.club.confirm(n.nid, 1, 1, n.club.marks(sid)[-1].deal_id, by=second)
    await until(lambda: "2 deals, playing; 0 to confirm" in by_id(host.page, "club-table-1").value)

    # A voids deal 2 from his History: written at once, to confirm on the other phones.
    await navigate(sa, a.page, "nav-history")
    await fire(sa, by_id(a.page, f"void-{n.club.marks(sid)[1].deal_id}"))
    dialog = a.page._dialogs.controls[-1]
    await type_into(sa, by_id(dialog, "void-reason"), "dealt twice")
    await fire(sa, by_id(dialog, "confirm-void"))
    [change] = n.club.changes(sid)
    assert (change.kind, change.deal, change.state, change.written_by) == (
        "void",
        2,
        "provisional",
        first,
    )
    assert len(n.store.load(sid).journal.live) == 1
    await until(lambda: "1 deal, playing; 1 to confirm" in by_id(host.page, "club-table-1").value)
    await until(lambda: f"club-change-{change.seq}" in ids(b.page))
    # The phone says it as the table does: no journal's change number (issue #37).
    assert by_id(b.page, f"club-change-{change.seq}").value == (
        f"the void of deal 2 (dealt twice), by #{first} "
        f"{n.store.load(sid).session.players[0]}: to confirm"
    )
    # The writer is offered no Confirm for his own change; asked anyway, the night refuses it
    # with a sentence and writes nothing.
    await navigate(sa, a.page, "nav-sheet")
    assert f"club-change-confirm-{change.seq}" not in ids(a.page)
    assert f"club-change-waiting-{change.seq}" in ids(a.page)
    with pytest.raises(ClubError) as own:
        n.club.decide_change(n.nid, 1, 1, change.seq or 0, by=first, confirmed=True)
    assert own.value.message.render("en") == (
        f"change {change.seq}, the void of deal 2 (dealt twice) was made by number {first}: "
        "another player at the table confirms it"
    )
    assert n.club.changes(sid)[0].state == "provisional"
    # B rejects it: the deal stands again (a restore in the journal), the director hears of it.
    await fire(sb, by_id(b.page, f"club-change-reject-{change.seq}"))
    dialog = b.page._dialogs.controls[-1]
    await type_into(
        sb, by_id(dialog, f"club-change-reject-{change.seq}-reason"), "it was dealt once"
    )
    await fire(sb, by_id(dialog, f"club-change-reject-{change.seq}-confirm"))
    assert n.club.changes(sid)[0].state == "disputed"
    assert [x.kind for x in n.store.history(sid)][-2:] == ["void", "restore"]
    assert len(n.store.load(sid).journal.live) == 2
    assert f"club-change-{change.seq}" not in ids(b.page)
    await until(lambda: f"club-change-{change.seq}" not in ids(a.page))
    await until(lambda: f"club-rejected-1-{change.seq}" in ids(host.page))
    assert by_id(host.page, f"club-rejected-1-{change.seq}").value == (
        f"Table 1: change {change.seq}, the void of deal 2 (dealt twice), by #{first}, "
        f"rejected by #{second} (it was dealt once): taken back"
    )
    # The maker's phone reads who rejected it and why.
    names = dict(zip(n.seats(1), n.store.load(sid).session.players, strict=True))
    await until(lambda: f"club-change-rejected-{change.seq}" in ids(a.page))
    assert by_id(a.page, f"club-change-rejected-{change.seq}").value == (
        f"the void of deal 2 (dealt twice), by #{first} {names[first]}, was rejected by "
        f"#{second} {names[second]}: it was dealt once"
    )
    assert "2 deals, playing; 0 to confirm" in by_id(host.page, "club-table-1").value

    # B undoes deal 2; A confirms it with one tap.
    await navigate(sb, b.page, "nav-history")
    await fire(sb, by_id(b.page, "undo"))
    undo = n.club.changes(sid)[-1]
    assert (undo.kind, undo.state, undo.written_by) == ("undo", "provisional", second)
    await until(lambda: f"club-change-confirm-{undo.seq}" in ids(a.page))
    await fire(sa, by_id(a.page, f"club-change-confirm-{undo.seq}"))
    assert (n.club.changes(sid)[-1].state, n.club.changes(sid)[-1].decided_by) == (
        "confirmed",
        first,
    )
    assert len(n.store.load(sid).journal.live) == 1
    await until(lambda: "1 deal, playing; 0 to confirm" in by_id(host.page, "club-table-1").value)
    n.store.close()


async def test_a_write_by_another_process_shows_on_the_directors_view_and_the_phone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(outside, "POLL", 0.05)
    n = Night(tmp_path, deals=2)
    sid, first, second, _ = n.sid(1), *n.seats(1)
    host, _sh = n.host()
    phone, sp = n.phone(1, "device-of-the-second-player-002")
    assert phone.access.enter(table_pin(n.store, sid)) is None
    await fire(sp, by_id(phone.page, f"club-me-{second}"))
    outside.watch(host.page, n.store, n.lock)
    watching = outside._WATCHING[n.store]
    await until(lambda: watching.version is not None)
    # A look of its own (the poll's runs besides): what it announces, and that it writes nothing.
    look = outside.Outside(n.store, n.lock)
    assert look.look() == []  # the first look learns the state
    n.club.announce(n.nid, "Welcome")  # the app's own write: announced by the app already
    changes = n.store.conn.total_changes
    assert look.look() == []
    assert n.store.conn.total_changes == changes  # a look writes nothing
    with Store(tmp_path / "club.db") as other:
        Grants(other.db, threading.RLock()).link(n.sid(2))  # another process, nothing shown
        assert look.look() == []
        ClubStore(other).write_deal(n.nid, 1, 2, RASPASY, by=n.seats(2)[0], seen=0)
        assert look.look() == [
            (live.TOPIC, (n.sid(2), 1)),
            ("scorepad-club", ("table", n.sid(2))),
            ("scorepad-club", ("night", n.nid)),
        ]

    # Another process (its own connection, as `scorepad club deal` has) writes a deal.
    with Store(tmp_path / "club.db") as other:
        cli = ClubStore(other)
        seen = other.load(sid).revision
        cli.write_deal(n.nid, 1, 1, RASPASY, by=first, seen=seen)
        await until(
            lambda: "1 deal, playing; 1 to confirm" in by_id(host.page, "club-table-1").value
        )
        await until(lambda: "club-confirm-1" in ids(phone.page))
        # Its confirmation (no new revision: only the club's marks change) shows too.
        cli.confirm(n.nid, 1, 1, cli.marks(sid)[0].deal_id, by=second)
        await until(lambda: "0 to confirm" in by_id(host.page, "club-table-1").value)
        await until(lambda: "club-confirm-1" not in ids(phone.page))
        # A void from the other process waits for a confirmation on the phone.
        change = cli.undo(n.nid, 1, 1, by=first)
        await until(lambda: f"club-change-confirm-{change.seq}" in ids(phone.page))
        await until(
            lambda: "0 deals, no deal yet; 1 to confirm" in by_id(host.page, "club-table-1").value
        )
    watching.task and watching.task.cancel()
    n.store.close()
