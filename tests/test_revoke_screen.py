"""The card check's screen at a revoke (issue #37, item 3), on a real Flet Page: the cards by taps,
the revoke entered as the card another player saw, the play on to the end, the verdict with the
penalty and the sheet's counts, and the sheet's deal written as the revoke rule gives."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.flet_fakes import by_id, make_page, navigate
from test_app_unit import new_session
from test_dispute_screen import ids, tap

from scorepad.app.dispute.start import Dispute
from scorepad.app.frame.shell import Shell
from scorepad.app.screens.sessions import sessions_screen
from scorepad.play.cards import Card, Hand
from scorepad.scoring.pulya.session import Game, Raspasy
from scorepad.store import Store

RECORD = json.loads(
    (Path(__file__).parent / "fixtures" / "deals" / "illegal" / "revoke-six-spades.json").read_text(
        "utf-8"
    )
)


@pytest.fixture(params=["en", "ru"])
def app(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[Shell, object, Store]]:
    page, session, _conn = make_page()
    with Store(tmp_path / "app.db", check_same_thread=False) as store:
        shell = Shell(page, store, request.param, threading.RLock())
        shell.show(sessions_screen)
        yield shell, session, store


async def test_a_revoke_by_taps_ends_in_the_deal_as_it_must_be_written(
    app: tuple[Shell, object, Store],
) -> None:
    shell, session, store = app
    # Petr deals (the third deal of a table that began with Tanya): Tanya leads.
    await new_session(shell, session, ["Tanya", "Olga", "Petr"])
    sid = store.sessions()[0].id
    for _ in range(2):  # two all-passes move the deal to Petr
        allpass = Raspasy.model_validate({"type": "raspasy", "tricks": {"0": 4, "1": 3, "2": 3}})
        store.add_deal(sid, allpass, seen=store.load(sid).revision)
    sheet = {"type": "game", "declarer": 0, "contract": "6S", "calls": ["whist", "whist"],
             "tricks": {"0": 5, "1": 3, "2": 2}}  # fmt: skip
    store.add_deal(sid, Game.model_validate(sheet), seen=store.load(sid).revision)
    await navigate(session, shell.page, "nav-history")
    await tap(shell, session, "check-3")
    d = shell.state.dispute
    assert isinstance(d, Dispute) and d.form.dealer == 2
    for seat in (1, 2):
        for c in Hand.parse(RECORD["hands"][str(seat)]):
            await tap(shell, session, f"card-{c.code}")
        await tap(shell, session, f"give-{seat}")
    for code in ("9S", "KC"):
        await tap(shell, session, f"card-{code}")
    await tap(shell, session, "give-talon")
    await tap(shell, session, "rest-0")
    for code in ("7C", "9C"):
        await tap(shell, session, f"card-{code}")
    await tap(shell, session, "give-discard")
    await tap(shell, session, "dispute-to-auction")
    await tap(shell, session, "dispute-to-play")
    cards = [Card.parse(t) for trick in RECORD["play"] for t in trick.split()]
    for i, card in enumerate(cards):
        if i == 7:  # Olga's 7♦ on Tanya's Q♣: not offered; entered as the card played
            assert sorted(ids(shell, "play-")) == ["play-AC", "play-TC"]  # her clubs only
            await tap(shell, session, "show-disputed")
            await tap(shell, session, "disputed-7D")
            continue
        if i == 9:  # the revoke's trick is done: the table plays on for the count
            assert d.form.to_play() is None and ids(shell, "play-on") == ["play-on"]
            await tap(shell, session, "play-on")
        await tap(shell, session, f"play-{card.code}")
    assert d.step == "verdict"
    shown = [t.value for t in by_id(shell.page, "verdict").controls]
    if shell.lang == "en":
        assert shown == [
            "Illegal: trick 3: Olga played 7♦ while holding a club — revoke",
            "The revoke rule of this table: one trick to the other side (Kodex 3.9.16).",
            "Tricks as played: Tanya 6, Olga 2, Petr 2.",
            "Penalty: Olga gives Tanya 1 trick.",
            "The tricks as they must be written: Tanya 7, Olga 1, Petr 2.",
            "The deal writes: Tanya: 6♠",
            "The sheet has it otherwise: Tanya: 6♠",
            "The sheet has Tanya 5 tricks, the cards give 7.",
            "The sheet has Olga 3 tricks, the cards give 1.",
        ]
    else:
        assert shown[3:5] == [
            "Штраф: Olga → Tanya, 1 взятка.",
            "Взятки, как их надо записать: Tanya 7, Olga 1, Petr 2.",
        ]
        assert shown[-2:] == [
            "В листе: Tanya — 5 взяток, по картам — 7.",
            "В листе: Olga — 3 взятки, по картам — 1.",
        ]
    await tap(shell, session, "dispute-correct")
    deal = store.load(sid).session.deals[2]
    assert isinstance(deal, Game) and deal.tricks == {0: 7, 1: 1, 2: 2}
    assert deal.record is not None and deal.record["play"][2] == "Q♣ 7♦ J♠"
    # The sheet now agrees: the verdict says so, with no trick line left.
    shown = [t.value for t in by_id(shell.page, "verdict").controls]
    same = "The sheet has this deal the same way."
    assert shown[-1] == (same if shell.lang == "en" else shell.t(same))


async def test_at_a_club_table_the_checked_deal_is_written_through_the_night(
    tmp_path: Path,
) -> None:
    """A revoke checked on a club table's phone from the deal entry: "Write this deal" writes
    the deal the rule gives through the night, as the phone's player's, waiting for another
    player's confirmation (it went past the night, unmarked, before)."""
    from test_app_club_tables import Night

    from scorepad.app.dispute.screen import dispute_screen
    from scorepad.club.store import table_pin
    from scorepad.play.record import parse_record

    n = Night(tmp_path, deals=4)
    sid, (first, second, _) = n.sid(1), n.seats(1)
    allpass = {"type": "raspasy", "tricks": {"0": 4, "1": 3, "2": 3}}
    for seen in (0, 1):  # two deals: the third is dealt by the third seat, as in the record
        n.club.write_deal(n.nid, 1, 1, allpass, by=first, seen=seen)
    device = "device-of-the-first-player-0001"
    phone, session = n.phone(1, device)
    assert phone.access.enter(table_pin(n.store, sid)) is None
    n.club.claim_phone(n.nid, 1, 1, first, device=device)
    phone.redraw()
    await navigate(session, phone.page, "nav-entry")
    await tap(phone, session, "check-cards")
    d = phone.state.dispute
    assert isinstance(d, Dispute) and d.new_deal and d.form.dealer == 2
    d.form.load(parse_record(dict(RECORD, players=list(d.form.players))))
    d.step = "verdict"
    phone.show(dispute_screen)
    await tap(phone, session, "dispute-write")
    stored = n.store.load(sid)
    deal = stored.session.deals[2]
    assert isinstance(deal, Game) and deal.tricks == {0: 7, 1: 1, 2: 2} and deal.record
    mark = n.club.marks(sid)[2]
    assert (mark.number, mark.state, mark.written_by) == (3, "provisional", first)
    n.club.confirm(n.nid, 1, 1, mark.deal_id, by=second)
    assert n.club.marks(sid)[2].state == "confirmed"
    n.store.close()
