"""A club night's director on the hosted server (issue #36) corrects a deal from his screen, as
the LAN's host does, and hands the night to another browser with a one-time code, as a table's
owner hands the table.  Nobody else corrects: another browser, a phone with the table's PIN, the
owner of a game, a browser holding a handed-over secret.  Real flet pages (no client) on a real
SQLite file and a real PostgreSQL (the ``target`` fixture)."""

from __future__ import annotations

import asyncio
import hashlib
import threading
from types import SimpleNamespace
from typing import Any

import flet as ft
import pytest
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub
from support.club_nights import RASP, drawn_night
from support.flet_fakes import by_id, fire, texts
from test_app_club_tables import correct_deal_1, ids, page_on

import scorepad.app.frame.screens  # noqa: F401  (registers every screen)
from scorepad.app.club.director import director_screen
from scorepad.app.club.tables import writes
from scorepad.app.frame import live, registry
from scorepad.app.frame.shell import Shell
from scorepad.app.screens import hosted as screens
from scorepad.app.screens.table import join
from scorepad.app.server.access import NotAllowed
from scorepad.app.server.hosted import HostedAccess, hosted_parts
from scorepad.app.session import Refused
from scorepad.club.store import ClubStore, table_pin
from scorepad.store import Store

NOT_DIRECTOR = "Only the phone that created this club night may direct it."
SHARED_ONLY = "This device may only write to the shared game."


class Server:
    """One hosted server's store, owners and gate, and pages on one PubSub hub."""

    def __init__(self, target: str) -> None:
        self.store = Store(target, check_same_thread=False)
        self.lock = threading.RLock()
        self.hosted, self.gate = hosted_parts(self.store, self.lock)
        self.grants, self.owners = self.hosted.grants, self.hosted.owners
        self.hub = PubSubHub(loop=asyncio.get_running_loop())
        self.table = SimpleNamespace(gate=self.gate, grants=self.grants, sharing=None)
        self.club = ClubStore(self.store)

    def access(self, device: str, address: str = "198.51.100.7") -> HostedAccess:
        self.gate.meet(device)
        return HostedAccess(self.gate, device, address=address, hosted=self.hosted)

    def page(self, access: HostedAccess) -> tuple[Shell, Session]:
        page, session = page_on(self.hub)
        shell = Shell(page, self.store, "en", self.lock, access=access)
        access.current = lambda: shell.sid
        shell.table = self.table
        live.subscribe(shell)
        return shell, session


@pytest.fixture
async def server(target: str) -> Any:
    made = Server(target)
    before = registry.bar()
    registry.set_bar(screens.hosted_bar)  # as run_hosted sets it: the owner's bar
    yield made
    if before is not None:
        registry.set_bar(before)
    made.store.close()


def played(s: Server, nid: int) -> int:
    """Table 1 of tour 1 plays its two all-passes (each confirmed by another player) and the
    tour ends: only the director changes a deal from then on.  Table 1's session."""
    sid = s.club.session_of(nid, 1, 1)
    for table in (1, 2):
        at = s.club.session_of(nid, 1, table)
        first, second, _ = s.club.load(nid).tour(1).table(table).players
        for _ in range(2):
            stored = s.club.write_deal(
                nid, 1, table, RASP, by=first, seen=s.store.load(at).revision
            )
            deal_id = stored.journal.live[-1].deal_id
            s.club.confirm(nid, 1, table, deal_id, by=second)
    s.club.end_tour(nid, 1)
    return sid


def directed_night(s: Server, director: HostedAccess) -> int:
    """A night made as the nights screen makes it (its creation checked, its owner issued)."""
    director.require_director(None)
    nid = drawn_night(s.club, 6)
    director.made_night(nid)
    return nid


