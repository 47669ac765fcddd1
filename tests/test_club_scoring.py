"""Tournament scoring: every transform with worked numbers (worked by hand in the comments)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorepad.club.errors import ClubError
from scorepad.club.scoring import (
    Piecewise,
    Places,
    Step,
    Whists,
    bye_points,
    parse_scoring,
    piecewise,
    tour_points,
)

ONLINE = Piecewise(steps=(Step(up_to=200, whists=1), Step(whists=10)))


def test_whists_as_they_are() -> None:
    # The balances are the points: nothing changes.
    assert tour_points(Whists(), {4: 57, 9: -20, 2: -37}) == {4: 57, 9: -20, 2: -37}


def test_whists_normalised_per_opponent() -> None:
    # A table of four: 90 whists against 3 opponents = 30 each; scaled to a table of three
    # (2 opponents) = 60.  -30 -> -20, -45 -> -30, -15 -> -10.  A table of three is as it is.
    got = tour_points(Whists(normalise=True), {1: 90, 2: -30, 3: -45, 4: -15})
    assert got == {1: 60, 2: -20, 3: -30, 4: -10}
    assert tour_points(Whists(normalise=True), {1: 7, 2: -3, 3: -4}) == {1: 7, 2: -3, 3: -4}
    # 10 whists at four: 10 * 2 / 3 = 20/3, exact.
    assert tour_points(Whists(normalise=True), {1: 10, 2: -10, 3: 0, 4: 0})[1] == Fraction(20, 3)


def test_place_points_four() -> None:
    # 3/2/1/0 by balance: 40 first (3), 5 second (2), -15 third (1), -30 last (0).
    assert tour_points(Places(), {1: -15, 2: 40, 3: -30, 4: 5}) == {1: 1, 2: 3, 3: 0, 4: 2}


def test_place_points_ties_shared() -> None:
    # Two share first place: (3 + 2) / 2 = 5/2 each; the others 1 and 0.
    assert tour_points(Places(), {1: 20, 2: 20, 3: -10, 4: -30}) == {
        1: Fraction(5, 2),
        2: Fraction(5, 2),
        3: 1,
        4: 0,
    }
    # Three share the last three places: (2 + 1 + 0) / 3 = 1 each.
    assert tour_points(Places(), {1: 30, 2: -10, 3: -10, 4: -10}) == {1: 3, 2: 1, 3: 1, 4: 1}
    # Everyone even: (3 + 2 + 1 + 0) / 4 = 3/2 each.
    assert set(tour_points(Places(), dict.fromkeys(range(1, 5), 0)).values()) == {Fraction(3, 2)}


def test_place_points_three() -> None:
    # A table of three takes 3 / 1½ / 0 (the same 1½ a seat on average as 3/2/1/0).
    assert tour_points(Places(), {1: -5, 2: 12, 3: -7}) == {1: Fraction(3, 2), 2: 3, 3: 0}
    # Two share last: (1½ + 0) / 2 = 3/4.
    assert tour_points(Places(), {1: 10, 2: -5, 3: -5})[2] == Fraction(3, 4)


def test_piecewise_online() -> None:
    # "up to 200 = 1:1, above 200 = 10:1":
    # 150 -> 150; 200 -> 200; 350 -> 200 + 150/10 = 215; -350 -> -215; 205 -> 200 + 5/10 = 200½.
    assert [piecewise(ONLINE.steps, w) for w in (150, 200, 350, -350, 0)] == [
        150,
        200,
        215,
        -215,
        0,
    ]
    assert piecewise(ONLINE.steps, 205) == Fraction(401, 2)
    assert tour_points(ONLINE, {1: 350, 2: -150, 3: -200}) == {1: 215, 2: -150, 3: -200}


def test_piecewise_three_steps_normalised() -> None:
    # Up to 100 at 1:1, up to 300 at 2:1, beyond at 5:1, at a table of four normalised first:
    # 600 * 2/3 = 400 -> 100 + 200/2 + 100/5 = 220; -300 * 2/3 = -200 -> -(100 + 100/2) = -150;
    # -150 * 2/3 = -100 -> -100; -150 -> -100.
    scoring = parse_scoring("piecewise:100=1:1,300=2:1,5:1+normalised")
    assert tour_points(scoring, {1: 600, 2: -300, 3: -150, 4: -150}) == {
        1: 220,
        2: -150,
        3: -100,
        4: -100,
    }


def test_bye_is_an_average_result() -> None:
    # Places: (3 + 2 + 1 + 0) / 4 = 3/2; whists and piecewise: 0.
    assert bye_points(Places()) == Fraction(3, 2)
    assert bye_points(parse_scoring("places:5/3/1/0")) == Fraction(9, 4)
    assert bye_points(ONLINE) == bye_points(Whists()) == 0


def test_parse_scoring_forms() -> None:
    assert parse_scoring("whists") == Whists()
    assert parse_scoring("whists:normalised") == Whists(normalise=True)
    assert parse_scoring("places") == Places()
    # A table of three keeps first and last and the mean of the middle: (4 + 2) / 2 = 3.
    assert parse_scoring("places:6/4/2/0").three == (6, 3, 0)
    assert parse_scoring("piecewise:200=1:1,10:1") == ONLINE


@pytest.mark.parametrize(
    "text", ["", "elo", "places:1/2/3/4", "places:3/2/1", "piecewise:200", "piecewise:10:1,200=1:1"]
)
def test_parse_scoring_refused_with_a_sentence(text: str) -> None:
    with pytest.raises(ClubError) as exc:
        parse_scoring(text)
    assert "is not a tournament scoring" in exc.value.message.render("en")
    assert "не турнирный зачёт" in exc.value.message.render("ru")


def test_a_table_of_two_is_refused() -> None:
    with pytest.raises(ClubError, match="3 or 4 players"):
        tour_points(Whists(), {1: 5, 2: -5})


@given(st.lists(st.integers(-500, 500), min_size=3, max_size=4))
def test_place_points_sum_to_the_table_total(whists: list[int]) -> None:
    scoring = Places()
    table = scoring.four if len(whists) == 4 else scoring.three
    got = tour_points(scoring, dict(enumerate(whists, start=1)))
    assert sum(got.values()) == sum(table)
    # A better balance never scores fewer points.
    for a in got:
        for b in got:
            if whists[a - 1] > whists[b - 1]:
                assert got[a] >= got[b]


@given(st.integers(-5000, 5000), st.integers(-5000, 5000))
def test_piecewise_is_odd_and_rising(a: int, b: int) -> None:
    assert piecewise(ONLINE.steps, -a) == -piecewise(ONLINE.steps, a)
    if a < b:
        assert piecewise(ONLINE.steps, a) < piecewise(ONLINE.steps, b)
