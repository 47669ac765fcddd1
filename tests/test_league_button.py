"""**Publish to the league** on the director's view of an ended night (issue #39): shown once
the club has joined a league and the night has ended; it sends the night through the page's
session (the outbox of docs/league.md), queued while the league is away, sent when it is back.
On a real flet.Page (no client), a real SQLite club store and a real ``scorepad serve``."""

from __future__ import annotations

import threading
from pathlib import Path

import flet as ft
from support.flet_fakes import by_id, find, fire, make_page, type_into
from support.hosted_server import serving
from support.league import played_night
from support.table_server import free_port

import scorepad.app.frame.screens  # noqa: F401  (registers every screen)
from scorepad.app.club.director import director_screen
from scorepad.app.frame.shell import Shell
from scorepad.club.store import ClubStore
from scorepad.league.outbox import Outbox, outbox_path
from scorepad.league.store import LeagueStore
from scorepad.store import Store

NAMES = ["Anna", "Boris", "Vera", "Gleb", "Dina", "Egor"]


def shown(page: ft.Page, testid: str) -> bool:
    return bool(find(page, lambda c: isinstance(c, ft.Semantics) and c.identifier == testid))


async def test_the_director_publishes_an_ended_night_queued_then_sent(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    store = Store(db, check_same_thread=False)
    club = ClubStore(store)
    nid = played_night(club, NAMES, tours=2)
    still_open = club.create_night("Open", date=club.load(nid).date, tours=1, deals_per_tour=1)
    page, session, _ = make_page()
    shell = Shell(page, store, "en", threading.RLock())

    shell.state.night = nid
    shell.show(director_screen)
    assert not shown(page, "club-publish-league")  # no league joined: no button

    league_db = str(tmp_path / "league.db")
    with Store(league_db) as league_store:
        _, secret = LeagueStore(league_store).add_club("Sochi Club")
    with Outbox.open(outbox_path(db)) as box:
        box.join(f"http://127.0.0.1:{free_port()}", secret)  # the league is away
    shell.state.night = still_open
    shell.show(director_screen)
    assert not shown(page, "club-publish-league")  # the night has not ended
    shell.state.night = nid
    shell.show(director_screen)
    await fire(session, by_id(page, "club-publish-league"))
    said = by_id(page, "message").content.value
    assert said.startswith("1 night waits in the outbox: the league cannot be reached: "), said
    with Outbox.open(outbox_path(db)) as box:
        assert [q.night for q in box.queue] == [club.load(nid).uid]

    with serving(league_db, tmp_path) as url:
        with Outbox.open(outbox_path(db)) as box:
            box.join(url, secret)
        await type_into(session, by_id(page, "club-league-change"), "nothing, the first time")
        await fire(session, by_id(page, "club-publish-league"))
        assert by_id(page, "message").content.value == "Friday of 2026-12-04: published, version 1"
        await fire(session, by_id(page, "club-publish-league"))
        assert by_id(page, "message").content.value == "The league has this night already."
    with Store(league_db) as league_store:
        [held] = LeagueStore(league_store).nights()
    assert held.document == club.export_night(nid) and held.change is None
    store.close()
