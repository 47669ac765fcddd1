"""The deal-analysis dialog on a real Flet Page (no browser), opened from History."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from flet_fakes import by_id, fire, make_page, navigate, type_into
from test_app_unit import new_session

from scorepad.app.frame.shell import Shell
from scorepad.app.screens.sessions import sessions_screen
from scorepad.store import Store

DEALS = Path(__file__).resolve().parent / "fixtures" / "deals"


def shown_lines(shell: Shell) -> list[str]:
    """The result's sentences, top to bottom."""
    return [t.value for t in by_id(shell.page, "analysis-result").controls]


@pytest.fixture(params=["en", "ru"])
def app(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[Shell, object]]:
    page, session, _conn = make_page()
    with Store(tmp_path / "app.db", check_same_thread=False) as store:
        shell = Shell(page, store, request.param, threading.RLock())
        shell.show(sessions_screen)
        yield shell, session


async def test_history_opens_the_analysis_of_a_pasted_record(app: tuple[Shell, object]) -> None:
    shell, session = app
    await new_session(shell, session, ["Anna", "Boris", "Vera"])
    await navigate(session, shell.page, "nav-history")
    await fire(session, by_id(shell.page, "analyse-deal"))
    record = (DEALS / "lost-seven.json").read_text(encoding="utf-8")
    await type_into(session, by_id(shell.page, "analysis-record"), record)
    await fire(session, by_id(shell.page, "analysis-run"))
    shown = shown_lines(shell)
    if shell.lang == "en":
        assert shown == [
            "Verdict: every step is legal.",
            "7♠: the declarer takes 7 with best play (played)",
            "♣: the declarer takes 7 with best play",
            "♦: the declarer takes 0 with best play",
            "♥: the declarer takes 0 with best play",
            "no trump: the declarer takes 0 with best play",
            "misère: the declarer takes 2 with best play",
            "trick 5, Boris's K♠: the declarer could have taken 7, now 3",
        ]
    else:
        assert shown == [
            "Итог: все ходы по правилам.",
            "7♠: при лучшей игре разыгрывающий берёт 7 (сыграно)",
            "♣: при лучшей игре разыгрывающий берёт 7",
            "♦: при лучшей игре разыгрывающий берёт 0",
            "♥: при лучшей игре разыгрывающий берёт 0",
            "без козыря: при лучшей игре разыгрывающий берёт 0",
            "мизер: при лучшей игре разыгрывающий берёт 2",
            "взятка 5, Boris — К♠: разыгрывающий мог взять 7, теперь 3",
        ]


async def test_an_illegal_or_empty_record_is_refused_in_words(app: tuple[Shell, object]) -> None:
    shell, session = app
    from scorepad.app.screens.analysis import open_analysis

    open_analysis(shell)
    await fire(session, by_id(shell.page, "analysis-run"))
    empty = shown_lines(shell)
    bad = json.loads((DEALS / "eight-spades.json").read_text(encoding="utf-8"))
    bad["play"][1] = "K♠ 10♣ 7♣"
    await type_into(session, by_id(shell.page, "analysis-record"), json.dumps(bad))
    await fire(session, by_id(shell.page, "analysis-run"))
    refused = shown_lines(shell)
    if shell.lang == "en":
        assert empty == ["Paste a deal record first."]
        assert refused == ["Illegal: trick 2: Boris played 10♣ while holding a spade — revoke"]
    else:
        assert empty == ["Сначала вставьте запись сдачи."]
        assert refused == ["Нарушение: взятка 2: Boris: ход 10♣ при наличии пик — ренонс"]
