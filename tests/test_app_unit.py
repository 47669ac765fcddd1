"""The app's screens against a real Flet Page (no browser): handlers, what is shown, refusals."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import flet as ft
import pytest
from flet_fakes import by_id, find, fire, make_page, texts, type_into

from scorepad.app.history import PAGE
from scorepad.app.sessions import sessions_screen
from scorepad.app.shell import Shell
from scorepad.generate import RandomChooser, random_session
from scorepad.i18n import catalog
from scorepad.store import Store


@pytest.fixture
def app(tmp_path: Path) -> Iterator[tuple[Shell, object, Store]]:
    page, session, _conn = make_page()
    with Store(tmp_path / "app.db", check_same_thread=False) as store:
        shell = Shell(page, store, "en", threading.RLock())
        shell.show(sessions_screen)
        yield shell, session, store


async def new_session(shell: Shell, session: object, names: list[str]) -> None:
    await fire(session, by_id(shell.page, "session-new"))
    if len(names) == 4:
        await fire(session, by_id(shell.page, "players-4"))
    for i, name in enumerate(names):
        await type_into(session, by_id(shell.page, f"player-{i}"), name)
    await fire(session, by_id(shell.page, "create-session"))


async def test_create_a_session_and_write_a_deal(app: tuple[Shell, object, Store]) -> None:
    shell, session, store = app
    await new_session(shell, session, ["Anna", "Boris", "Vera"])
    assert "Deal 1: Anna deals, Boris leads." in texts(shell.page)
    for ident in ("declarer-1", "level-7", "trump-S", "call-whist", "call-pass"):
        await fire(session, by_id(shell.page, ident))
    for _ in range(3):
        await fire(session, by_id(shell.page, "tricks-2-plus"))
    assert "Boris made 7♠: 4 into the pulya." in texts(shell.page)
    await fire(session, by_id(shell.page, "confirm-deal"))
    assert "Deal 2: Boris deals, Vera leads." in texts(shell.page)
    stored = store.load(store.sessions()[0].id)
    assert stored.session.deals[0].model_dump(mode="json", exclude_defaults=True) == {
        "type": "game",
        "declarer": 1,
        "contract": "7S",
        "calls": ["whist"],
        "tricks": {"1": 7, "2": 3, "0": 0},
    }
    await fire(session, by_id(shell.page, "nav-sheet"))
    assert by_id(shell.page, "sheet-picture") is not None  # the paper drawing first
    await fire(session, by_id(shell.page, "sheet-table-view"))
    assert sorted(texts(by_id(shell.page, "pool-1"))) == [
        "4",
        "Pulya",
    ]  # a phone: one card a player
    await fire(session, by_id(shell.page, "nav-settle"))
    assert by_id(shell.page, "balance-1").value == "Boris: 14⅔ whists, RUB\u00a014.67"
    await fire(session, by_id(shell.page, "nav-chart"))
    chart = by_id(shell.page, "chart")
    assert [pt.y for pt in chart.data_series[1].points] == [44 / 3]  # Boris after deal 1


async def test_a_bad_name_is_refused_on_screen_and_nothing_is_written(
    app: tuple[Shell, object, Store],
) -> None:
    shell, session, store = app
    await new_session(shell, session, ["Anna", "", "Vera"])
    assert (
        "players.1: a player name must not be empty" in by_id(shell.page, "message").content.value
    )
    assert store.sessions() == []


async def test_raspasy_series_shown_and_history_void_undo(app: tuple[Shell, object, Store]) -> None:
    shell, session, _store = app
    await new_session(shell, session, ["Anna", "Boris", "Vera"])
    await fire(session, by_id(shell.page, "kind-raspasy"))
    for seat in (1, 2):
        for _ in range(3):
            await fire(session, by_id(shell.page, f"tricks-{seat}-plus"))
    await fire(session, by_id(shell.page, "confirm-deal"))
    assert by_id(shell.page, "raspasy-series").value == (
        "All-passes in a row: 1. A contract of 6 or higher ends the series."
    )
    await fire(session, by_id(shell.page, "nav-history"))
    assert "Anna took 1 trick: 1 × 1 = 1 into the gora." in texts(
        shell.page
    )  # 3, 3 and the rest, 4
    await fire(session, by_id(shell.page, "void-1"))
    dialog = shell.page._dialogs.controls[-1] if hasattr(shell.page, "_dialogs") else None
    assert dialog is not None
    reason = by_id(dialog, "void-reason")
    await type_into(session, reason, "misdeal")
    await fire(session, by_id(dialog, "confirm-void"))
    # the voided deal stays in History, struck through, with its reason
    assert sorted(texts(by_id(shell.page, "voided-1"))) == [
        "Voided deal: All pass",
        "deal 1 was voided (misdeal)",
    ]  # sorted: capitals first
    assert "Anna took 1 trick: 1 × 1 = 1 into the gora." not in texts(shell.page)
    await fire(session, by_id(shell.page, "undo"))
    assert "Deal 1 · All pass" in texts(shell.page)
    await fire(session, by_id(shell.page, "redo"))
    await fire(session, by_id(shell.page, "restore-1"))  # a restore, as an action of its own
    assert "Deal 1 · All pass" in texts(shell.page)
    assert "Anna took 1 trick: 1 × 1 = 1 into the gora." in texts(shell.page)
    assert [a.kind for a in _store.history(_store.sessions()[0].id)] == [
        "add",
        "void",
        "undo",
        "redo",
        "restore",
    ]


async def test_edit_a_past_deal_with_a_reason_then_undo(app: tuple[Shell, object, Store]) -> None:
    shell, session, store = app
    await new_session(shell, session, ["Anna", "Boris", "Vera"])
    for ident in ("declarer-1", "level-7", "trump-S", "call-whist", "call-pass"):
        await fire(session, by_id(shell.page, ident))
    await fire(session, by_id(shell.page, "confirm-deal"))
    await fire(session, by_id(shell.page, "kind-raspasy"))
    await fire(session, by_id(shell.page, "tricks-2-plus"))
    await fire(session, by_id(shell.page, "confirm-deal"))
    await fire(session, by_id(shell.page, "nav-history"))
    await fire(session, by_id(shell.page, "edit-1"))
    assert (
        by_id(shell.page, "editing").value == "Editing deal 1: the later deals are checked again."
    )
    assert "Deal 1: Anna deals, Boris leads." in texts(shell.page)  # the deal's own context
    await fire(session, by_id(shell.page, "tricks-1-minus"))  # Boris took 6, not 7
    await fire(session, by_id(shell.page, "confirm-deal"))
    assert "an edit or a void needs a reason" in by_id(shell.page, "message").content.value
    await type_into(session, by_id(shell.page, "edit-reason"), "miscounted")
    await fire(session, by_id(shell.page, "confirm-deal"))
    assert "Boris failed 7♠, down 1: 4 into the gora." in texts(shell.page)  # back in the history
    assert "deal 1 was edited (miscounted)" in texts(shell.page)  # the card's own number
    sid = store.sessions()[0].id
    assert [a.kind for a in store.history(sid)] == ["add", "add", "edit"]
    assert store.history(sid)[-1].reason == "miscounted"
    await fire(session, by_id(shell.page, "undo"))
    assert "Boris made 7♠: 4 into the pulya." in texts(shell.page)


async def test_roster_language_and_open_play(app: tuple[Shell, object, Store]) -> None:
    shell, session, store = app
    store.create_session(["Anna", "Boris", "Vera"])
    shell.show(sessions_screen)
    await fire(session, by_id(shell.page, "language"))
    assert "Новая пулька" in [c.content for c in find_buttons(shell.page)]
    await fire(session, by_id(shell.page, "language"))
    await fire(session, by_id(shell.page, "session-new"))
    for _ in range(3):
        await fire(session, by_id(shell.page, "roster-0"))  # the first name not yet seated
    assert [by_id(shell.page, f"player-{i}").value for i in range(3)] == ["Anna", "Boris", "Vera"]
    await fire(session, by_id(shell.page, "create-session"))
    for ident in ("declarer-1", "level-6", "trump-S", "call-whist", "call-pass"):
        await fire(session, by_id(shell.page, ident))
    open_play = by_id(shell.page, "open-play")
    session.apply_patch(open_play._i, {"value": True})
    await fire(session, open_play, "change", "true")
    assert shell.form is not None and shell.form.to_deal()["open"] is True


def find_buttons(root: object) -> list[object]:
    import flet as ft
    from flet_fakes import find

    return find(root, lambda c: isinstance(c, ft.FilledButton | ft.OutlinedButton | ft.TextButton))


async def test_import_refuses_a_bad_file_then_imports_and_exports(
    app: tuple[Shell, object, Store],
) -> None:
    import json

    from conftest import session as session_file

    shell, session, store = app
    good = session_file([{"type": "raspasy", "tricks": {"0": 3, "1": 3, "2": 4}}])
    bad = session_file([{"type": "raspasy", "tricks": {"0": 3, "1": 3, "2": 5}}])
    for text in (json.dumps(bad), json.dumps(good)):
        await fire(session, by_id(shell.page, "session-import"))
        dialog = shell.page._dialogs.controls[-1]
        await type_into(session, by_id(dialog, "import-text"), text)
        await fire(session, by_id(dialog, "confirm-import"))
    assert len(store.sessions()) == 1  # the bad file wrote nothing
    assert "Deal 2: Boris deals, Vera leads." in texts(shell.page)
    await fire(session, by_id(shell.page, "nav-sessions"))
    sid = store.sessions()[0].id
    await fire(session, by_id(shell.page, f"session-export-{sid}"))
    exported = by_id(shell.page._dialogs.controls[-1], "export-text").controls[0].value
    assert exported == store.export_session(sid)


async def test_a_long_history_shows_a_page_of_deals_and_earlier_pages_on_request(
    app: tuple[Shell, object, Store],
) -> None:
    shell, session, store = app
    data = random_session(RandomChooser(12), deals=2 * PAGE + 20)
    sid = store.import_session(json.dumps(data))
    shell.show(sessions_screen)
    await fire(session, by_id(shell.page, f"session-open-{sid}"))
    await fire(session, by_id(shell.page, "nav-history"))
    scored = store.load(sid).scored
    en = catalog("en")

    def shown() -> list[int]:
        return [n for n in range(1, 2 * PAGE + 21) if find_id(shell.page, f"deal-{n}")]

    assert shown() == list(range(PAGE + 21, 2 * PAGE + 21))  # the newest page only
    last = by_id(shell.page, f"deal-{2 * PAGE + 20}")
    assert sorted(texts(last)) == sorted(  # (the order of a tree walk)
        [f"Deal {2 * PAGE + 20}", *(en.render(m) for m in scored.deals[-1].writing.explain or ())]
    )
    await fire(session, by_id(shell.page, "history-earlier"))
    assert shown() == list(range(21, 2 * PAGE + 21))
    await fire(session, by_id(shell.page, "history-earlier"))
    assert shown() == list(range(1, 2 * PAGE + 21))
    assert find_id(shell.page, "history-earlier") is None  # nothing earlier than deal 1
    first = by_id(shell.page, "deal-1")
    assert sorted(texts(first)) == sorted(
        ["Deal 1", *(en.render(m) for m in scored.deals[0].writing.explain or ())]
    )


def find_id(root: object, identifier: str) -> object | None:
    found = find(root, lambda c: isinstance(c, ft.Semantics) and c.identifier == identifier)
    return found[0].content if found else None
