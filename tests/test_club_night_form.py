"""Issue #37, item 10: the new-night form keeps what was typed when a field is refused, offers
the documented scoring presets (and custom syntax), asks the convention, the date and the table
size, and the director's view shows the night's settings."""

from __future__ import annotations

import datetime as dt
import threading
from pathlib import Path

import flet as ft
from support.flet_fakes import by_id, fire, make_page, type_into

import scorepad.app.frame.screens  # noqa: F401  (registers every screen)
from scorepad.app.club.nights import nights_screen
from scorepad.app.frame.shell import Shell
from scorepad.club.scoring import Whists
from scorepad.club.store import ClubStore
from scorepad.store import Store


async def choose(session: object, control: ft.Dropdown, value: str) -> None:
    session.apply_patch(control._i, {"value": value})  # type: ignore[attr-defined]
    await fire(session, control, "select", value)  # type: ignore[arg-type]


async def test_the_form_keeps_what_was_typed_and_the_director_sees_the_settings(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path / "club.db", check_same_thread=False)
    page, session, _ = make_page()
    shell = Shell(page, store, "en", threading.RLock())
    shell.show(nights_screen)
    assert by_id(page, "night-date").value == dt.date.today().isoformat()
    await type_into(session, by_id(page, "night-name"), "Friday")
    await type_into(session, by_id(page, "night-date"), "next friday")
    await type_into(session, by_id(page, "night-tours"), "2")
    await choose(session, by_id(page, "night-convention"), "leningrad")
    await choose(session, by_id(page, "night-seats"), "4")
    await choose(session, by_id(page, "night-preset"), "whists")
    assert by_id(page, "night-scoring").value == "whists"
    await fire(session, by_id(page, "create-night"))
    assert by_id(page, "message").content.value == ("'next friday' is not a date like 2026-12-01")
    # Refused: every field as it was typed or chosen.
    assert by_id(page, "night-name").value == "Friday"
    assert by_id(page, "night-tours").value == "2"
    assert by_id(page, "night-convention").value == "leningrad"
    assert by_id(page, "night-seats").value == "4"
    assert by_id(page, "night-scoring").value == "whists"
    await type_into(session, by_id(page, "night-deals"), "0")
    await type_into(session, by_id(page, "night-date"), "2026-12-04")
    await fire(session, by_id(page, "create-night"))
    # The field said as the form names it, the bound in words (not pydantic's field id).
    assert by_id(page, "message").content.value == (
        "the night is refused at deals a tour: it must be at least 1"
    )
    assert by_id(page, "night-date").value == "2026-12-04"
    assert ClubStore(store).nights() == []
    await type_into(session, by_id(page, "night-deals"), "6")
    await fire(session, by_id(page, "create-night"))
    club = ClubStore(store)
    [(nid, name, date)] = club.nights()
    night = club.load(nid)
    assert (name, date, night.convention, night.seats, night.tours) == (
        "Friday",
        "2026-12-04",
        "leningrad",
        4,
        2,
    )
    assert night.deals_per_tour == 6 and night.scoring == Whists()
    assert by_id(page, "club-settings").value == (
        "Leningrad, 2026-12-04; 6 deals a tour; Tables of 4 only (the rest have a bye); "
        "scoring: Whists: a player's balance at his table"
    )
    store.close()
