"""Deal records: golden deals, the first illegal step in words, claims, the derived entry."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_properties import Draw

from conftest import run_cli, scored
from scorepad.play.cards import Card, Hand
from scorepad.play.record import RecordInvalid, audit, parse_record
from scorepad.scoring.pulya.convention import presets
from scorepad.testing.generate import random_record

DEALS = Path(__file__).resolve().parent / "fixtures" / "deals"


def load(name: str) -> dict[str, Any]:
    return json.loads((DEALS / name).read_text(encoding="utf-8"))


def check(data: dict[str, Any]) -> Any:
    return audit(parse_record(data))


def refused(data: dict[str, Any]) -> str:
    with pytest.raises(RecordInvalid) as exc:
        check(data)
    return exc.value.render()


def test_golden_eight_spades_trick_by_trick() -> None:
    a = check(load("eight-spades.json"))
    # The first hand (Anna, left of the dealer Vera) leads; the winner leads next.
    assert [t.winner for t in a.tricks] == [0, 0, 0, 0, 0, 0, 1, 0, 0, 0]
    assert [t.cards[0][0] for t in a.tricks] == [0, 0, 0, 0, 0, 0, 0, 1, 0, 0]
    assert a.taken == {0: 9, 1: 1, 2: 0}
    assert a.entry == {
        "type": "game",
        "declarer": 0,
        "contract": "8S",
        "calls": ["whist"],
        "tricks": {"0": 9, "1": 1, "2": 0},
    }


def test_what_a_batch_keeps_never_changes_a_verdict() -> None:
    # An auction and a convention are kept after a legal record; the same words at another
    # table (three all-passes before: 9 is the lowest bid) or with overrides strict settings
    # refuse (a tuple where a list is asked) are judged afresh.
    record = load("eight-spades.json")
    check(record)
    check({**record, "overrides": {"raspasy_exit": [6, 7, 9]}})
    after_passes = {**record, "raspasy_in_row": 3, "overrides": {"raspasy_exit": [6, 7, 9]}}
    assert refused(after_passes) == (
        "auction, bid 1: Anna said 7♠: after the all-passes the lowest bid is 9♠"
    )
    as_tuple = {**record, "overrides": {"raspasy_exit": (6, 7, 9)}}
    assert refused(as_tuple) == "convention: overrides: raspasy_exit: must be a list"
    assert check(record).entry["contract"] == "8S"  # and the kept record is still legal


def test_an_audited_entry_scores_like_a_typed_one() -> None:
    a = check(load("eight-spades.json"))
    typed = {
        "type": "game",
        "declarer": 0,
        "contract": "8S",
        "calls": ["whist", "pass"],
        "tricks": {"0": 9, "1": 1, "2": 0},
    }
    first_dealer = load("eight-spades.json")["dealer"]
    from_record = scored([a.entry], first_dealer=first_dealer).deals[0].writing
    from_typing = scored([typed], first_dealer=first_dealer).deals[0].writing
    assert (from_record.pool, from_record.gora, from_record.entries) == (
        from_typing.pool,
        from_typing.gora,
        from_typing.entries,
    )
    assert from_record.pool == [6, 0, 0] and from_record.whists[1][0] == 6


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (
            lambda d: d["play"].__setitem__(1, "K♠ 10♣ 7♣"),
            "trick 2: Boris played 10♣ while holding a spade — revoke",
        ),
        (
            lambda d: d["play"].__setitem__(7, "10♠ K♥ J♥"),
            "trick 8: 10♠ is Anna's card, but the lead is Boris's: played by the wrong player",
        ),
        (
            lambda d: d["play"].__setitem__(8, "A♠ Q♣ 9♦"),
            "trick 9: A♠ was already played in trick 1",
        ),
        (
            lambda d: d["play"].__setitem__(6, "9♥ A♥ 10♥"),
            "trick 7: nobody holds 9♥ (the talon or the discard)",
        ),
        (
            lambda d: d["play"].__setitem__(2, "A♣ 8♣ 10♣"),
            "trick 3: 8♣ is Vera's card, but Boris plays now: played by the wrong player",
        ),
        (
            lambda d: d.__setitem__("auction", ["7S", "6H", "pass", "pass"]),
            "auction, bid 2: Boris said 6♥: 6♥ is not higher than 7♠: a bid must be higher than the last",
        ),
        (
            lambda d: d.__setitem__("contract", "6NT"),
            "contract: the contract 6NT is lower than the bid 7♠",
        ),
        (lambda d: d.__setitem__("calls", ["half"]), "calls: 'half' is not allowed on a 8-game"),
        (
            lambda d: d.__setitem__("discard", "9♥ 8♠"),
            "discard: the discard is two cards of the declarer's hand and the talon",
        ),
        (
            lambda d: d["hands"].__setitem__("2", "♠7 ♣987 ♦987 ♥QJ"),
            "hands: Vera has 9 cards, must have 10",
        ),
        (
            lambda d: d.__setitem__("play", d["play"][:6]),
            "play: only 6 tricks were played and nobody claimed the rest",
        ),
    ],
)
def test_the_first_illegal_step_in_words(change: Any, reason: str) -> None:
    data = load("eight-spades.json")
    change(data)
    assert refused(data) == reason


def kovalevskaya(dealer: int, claim: dict[str, int], by: int) -> dict[str, Any]:
    # Anna (0) plays the misère; X sits on her left (Boris, 1), Y on her right (Vera, 2).
    first = (dealer + 1) % 3
    bidders = [first, (first + 1) % 3, (first + 2) % 3]
    return {
        "format": "scorepad-deal/1",
        "players": ["Anna", "Boris", "Vera"],
        "dealer": dealer,
        "hands": {"0": "♠10987 ♥98 ♦987 ♣8", "1": "♠AK ♥AKQ10 ♦A ♣QJ10", "2": "♠QJ ♥J7 ♦KQJ10 ♣97"},
        "talon": "A♣ K♣",
        "discard": "A♣ K♣",
        "auction": ["misere" if s == 0 else "pass" for s in bidders],
        "claim": {"by": by, "tricks": claim},
    }


def test_kovalevskaya_misere_caught_for_one_when_y_leads() -> None:
    a = check(
        kovalevskaya(dealer=1, by=2, claim={"0": 1, "1": 5, "2": 4})
    )  # Vera (Y) is first hand
    assert a.claim_value == 1
    assert a.entry == {"type": "misere", "declarer": 0, "tricks": {"0": 1, "1": 5, "2": 4}}
    too_much = kovalevskaya(dealer=1, by=2, claim={"0": 2, "1": 4, "2": 4})
    assert (
        refused(too_much)
        == "claim: Vera cannot claim that: with best play the declarer takes 1 of the last 10"
    )


def test_kovalevskaya_misere_clean_when_the_declarer_leads() -> None:
    a = check(kovalevskaya(dealer=2, by=0, claim={"0": 0, "1": 5, "2": 5}))  # Anna is first hand
    assert a.claim_value == 0 and a.entry["tricks"]["0"] == 0


def test_records_from_files_and_the_cli(tmp_path: Path) -> None:
    done = run_cli("--lang", "en", "audit", str(DEALS / "eight-spades.json"))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Verdict: every step is legal."
    assert lines[8] == "Trick 8: Boris K♥, Vera J♥, Anna 10♠ — Anna takes it."
    assert lines[-1].startswith('Entry: {"type": "game", "declarer": 0, "contract": "8S"')
    as_json = json.loads(run_cli("audit", str(DEALS / "eight-spades.json"), "--json").stdout)
    assert as_json["taken"] == {"0": 9, "1": 1, "2": 0} and as_json["verdict"] == "legal"
    bad = load("eight-spades.json")
    bad["play"][1] = "K♠ 10♣ 7♣"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad, ensure_ascii=False), encoding="utf-8")
    done = run_cli("--lang", "en", "audit", str(path))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.strip() == "trick 2: Boris played 10♣ while holding a spade — revoke"
    done = run_cli("--lang", "ru", "audit", str(path))
    assert done.returncode == 2 and done.stderr.startswith("взятка 2: Boris")


# --- properties ----------------------------------------------------------------------------

PRESETS = sorted(presets())


def draw_record(data: st.DataObject, claim: bool = False) -> dict[str, Any]:
    return random_record(
        Draw(data),
        convention=data.draw(st.sampled_from(PRESETS)),
        players=data.draw(st.sampled_from([3, 4])),
        claim=claim,
        raspasy_in_row=data.draw(st.integers(0, 2)),
    )


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_random_legal_play_always_validates(data: st.DataObject) -> None:
    a = check(draw_record(data, claim=data.draw(st.booleans())))
    if a.tricks or a.claim_value is not None:
        assert sum(a.taken.values()) == 10
        assert sum(a.entry["tricks"].values()) == 10


def _holdings(record: dict[str, Any]) -> dict[str, str]:
    """Who holds each card when the play starts (the declarer with the talon, less the discard)."""
    owner = {
        c: seat
        for seat, text in record["hands"].items()
        for c in str(Hand.parse(text).cards_text()).split()
    }
    a = check(record)
    if a.declarer is not None and "discard" in record:
        for c in Hand.parse(record["talon"]).cards_text().split():
            owner[c] = str(a.declarer)
        for c in Hand.parse(record["discard"]).cards_text().split():
            owner.pop(c, None)
    return owner


def _corrupt(record: dict[str, Any], data: st.DataObject) -> tuple[str, dict[str, Any]] | None:
    """One corruption of a legal record, and the words its report must contain."""
    bad = copy.deepcopy(record)
    tricks: list[str] = bad.get("play", [])
    kind = data.draw(
        st.sampled_from(
            ["auction", "twice", "not-held", "leader", "revoke"]
            if len(tricks) >= 2
            else ["auction"]
        )
    )
    if kind == "auction":  # a bid below the last
        first = next((i for i, b in enumerate(bad["auction"]) if b != "pass"), None)
        if first is None or first + 1 == len(bad["auction"]):
            bad["auction"] = ["7S", "6S"]
        else:
            bad["auction"][first + 1] = "6S"  # the next speaker bids no higher than the first bid
        return "auction", bad
    k = data.draw(st.integers(1, len(tricks) - 1))
    cards = tricks[k].split()
    if kind == "twice":
        cards[-1] = tricks[0].split()[0]
        tricks[k] = " ".join(cards)
        return "already played in trick 1", bad
    if kind == "not-held":
        spare = (
            Hand.parse(bad["discard"] if "discard" in bad else bad["talon"]).cards_text().split()
        )
        cards[0] = spare[0]
        tricks[k] = " ".join(cards)
        return "nobody holds", bad
    if kind == "leader":
        tricks[k] = " ".join(cards[1:] + cards[:1])
        return "played by the wrong player", bad
    # A revoke: a follower who held the led suit plays a card of another suit of his instead,
    # taken from one of his later tricks (where the card he should have played goes).
    owner = _holdings(record)
    played = [t.split() for t in tricks]
    for i in range(1, len(cards)):
        seat = owner[cards[i]]
        led = Card.parse(cards[0]).suit
        if Card.parse(cards[i]).suit != led:
            continue
        for j in range(k + 1, len(played)):
            for x, other in enumerate(played[j]):
                if owner[other] == seat and Card.parse(other).suit != led:
                    played[k][i], played[j][x] = other, cards[i]
                    bad["play"] = [" ".join(t) for t in played]
                    return "revoke", bad
    return None


def test_a_revoke_is_named() -> None:
    data = load("eight-spades.json")
    data["play"][0] = "A♠ Q♣ 7♠"  # Boris keeps his 8♠ ...
    data["play"][8] = "Q♠ 8♠ 9♦"  # ... and plays it later
    assert refused(data) == "trick 1: Boris played Q♣ while holding a spade — revoke"


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_any_single_corruption_is_caught_and_named(data: st.DataObject) -> None:
    record = draw_record(data)
    found = _corrupt(record, data)
    if found is None:
        return  # no follower could revoke in this deal
    words, bad = found
    with pytest.raises(RecordInvalid) as exc:
        check(bad)
    report = exc.value.render()
    if words == "auction":
        assert report.startswith("auction") and (
            "not higher than" in report or "lowest bid is" in report
        )
    else:
        assert report.startswith("trick ") and words in report, report


def test_open_play_needs_a_lone_whister_as_in_the_session() -> None:
    record = load("eight-spades.json")
    assert check({**record, "open": True}).entry["open"] is True  # Boris whists alone
    both = {**record, "calls": ["whist", "whist"], "open": True}
    assert refused(both) == "open: only a lone whister plays open"