async def test_the_nights_owner_corrects_a_deal_from_his_screen(server: Server) -> None:
    s = server
    director = s.access("d" * 24)
    nid = directed_night(s, director)
    sid = played(s, nid)
    assert director.corrects(sid) and not director.corrects(s.store.create_session(["A", "B", "C"]))
    shell, session = s.page(director)
    shell.state.night = nid
    shell.show(director_screen)
    await fire(session, by_id(shell.page, "club-open-1"))
    assert shell.sid == sid and shell.screen is not None
    assert shell.screen.__name__ == "history_screen"
    # The table's own screens, as the LAN's host has them: back to the director, the note that
    # a change here is his correction; no PIN asked (he writes there as its director).
    assert {"club-director", "edit-1"} <= ids(shell.page)
    assert (
        "You direct this night: with no player chosen, a deal you change here is your "
        "correction (with a reason, in the journal)." in texts(shell.page)
    )
    assert "pin-open" not in ids(shell.page)
    assert [a.kind for a in s.store.history(sid)] == ["add", "add"]
    await correct_deal_1(shell, session, s.store, sid, "the protocol says 2 tricks")
    assert [c["reason"] for c in s.club.corrections(nid)] == ["the protocol says 2 tricks"]
    # The correction is confirmed as it is (no player confirms the director's word).
    assert [m.state for m in s.club.marks(sid)] == ["confirmed", "confirmed"]
    await fire(session, by_id(shell.page, "club-director"))
    assert "Tour 1, table 1, deal 1: the protocol says 2 tricks" in texts(shell.page)


async def test_nobody_else_corrects_a_deal_of_the_night(server: Server) -> None:
    s = server
    director = s.access("d" * 24)
    nid = directed_night(s, director)
    sid = played(s, nid)
    before = [a.kind for a in s.store.history(sid)]
    deal = s.store.load(sid).journal.live[0]
    rev = s.store.load(sid).revision
    fixed = deal.deal.model_copy(update={"tricks": {0: 2, 1: 4, 2: 4}})

    def attempts(shell: Shell) -> list[Refused | object]:
        """A correction, a void and an undo from this page, as the History's buttons send
        them (the club table's writer: a director's correction when the page corrects)."""
        via = writes(shell, sid)
        return [
            shell.session.edit(deal.deal_id, fixed, reason="mine", seen=rev, via=via),
            shell.session.void(deal.deal_id, reason="mine", seen=rev, via=via),
            shell.session.undo(seen=rev, via=via),
        ]

    # Another browser (its own device, no night's secret) that points its page at the table.
    stranger, _ = s.page(s.access("s" * 24, address="203.0.113.9"))
    stranger.sid = sid
    assert not stranger.access.may_write and not stranger.access.corrects(sid)
    assert all(r == Refused(SHARED_ONLY) for r in attempts(stranger))
    # The director's screen is not its: a sentence, no table to open.
    stranger.state.night = nid
    stranger.show(director_screen)
    assert "club-open-1" not in ids(stranger.page)
    assert by_id(stranger.page, "club-not-director").value == NOT_DIRECTOR

    # A phone at the table with its link and the table's own PIN writes as its player, never
    # as the director: after the tour, its change is refused as a player's.
    phone, _ = s.page(s.access("p" * 24, address="198.51.100.20"))
    join(phone, sid, s.grants.link(sid))
    pin = table_pin(s.store, sid)
    assert pin is not None and phone.access.enter(pin) is None
    assert phone.access.may_write and not phone.access.corrects(sid)
    number = s.club.load(nid).tour(1).table(1).players[0]
    s.club.claim_phone(nid, 1, 1, number, device=phone.access.device)
    ended = "tour 1 has ended: a deal at table 1 changes only by the director, with a reason"
    assert all(isinstance(r, Refused) and r.said == ended for r in attempts(phone))

    # The owner of a game (another kind of secret) and a page holding a forged night's secret.
    owner, _ = s.page(s.access("o" * 24))
    game = s.store.create_session(["Anna", "Boris", "Vera"])
    owner.access.made(game)
    owner.access.nights = {nid: owner.access.owned[game]}
    owner.sid = sid
    assert all(r == Refused(SHARED_ONLY) for r in attempts(owner))
    # The director himself, on a page opened by the table's link: a phone there, not the
    # director (his correction is made from his screen, the table opened there).
    at_table, _ = s.page(s.access("d" * 24))
    at_table.access.nights = dict(director.nights)
    join(at_table, sid, s.grants.link(sid))
    assert at_table.access.scope == sid and not at_table.access.corrects(sid)
    assert all(isinstance(r, Refused) for r in attempts(at_table))

    assert [a.kind for a in s.store.history(sid)] == before
    assert s.club.corrections(nid) == []
    with pytest.raises(NotAllowed) as refused:
        stranger.access.require_write(sid)
    assert refused.value.render("en") == SHARED_ONLY


