"""The app's shared screens for the ledger families (new game, cash-out, chart), on a real Flet
Page without a browser; the families' own entry and sheet are tested in their modules' tests."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import flet as ft
import pytest
from support.flet_fakes import by_id, fire, make_page, texts, type_into
from test_families_cli import D_E1

from scorepad.app.frame import nav
from scorepad.app.frame.screens import sessions_screen
from scorepad.app.frame.shell import Shell
from scorepad.report.ledger import to_data
from scorepad.store import Store


async def choose(session: object, control: ft.Dropdown, value: str) -> None:
    session.apply_patch(control._i, {"value": value})  # type: ignore[attr-defined]
    await fire(session, control, "select", value)  # type: ignore[arg-type]


@pytest.fixture
def app(tmp_path: Path) -> Iterator[tuple[Shell, object, Store]]:
    page, session, _conn = make_page()
    with Store(tmp_path / "app.db", check_same_thread=False) as store:
        shell = Shell(page, store, "en", threading.RLock())
        shell.show(sessions_screen)
        yield shell, session, store


async def test_a_balkan_game_is_started_with_its_bula_and_refe_limit(
    app: tuple[Shell, object, Store],
) -> None:
    shell, session, store = app
    await fire(session, by_id(shell.page, "session-new"))
    await choose(session, by_id(shell.page, "convention"), "balkan")
    shown = texts(shell.page)
    assert "New game" in shown
    assert by_id(shell.page, "whist-price").label == "Price of a supa"
    assert by_id(shell.page, "setting-start_bula").value == "60"  # the preset's
    assert by_id(shell.page, "setting-refe_limit").value == ""  # none unless agreed
    with pytest.raises(AssertionError, match="got 0"):
        by_id(shell.page, "pool-target")  # no pool in the bula
    assert by_id(shell.page, "players-4")  # four may sit, the dealer sitting out (§4.1)
    await choose(session, by_id(shell.page, "convention"), "swabian")
    with pytest.raises(AssertionError, match="got 0"):
        by_id(shell.page, "players-4")  # the Swabian game is for three (§5.1)
    await choose(session, by_id(shell.page, "convention"), "balkan")
    for i, name in enumerate(["Ana", "Boris", "Vesna"]):
        await type_into(session, by_id(shell.page, f"player-{i}"), name)
    await type_into(session, by_id(shell.page, "setting-start_bula"), "x")
    assert by_id(shell.page, "setting-start_bula").error == "an even number from 2 to 100000"
    await type_into(session, by_id(shell.page, "setting-start_bula"), "40")
    await type_into(session, by_id(shell.page, "setting-refe_limit"), "2")
    await fire(session, by_id(shell.page, "create-session"))
    sid = store.sessions()[0].id
    assert store.family(sid) == "bula"
    exported = json.loads(store.export_session(sid))
    assert exported["overrides"] == {"refe_limit": 2, "start_bula": 40}
    assert exported["players"] == ["Ana", "Boris", "Vesna"]


async def test_every_setting_of_a_family_preset_is_offered_with_its_meaning(
    app: tuple[Shell, object, Store],
) -> None:
    shell, session, store = app
    await fire(session, by_id(shell.page, "session-new"))
    await choose(session, by_id(shell.page, "convention"), "balkan")
    await fire(session, by_id(shell.page, "show-settings"))
    texts_now = texts(shell.page)
    assert (  # each choice by the words on its button (issue 38 item 10: no "double_fall")
        "A last game worth more than the bula left: truncated (only what is left is written, "
        "the supe in proportion), in full, or a failure doubled (a made game is truncated)."
        in texts_now
    )
    assert by_id(shell.page, "family-setting-scoring").value == (
        "the bula sheet — How the game is kept: on the bula sheet, or with a pot the players "
        "pay into."
    )  # what makes the preset a bula, not a pot: shown, not offered
    await fire(session, by_id(shell.page, "setting-last_game-double_fall"))
    await type_into(session, by_id(shell.page, "setting-defence_cap"), "11")
    assert by_id(shell.page, "setting-defence_cap").error == "a whole number from 1 to 10"
    await type_into(session, by_id(shell.page, "setting-defence_cap"), "4")
    assert by_id(shell.page, "setting-defence_cap").error is None
    switch = by_id(shell.page, "setting-allow_sub_mort_kontra")
    session.apply_patch(switch._i, {"value": False})  # type: ignore[attr-defined]
    await fire(session, switch, "change", False)  # type: ignore[arg-type]
    for i, name in enumerate(["Ana", "Boris", "Vesna"]):
        await type_into(session, by_id(shell.page, f"player-{i}"), name)
    await fire(session, by_id(shell.page, "create-session"))
    sid = store.sessions()[0].id
    assert json.loads(store.export_session(sid))["overrides"] == {
        "allow_sub_mort_kontra": False,
        "defence_cap": 4,
        "last_game": "double_fall",
    }


async def test_a_pot_preset_offers_only_the_settings_its_system_reads(
    app: tuple[Shell, object, Store],
) -> None:
    shell, session, _store = app
    await fire(session, by_id(shell.page, "session-new"))
    await choose(session, by_id(shell.page, "convention"), "american")
    await fire(session, by_id(shell.page, "show-settings"))
    assert by_id(shell.page, "setting-failure_penalty").value == ""  # none: a bare six
    for other in ("setting-win", "setting-bete", "setting-kunstwerk"):  # Austrian, 1829, Swabian
        with pytest.raises(AssertionError, match="got 0"):
            by_id(shell.page, other)


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_the_cash_out_of_a_bula_session_is_the_settle_document(
    tmp_path: Path, lang: str
) -> None:
    page, _session, _conn = make_page(1280, 800)
    with Store(tmp_path / "app.db", check_same_thread=False) as store:
        sid = store.import_session(json.dumps(D_E1))
        shell = Shell(page, store, lang, threading.RLock())
        shell.sid = sid
        shell.show(nav.screen("settle"))
        doc = to_data(store.load(sid).scored, lang)
        for p in range(3):
            shown = by_id(page, f"cash-{p}-result").value
            assert shown == doc["balance"][p].replace("-", "−")
            money = by_id(page, f"cash-{p}-money").value
            digits = "".join(ch for ch in money if ch.isdigit())
            assert digits == doc["money"][p].replace(".", "").lstrip("-").lstrip("0") or "0"
        status = by_id(page, "settle-status").value
        assert status == (
            "The game is not over: if we stopped now."
            if lang == "en"
            else "Игра не окончена: расчёт, если остановиться сейчас."  # a bula is no пулька
        )
        shell.show(nav.screen("chart"))
        assert isinstance(by_id(page, "chart"), ft.Control)


async def test_a_prefa_game_starts_with_its_preset_kassa_untouched(
    app: tuple[Shell, object, Store],
) -> None:
    shell, session, store = app
    await fire(session, by_id(shell.page, "session-new"))
    await choose(session, by_id(shell.page, "convention"), "prefa")
    assert by_id(shell.page, "setting-kassa").value == "31"
    for i, name in enumerate(["Ana", "Boris", "Vesna"]):
        await type_into(session, by_id(shell.page, f"player-{i}"), name)
    await fire(session, by_id(shell.page, "create-session"))
    sid = store.sessions()[0].id
    assert store.family(sid) == "kassa"
    assert "overrides" not in json.loads(store.export_session(sid))  # the preset as it is
    assert store.load(sid).scored.table.kassas == [31, 31, 31]  # type: ignore[union-attr]


@pytest.mark.parametrize(("lang", "sheet"), [("en", "Scores"), ("ru", "Запись")])
async def test_a_family_sheet_is_not_called_a_pulya_in_the_navigation(
    tmp_path: Path, lang: str, sheet: str
) -> None:
    page, _session, _conn = make_page()
    with Store(tmp_path / "app.db", check_same_thread=False) as store:
        shell = Shell(page, store, lang, threading.RLock())
        shell.sid = store.import_session(json.dumps(D_E1))
        shell.show(nav.screen("settle"))
        labels = [d.label for d in page.navigation_bar.destinations]  # type: ignore[union-attr]
        assert labels[1] == sheet
        shell.sid = store.create_session(["A", "B", "C"])  # a pulka: its own word again
        shell.show(nav.screen("settle"))
        labels = [d.label for d in page.navigation_bar.destinations]  # type: ignore[union-attr]
        assert labels[1] == ("Sheet" if lang == "en" else "Пуля")  # the paper; a пулька is the game


def test_every_pot_setting_is_read_by_one_of_its_systems() -> None:
    from scorepad.app.families.settings import FIXED, POT_SYSTEMS
    from scorepad.scoring.ledger.pot import PotSettings

    # A new setting must say which systems read it, or the new-game screen would hide it.
    assert set(PotSettings.model_fields) - FIXED == set().union(*POT_SYSTEMS.values())
    assert set(POT_SYSTEMS) == set(PotSettings.model_fields["system"].annotation.__args__)


def test_every_value_of_a_family_choice_has_its_words() -> None:
    import typing

    from scorepad.app.families.settings import VALUE_LABELS, kind_of
    from scorepad.scoring.ledger.bula import BulaSettings
    from scorepad.scoring.ledger.kassa import KassaSettings
    from scorepad.scoring.ledger.pot import PotSettings

    wanted = {
        (name, str(v))
        for model in (BulaSettings, KassaSettings, PotSettings)
        for name, field in model.model_fields.items()
        if name != "family" and typing.get_origin(field.annotation) is typing.Literal
        for v in typing.get_args(field.annotation)
    }
    assert wanted == set(VALUE_LABELS)
    assert kind_of("last_game", BulaSettings.model_fields["last_game"]) == "choice"


@pytest.mark.parametrize(
    ("convention", "hint"),
    [
        ("prefa", "Names in seating order, anticlockwise."),
        ("balkan", "Names in seating order, anticlockwise."),
        ("balkan-pot", "Names in seating order, anticlockwise."),
        ("austrian", "Names in seating order, clockwise."),
        ("illustrated", "Names in seating order, clockwise."),
        ("sochi", "Names in seating order, clockwise."),
    ],
)
async def test_each_game_says_its_own_seating_direction(
    app: tuple[Shell, object, Store], convention: str, hint: str
) -> None:
    """Issue 38 item 3: every family said "clockwise", but Prefa's players are listed in turn
    order anticlockwise and the Balkan deal goes anticlockwise: a table following the hint
    swapped the defenders."""
    shell, session, _store = app
    await fire(session, by_id(shell.page, "session-new"))
    await choose(session, by_id(shell.page, "convention"), convention)
    shown = texts(shell.page)
    assert hint in shown
    other = {"Names in seating order, anticlockwise.", "Names in seating order, clockwise."}
    assert not (other - {hint}) & set(shown)


async def test_the_cash_out_says_where_the_rounding_moved_an_amount(tmp_path: Path) -> None:
    """Issue 38 item 7: as the pulya's, the families' cash-out says when the rounding to the
    cent moved an amount so that the total is zero (Toni 8⅔ × 0,10 € is 0,866…: 0,86 €, not
    the plain 0,87 €)."""
    from test_families_cli import ROUNDED

    page, _session, _conn = make_page(360, 740)
    with Store(tmp_path / "app.db", check_same_thread=False) as store:
        sid = store.import_session(json.dumps(ROUNDED))
        shell = Shell(page, store, "de", threading.RLock())
        shell.sid = sid
        shell.show(nav.screen("settle"))
        assert by_id(page, "rounding-note").value == (
            "So gerundet, dass die Summe null ist: Toni 0,86\xa0€, nicht 0,87\xa0€."
        )
        assert by_id(page, "balance-2").value == "Toni: 8⅔, 0,86\xa0€"


def _shown(shell: Shell, ident: str) -> bool:
    from support.flet_fakes import find

    found = find(shell.page, lambda c: isinstance(c, ft.Semantics) and c.identifier == ident)
    return bool(found) and all(c.visible is not False for c in found)


async def test_a_hidden_character_in_a_name_is_refused_at_its_field_and_the_banner_goes(
    tmp_path: Path,
) -> None:
    """Issue 38 item 8: a direction-control character was caught only when the game started,
    as "players.2"; it is refused at Igrač 3's field as it is typed, the banner names the seat
    in the player's language, and both go when the name is fixed."""
    page, session, _conn = make_page(360, 740)
    with Store(tmp_path / "app.db", check_same_thread=False) as store:
        shell = Shell(page, store, "sr_Latn", threading.RLock())
        shell.show(sessions_screen)
        await fire(session, by_id(shell.page, "session-new"))
        await choose(session, by_id(shell.page, "convention"), "balkan")
        for i, name in enumerate(["Ana", "Boris", "Vesna\u202e"]):
            await type_into(session, by_id(shell.page, f"player-{i}"), name)
        why = (
            "ime ne sme da sadrži skrivene znakove ni znakove za smer pisanja: otkucajte ga ponovo"
        )
        assert by_id(shell.page, "player-2").error == why
        banner = by_id(shell.page, "message")
        assert banner.content.value == f"Igrač 3: {why}" and _shown(shell, "message")
        assert "players" not in banner.content.value
        await type_into(session, by_id(shell.page, "player-2"), "Vesna")
        assert by_id(shell.page, "player-2").error is None
        assert not _shown(shell, "message")
        # A look-alike (a Cyrillic а) is refused at its field too, naming the other.
        await type_into(session, by_id(shell.page, "player-2"), "\u0410na")
        assert "Ana" in by_id(shell.page, "player-2").error
        await type_into(session, by_id(shell.page, "player-2"), "Vesna")
        await fire(session, by_id(shell.page, "create-session"))
        assert [s.players for s in store.sessions()] == [["Ana", "Boris", "Vesna"]]


