"""Issue #37, item 5: ending a tour asks first and names the tables short of their deals (the
CLI needs --yes for them, the director's view a dialog); the director reopens an ended tour
until the next tour's first deal (a next tour drawn but not begun has its draw withdrawn and
drawn again, from the same seed, when the tour ends)."""

from __future__ import annotations

import threading
from pathlib import Path

import flet as ft
import pytest
from support.club_nights import drawn_night
from support.flet_fakes import by_id, fire, make_page

import scorepad.app.frame.screens  # noqa: F401  (registers every screen)
from scorepad.app.club.director import director_screen
from scorepad.app.frame.shell import Shell
from scorepad.cli import main
from scorepad.club.errors import ClubError
from scorepad.club.store import ClubStore
from scorepad.core.i18n import catalog
from scorepad.store import Store

RASP = {"type": "raspasy", "tricks": {"0": 3, "1": 4, "2": 3}}


def _night(db: Path) -> int:
    """Six players, two tables of three, two deals a tour: table 1 plays both, table 2 one."""
    with Store(db) as store:
        club = ClubStore(store)
        nid = drawn_night(club, tours=3)
        for table, deals in ((1, 2), (2, 1)):
            _play(club, nid, 1, table, deals)
    return nid


def _play(club: ClubStore, nid: int, tour: int, table: int, deals: int) -> None:
    a, b, _ = club.load(nid).tour(tour).table(table).players
    sid = club.session_of(nid, tour, table)
    for _ in range(deals):
        club.write_deal(nid, tour, table, RASP, by=a, seen=club.store.load(sid).revision)
        club.confirm(nid, tour, table, club.store.load(sid).journal.live[-1].deal_id, by=b)


def _cli(capsys: pytest.CaptureFixture[str], db: Path, *args: object) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["club", *map(str, args), "--db", str(db), "--lang", "en"])
    out, err = capsys.readouterr()
    return code, out, err


def _dialog(page: ft.Page) -> ft.AlertDialog:
    """The dialog open on top (a closed one stays in the page, closed)."""
    dialog = [d for d in page._dialogs.controls if d.open][-1]
    assert isinstance(dialog, ft.AlertDialog)
    return dialog


def _state(db: Path, nid: int, tour: int) -> str:
    with Store(db) as store:
        return ClubStore(store).load(nid).tour(tour).state


def test_the_cli_ends_a_short_tour_only_with_yes_and_reopens_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "club.db"
    nid = _night(db)
    code, out, err = _cli(capsys, db, "end-tour", nid, 1)
    assert (code, out) == (2, "")
    assert err.strip().splitlines() == [
        "tour 1 has tables short of their deals; add --yes to end it as it stands:",
        "Table 2: 1 of 2 deals",
    ]
    assert _state(db, nid, 1) == "playing"  # nothing written
    assert _cli(capsys, db, "end-tour", nid, 1, "--yes")[0] == 0
    assert _state(db, nid, 1) == "ended"

    # Reopened, table 2 plays its second deal; the tour ends without a question now.
    code, out, _ = _cli(capsys, db, "reopen-tour", nid, 1)
    assert (code, out) == (0, "tour 1 is open again\n")
    assert _state(db, nid, 1) == "playing"
    with Store(db) as store:
        _play(ClubStore(store), nid, 1, 2, 1)
    assert _cli(capsys, db, "end-tour", nid, 1)[0] == 0

    # Tour 2 drawn but not begun: reopening tour 1 withdraws its draw, drawn alike again.
    _cli(capsys, db, "draw", nid)
    with Store(db) as store:
        first = ClubStore(store).load(nid).tour(2).tables
    code, out, _ = _cli(capsys, db, "reopen-tour", nid, 1)
    assert out.splitlines() == [
        "tour 1 is open again",
        "the draw of tour 2 is withdrawn: draw it again when tour 1 ends",
    ]
    with Store(db) as store:
        club = ClubStore(store)
        assert [t.number for t in club.load(nid).drawn] == [1]
        club.end_tour(nid, 1)
        club.draw(nid)
        again = club.load(nid).tour(2).tables
        assert [t.players for t in again] == [t.players for t in first]
        # Tour 2's first deal: tour 1 stays ended.
        _play(club, nid, 2, 1, 1)
        with pytest.raises(ClubError) as exc:
            club.reopen_tour(nid, 1)
        said = catalog("en").render(exc.value.message)
        assert said == "tour 1 cannot be reopened: the next tour has begun"
        assert catalog("ru").render(exc.value.message) != said
        with pytest.raises(ClubError) as exc:
            club.reopen_tour(nid, 2)
        assert catalog("en").render(exc.value.message) == "tour 2 has not ended"
        assert club.load(nid).tour(1).state == "ended"


async def test_the_director_is_asked_before_the_tour_ends_and_may_reopen_it(
    tmp_path: Path,
) -> None:
    db = tmp_path / "club.db"
    nid = _night(db)
    store = Store(db, check_same_thread=False)
    page, session, _ = make_page(1280, 800)
    shell = Shell(page, store, "en", threading.RLock())
    shell.state.night = nid
    shell.show(director_screen)
    await fire(session, by_id(page, "club-end-tour"))
    assert by_id(_dialog(page), "end-tour-note").value == (
        "These tables are short of their deals; their results count as they stand:"
    )
    assert by_id(_dialog(page), "end-tour-short-0").value == "Table 2: 1 of 2 deals"
    await fire(session, by_id(_dialog(page), "cancel-end-tour"))
    assert ClubStore(store).load(nid).tour(1).state == "playing"
    await fire(session, by_id(page, "club-end-tour"))
    await fire(session, by_id(_dialog(page), "confirm-end-tour"))
    assert ClubStore(store).load(nid).tour(1).state == "ended"
    assert by_id(page, "club-reopen-tour").content == "Reopen tour 1"

    await fire(session, by_id(page, "club-reopen-tour"))
    assert by_id(_dialog(page), "reopen-note").value == (
        "Its tables write and change deals again until it ends."
    )
    await fire(session, by_id(_dialog(page), "confirm-reopen-tour"))
    assert ClubStore(store).load(nid).tour(1).state == "playing"
    _play(ClubStore(store), nid, 1, 2, 1)
    shell.show(director_screen)
    await fire(session, by_id(page, "club-end-tour"))
    assert by_id(_dialog(page), "end-tour-note").value == "Every table has played its deals."
    await fire(session, by_id(_dialog(page), "confirm-end-tour"))
    assert ClubStore(store).load(nid).tour(1).state == "ended"
    store.close()
