"""Issue #37 (round two), item 2: after the revoke rule's verdict, what was makeable with best
play (the double-dummy search) and how it compares to the sheet, worked out in the analyses'
workers with their caps (app/analyses.py, docs/safety.md "Analyses"), never on the page's loop.

The worked deal (fixtures/deals/illegal/revoke-six-spades.json, as in test_revoke.py): Tanya
plays 6♠; trick 3, Olga plays 7♦ on Tanya's Q♣ while holding A♣ and 10♣.  Played on, the cards
give Tanya 6; Kodex's one trick writes 7; the sheet had 5.  The search: from the deal's start
Tanya makes her 6; from the position before Olga's 7♦ (two tricks played, Tanya won one),
Olga following suit, Tanya takes 5 with best play: one down.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.flet_fakes import by_id, make_page, navigate
from test_app_unit import new_session
from test_dispute_screen import tap

from scorepad.app import analyses
from scorepad.app.analyses import Analyses, Busy, revoke_lines
from scorepad.app.dispute.start import Dispute
from scorepad.app.frame.shell import Shell
from scorepad.app.screens.sessions import sessions_screen
from scorepad.play.analysis import analyse
from scorepad.play.cards import ALL_CARDS, Card
from scorepad.play.dds import DoubleDummy
from scorepad.play.record import Audit, PlayStart, audit, begin, parse_record
from scorepad.play.revoke import audit_revoke, best_play, best_play_lines
from scorepad.scoring.pulya.session import Game, Raspasy
from scorepad.store import Store

RECORD = json.loads(
    (Path(__file__).parent / "fixtures" / "deals" / "illegal" / "revoke-six-spades.json").read_text(
        "utf-8"
    )
)
SHEET = {"type": "game", "declarer": 0, "contract": "6S", "calls": ["whist", "whist"],
         "tricks": {"0": 5, "1": 3, "2": 2}}  # fmt: skip
T, OL, P = 0, 1, 2
LINES_EN = [
    "With best play from the deal's start Tanya takes 6 tricks: made.",
    "With best play from the revoke's position (trick 3, before Olga's 7♦) Tanya takes 5 tricks: "
    "down 1.",
    "Tanya's tricks: the sheet 5, the cards 6, the revoke rule 7, best play 5.",
]


def test_best_play_from_the_start_and_from_the_revokes_position() -> None:
    best = best_play(parse_record(RECORD))
    assert (best.counted, best.start, best.at_revoke) == ((T,), {T: 6}, {T: 5})
    # From the start: what the analysis of the same layout, played legally, says of 6♠.
    b = begin(parse_record(RECORD))
    start = Audit(
        parse_record(RECORD), b.declarer, b.contract, b.whisting, (), {}, None,
        start=PlayStart.of(b.play),
    )  # fmt: skip
    [spades] = [cv for cv in analyse(start).contracts if cv.played]
    assert (spades.code, spades.tricks) == ("6S", 6)
    # From the revoke's position: two tricks played (Tanya won the second), Tanya's Q♣ led;
    # Olga may play A♣ or 10♣, and the defence chooses the one that leaves Tanya least.
    b = begin(parse_record(RECORD))
    p = b.play
    for text in RECORD["play"][:2] + RECORD["play"][2].split()[:1]:
        for t in text.split():
            p.play(Card.parse(t).index, p.to_play)
    assert p.won == {T: 1, OL: 1, P: 0} and p.to_play == OL
    values = DoubleDummy(p, T, more=True).card_values(p)
    assert {str(ALL_CARDS[c]): v for c, v in values.items()} == {"10♣": 4, "A♣": 4}
    assert p.won[T] + min(values.values()) == 5


def test_the_lines_say_it_beside_the_sheet_in_every_language() -> None:
    r = parse_record(RECORD)
    said = best_play_lines(audit_revoke(r), best_play(r), SHEET)
    assert [m.render("en") for m in said] == LINES_EN
    assert [m.render("ru") for m in said] == [
        "При лучшей игре с начала сдачи Tanya берёт 6 взяток: сыграно.",
        "При лучшей игре с позиции ренонса (взятка 3, до хода Olga картой 7♦) Tanya берёт 5 взяток: "
        "без 1.",
        "Взятки Tanya: в листе 5, по картам 6, по правилу ренонса 7, при лучшей игре 5.",
    ]
    # No sheet (a deal checked from the entry): the counts without it.
    assert best_play_lines(audit_revoke(r), best_play(r))[-1].render("en") == (
        "Tanya's tricks: the cards 6, the revoke rule 7, best play 5."
    )
    # Stopped at the revoke: best play is known, the count is not yet.
    stopped = parse_record(dict(RECORD, play=RECORD["play"][:3]))
    assert [m.render("en") for m in best_play_lines(audit_revoke(stopped), best_play(stopped))] == (
        LINES_EN[:2]
    )


def test_in_a_worker_process_bounded_as_every_analysis() -> None:
    pool = Analyses(workers=1, in_all=2, per_page=1)
    page = object()

    async def two_at_once() -> tuple[list[Any], Exception | None]:
        first = asyncio.ensure_future(pool.run(page, revoke_lines, json.dumps(RECORD), SHEET))
        await asyncio.sleep(0)
        try:
            await pool.run(page, revoke_lines, json.dumps(RECORD), SHEET)
        except Busy as busy:
            refused: Exception | None = busy
        else:
            refused = None
        return await first, refused

    try:
        said, refused = asyncio.run(two_at_once())
    finally:
        pool.close()
    assert [m.render("en") for m in said] == LINES_EN
    assert isinstance(refused, Busy) and refused.message.render("en") == (
        "An analysis from this page is still running: wait for it."
    )


@pytest.fixture(params=["en", "ru"])
def app(
    tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[Shell, Any, Store]]:
    pool = Analyses(workers=1)
    monkeypatch.setattr(analyses, "ANALYSES", pool)
    import scorepad.app.dispute.screen as screen

    monkeypatch.setattr(screen, "ANALYSES", pool)
    page, session, _conn = make_page()
    with Store(tmp_path / "app.db", check_same_thread=False) as store:
        shell = Shell(page, store, request.param, threading.RLock())
        shell.show(sessions_screen)
        yield shell, session, store
    pool.close()


async def test_the_verdict_screen_shows_best_play_when_the_worker_is_done(
    app: tuple[Shell, Any, Store],
) -> None:
    shell, session, store = app
    session.connection.loop = asyncio.get_running_loop()  # page.run_task's loop
    await new_session(shell, session, ["Tanya", "Olga", "Petr"])
    sid = store.sessions()[0].id
    for _ in range(2):  # two all-passes: Petr deals the third, as in the record
        allpass = Raspasy.model_validate({"type": "raspasy", "tricks": {"0": 4, "1": 3, "2": 3}})
        store.add_deal(sid, allpass, seen=store.load(sid).revision)
    store.add_deal(sid, Game.model_validate(SHEET), seen=store.load(sid).revision)
    await navigate(session, shell.page, "nav-history")
    await tap(shell, session, "check-3")
    d = shell.state.dispute
    assert isinstance(d, Dispute)
    d.form.load(parse_record(dict(RECORD, players=list(d.form.players))))
    d.step = "verdict"
    from scorepad.app.dispute.screen import dispute_screen

    shell.show(dispute_screen)

    def shown() -> list[str]:
        return [t.value for t in by_id(shell.page, "revoke-best").controls]

    assert shown()[1] == shell.t("Working out what best play makes…")
    for _ in range(600):  # the worker process starts (spawn), then answers
        if len(shown()) > 2:
            break
        await asyncio.sleep(0.05)
    if shell.lang == "en":
        assert shown() == ["Best play", *LINES_EN]
    else:
        assert shown()[0] == "Лучшая игра"
        assert shown()[-1] == (
            "Взятки Tanya: в листе 5, по картам 6, по правилу ренонса 7, при лучшей игре 5."
        )
    # Drawn again (a write at the table): no second search, the same sentences.
    before = d.best
    shell.show(dispute_screen)
    assert d.best is before and len(shown()) == 4


def test_on_an_all_pass_each_player_alone_against_the_other_two() -> None:
    """fixtures/deals/all-pass.json with Anna's A♥ played in trick 1 (she holds J♠ and 10♠,
    and the talon's 8♠ leads) and her J♠ in trick 5: the same tricks, one revoke.  Best play
    from the start is what the analysis of the legal deal says (each alone: Vera 7, Anna 5,
    Boris 3); the revoke's trick is the first, so its position gives the same."""
    data = json.loads((Path(__file__).parent / "fixtures" / "deals" / "all-pass.json").read_text())
    play = list(data["play"])
    play[0], play[4] = "9♠ A♥ K♠", "A♠ J♠ J♣"
    revoked = parse_record(dict(data, play=play))
    best = best_play(revoked)
    assert analyse(audit(parse_record(data))).players == {2: 7, 0: 5, 1: 3}
    assert (best.counted, best.start, best.at_revoke) == (
        (2, 0, 1),
        {2: 7, 0: 5, 1: 3},
        {2: 7, 0: 5, 1: 3},
    )
    v = audit_revoke(revoked)
    sheet = {"type": "raspasy", "tricks": {"0": 3, "1": 4, "2": 3}}
    assert [m.render("en") for m in best_play_lines(v, best, sheet)] == [
        "With best play from the deal's start, each alone against the other two: Vera 7, "
        "Anna 5, Boris 3.",
        "With best play from the revoke's position (trick 1, before Anna's A♥), each alone "
        "against the other two: Vera 7, Anna 5, Boris 3.",
        "Vera's tricks: the sheet 3, the cards 7, the revoke rule 6, best play 7.",
        "Anna's tricks: the sheet 3, the cards 2, the revoke rule 3, best play 5.",
        "Boris's tricks: the sheet 4, the cards 1, the revoke rule 1, best play 3.",
    ]
