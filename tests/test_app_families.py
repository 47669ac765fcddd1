"""The app's shared screens for the ledger families (new game, cash-out, chart), on a real Flet
Page without a browser; the families' own entry and sheet are tested in their modules' tests."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import flet as ft
import pytest
from flet_fakes import by_id, fire, make_page
from test_families_cli import D_E1

from scorepad.app import nav
from scorepad.app.screens import sessions_screen
from scorepad.app.shell import Shell
from scorepad.family_report import to_data
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


async def test_every_setting_of_a_family_preset_is_shown_with_its_meaning(
    app: tuple[Shell, object, Store],
) -> None:
    shell, session, _store = app
    await fire(session, by_id(shell.page, "session-new"))
    await choose(session, by_id(shell.page, "convention"), "prefa")
    await fire(session, by_id(shell.page, "show-settings"))
    assert by_id(shell.page, "family-setting-kassa").value == (
        "31 — Each player's kassa at the start (31, 20, 10 …)."
    )


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
        doc = to_data(store.load_family(sid).scored, lang)
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
            else "Игра не окончена: расчёт, если остановиться сейчас."
        )
        shell.show(nav.screen("chart"))
        assert isinstance(by_id(page, "chart"), ft.Control)
