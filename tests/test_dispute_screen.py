"""The deal check on a real Flet Page (no browser): from History, by taps, kept with the deal."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import flet as ft
import pytest
from support.flet_fakes import by_id, find, fire, make_page, navigate, type_into
from test_app_unit import new_session

from scorepad.app.dispute.start import Dispute
from scorepad.app.frame.shell import Shell
from scorepad.app.screens.sessions import sessions_screen
from scorepad.play.cards import Hand
from scorepad.scoring.pulya.session import Game
from scorepad.store import Store

DEALS = Path(__file__).resolve().parent / "fixtures" / "deals"
HANDS = {  # the cards of lost-seven.json, dealt by Anna (seat 0): Boris leads
    1: "♠KJ ♣KQJ1087 ♦97",
    2: "♠9 ♣A9 ♦AQ8 ♥AJ109",
    0: "♠A108 ♦KJ10 ♥KQ87",
}


@pytest.fixture(params=["en", "ru"])
def app(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[Shell, object, Store]]:
    page, session, _conn = make_page()
    with Store(tmp_path / "app.db", check_same_thread=False) as store:
        shell = Shell(page, store, request.param, threading.RLock())
        shell.show(sessions_screen)
        yield shell, session, store


def ids(shell: Shell, prefix: str) -> list[str]:
    return [
        c.identifier
        for c in find(shell.page, lambda c: isinstance(c, ft.Semantics))
        if isinstance(c.identifier, str) and c.identifier.startswith(prefix)
    ]


async def tap(shell: Shell, session: object, ident: str) -> None:
    await fire(session, by_id(shell.page, ident))


async def lay_out(shell: Shell, session: object) -> None:
    for seat in (1, 2):
        for c in Hand.parse(HANDS[seat]):
            await tap(shell, session, f"card-{c.code}")
        await tap(shell, session, f"give-{seat}")
    for code in ("7S", "QS"):
        await tap(shell, session, f"card-{code}")
    await tap(shell, session, "give-talon")
    assert ids(shell, "rest-") == ["rest-0"]  # the rest make Anna's hand
    await tap(shell, session, "rest-0")


async def test_a_deal_is_checked_by_taps_and_kept_with_the_deal(
    app: tuple[Shell, object, Store],
) -> None:
    shell, session, store = app
    await new_session(shell, session, ["Anna", "Boris", "Vera"])
    sid = store.sessions()[0].id
    sheet = {"type": "game", "declarer": 1, "contract": "7S", "calls": ["whist", "pass"],
             "tricks": {"1": 7, "2": 3, "0": 0}}  # fmt: skip
    store.add_deal(sid, Game.model_validate(sheet), seen=store.load(sid).revision)
    await navigate(session, shell.page, "nav-history")
    await tap(shell, session, "check-1")
    d = shell.state.dispute
    assert isinstance(d, Dispute) and d.step == "cards"
    # The grid: 32 cards, suits in rows; Russian ranks in Russian.
    assert len(ids(shell, "card-")) == 32
    ace = by_id(shell.page, "card-AH").content.controls[0].value
    assert ace == ("Т" if shell.lang == "ru" else "A")
    await lay_out(shell, session)
    # The declarer is known from the sheet: the discard is marked on the grid.
    for code in ("9D", "7D"):
        await tap(shell, session, f"card-{code}")
    await tap(shell, session, "give-discard")
    await tap(shell, session, "dispute-to-auction")
    said = by_id(shell.page, "auction-said").value
    assert said.startswith("Boris: 7♠")  # prefilled from the sheet
    await tap(shell, session, "dispute-to-play")
    assert d.step == "play"
    played = 0
    while d.form.to_play() is not None:
        offered = ids(shell, "play-")
        assert sorted(offered) == sorted(f"play-{c.code}" for c in d.form.offered())
        await tap(shell, session, offered[0])
        played += 1
    assert played == 30
    assert d.step == "verdict"  # the verdict appears as the last card is tapped
    shown = [t.value for t in by_id(shell.page, "verdict").controls]
    legal = "Итог: все ходы по правилам." if shell.lang == "ru" else "Verdict: every step is legal."
    assert shown[0] == legal
    await tap(shell, session, "dispute-save")
    stored = store.load(sid)
    record = stored.session.deals[0].record
    assert record is not None and record["hands"]["1"] == Hand.parse(HANDS[1]).cards_text()
    # Exported and imported back, the record is still there; History reopens it at the verdict.
    text = store.export_session(sid)
    assert json.loads(text)["deals"][0]["record"]["format"] == "scorepad-deal/1"
    again = store.import_session(text)
    assert store.load(again).session.deals[0].record == record
    await tap(shell, session, "dispute-back")
    await tap(shell, session, "check-1")
    assert shell.state.dispute.step == "verdict"
    assert [t.value for t in by_id(shell.page, "verdict").controls] == shown


async def test_a_pasted_record_is_replayed_card_by_card(app: tuple[Shell, object, Store]) -> None:
    shell, session, _store = app
    await new_session(shell, session, ["Anna", "Boris", "Vera"])
    await navigate(session, shell.page, "nav-history")
    await tap(shell, session, "analyse-deal")
    bad = json.loads((DEALS / "eight-spades.json").read_text(encoding="utf-8"))
    bad["play"][1] = "K♠ 10♣ 7♣"
    await type_into(session, by_id(shell.page, "analysis-record"), json.dumps(bad))
    await tap(shell, session, "analysis-open")
    d = shell.state.dispute
    assert isinstance(d, Dispute) and d.step == "verdict"
    shown = [t.value for t in by_id(shell.page, "verdict").controls]
    # The record's third trick plays 10♣ again: the replay stops at the revoke's trick, and the
    # verdict says the table's revoke rule and that the count needs the play to the end.
    assert shown == (
        [
            "Нарушение: взятка 2: Boris: ход 10♣ при наличии пик — ренонс",
            "Правило этого стола о ренонсе: одна взятка другой стороне (Кодекс, 3.9.16).",
            "Доиграйте сдачу до конца (или заявите остальные взятки), чтобы сосчитать взятки.",
        ]
        if shell.lang == "ru"
        else [
            "Illegal: trick 2: Boris played 10♣ while holding a spade — revoke",
            "The revoke rule of this table: one trick to the other side (Kodex 3.9.16).",
            "Play the deal on to the end (or claim the rest) to count the tricks.",
        ]
    )
    await tap(shell, session, "dispute-step-play")
    assert sorted(ids(shell, "trick-")) == ["trick-1", "trick-2"]
    assert ids(shell, "play-on") == ["play-on"]


async def test_the_deal_entry_writes_the_checked_deal_with_its_cards(
    app: tuple[Shell, object, Store],
) -> None:
    shell, session, store = app
    await new_session(shell, session, ["Anna", "Boris", "Vera"])
    await tap(shell, session, "check-cards")  # the cards still on the table
    d = shell.state.dispute
    assert isinstance(d, Dispute) and d.new_deal
    await lay_out(shell, session)
    await tap(shell, session, "dispute-to-auction")
    for bid in ("bid-7S", "bid-pass", "bid-pass"):  # Boris first, then Vera and Anna
        await tap(shell, session, bid)
    for code in ("9D", "7D"):
        await tap(shell, session, f"discard-{code}")
    for call in ("call-whist", "call-pass"):
        await tap(shell, session, call)
    await tap(shell, session, "dispute-to-play")
    while d.form.to_play() is not None:
        await tap(shell, session, f"play-{d.form.offered()[0].code}")
    assert d.step == "verdict"
    entry = d.form.verdict()[0]
    assert entry is not None
    await tap(shell, session, "dispute-write")
    deals = store.load(store.sessions()[0].id).session.deals
    assert len(deals) == 1 and deals[0].type == "game" and deals[0].record is not None
    written = deals[0].model_dump(mode="json", exclude_defaults=True, exclude={"record"})
    assert written == entry.entry
