"""The deal entry form: only legal choices, tricks summing to 10, a live preview in words."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import scored
from scorepad.app.pulya.form import DealForm
from scorepad.contract import Trump


def form(deals: list[dict[str, Any]] | None = None, **kw: Any) -> DealForm:
    return DealForm(scored(deals or [], **kw))


def test_who_deals_and_who_leads() -> None:
    f = form([{"type": "raspasy", "tricks": {"0": 3, "1": 3, "2": 4}}])
    assert (f.dealer, f.leader, f.raspasy_in_row, f.required_exit) == (1, 2, 1, 6)
    four = form(players=["A", "B", "C", "D"], first_dealer=3)
    assert four.declarers() == [0, 1, 2]  # the dealer sits out


def test_calls_offered_speaker_by_speaker() -> None:
    f = form()
    f.choose_declarer(1)
    f.choose_contract(6, Trump.CLUBS)
    assert f.call_options() == (2, ["whist", "pass"])  # no half-whist said first
    f.say("pass")
    assert f.call_options() == (0, ["whist", "half", "pass"])
    with pytest.raises(ValueError):
        f.say("redouble")
    f.say("half")
    assert f.call_options() == (2, ["whist", "pass"])  # the whist may be returned
    f.say("whist")
    assert f.calls_complete and f.played and f.call_options() == (None, [])


def test_no_half_whist_on_an_eight_and_the_dealer_may_whist_with_four() -> None:
    f = form(players=["A", "B", "C", "D"], first_dealer=3)
    f.choose_declarer(0)
    f.choose_contract(8, Trump.HEARTS)
    assert f.call_options() == (1, ["whist", "pass"])
    f.say("pass")
    assert f.call_options() == (2, ["whist", "pass"])
    f.say("pass")
    assert f.call_options() == (3, ["whist", "pass"])  # the dealer, after two passes on an 8


def test_tricks_stay_at_ten_the_last_filled_in() -> None:
    f = form()
    f.choose_declarer(0)
    f.choose_contract(7, Trump.SPADES)
    f.say("whist")
    f.say("whist")
    assert f.tricks == {0: 7, 1: 0, 2: 3}
    f.step(1, 5)
    assert f.tricks == {0: 7, 1: 3, 2: 0}  # never past ten
    f.step(0, -2)
    assert f.tricks == {0: 5, 1: 3, 2: 2}
    with pytest.raises(ValueError, match="filled in"):
        f.step(2, 1)
    assert sum(f.tricks.values()) == 10


def test_raspasy_four_players_dealer_talon_tricks_capped() -> None:
    f = form(players=["A", "B", "C", "D"], first_dealer=3)
    f.choose_kind("raspasy")
    assert f.trick_seats() == [3, 0, 1, 2]  # the dealer's talon first; the last is filled in
    f.step(3, 5)
    assert f.tricks[3] == 2  # the talon wins two at most
    f.step(0, 4)
    f.step(1, 3)
    assert f.tricks == {3: 2, 0: 4, 1: 3, 2: 1}


def test_the_exit_level_limits_the_contracts() -> None:
    f = form([{"type": "raspasy", "tricks": {"0": 3, "1": 3, "2": 4}}], convention="piter")
    assert f.levels() == [7, 8, 9, 10] and "misere" in f.kinds()


def test_live_preview_in_words_and_the_missing_step() -> None:
    f = form()
    assert f.preview() == ([], "choose the declarer")
    f.choose_declarer(1)
    f.choose_contract(7, Trump.SPADES)
    assert f.preview() == ([], "Vera: whist or pass?")
    f.say("whist")
    f.say("pass")
    f.step(1, 0)
    f.step(2, 3)
    assert f.to_deal() == {
        "type": "game",
        "declarer": 1,
        "contract": "7S",
        "calls": ["whist", "pass"],
        "tricks": {"1": 7, "2": 3, "0": 0},
    }
    sentences, problem = f.preview()
    assert problem is None
    assert sentences == [
        "Boris: 7♠",  # the contract first, always
        "Boris made 7♠: 4 into the pulya.",
        "Vera whisted alone: 3 defence tricks × 4 = 12 whists on Boris.",
    ]
    assert f.preview("ru")[0][:2] == ["Boris: 7♠", "Boris: игра 7♠ сыграна, 4 в пулю."]


def test_a_checked_ten_has_no_calls() -> None:
    f = form()
    f.choose_declarer(0)
    f.choose_contract(10, Trump.NO_TRUMP)
    assert f.checked_ten and f.calls_complete and f.played
    f.step(0, -1)
    assert f.to_deal() == {
        "type": "game",
        "declarer": 0,
        "contract": "10NT",
        "tricks": {"0": 9, "1": 0, "2": 1},
    }
    assert f.preview()[1] is None


def test_a_closed_talon_all_pass_writes_the_sitting_dealer_with_no_trick() -> None:
    # Rostov keeps the talon closed: the 4-player dealer takes no trick, and is written with 0
    # (the scorer needs every seat), without a stepper to show.
    f = form(players=["A", "B", "C", "D"], first_dealer=3, convention="rostov")
    f.choose_kind("raspasy")
    assert f.trick_seats() == [0, 1, 2] and f.trick_range(3) == (0, 0)
    f.step(0, 4)
    f.step(1, 3)
    assert f.to_deal() == {"type": "raspasy", "tricks": {"0": 4, "1": 3, "2": 3, "3": 0}}
    assert f.preview()[1] is None


def test_declarers_are_offered_in_speaking_order_from_the_dealers_left() -> None:
    assert form(first_dealer=1).declarers() == [2, 0, 1]
    assert form(players=["A", "B", "C", "D"], first_dealer=1).declarers() == [2, 3, 0]
