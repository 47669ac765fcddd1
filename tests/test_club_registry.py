"""Issue #37, items 6 and 11: a withdrawal asks first and can be taken back; checking the same
person in again brings him back with his number and record (no second "Petr" in the
registry, the standings, the PDF or the live page); Enter in the name field checks in."""

from __future__ import annotations

import threading
from pathlib import Path

import flet as ft
import pytest
from support.club_nights import drawn_night
from support.flet_fakes import by_id, fire, make_page, type_into

import scorepad.app.frame.screens  # noqa: F401  (registers every screen)
from scorepad.app.club.checkin import registry_screen
from scorepad.app.frame.shell import Shell
from scorepad.cli import main
from scorepad.club.errors import ClubError
from scorepad.club.store import ClubStore
from scorepad.core.i18n import catalog
from scorepad.store import Store

RASP = {"type": "raspasy", "tricks": {"0": 3, "1": 4, "2": 3}}


def _night(db: Path) -> int:
    """Nine players, Petr number 7; tour 1 played (three tables of three) and ended."""
    with Store(db) as store:
        club = ClubStore(store)
        nid = drawn_night(
            club,
            ("Anna", "Boris", "Vera", "Gleb", "Dima", "Zoya", "Petr", "Olga", "Ivan"),
            tours=3,
            deals=1,
        )
        for tab in club.load(nid).tour(1).tables:
            sid = club.session_of(nid, 1, tab.number)
            club.write_deal(nid, 1, tab.number, RASP, by=tab.players[0], seen=0)
            club.confirm(
                nid, 1, tab.number, store.load(sid).journal.live[0].deal_id, by=tab.players[1]
            )
        club.end_tour(nid, 1)
    return nid


def _cli(capsys: pytest.CaptureFixture[str], db: Path, *args: object) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["club", *map(str, args), "--db", str(db), "--lang", "en"])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_withdrawn_player_checked_in_again_comes_back_with_his_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "club.db"
    nid = _night(db)
    code, out, _ = _cli(capsys, db, "withdraw", nid, 7)
    assert out == "#7 Petr plays no tour after tour 1\n"
    code, out, _ = _cli(capsys, db, "check-in", nid, "petr ")
    assert (code, out) == (0, "#7 Petr is back: plays again from tour 2\n")
    with Store(db) as store:
        club = ClubStore(store)
        night = club.load(nid)
        assert [p.number for p in night.players] == [1, 2, 3, 4, 5, 6, 7, 8, 9]
        assert night.player(7).last_tour is None and night.player(7).plays(2)
        rows = [s for s in club.standings(nid) if s.name == "Petr"]
        assert len(rows) == 1 and [x.tour for x in rows[0].tours] == [1]
        assert not rows[0].withdrawn
        # Checked in again while playing: the duplicate check, as before.
        with pytest.raises(ClubError) as exc:
            club.check_in(nid, "Petr")
        assert catalog("en").render(exc.value.message) == (
            "'Petr' is already checked in as number 7"
        )
        club.draw(nid)
        assert 7 in {n for t in club.load(nid).tour(2).tables for n in t.players}

    # Withdrawn again before tour 2's first deal, then taken back by his number: his seat in
    # tour 2 (drawn, not begun) is his again.
    _cli(capsys, db, "withdraw", nid, 7)
    code, out, _ = _cli(capsys, db, "come-back", nid, 7)
    assert (code, out) == (0, "#7 Petr is back: plays again from tour 2\n")
    code, out, err = _cli(capsys, db, "come-back", nid, 3)
    assert (code, out, err.strip()) == (2, "", "number 3 has not withdrawn")


def _dialog(page: ft.Page) -> ft.AlertDialog:
    dialog = [d for d in page._dialogs.controls if d.open][-1]
    assert isinstance(dialog, ft.AlertDialog)
    return dialog


async def test_the_registry_asks_before_a_withdrawal_brings_back_and_checks_in_on_enter(
    tmp_path: Path,
) -> None:
    db = tmp_path / "club.db"
    nid = _night(db)
    store = Store(db, check_same_thread=False)
    club = ClubStore(store)
    page, session, _ = make_page()
    shell = Shell(page, store, "en", threading.RLock())
    shell.state.night = nid
    shell.show(registry_screen)
    await fire(session, by_id(page, "club-withdraw-7"))
    assert _dialog(page).title.value == "Withdraw #7 Petr?"
    assert by_id(_dialog(page), "withdraw-note").value.startswith(
        "The player keeps the tours played and is not drawn after tour 1;"
    )
    await fire(session, by_id(_dialog(page), "cancel-withdraw"))
    assert club.load(nid).player(7).last_tour is None
    await fire(session, by_id(page, "club-withdraw-7"))
    await fire(session, by_id(_dialog(page), "confirm-withdraw"))
    assert club.load(nid).player(7).last_tour == 1
    assert by_id(page, "club-player-7").value == "#7 Petr (withdrawn)"
    await fire(session, by_id(page, "club-come-back-7"))
    assert club.load(nid).player(7).last_tour is None
    assert by_id(page, "club-player-7").value == "#7 Petr"

    # Enter in the name field checks the player in.
    await type_into(session, by_id(page, "club-name"), "Lev")
    await fire(session, by_id(page, "club-name"), "submit")
    assert club.load(nid).player(10).name == "Lev"
    assert by_id(page, "club-player-10").value == "#10 Lev (from tour 2)"
    store.close()
