"""Taps of the club screens no other test makes (the director's and the registry's, split into
functions of their own for #34): Cancel on the re-draw's question leaves the seating as drawn,
and a name of the roster checks its player in with one tap."""

from __future__ import annotations

import threading
from pathlib import Path

import flet as ft
from support.club_nights import drawn_night
from support.flet_fakes import by_id, find, fire, make_page

import scorepad.app.frame.screens  # noqa: F401  (registers every screen)
from scorepad.app.club.checkin import registry_screen
from scorepad.app.club.director import director_screen
from scorepad.app.frame.shell import Shell
from scorepad.club.store import ClubStore
from scorepad.store import Store


def _open_dialogs(page: ft.Page) -> list[ft.AlertDialog]:
    return [d for d in page._dialogs.controls if d.open]


async def test_cancel_on_the_redraws_question_leaves_the_seating(tmp_path: Path) -> None:
    store = Store(tmp_path / "club.db", check_same_thread=False)
    club = ClubStore(store)
    nid = drawn_night(club, 6)
    drawn = club.load(nid).tour(1).tables
    page, session, _ = make_page()
    shell = Shell(page, store, "en", threading.RLock())
    shell.state.night = nid
    shell.show(director_screen)
    await fire(session, by_id(page, "club-redraw"))
    (dialog,) = _open_dialogs(page)
    assert dialog.title.value == "Draw tour 1 again?"
    await fire(session, by_id(dialog, "cancel-redraw"))
    assert _open_dialogs(page) == []
    tour = club.load(nid).tour(1)
    assert tour.redraws == 0 and tour.tables == drawn
    assert by_id(page, "club-redraw").content == "Draw tour 1 again"
    store.close()


async def test_a_name_of_the_roster_checks_in_with_one_tap(tmp_path: Path) -> None:
    store = Store(tmp_path / "club.db", check_same_thread=False)
    club = ClubStore(store)
    nid = drawn_night(club, ("Anna", "Boris", "Vera"))
    store.add_player("Olga")  # known from an earlier game, not at tonight's door yet
    page, session, _ = make_page()
    shell = Shell(page, store, "en", threading.RLock())
    shell.state.night = nid
    shell.show(registry_screen)
    # The roster lists only who is not checked in.
    assert by_id(page, "club-roster-0").content == "Olga"
    await fire(session, by_id(page, "club-roster-0"))
    assert [(p.number, p.name) for p in club.load(nid).players][-1] == (4, "Olga")
    # The tour drawn has no deal yet: she is in it from the start, and off the roster.
    assert by_id(page, "club-player-4").value == "#4 Olga"
    assert (
        find(page, lambda c: isinstance(c, ft.Semantics) and c.identifier == "club-roster-0") == []
    )
    store.close()
