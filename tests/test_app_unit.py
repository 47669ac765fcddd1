"""The app's screens against a real Flet Page (no browser): handlers, what is shown, refusals."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import flet as ft
import pytest
from support.flet_fakes import by_id, find, fire, make_page, navigate, shown_lines, texts, type_into

from scorepad.app.frame.screens import sessions_screen
from scorepad.app.frame.shell import Shell
from scorepad.app.screens.history import PAGE
from scorepad.core.i18n import catalog
from scorepad.report.pulya import deal_title
from scorepad.store import Store
from scorepad.testing.generate import RandomChooser, random_session


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
    for ident in ("declarer-1", "contract-7S", "call-whist", "call-pass"):
        await fire(session, by_id(shell.page, ident))
    assert by_id(shell.page, "tricks-0").value == "—"  # no count until one is chosen
    assert by_id(shell.page, "confirm-deal").disabled
    await fire(session, by_id(shell.page, "tricks-1-7"))  # one tap: Boris took 7
    await fire(session, by_id(shell.page, "tricks-2-3"))  # one tap: Vera took 3
    assert by_id(shell.page, "tricks-0").value == "0"  # Anna, the rest
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
    await navigate(session, shell.page, "nav-sheet")
    assert by_id(shell.page, "sheet-picture") is not None  # the paper drawing first
    await fire(session, by_id(shell.page, "sheet-table-view"))
    assert sorted(texts(by_id(shell.page, "pool-1"))) == [
        "4",
        "Pulya",
    ]  # a phone: one card a player
    await navigate(session, shell.page, "nav-settle")
    assert by_id(shell.page, "balance-1").value == "Boris: 14⅔ whists, RUB\u00a014.67"
    await navigate(session, shell.page, "nav-chart")
    chart = by_id(shell.page, "chart")
    assert [pt.y for pt in chart.data_series[1].points] == [44 / 3]  # Boris after deal 1


async def test_a_bad_name_is_refused_on_screen_and_nothing_is_written(
    app: tuple[Shell, object, Store],
) -> None:
    shell, session, store = app
    await new_session(shell, session, ["Anna", "", "Vera"])
    assert by_id(shell.page, "player-1").error == "every player needs a name"
    # The banner names the seat (issue 38 item 8), the field's own error needs not.
    said = "Player 2: every player needs a name"
    assert by_id(shell.page, "message").content.value == said
    assert semantics(shell.page, "message").label == said  # read out
    assert store.sessions() == []


async def test_raspasy_series_shown_and_history_void_undo(app: tuple[Shell, object, Store]) -> None:
    shell, session, _store = app
    await new_session(shell, session, ["Anna", "Boris", "Vera"])
    await fire(session, by_id(shell.page, "kind-raspasy"))
    for seat in (1, 2):
        await fire(session, by_id(shell.page, f"tricks-{seat}-3"))
    await fire(session, by_id(shell.page, "confirm-deal"))
    assert by_id(shell.page, "raspasy-series").value == (
        "All-passes in a row: 1. A contract of 6 or higher ends the series."
    )
    await navigate(session, shell.page, "nav-history")
    assert "Anna took 1 trick: 1 × 1 = 1 into the gora." in shown_lines(
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
        "Deal 1 · All pass",  # its number kept, struck through
        "deal 1 was voided (misdeal)",
    ]  # sorted: capitals first
    assert "Anna took 1 trick: 1 × 1 = 1 into the gora." not in shown_lines(shell.page)
    await fire(session, by_id(shell.page, "undo"))
    assert "Deal 1 · All pass" in texts(shell.page)
    await fire(session, by_id(shell.page, "redo"))
    await fire(session, by_id(shell.page, "restore-1"))  # asked first, as a void is
    dialog = shell.page._dialogs.controls[-1]
    assert sorted(texts(dialog)) == [  # sorted: capitals first
        "Deal 1 · All pass",
        "Restore deal 1?",
        "deal 1 was voided (misdeal)",
    ]
    assert [a.kind for a in _store.history(_store.sessions()[0].id)][-1] == "redo"
    await fire(session, by_id(dialog, "confirm-restore"))  # a restore, as an action of its own
    assert "Deal 1 · All pass" in texts(shell.page)
    assert "Anna took 1 trick: 1 × 1 = 1 into the gora." in shown_lines(shell.page)
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
    for ident in ("declarer-1", "contract-7S", "call-whist", "call-pass", "tricks-1-7"):
        await fire(session, by_id(shell.page, ident))
    await fire(session, by_id(shell.page, "tricks-2-3"))
    await fire(session, by_id(shell.page, "confirm-deal"))
    await fire(session, by_id(shell.page, "kind-raspasy"))
    await fire(session, by_id(shell.page, "tricks-2-1"))
    await fire(session, by_id(shell.page, "tricks-0-0"))
    await fire(session, by_id(shell.page, "confirm-deal"))
    await navigate(session, shell.page, "nav-history")
    await fire(session, by_id(shell.page, "edit-1"))
    assert (
        by_id(shell.page, "editing").value == "Editing deal 1: the later deals are checked again."
    )
    assert "Deal 1: Anna deals, Boris leads." in texts(shell.page)  # the deal's own context
    await fire(session, by_id(shell.page, "tricks-1-6"))  # Boris took 6, not 7
    assert by_id(shell.page, "confirm-deal").disabled  # no reason yet
    await fire(session, by_id(shell.page, "confirm-deal"))  # the handler refuses it too
    assert "an edit or a void needs a reason" in by_id(shell.page, "message").content.value
    await type_into(session, by_id(shell.page, "edit-reason"), "miscounted")
    assert not by_id(shell.page, "confirm-deal").disabled
    await fire(session, by_id(shell.page, "confirm-deal"))
    assert "Boris failed 7♠, down 1: 4 into the gora." in shown_lines(
        shell.page
    )  # back in the history
    assert "deal 1 was edited (miscounted)" in shown_lines(shell.page)  # the card's own number
    sid = store.sessions()[0].id
    assert [a.kind for a in store.history(sid)] == ["add", "add", "edit"]
    assert store.history(sid)[-1].reason == "miscounted"
    await fire(session, by_id(shell.page, "undo"))
    assert "Boris made 7♠: 4 into the pulya." in shown_lines(shell.page)


async def choose_language(session: Any, shell: Shell, code: str) -> None:
    language = by_id(shell.page, "language")
    session.apply_patch(language._i, {"value": code})
    await fire(session, language, "select", code)


async def test_roster_language_and_open_play(app: tuple[Shell, object, Store]) -> None:
    shell, session, store = app
    store.create_session(["Anna", "Boris", "Vera"])
    shell.show(sessions_screen)
    await choose_language(session, shell, "ru")
    assert "Новая пулька" in [c.content for c in find_buttons(shell.page)]
    await choose_language(session, shell, "en")
    await fire(session, by_id(shell.page, "session-new"))
    for k in range(3):
        await fire(session, by_id(shell.page, f"roster-{k}"))  # into the first empty seat
    assert [by_id(shell.page, f"player-{i}").value for i in range(3)] == ["Anna", "Boris", "Vera"]
    await fire(session, by_id(shell.page, "create-session"))
    for ident in ("declarer-1", "contract-6S", "call-whist", "call-pass"):
        await fire(session, by_id(shell.page, ident))
    open_play = by_id(shell.page, "open-play")
    session.apply_patch(open_play._i, {"value": True})
    await fire(session, open_play, "change", "true")
    assert shell.form is not None and shell.form.to_deal()["open"] is True


def semantics(root: object, identifier: str) -> Any:
    from support.flet_fakes import find

    found = find(root, lambda c: isinstance(c, ft.Semantics) and c.identifier == identifier)
    assert len(found) == 1
    return found[0]


def find_buttons(root: object) -> list[object]:
    import flet as ft
    from support.flet_fakes import find

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


def finished_session(store: Store) -> int:
    """A pulka to 2 whose pools are all closed after three made sixes (2 points each)."""
    from conftest import typed

    sid = store.create_session(["Anna", "Boris", "Vera"], pool_target=2)
    for declarer in (1, 2, 0):
        deal = {"type": "game", "declarer": declarer, "contract": "6S", "calls": ["pass", "pass"]}
        store.add_deal(sid, typed(store, sid, deal), seen=store.load(sid).revision)
    assert store.load(sid).scored.finished
    return sid


async def test_a_finished_pulka_offers_the_cash_out_and_never_writes_silently(
    app: tuple[Shell, object, Store],
) -> None:
    shell, session, store = app
    sid = finished_session(store)
    shell.show(sessions_screen)
    await fire(session, by_id(shell.page, f"session-open-{sid}"))
    assert by_id(shell.page, "pulka-finished").value == (
        "The game is finished: every pulya is closed."
    )
    assert not find_buttons_with(shell.page, "Write the deal")  # no form, no silent deal
    await fire(session, by_id(shell.page, "finished-settle"))
    assert shell.screen is not None and shell.screen.__name__ == "settle_screen"
    await navigate(session, shell.page, "nav-entry")
    await fire(session, by_id(shell.page, "play-on"))
    assert by_id(shell.page, "playing-on").value == "Every pool is closed; the table plays on."
    await fire(session, by_id(shell.page, "kind-raspasy"))
    for seat in (1, 2):
        await fire(session, by_id(shell.page, f"tricks-{seat}-3"))
    button = by_id(shell.page, "confirm-deal")
    # The handler itself refuses while the table has not chosen to play on.
    shell.state.playing_on.clear()
    await fire(session, button)
    assert by_id(shell.page, "message").content.value == (
        "The game is finished: choose “Play on” to write another deal."
    )
    assert len(store.load(sid).session.deals) == 3
    await fire(session, by_id(shell.page, "play-on"))
    await fire(session, by_id(shell.page, "kind-raspasy"))
    assert by_id(shell.page, "confirm-deal").disabled  # no count written that nobody chose
    for seat in (1, 2):
        await fire(session, by_id(shell.page, f"tricks-{seat}-3"))
    await fire(session, by_id(shell.page, "confirm-deal"))
    assert len(store.load(sid).session.deals) == 4
    assert by_id(shell.page, "deal-header").value == "Deal 5: Boris deals, Vera leads."


def find_buttons_with(root: object, text: str) -> list[object]:
    return [b for b in find_buttons(root) if getattr(b, "content", None) == text]


async def test_a_russian_refusal_in_russian_goes_once_fixed_and_takes_a_decimal_comma(
    app: tuple[Shell, object, Store],
) -> None:
    shell, session, store = app
    shell.lang = "ru"
    shell.show(sessions_screen)
    await fire(session, by_id(shell.page, "session-new"))
    for i, name in enumerate(["Аня", "Боря", "Вера"]):
        await type_into(session, by_id(shell.page, f"player-{i}"), name)
    price = by_id(shell.page, "whist-price")
    await type_into(session, price, "−1")
    refusal = "цена виста должна быть больше нуля, например 0,5 или 1"
    assert price.error == refusal
    assert semantics(shell.page, "message").label == refusal
    assert semantics(shell.page, "message").visible is True
    await fire(session, by_id(shell.page, "create-session"))
    assert store.sessions() == []
    price = by_id(shell.page, "whist-price")
    assert price.error == refusal  # still there after the refused start
    await type_into(session, price, "0,5")
    assert price.error is None
    assert semantics(shell.page, "message").visible is False
    await type_into(session, by_id(shell.page, "player-2"), "аня")
    assert by_id(shell.page, "player-2").error == "это имя уже за столом"
    await type_into(session, by_id(shell.page, "player-0"), "Коля")  # fixed by the other seat
    assert by_id(shell.page, "player-2").error is None
    await fire(session, by_id(shell.page, "create-session"))
    stored = store.load(store.sessions()[0].id)
    assert (stored.session.players, stored.session.whist_price) == (["Коля", "Боря", "аня"], "0.5")


@pytest.mark.parametrize(
    ("value", "kept"), [("1/60", "1/60"), (" 0,5 ", "0.5"), ("2.50", "2.50"), ("3/1", "3/1")]
)
def test_a_price_is_a_decimal_or_an_exact_fraction(value: str, kept: str) -> None:
    from scorepad.app.screens.new_game import price_of, price_refusal

    assert price_of(value) == kept and price_refusal(value) is None


@pytest.mark.parametrize("value", ["-1", "0", "0,0", "abc", "", "0/60", "1/0", "1/"])
def test_a_whist_price_must_be_more_than_zero(value: str) -> None:
    from scorepad.app.screens.new_game import price_of, price_refusal

    assert price_of(value) is None
    refusal = price_refusal(value)
    assert refusal is not None
    assert refusal.render("en") == "the whist price must be more than zero, such as 0.5 or 1"


async def test_the_settings_are_a_form_in_four_groups(app: tuple[Shell, object, Store]) -> None:
    from scorepad.app.screens.settings import LAYOUT, every_setting_placed
    from scorepad.scoring.pulya.convention import SETTING_NAMES

    assert every_setting_placed()
    shell, session, store = app
    shell.lang = "ru"
    shell.show(sessions_screen)
    await fire(session, by_id(shell.page, "session-new"))
    await fire(session, by_id(shell.page, "show-settings"))
    for group in LAYOUT:
        assert by_id(shell.page, f"settings-{group}") is not None
    shown = texts(shell.page)
    for text in shown:
        assert "§" not in text, text
        assert text not in SETTING_NAMES, text  # no English keys
    stalingrad = find_switch(by_id(shell.page, "setting-stalingrad"))
    assert "Сталинград" in texts(by_id(shell.page, "setting-stalingrad"))
    session.apply_patch(stalingrad._i, {"value": True})
    await fire(session, stalingrad, "change", "true")
    await fire(session, by_id(shell.page, "setting-ten").controls[2].controls[0])  # «вистуется»
    game = by_id(shell.page, "setting-raspasy_progression").controls[2]
    await type_into(session, game, "1, 2, 0")
    assert game.error == "целые числа не меньше 1, через запятую"
    await type_into(session, game, "1, 2, 2")
    assert game.error is None
    for i, name in enumerate(["Аня", "Боря", "Вера"]):
        await type_into(session, by_id(shell.page, f"player-{i}"), name)
    await fire(session, by_id(shell.page, "create-session"))
    sid = store.sessions()[0].id
    settings = store.load(sid).settings
    assert (settings.stalingrad, settings.ten, settings.raspasy_progression) == (
        True,
        "whisted",
        [1, 2, 2],
    )


def find_switch(root: object) -> Any:
    from support.flet_fakes import find

    (found,) = find(root, lambda c: isinstance(c, ft.Switch))
    return found


async def test_the_roster_hides_a_name_once_it_is_seated(app: tuple[Shell, object, Store]) -> None:
    shell, session, store = app
    store.create_session(["Anna", "Boris", "Vera"])
    shell.show(sessions_screen)
    await fire(session, by_id(shell.page, "session-new"))
    assert [b.visible for b in by_id(shell.page, "roster").controls] == [True, True, True]
    await type_into(session, by_id(shell.page, "player-0"), "boris")  # typed, not picked
    assert [b.visible for b in by_id(shell.page, "roster").controls] == [True, False, True]
    assert semantics(shell.page, "roster-section").visible
    await type_into(session, by_id(shell.page, "player-1"), "Anna")
    await type_into(session, by_id(shell.page, "player-2"), "VERA ")
    assert not semantics(shell.page, "roster-section").visible  # no heading over nobody


async def test_the_tricks_picker_offers_only_counts_that_fit(
    app: tuple[Shell, object, Store],
) -> None:
    shell, session, store = app
    sid = store.create_session(["Anna", "Boris", "Vera", "Gleb"])
    shell.sid = sid
    shell.go("entry")
    await fire(session, by_id(shell.page, "kind-raspasy"))
    # Anna deals and sits out: her talon takes at most 2; Gleb is filled in.
    assert [greyed(by_id(shell.page, f"tricks-0-{n}")) for n in range(3)] == [False] * 3
    with pytest.raises(AssertionError):
        by_id(shell.page, "tricks-0-3")
    await fire(session, by_id(shell.page, "tricks-0-2"))
    await fire(session, by_id(shell.page, "tricks-1-6"))
    assert by_id(shell.page, "tricks-3").value == "—"  # Vera's count is not chosen yet
    assert not greyed(by_id(shell.page, "tricks-2-2"))
    assert greyed(by_id(shell.page, "tricks-2-3"))  # 2 + 6 + 3 > 10
    await fire(session, by_id(shell.page, "tricks-2-3"))  # tapped all the same: why, in words
    assert by_id(shell.page, "message").content.value == "3 is not possible: Boris has 6"
    await fire(session, by_id(shell.page, "tricks-2-2"))
    assert by_id(shell.page, "tricks-3").value == "0"
    assert greyed(by_id(shell.page, "tricks-1-7"))  # the talon's 2 and Vera's 2 are kept
    assert not by_id(shell.page, "confirm-deal").disabled
    assert store.load(sid).session.deals == []  # nothing written by a tap on a count


def greyed(button: Any) -> bool:
    """A count drawn faded: it cannot be chosen now (tapping it says why)."""
    return button.content.color is not None


async def test_the_contract_is_one_tap_on_a_level_by_suit_grid(
    app: tuple[Shell, object, Store],
) -> None:
    shell, session, store = app
    sid = store.create_session(["Anna", "Boris", "Vera"])
    shell.sid = sid
    shell.go("entry")
    await fire(session, by_id(shell.page, "declarer-1"))
    cells = [f"contract-{lv}{t}" for lv in range(6, 11) for t in ("S", "C", "D", "H", "NT")]
    assert all(isinstance(by_id(shell.page, c), ft.OutlinedButton) for c in cells)  # 5 × 5
    # The suits in their colours: hearts and diamonds red, spades and clubs the text's own.
    colours = {
        t: [
            sp.style.color if sp.style else None
            for sp in by_id(shell.page, f"contract-7{t}").content.spans
        ]
        for t in ("S", "C", "D", "H")
    }
    red = [None, ft.Colors.ERROR]
    assert colours == {"S": [None], "C": [None], "D": red, "H": red}
    assert by_id(shell.page, "confirm-deal").disabled  # no contract yet
    await fire(session, by_id(shell.page, "contract-6H"))
    # Made, not whisted: one tap, its preview beside it.
    write = by_id(shell.page, "confirm-deal")
    assert write.content == "Not whisted: write" and not write.disabled
    assert "Nobody whisted: the deal was not played, Boris counts it made." in texts(shell.page)
    await fire(session, write)
    deal = store.load(sid).session.deals[0]
    assert deal.model_dump(mode="json", exclude_defaults=True) == {
        "type": "game",
        "declarer": 1,
        "contract": "6H",
        "calls": [],  # the shortest form of pass, pass
    }
    assert "Deal 2: Boris deals, Vera leads." in texts(shell.page)


@pytest.mark.parametrize(("width", "wide"), [(360, False), (1280, True)])
async def test_a_bar_on_a_phone_and_a_rail_on_a_laptop(
    tmp_path: Path, width: int, wide: bool
) -> None:
    page, session, _conn = make_page(width, 800)
    with Store(tmp_path / "nav.db", check_same_thread=False) as store:
        shell = Shell(page, store, "en", threading.RLock())
        shell.sid = store.create_session(["Anna", "Boris", "Vera"])
        shell.go("entry")
        assert (page.navigation_bar is None) is wide
        rails = find_all(page, ft.NavigationRail)
        assert len(rails) == (1 if wide else 0)
        await navigate(session, page, "nav-history")
        assert texts(page)[-1] == "No deals yet." or "No deals yet." in texts(page)
        shell.go("sessions")
        assert page.navigation_bar is None and not find_all(page, ft.NavigationRail)


def find_all(root: object, kind: type) -> list[Any]:
    from support.flet_fakes import find

    return find(root, lambda c: isinstance(c, kind))


async def test_a_long_history_shows_a_page_of_deals_and_earlier_pages_on_request(
    app: tuple[Shell, object, Store],
) -> None:
    shell, session, store = app
    data = random_session(RandomChooser(12), deals=2 * PAGE + 20)
    sid = store.import_session(json.dumps(data))
    shell.show(sessions_screen)
    await fire(session, by_id(shell.page, f"session-open-{sid}"))
    await navigate(session, shell.page, "nav-history")
    stored = store.load(sid)
    scored = stored.scored
    en = catalog("en")
    names = list(stored.session.players)

    def title(k: int) -> str:
        return f"Deal {k + 1} · " + en.render(deal_title(stored.journal.live[k].deal, names))

    def shown() -> list[int]:
        return [n for n in range(1, 2 * PAGE + 21) if find_id(shell.page, f"deal-{n}")]

    assert shown() == list(range(PAGE + 21, 2 * PAGE + 21))  # the newest page only
    last = by_id(shell.page, f"deal-{2 * PAGE + 20}")
    assert sorted(shown_lines(last)) == sorted(  # (the order of a tree walk)
        [title(2 * PAGE + 19), *(en.render(m) for m in scored.deals[-1].writing.explain or ())]
    )
    await fire(session, by_id(shell.page, "history-earlier"))
    assert shown() == list(range(21, 2 * PAGE + 21))
    await fire(session, by_id(shell.page, "history-earlier"))
    assert shown() == list(range(1, 2 * PAGE + 21))
    assert find_id(shell.page, "history-earlier") is None  # nothing earlier than deal 1
    first = by_id(shell.page, "deal-1")
    assert sorted(shown_lines(first)) == sorted(
        [title(0), *(en.render(m) for m in scored.deals[0].writing.explain or ())]
    )


def find_id(root: object, identifier: str) -> object | None:
    found = find(root, lambda c: isinstance(c, ft.Semantics) and c.identifier == identifier)
    return found[0].content if found else None


async def test_the_first_dealer_is_chosen_by_the_names_as_typed(
    app: tuple[Shell, object, Store],
) -> None:
    shell, session, _store = app
    await fire(session, by_id(shell.page, "session-new"))
    dealer = by_id(shell.page, "first-dealer")
    assert [o.text for o in dealer.options] == ["Player 1", "Player 2", "Player 3"]
    await type_into(session, by_id(shell.page, "player-1"), "Boris")
    assert [o.text for o in by_id(shell.page, "first-dealer").options] == [
        "Player 1",
        "Boris",
        "Player 3",
    ]


async def test_a_voided_deal_keeps_its_number_in_the_app_and_the_cli(
    app: tuple[Shell, object, Store],
) -> None:
    from conftest import run_cli, typed

    shell, session, store = app
    sid = store.create_session(["Anna", "Boris", "Vera"])
    passed = {"type": "game", "declarer": 1, "contract": "6S", "calls": ["pass", "pass"]}
    raspasy = {"type": "raspasy", "tricks": {"0": 3, "1": 3, "2": 4}}
    for seen, deal in enumerate((passed, raspasy, {**passed, "declarer": 2, "contract": "7H"})):
        store.add_deal(sid, typed(store, sid, deal), seen=seen)
    store.void_deal(sid, 2, reason="misdeal", seen=3)  # deal 2, the all-pass
    shell.sid = sid
    shell.go("history")
    assert by_id(shell.page, "deal-title-3").value == "Deal 3 · Vera: 7♥"  # not renumbered 2
    assert by_id(shell.page, "voided-title-2").value == "Deal 2 · All pass"
    assert "deal 2 was voided (misdeal)" in texts(shell.page)
    await navigate(session, shell.page, "nav-entry")
    assert by_id(shell.page, "deal-header").value.startswith("Deal 4:")  # never a number said
    db = ["--db", str(store.path)]
    history = run_cli("--lang", "en", *db, "history", str(sid)).stdout
    assert "deal 3 was written" in history and "deal 2 was voided (misdeal)" in history
    sheet = run_cli("--lang", "en", *db, "settle", str(sid)).stdout.splitlines()
    assert [line for line in sheet if line.startswith("Deal ")] == ["Deal 1", "Deal 3"]
