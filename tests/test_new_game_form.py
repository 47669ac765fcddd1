"""The new-game form without a widget (screens/new_game_form.py): its fields, its choices, each
refusal in the catalogs' words, and the new game it asks the session for."""

from __future__ import annotations

import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.app.frame.state import NewSession, new_session_for
from scorepad.app.screens.new_game_form import NewGameForm
from scorepad.app.session import NewGame
from scorepad.core.i18n import catalog


def said(form: NewGameForm, lang: str = "en") -> list[str]:
    return [catalog(lang).render(m) for m in form.refusals()]


def test_the_form_imports_no_flet() -> None:
    code = "import sys, scorepad.app.screens.new_game_form; print('flet' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_filled_form_asks_for_the_game_as_typed() -> None:
    form = NewGameForm(new_session_for("de"))
    assert not form.may_start
    for i, name in enumerate(["Anna", "Boris", "Vera"]):
        form.name(i, f" {name} ")
    form.choose_dealer("2")
    form.type_text("pool-target", "30")
    assert form.may_start and form.refusals() == []
    assert form.game() == NewGame(
        players=("Anna", "Boris", "Vera"),
        convention="sochi",
        overrides={},
        pool_target=30,
        first_dealer=2,
        whist_price="1.00",  # "1,00": the German table's comma, kept as the store keeps it
        currency="EUR",
    )


def test_each_field_is_refused_in_the_players_words_and_nothing_is_asked() -> None:
    form = NewGameForm(NewSession())
    form.name(0, "Anna")
    form.name(1, "anna")
    assert form.type_text("whist-price", "0") is not None
    assert form.type_text("currency", "rubles") is not None
    assert form.game() is None
    assert said(form) == [
        "Player 2: this name is already at the table",
        "the whist price must be more than zero, such as 0.5 or 1",
        "a currency is a three-letter code, such as RUB, EUR or USD",
        "Player 3: every player needs a name",
    ]
    assert said(form, "ru")[0] == "Игрок 2: это имя уже за столом"
    form.name(1, "Boris")  # fixing the name takes its refusal away
    assert "Player 2: this name is already at the table" not in said(form)


def test_a_duplicate_is_fixed_by_renaming_either_seat() -> None:
    form = NewGameForm(NewSession())
    form.name(0, "Anna")
    assert form.name(1, "Anna") == [1]
    assert form.name(0, "Vera") == [0, 1]  # the other seat's refusal is checked again
    assert form.refusal("player-1") is None


def test_a_three_handed_game_has_no_fourth_seat_and_a_family_asks_its_numbers() -> None:
    form = NewGameForm(NewSession(players=4))
    form.choose_convention("balkan")
    assert form.family == "bula" and form.four_offered
    assert [name for _, name in form.family_fields] == ["start_bula", "refe_limit"]
    assert form.price_label == "Price of a supa"
    assert form.type_number("start_bula", "7") is not None  # an odd bula
    assert said(form) == ["an even number from 2 to 100000"]
    form.type_number("start_bula", "")
    form.choose_convention("illustrated")
    assert form.st.family_numbers == {} and form.refusals() == []
    swabian = NewGameForm(NewSession(players=4, convention="swabian"))
    assert swabian.count == 3 and not swabian.four_offered


def test_the_roster_offers_who_is_not_seated_and_fills_the_first_empty_seat() -> None:
    form = NewGameForm(NewSession())
    form.name(0, "Anna")
    assert form.offered(["anna", "Boris"]) == [False, True]
    form.pick("Boris")
    assert form.names == ["Anna", "Boris", ""]


def test_a_dealer_outside_the_table_is_not_taken() -> None:
    form = NewGameForm(NewSession())
    for value in ("3", "-1", "x", None, 2.0):
        form.choose_dealer(value)
    assert form.st.dealer == 0
    form.choose_count(4)
    form.choose_dealer("3")
    form.choose_count(3)
    assert form.st.dealer == 2


NAMES = st.text(alphabet=st.sampled_from("AaBb Ωω\u200b"), max_size=4)


@settings(max_examples=80, deadline=None)
@given(st.lists(NAMES, min_size=3, max_size=3), st.integers(0, 2))
def test_a_game_is_asked_for_only_when_no_field_is_refused(names: list[str], dealer: int) -> None:
    """Whatever is typed: either a game whose players are the names as typed, all different
    and none empty, or no game and a refusal for every seat that is wrong."""
    form = NewGameForm(NewSession())
    for i, name in enumerate(names):
        form.name(i, name)
    form.choose_dealer(str(dealer))
    game = form.game()
    if game is None:
        assert form.refusals()
        return
    assert list(game.players) == [n.strip() for n in names]
    assert all(game.players) and len({p.casefold() for p in game.players}) == 3
    assert game.first_dealer == dealer and form.refusals() == []
