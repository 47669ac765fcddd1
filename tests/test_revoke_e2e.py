"""A revoke at the table in a real browser (issue #37, item 3): the cards by taps, the revoke
entered as the card played, the play on to the end, the verdict with the table's rule, the
penalty, the tricks and the deal as they must be written and the sheet's counts, and the sheet's
deal written as the rule gives.  Then the verdict reopened from History at both sizes, in English
and in Russian.

Screenshots: ``screenshots/revoke-*.png`` (phone 360×740, laptop 1280×800; en and ru).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from e2e import harness
from e2e.harness import choose_language, has_text, open_app, running_app, shot, tap, visible
from test_dispute_e2e import LAPTOP, PHONE, choose, lay_out_by_taps, open_session, wait_verdict

from scorepad.play.cards import Card
from scorepad.store import Store

pytestmark = pytest.mark.flaky(reruns=1, reruns_delay=2)
browser = harness.browser  # the shared headless chromium fixture

RECORD = json.loads(
    (
        Path(__file__).resolve().parent
        / "fixtures"
        / "deals"
        / "illegal"
        / "revoke-six-spades.json"
    ).read_text(encoding="utf-8")
)
# The deal as the sheet wrote it: Tanya down one (5 tricks); the cards give her 6, and 7 with
# the penalty trick.  Petr deals the first deal (first_dealer 2), so Tanya leads.
SHEET = {"type": "game", "declarer": 0, "contract": "6S", "calls": ["whist", "whist"],
         "tricks": {"0": 5, "1": 3, "2": 2}}  # fmt: skip
SESSION = {
    "format": "scorepad-session/1",
    "players": ["Tanya", "Olga", "Petr"],
    "convention": "sochi",
    "pool_target": 20,
    "first_dealer": 2,
    "deals": [SHEET],
}
VERDICT_EN = [
    "Illegal: trick 3: Olga played 7♦ while holding a club — revoke",
    "The revoke rule of this table: one trick to the other side (Kodex 3.9.16).",
    "Tricks as played: Tanya 6, Olga 2, Petr 2.",
    "Penalty: Olga gives Tanya 1 trick.",
    "The tricks as they must be written: Tanya 7, Olga 1, Petr 2.",
    "The sheet has Tanya 5 tricks, the cards give 7.",
]


BEST_EN = [
    "With best play from the deal's start Tanya takes 6 tricks: made.",
    "With best play from the revoke's position (trick 3, before Olga's 7♦) Tanya takes 5 tricks: "
    "down 1.",
    "Tanya's tricks: the sheet 5, the cards 6, the revoke rule 7, best play 5.",
]
BEST_AFTER = {
    "en": "Tanya's tricks: the sheet 5, the cards 6, the revoke rule 7, best play 5.",
    "ru": "Взятки Tanya: в листе 5, по картам 6, по правилу ренонса 7, при лучшей игре 5.",
}


def best_text(page: Any) -> str:
    return str(page.locator('[flt-semantics-identifier="revoke-best"]').first.inner_text())


def wait_best(page: Any, part: str) -> None:
    from playwright.sync_api import expect

    expect(page.locator('[flt-semantics-identifier="revoke-best"]').first).to_contain_text(
        part, timeout=60000
    )


def test_a_revoke_by_taps_ends_in_the_written_deal(browser: Any, tmp_path: Path) -> None:
    db = tmp_path / "revoke.db"
    with Store(db) as store:
        store.import_session(json.dumps(SESSION))
        # A second copy whose deal keeps the cards and the sheet's count: reopened below.
        kept = dict(SESSION, deals=[dict(SHEET, record=RECORD)])
        store.import_session(json.dumps(kept))
    cards = [Card.parse(t) for trick in RECORD["play"] for t in trick.split()]
    with running_app(db) as (url, _db):
        page = open_app(browser, url, *PHONE)
        open_session(page)
        tap(page, "check-1")
        visible(page, "card-AS")
        hands = {int(s): h for s, h in RECORD["hands"].items()}
        lay_out_by_taps(page, RECORD["players"], {1: hands[1], 2: hands[2], 0: hands[0]},
                        RECORD["talon"])  # fmt: skip
        choose(page, ["7C", "9C"])
        tap(page, "give-discard")
        has_text(page, "give-discard", "Discard 2/2")
        tap(page, "dispute-to-auction")
        tap(page, "dispute-to-play")
        for i, card in enumerate(cards[:7]):
            tap(page, f"play-{card.code}")
            if i < 6:
                visible(page, f"play-{cards[i + 1].code}")
        visible(page, "show-disputed")
        tap(page, "show-disputed")
        shot(page, "revoke-play-phone-en")
        tap(page, "disputed-7D")  # Olga's 7♦ on Tanya's Q♣, her A♣ and 10♣ in hand
        tap(page, "play-JS")
        text = wait_verdict(page, "Play the deal on to the end")
        assert VERDICT_EN[0] in text and VERDICT_EN[1] in text
        shot(page, "revoke-stopped-phone-en")
        tap(page, "play-on")
        for card in cards[9:]:
            visible(page, f"play-{card.code}")
            tap(page, f"play-{card.code}")
        text = wait_verdict(page, "The tricks as they must be written")
        for line in VERDICT_EN:
            assert line in text
        shot(page, "revoke-verdict-phone-en")
        # Best play, worked out in the analyses' worker, beside the sheet (issue #37).
        wait_best(page, BEST_EN[-1])
        assert all(line in best_text(page) for line in BEST_EN)
        shot(page, "revoke-best-phone-en")
        tap(page, "dispute-correct")
        visible(page, "message")
        wait_verdict(page, "The sheet has this deal the same way.")
    with Store(db) as store:
        deal = store.load(1).session.deals[0]
        assert deal.tricks == {0: 7, 1: 1, 2: 2}  # type: ignore[union-attr]
        assert deal.record is not None and deal.record["play"][2] == "Q♣ 7♦ J♠"
    # The kept copy reopens at its verdict: laptop in English, phone and laptop in Russian.
    with running_app(db) as (url, _db):
        for lang, (width, height), size in (
            ("en", LAPTOP, "laptop"),
            ("ru", PHONE, "phone"),
            ("ru", LAPTOP, "laptop"),
        ):
            page = open_app(browser, url, width, height)
            if lang == "ru":
                choose_language(page, "Русский")
            visible(page, "session-open-2")
            tap(page, "session-open-2")
            visible(page, "nav-history")
            tap(page, "nav-history")
            tap(page, "check-1")
            if lang == "ru":
                text = wait_verdict(page, "Взятки, как их надо записать: Tanya 7, Olga 1, Petr 2.")
                assert "В листе: Tanya — 5 взяток, по картам — 7." in text
            else:
                text = wait_verdict(page, VERDICT_EN[4])
            visible(page, "dispute-correct")
            # Best play from the revoke's position gave Tanya 5, as the sheet of this copy has.
            wait_best(page, BEST_AFTER[lang])
            shot(page, f"revoke-verdict-{size}-{lang}")
            page.context.close()
