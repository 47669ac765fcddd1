"""Checking a disputed deal in a real browser at phone size: the cards by taps, a revoke named,
a claim refused and held, a made contract's costly card, an all-pass, a 4-player deal, and the
record reopened after a restart and after export → import.

Screenshots go to ``screenshots/dispute-*.png`` (looked at by a person before landing).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from e2e import harness
from e2e.harness import (
    choose_language,
    has_text,
    open_app,
    running_app,
    shot,
    tap,
    type_text,
    visible,
)

from scorepad.play.cards import Card, Hand
from scorepad.store import Store

pytestmark = pytest.mark.flaky(reruns=1, reruns_delay=2)
browser = harness.browser  # the shared headless chromium fixture

DEALS = Path(__file__).resolve().parent / "fixtures" / "deals"
PHONE = (360, 740)
LAPTOP = (1280, 800)
# eight-spades.json as the sheet wrote it: Anna (seat 0) made 8♠, Vera dealt.
SESSION = {
    "format": "scorepad-session/1",
    "players": ["Anna", "Boris", "Vera"],
    "convention": "sochi",
    "pool_target": 20,
    "first_dealer": 2,
    "deals": [
        {"type": "game", "declarer": 0, "contract": "8S", "calls": ["whist", "pass"],
         "tricks": {"0": 10, "1": 0, "2": 0}},
    ],
}  # fmt: skip


def verdict_text(page: Any) -> str:
    node = page.locator('[flt-semantics-identifier="verdict"]').first
    node.wait_for(state="attached", timeout=60000)
    return str(node.inner_text())


def wait_verdict(page: Any, part: str) -> str:
    from playwright.sync_api import expect

    expect(page.locator('[flt-semantics-identifier="verdict"]').first).to_contain_text(
        part, timeout=60000
    )
    return verdict_text(page)


def choose(page: Any, codes: list[str]) -> None:
    """Tap cards on the grid, each tap waiting for the count it makes."""
    for k, code in enumerate(codes, start=1):
        tap(page, f"card-{code}")
        has_text(page, "dispute-hint", f"{k} chosen: tap whose they are.")


def lay_out_by_taps(page: Any, names: list[str], hands: dict[int, str], talon: str) -> None:
    """Tap a hand's cards, tap whose they are; the talon; the last hand by "the rest"."""
    *first, last = hands
    for seat in first:
        choose(page, [c.code for c in Hand.parse(hands[seat])])
        tap(page, f"give-{seat}")
        has_text(page, f"give-{seat}", f"{names[seat]} 10/10")
    choose(page, [Card.parse(tok).code for tok in talon.split()])
    tap(page, "give-talon")
    has_text(page, "give-talon", "Talon 2/2")
    tap(page, f"rest-{last}")
    has_text(page, f"give-{last}", f"{names[last]} 10/10")


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One app, with the sheet's session, for the tests below that only read it: they paste a
    record into the analysis and save nothing (the revoke tapped in and saved has its own app,
    restarted). Its address."""
    db = tmp_path_factory.mktemp("dispute") / "shared.db"
    with Store(db) as store:
        store.import_session(json.dumps(SESSION))
    with running_app(db) as (url, _db):
        yield url
    with Store(db) as store:  # nothing was written: each test saw the session as imported
        assert store.load(1).session.deals[0].record is None


class Phone(harness.KeptPage):
    """The kept phone, which a test leaves on a check of a deal: a screen of its own, without
    the way back to the list of sessions, so its Back comes first (to History)."""

    def sessions(self, lang: str) -> Any:
        page = self.page
        checking = '[flt-semantics-identifier="dispute-back"]'
        if page is not None and page.context in harness.KEPT and page.locator(checking).count():
            tap(page, "dispute-back")
            visible(page, "nav-sessions")
        return super().sessions(lang)


@pytest.fixture(scope="module")
def phone(browser: Any, shared: str) -> Iterator[harness.KeptPage]:
    """The phone the analyses at phone size are pasted on: one page load for them
    (harness.KeptPage); each test goes back to the list of sessions and opens the session."""
    kept = Phone(browser, shared)
    yield kept
    kept.discard()


def open_session(page: Any) -> None:
    visible(page, "session-new")
    tap(page, "session-open-1")
    visible(page, "nav-history")
    tap(page, "nav-history")


def test_a_revoke_entered_by_taps_is_named_and_kept_with_the_deal(
    browser: Any, tmp_path: Path
) -> None:
    db = tmp_path / "dispute.db"
    with Store(db) as store:
        store.import_session(json.dumps(SESSION))
    record = json.loads((DEALS / "eight-spades.json").read_text(encoding="utf-8"))
    with running_app(db) as (url, _db):
        page = open_app(browser, url, *PHONE)
        open_session(page)
        tap(page, "check-1")
        visible(page, "card-AS")
        shot(page, "dispute-cards-empty-phone-en")
        hands = {int(s): h for s, h in record["hands"].items()}
        lay_out_by_taps(page, record["players"], hands, record["talon"])
        # The declarer is known from the sheet: his discard is marked on the grid.
        choose(page, ["9H", "8H"])
        tap(page, "give-discard")
        has_text(page, "give-discard", "Discard 2/2")
        shot(page, "dispute-cards-phone-en")
        tap(page, "dispute-to-auction")
        has_text(page, "auction-said", "Anna: 8♠, Boris: pass, Vera: pass")
        shot(page, "dispute-auction-phone-en")
        tap(page, "dispute-to-play")
        for code, who in (("AS", "Boris"), ("8S", "Vera"), ("7S", "Anna"), ("KS", "Boris")):
            tap(page, f"play-{code}")  # trick 1, then Anna leads K♠
            has_text(page, "to-play", f"{who} to play")
        tap(page, "show-disputed")
        shot(page, "dispute-play-phone-en")
        tap(page, "disputed-TC")  # Boris throws 10♣ holding the 9♠
        tap(page, "play-7C")
        text = wait_verdict(page, "revoke")
        assert "Illegal: trick 2: Boris played 10♣ while holding a spade — revoke" in text
        shot(page, "dispute-revoke-phone-en")
        tap(page, "dispute-save")
        visible(page, "message")
    with Store(db) as store:
        kept = store.load(1).session.deals[0].record
        assert kept is not None and kept["play"][1] == "K♠ 10♣ 7♣"
        exported = store.export_session(1)
    # The export imported into another database (into this one it is the same session, by its
    # stable id, and changes nothing).
    copy = tmp_path / "copy.db"
    with Store(copy) as store:
        assert store.import_session(exported) == 1
    # After a restart, and in the copy imported: History reopens the verdict.
    for where in (db, copy):
        with running_app(where) as (url, _db):
            page = open_app(browser, url, *PHONE)
            open_session(page)
            tap(page, "check-1")
            assert "Boris played 10♣ while holding a spade" in wait_verdict(page, "revoke")


def paste_record(page: Any, record: dict[str, Any]) -> None:
    tap(page, "analyse-deal")
    field = (
        page.locator('[flt-semantics-identifier="analysis-record"]')
        .locator("textarea, input")
        .first
    )
    type_text(page, field, json.dumps(record, ensure_ascii=False))
    tap(page, "analysis-open")


@pytest.mark.parametrize(
    ("lang", "size"), [("en", PHONE), ("ru", LAPTOP)], ids=["phone-en", "laptop-ru"]
)
def test_a_claim_is_refused_then_held(
    browser: Any, shared: str, lang: str, size: tuple[int, int]
) -> None:
    record = json.loads((DEALS / "lost-seven.json").read_text(encoding="utf-8"))
    record["play"] = record["play"][:3]  # three tricks played, then a claim
    # a page of its own: its size, and its language chosen on the first screen
    page = open_app(browser, shared, *size)
    if lang == "ru":  # chosen from the first screen's list, as a player does
        visible(page, "language")
        choose_language(page, "Русский")
        has_text(page, "session-new", "Новая пулька")
    open_session(page)
    paste_record(page, record)
    tap(page, "dispute-step-play")
    tap(page, "claim-by-1")  # Boris, the declarer, claims all seven
    shot(page, f"dispute-claim-{'phone' if size == PHONE else 'laptop'}-{lang}")
    tap(page, "claim-confirm")
    refused = (
        "The claim is refused: Boris cannot claim that: with best play the declarer takes 6"
        if lang == "en"
        else "Заявка отклонена: Boris: заявка неверна — при лучшей игре разыгрывающий берёт 6"
    )
    wait_verdict(page, refused)
    shot(page, f"dispute-claim-refused-{'phone' if size == PHONE else 'laptop'}-{lang}")
    tap(page, "dispute-step-play")
    tap(page, "card-undo")  # the claim withdrawn
    tap(page, "claim-by-2")  # Vera: the declarer 6, herself 1
    tap(page, "claim-1-6")
    tap(page, "claim-2-1")
    tap(page, "claim-confirm")
    held = (
        "The claim holds: with best play the declarer takes 6 of the rest."
        if lang == "en"
        else "Заявка верна: при лучшей игре разыгрывающий берёт 6 из оставшихся."
    )
    text = wait_verdict(page, held)
    assert (
        "Verdict: every step is legal." if lang == "en" else "Итог: все ходы по правилам."
    ) in text
    shot(page, f"dispute-claim-held-{'phone' if size == PHONE else 'laptop'}-{lang}")


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (
            "made-seven.json",
            "trick 2, Anna's A♠ instead of 8♠: the defence could have taken 3, now 2",
        ),
        ("all-pass.json", "Each player's own best alone against the other two"),
        ("four-six.json", "6♦ (played): the declarer took 6 tricks, made"),
    ],
    ids=["made", "all-pass", "four-players"],
)
def test_a_shared_record_is_replayed_with_its_analysis(
    phone: harness.KeptPage, name: str, expected: str
) -> None:
    record = json.loads((DEALS / name).read_text(encoding="utf-8"))
    page = phone.sessions("en")
    open_session(page)
    paste_record(page, record)
    assert expected in wait_verdict(page, expected)
    shot(page, f"dispute-{name[:-5]}-phone-en")
    if name == "four-six.json":
        tap(page, "dispute-step-cards")
        visible(page, "give-talon")
        assert page.locator('[flt-semantics-identifier="give-0"]').count() == 0  # the dealer
        shot(page, "dispute-four-cards-phone-en")


def test_a_record_is_shared_as_a_file_and_opened_from_it(
    phone: harness.KeptPage, tmp_path: Path
) -> None:
    """The verdict's record saved as a scorepad-deal/1 file, then opened from that file."""
    record = json.loads((DEALS / "eight-spades.json").read_text(encoding="utf-8"))
    record["play"][1] = "K♠ 10♣ 7♣"  # the revoke, so the verdict is the record's own
    page = phone.sessions("en")
    open_session(page)
    paste_record(page, record)
    wait_verdict(page, "Boris played 10♣ while holding a spade — revoke")
    with page.expect_download(timeout=60000) as download:
        tap(page, "dispute-save-file")
    saved = tmp_path / "shared.json"
    download.value.save_as(saved)
    assert download.value.suggested_filename == "deal.json"
    shared = json.loads(saved.read_text(encoding="utf-8"))
    assert shared["format"] == "scorepad-deal/1"
    assert shared["play"][1] == "K♠ 10♣ 7♣" and shared["hands"] == {
        seat: Hand.parse(text).cards_text() for seat, text in record["hands"].items()
    }
    tap(page, "dispute-back")
    visible(page, "analyse-deal")
    tap(page, "analyse-deal")
    big = tmp_path / "big.json"  # no deal record is 64 KB: refused, nothing opened
    big.write_bytes(b" " * (64 * 1024 + 1))
    with page.expect_file_chooser(timeout=60000) as chooser:
        tap(page, "analysis-file")
    chooser.value.set_files(str(big))
    has_text(page, "analysis-result", "big.json is larger than 64 KB: it is not a deal record")
    with page.expect_file_chooser(timeout=60000) as chooser:
        tap(page, "analysis-file")
    chooser.value.set_files(str(saved))
    text = wait_verdict(page, "revoke")
    assert "Illegal: trick 2: Boris played 10♣ while holding a spade — revoke" in text
    shot(page, "dispute-from-file-phone-en")
