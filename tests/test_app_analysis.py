"""The deal-analysis dialog on a real Flet Page (no browser), opened from History."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.flet_fakes import by_id, fire, make_page, navigate, type_into
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
            "7♠ (played): the declarer took 3 tricks, down 4; with best play 7 tricks, made",
            "7♣: 7 tricks, made",
            "7♦: 0 tricks, down 7",
            "7♥: 0 tricks, down 7",
            "7NT: 0 tricks, down 7",
            "misère: caught for 2",
            "trick 5, Boris's K♠ instead of 8♣: the declarer could have taken 7, now 3",
        ]
    else:
        assert shown == [
            "Итог: все ходы по правилам.",
            "7♠ (играли): разыгрывающий взял 3 взятки, без 4; при лучшей игре 7 взяток, сыграно",
            "7♣: 7 взяток, сыграно",
            "7♦: 0 взяток, без 7",
            "7♥: 0 взяток, без 7",
            "7БК: 0 взяток, без 7",
            "мизер: поймали на 2",
            "взятка 5, Boris — К♠ вместо 8♣: разыгрывающий мог взять 7, теперь 3",
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