async def test_a_night_is_handed_to_another_browser_with_a_one_time_code(server: Server) -> None:
    s = server
    director = s.access("d" * 24)
    nid = directed_night(s, director)
    sid = s.club.session_of(nid, 1, 1)
    old = director.nights[nid]
    # Only its director gets a code; a code is kept as its SHA-256, never as itself.
    assert s.owners.handover_code(nid, "x" * 22, kind="night") is None
    first = s.owners.handover_code(nid, old, kind="night")
    code = s.owners.handover_code(nid, old, kind="night")
    assert first is not None and code is not None and first != code
    ((kept,),) = s.store.backend.execute(
        "SELECT handover FROM night_owners WHERE night = ?", [nid]
    ).fetchall()
    assert kept == hashlib.sha256(code.encode()).hexdigest()
    # A table's hand-over is another namespace: the night's code takes no game of that
    # number, and a game's code no night.
    game = s.store.create_session(["Anna", "Boris", "Vera"])
    owner = s.access("o" * 24)
    owner.made(game)
    assert s.owners.take(game, code) is None
    table_code = s.owners.handover_code(game, owner.owned[game])
    assert table_code is not None and s.owners.take(nid, table_code, kind="night") is None
    # The newer code replaced the first; the new browser's page opens the code's address.
    newcomer = s.access("n" * 24, address="203.0.113.50")
    shell, _session = s.page(newcomer)
    screens.take(shell, nid, first, night=True)
    assert nid not in newcomer.nights and shell.screen is not None
    screens.take(shell, nid, code, night=True)
    assert shell.screen is not None and shell.screen.__name__ == "director_screen"
    assert shell.message == f"This phone directs club night {nid} now."
    assert newcomer.directs(nid) and newcomer.corrects(sid)
    assert {"club-open-1", "night-hand-over"} <= ids(shell.page)
    # The old owner's secret stops working: no director's action, no correction, no code.
    assert not director.directs(nid) and not director.corrects(sid)
    with pytest.raises(NotAllowed) as refused:
        director.require_director(nid)
    assert refused.value.render("en") == NOT_DIRECTOR
    assert s.owners.handover_code(nid, old, kind="night") is None
    # The code is used once: a third browser that opens it gets nothing.
    third, _ = s.page(s.access("t" * 24))
    screens.take(third, nid, code, night=True)
    assert third.access.nights == {} and not third.access.directs(nid)  # type: ignore[attr-defined]
    # The new director's browser keeps the night (its storage names it, checked in the database).
    again = s.access("n" * 24)
    again.held(newcomer.stored())
    assert again.directs(nid)
    stale = s.access("d" * 24)
    stale.held(director.stored())
    assert stale.nights == {}


async def test_the_hand_over_dialog_on_the_directors_screen(server: Server) -> None:
    s = server
    director = s.access("d" * 24)
    nid = directed_night(s, director)
    shell, session = s.page(director)
    shell.table = SimpleNamespace(
        gate=s.gate,
        grants=s.grants,
        sharing=SimpleNamespace(public=("https://scorepad.example.org",), addresses=[]),
    )
    shell.state.night = nid
    shell.show(director_screen)
    await fire(session, by_id(shell.page, "night-hand-over"))
    dialog = shell.page._dialogs.controls[-1]
    assert isinstance(dialog, ft.AlertDialog)
    assert dialog.title.value == "Hand the club night to another phone"
    url = "".join(t.value for t in by_id(dialog, "hand-over-url").controls)
    prefix = f"https://scorepad.example.org/take/night/{nid}/"
    assert url.startswith(prefix)
    code = url[len(prefix) :]
    assert s.owners.take(nid, code, kind="night") is not None  # the dialog's code takes it
    # A page that does not direct the night has no such button.
    other, _ = s.page(s.access("s" * 24))
    other.state.night = nid
    other.show(director_screen)
    assert "night-hand-over" not in ids(other.page)


def test_the_take_address_names_a_night_or_a_table() -> None:
    from scorepad.app.server.hosted import TAKE

    night = TAKE.fullmatch("/take/night/12/" + "A" * 22)
    table = TAKE.fullmatch("/take/12/" + "A" * 22)
    assert night is not None and night[1] is not None and night[2] == "12"
    assert table is not None and table[1] is None and table[2] == "12"
    assert TAKE.fullmatch("/take/nights/12/" + "A" * 22) is None