@pytest.mark.parametrize(
    ("lang", "price", "currency"),
    [
        ("sr_Latn", "1,00", "RSD"),
        ("de", "1,00", "EUR"),
        ("el", "1,00", "EUR"),
        ("en", "1.00", "RUB"),
    ],
)
async def test_a_new_games_money_follows_the_language_and_fits_a_phone(
    tmp_path: Path, lang: str, price: str, currency: str
) -> None:
    """Issue 38 item 12: every language was offered RUB and "1.00"; a Serbian table plays for
    dinars, a German or Greek one for euros, with the decimal comma.  On a 360 px phone each
    number field takes the row, so "Granica refea (prazno: bez granice)" and "paran broj od 2
    do 100000" are not wrapped in a 170 px box."""
    page, session, _conn = make_page(360, 740)
    with Store(tmp_path / "app.db", check_same_thread=False) as store:
        shell = Shell(page, store, lang, threading.RLock())
        shell.show(sessions_screen)
        await fire(session, by_id(shell.page, "session-new"))
        await choose(session, by_id(shell.page, "convention"), "balkan")
        assert by_id(shell.page, "whist-price").value == price
        assert by_id(shell.page, "currency").value == currency
        for ident in ("whist-price", "setting-start_bula", "setting-refe_limit"):
            assert by_id(shell.page, ident).width == 328
        for i, name in enumerate(["Ana", "Boris", "Vesna"]):
            await type_into(session, by_id(shell.page, f"player-{i}"), name)
        await fire(session, by_id(shell.page, "create-session"))
        exported = json.loads(store.export_session(store.sessions()[0].id))
        assert (exported.get("whist_price", "1.00"), exported.get("currency", "RUB")) == (
            "1.00",
            currency,
        )
