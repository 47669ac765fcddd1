"""The club screens on a real flet.Page (no client): a night created, players checked in at the
door, a tour drawn, the director's view of the tables, the seating's QR codes, the standings."""

from __future__ import annotations

import asyncio
import io
import threading
from pathlib import Path

import flet as ft
import pytest
import zxingcpp
from PIL import Image
from support.club_nights import SIX
from support.flet_fakes import by_id, find, fire, make_page, texts, type_into

import scorepad.app.frame.screens  # noqa: F401  (registers every screen)
from scorepad.app.club.nights import nights_screen
from scorepad.app.frame.shell import Shell
from scorepad.app.server.grants import Grants
from scorepad.club.store import ClubStore, table_pin
from scorepad.store import Store


async def test_a_night_from_the_door_to_the_standings(tmp_path: Path) -> None:
    store = Store(tmp_path / "club.db", check_same_thread=False)
    page, session, _ = make_page()
    shell = Shell(page, store, "en", threading.RLock())
    shell.show(nights_screen)
    await type_into(session, by_id(page, "night-name"), "Friday")
    await type_into(session, by_id(page, "night-tours"), "2")
    await type_into(session, by_id(page, "night-deals"), "1")
    await fire(session, by_id(page, "create-night"))
    assert shell.state.night == 1
    assert "No tour is drawn yet." in texts(page)

    await fire(session, by_id(page, "club-registry"))
    for name in ("Anna", "Boris", "Vera", "Gleb", "Dima", "Zoya"):
        await type_into(session, by_id(page, "club-name"), name)
        await fire(session, by_id(page, "club-check-in"))
    assert by_id(page, "club-player-6").value == "#6 Zoya"
    # A player checked in twice: the sentence on screen, nothing written.
    await type_into(session, by_id(page, "club-name"), "anna")
    await fire(session, by_id(page, "club-check-in"))
    assert by_id(page, "message").content.value == "'Anna' is already checked in as number 1"
    assert len(ClubStore(store).load(1).players) == 6

    await fire(session, by_id(page, "club-back"))
    await fire(session, by_id(page, "club-draw"))
    first = ClubStore(store).load(1).tour(1)
    # A re-draw asks first; before the tour's first deal it seats the tour again.
    await fire(session, by_id(page, "club-redraw"))
    await fire(session, by_id(page, "confirm-redraw"))
    night = ClubStore(store).load(1)
    assert night.tour(1).redraws == 1 and night.tour(1).tables != first.tables
    assert by_id(page, "club-table-1").value.startswith(
        "Table 1: 0 deals, no deal yet; 0 to confirm"
    )
    # A deal written at table 1 shows at once in the director's view.
    club = ClubStore(store)
    tab = night.tour(1).table(1)
    club.write_deal(1, 1, 1, SIX, by=tab.players[0], seen=0)
    await fire(session, by_id(page, "club-seating"))
    await fire(session, by_id(page, "club-back"))
    assert not find(page, lambda c: isinstance(c, ft.Semantics) and c.identifier == "club-redraw")
    assert by_id(page, "club-table-1").value.startswith("Table 1: 1 deal, done; 1 to confirm")
    # The end of the tour waits for the confirmation and the other table.
    await fire(session, by_id(page, "club-end-tour"))
    await fire(session, by_id(page, "confirm-end-tour"))
    assert by_id(page, "message").content.value == "tour 1 cannot end: table 2 has no result"

    await fire(session, by_id(page, "club-seating"))
    qr = by_id(page, "club-qr-1")
    image = Image.open(io.BytesIO(qr.src if isinstance(qr.src, bytes) else bytes(qr.src)))
    sid = club.session_of(1, 1, 1)
    # The table's own join link, with its token (a link without it opens nothing), and its PIN.
    link = Grants(store.db, shell.session.lock).link(sid)
    assert [c.text for c in zxingcpp.read_barcodes(image)] == [
        f"http://127.0.0.1:8550/join/{sid}/{link}"
    ]
    assert by_id(page, "club-pin-1").value == (
        f"Table PIN (needed to write): {table_pin(store, sid)}"
    )
    assert len(table_pin(store, sid) or "") == 6
    await fire(session, by_id(page, "club-back"))
    await fire(session, by_id(page, "club-standings"))
    assert f"Friday, {night.date.isoformat()}: standings, no tour ended yet" in texts(page)
    assert by_id(page, "club-rank-1").value.startswith("1. #")
    store.close()


def _live_page() -> tuple[ft.Page, object]:
    page, session, _ = make_page()
    session.connection.loop = asyncio.get_running_loop()
    return page, session


async def test_the_live_standings_link_is_read_only_and_needs_its_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import datetime

    from scorepad.app.club import public
    from scorepad.app.club.public import STANDINGS, public_standings

    monkeypatch.setattr(public, "REFRESH", 0.05)

    store = Store(tmp_path / "club.db", check_same_thread=False)
    club = ClubStore(store)
    nid = club.create_night(
        "Friday", date=datetime.date(2026, 12, 4), tours=1, deals_per_tour=1, seed=2
    )
    other = club.create_night(
        "Saturday", date=datetime.date(2026, 12, 5), tours=1, deals_per_tour=1
    )
    for name in ("Anna", "Boris", "Vera"):
        club.check_in(nid, name)
    club.draw(nid)
    token = club.standings_token(nid)
    assert club.standings_token(nid) == token  # made once
    assert len(token) == 22 and token != club.standings_token(other)
    assert STANDINGS.fullmatch(f"/club/{token}")[1] == token  # type: ignore[index]
    page, _session = _live_page()
    public_standings(page, store, "en", threading.RLock(), token)
    shown = texts(page)
    assert "Friday, 2026-12-04: standings, no tour ended yet" in shown
    assert by_id(page, "club-public-1").value.startswith("1. #")
    # Nothing to tap: the page only shows.
    assert not [c for c in find(page, lambda c: isinstance(c, ft.Button | ft.TextField))]
    # A deal written at the table shows on the page by itself (its next redraw).
    assert "(T1 " not in by_id(page, "club-public-1").value
    tab = club.load(nid).tour(1).table(1)
    club.write_deal(nid, 1, 1, SIX, by=tab.players[0], seen=0)
    for _ in range(400):  # wait for the state (at most 20 s), not for a time
        if "(T1 " in by_id(page, "club-public-1").value:
            break
        await asyncio.sleep(0.05)
    assert "(T1 " in by_id(page, "club-public-1").value
    page.controls = []  # the page moves on: its redraws stop
    for wrong in (token[:-1] + ("A" if token[-1] != "A" else "B"), "x", "../../etc"):
        page3, _s3 = _live_page()
        public_standings(page3, store, "ru", threading.RLock(), wrong)
        assert by_id(page3, "club-public-missing").value == "По этой ссылке нет вечера."
        page3.controls = []
    store.close()
