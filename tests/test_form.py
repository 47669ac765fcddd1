"""The deal entry form: only legal choices, tricks summing to 10, a live preview in words."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import scored
from scorepad.app.pulya.form import DealForm, TricksRefused
from scorepad.core.i18n import catalog
from scorepad.scoring.contract import Trump
from scorepad.scoring.pulya.session import Game


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


def test_no_count_is_given_and_the_last_is_filled_in_once_the_others_are_chosen() -> None:
    f = form()
    f.choose_declarer(0)
    f.choose_contract(7, Trump.SPADES)
    f.say("whist")
    f.say("whist")
    assert f.tricks == {} and not f.tricks_complete  # nothing chosen, nothing written
    assert f.preview() == ([], "Anna: how many tricks?")
    f.set_tricks(0, 7)
    assert f.tricks == {0: 7} and f.preview() == ([], "Boris: how many tricks?")
    f.set_tricks(1, 3)
    assert f.tricks == {0: 7, 1: 3, 2: 0} and f.tricks_complete  # Vera: the rest
    f.set_tricks(0, 5)
    assert f.tricks == {0: 5, 1: 3, 2: 2}  # lowering one count gives the rest to the last seat
    f.set_tricks(0, 7)
    assert f.tricks == {0: 7, 1: 3, 2: 0}  # raising it lowers the last seat's, the only way
    with pytest.raises(ValueError, match="filled in"):
        f.step(2, 1)
    assert sum(f.tricks.values()) == 10


def test_a_count_that_cannot_be_chosen_says_why() -> None:
    f = form()
    f.choose_declarer(0)
    f.choose_contract(6, Trump.SPADES)
    f.say("whist")
    f.say("whist")
    f.set_tricks(1, 3)  # Boris first: the declarer's count is not filled in by itself
    assert f.tricks == {1: 3}
    assert 8 not in f.trick_choices(0) and 7 in f.trick_choices(0)
    with pytest.raises(TricksRefused) as refused:
        f.set_tricks(0, 8)
    assert str(refused.value) == "8 is not possible: Boris has 3"
    assert catalog("ru").render(refused.value.why) == "8 не получится: Boris — уже 3"
    assert f.tricks == {1: 3}  # a refused tap changes nothing
    assert f.trick_choices(2) == []  # the last seat is filled in
    assert str(f.refusal(2, 1) and catalog("en").render(f.refusal(2, 1))) == (
        "Vera: the rest of the ten, filled in"
    )


def test_an_all_pass_starts_with_no_count_and_cannot_be_written_at_once() -> None:
    f = form()
    f.choose_kind("raspasy")
    assert f.tricks == {} and f.preview()[1] == "Boris: how many tricks?"
    f.set_tricks(1, 3)
    f.set_tricks(2, 3)
    assert f.tricks == {1: 3, 2: 3, 0: 4} and f.preview()[1] is None


def test_made_not_whisted_is_the_deal_with_every_defender_passing() -> None:
    f = form()
    f.choose_declarer(0)
    assert f.passed_out() is None  # no contract yet
    f.choose_contract(6, Trump.HEARTS)
    passed = f.passed_out()
    assert passed is not None and f.calls == []  # the form itself is untouched
    # The form's typed deal: both defenders passed, which the file writes in its shortest form.
    assert [str(c) for c in passed.calls] == ["pass", "pass"]
    assert passed.deal() == Game(type="game", declarer=0, contract="6H", calls=["pass", "pass"])
    assert passed.to_deal() == {"type": "game", "declarer": 0, "contract": "6H", "calls": []}
    f.say("whist")
    assert f.passed_out() is None  # a call said: the calls are entered one by one


def test_raspasy_four_players_dealer_talon_tricks_capped() -> None:
    f = form(players=["A", "B", "C", "D"], first_dealer=3)
    f.choose_kind("raspasy")
    assert f.trick_seats() == [3, 0, 1, 2]  # the dealer's talon first; the last is filled in
    with pytest.raises(TricksRefused, match="3 is not possible: D takes 2 at most"):
        f.set_tricks(3, 3)
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
    f.set_tricks(1, 7)
    f.set_tricks(2, 3)
    assert f.deal() == Game(
        type="game",
        declarer=1,
        contract="7S",
        calls=["whist", "pass"],
        tricks={"1": 7, "2": 3, "0": 0},
    )
    # Its file form: the calls in their shortest form (the pass after a whist goes without saying).
    assert f.to_deal() == {
        "type": "game",
        "declarer": 1,
        "contract": "7S",
        "calls": ["whist"],
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
    f.set_tricks(0, 9)
    f.set_tricks(1, 0)
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
    f.set_tricks(0, 4)
    f.set_tricks(1, 3)
    assert f.to_deal() == {"type": "raspasy", "tricks": {"0": 4, "1": 3, "2": 3, "3": 0}}
    assert f.preview()[1] is None


def test_declarers_are_offered_in_speaking_order_from_the_dealers_left() -> None:
    assert form(first_dealer=1).declarers() == [2, 0, 1]
    assert form(players=["A", "B", "C", "D"], first_dealer=1).declarers() == [2, 3, 0]


def test_the_common_calls_in_one_tap_each_said_speaker_by_speaker() -> None:
    f = form()
    f.choose_declarer(1)
    f.choose_contract(6, Trump.CLUBS)
    # Vera (2) speaks first, then Anna (0): both whist, Vera alone, Anna alone.
    assert f.call_shortcuts() == [
        (None, ["whist", "whist"]),
        (2, ["whist", "pass"]),
        (0, ["pass", "whist"]),
    ]
    f.say_all(["pass", "whist"])
    assert f.calls == ["pass", "whist"] and f.lone_whister and f.calls_complete
    assert f.call_shortcuts() == []  # once a call is said, the rows take over
    with pytest.raises(ValueError):
        f.say_all(["whist", "whist"])
    # Nothing to shortcut on a checked ten, nor before the contract.
    g = form()
    g.choose_declarer(0)
    assert g.call_shortcuts() == []
    g.choose_contract(10, Trump.SPADES)
    assert g.checked_ten and g.call_shortcuts() == []


def test_a_made_game_split_in_one_tap_writes_every_count_the_split_says() -> None:
    f = form()
    f.choose_declarer(1)
    f.choose_contract(7, Trump.HEARTS)
    assert f.made_splits() == []  # nobody has spoken: nothing is played yet
    f.say_all(["whist", "whist"])
    assert f.trick_seats() == [1, 2, 0]
    assert f.made_splits() == [(3, 0), (2, 1), (1, 2), (0, 3)]
    assert f.made_split is None
    f.choose_made(2)
    assert f.tricks == {1: 7, 2: 2, 0: 1} and f.made_split == (2, 1)
    lines, why = f.preview()
    assert why is None and lines[0].startswith("Boris")
    assert f.to_deal()["tricks"] == {"1": 7, "2": 2, "0": 1}
    f.set_tricks(1, 6)  # down one: no made split shown as chosen
    assert f.made_split is None
    with pytest.raises(ValueError):
        f.choose_made(4)
    # Not whisted: nothing is played, so no split.
    g = form()
    g.choose_declarer(1)
    g.choose_contract(6, Trump.SPADES)
    g.say("pass")
    g.say("pass")
    assert not g.played and g.made_splits() == []
