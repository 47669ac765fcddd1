"""The draw: tables of 3 and 4, byes, random seats from a seed, repeats avoided and reported."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.club_nights import ended, night

from scorepad.club.draw import draw, meetings, redraw, repeats_of, table_sizes
from scorepad.club.errors import ClubError


@pytest.mark.parametrize(
    ("players", "seats", "sizes", "byes"),
    [
        (3, None, [3], 0),
        (4, None, [4], 0),
        (5, None, [4], 1),  # 5 cannot split: a table of four and one bye
        (6, None, [3, 3], 0),
        (7, None, [3, 4], 0),
        (8, None, [4, 4], 0),
        (10, None, [3, 3, 4], 0),
        (40, None, [3] * 12 + [4], 0),  # 40 = 12 * 3 + 4: thirteen tables
        (10, 4, [4, 4], 2),
        (10, 3, [3, 3, 3], 1),
        (2, None, [], 2),
    ],
)
def test_table_sizes(players: int, seats: int | None, sizes: list[int], byes: int) -> None:
    assert table_sizes(players, seats) == (sizes, byes)


def test_nine_players_meet_no_one_twice_in_four_tours() -> None:
    # 9 players at 3 tables of 3 can play 4 tours without a repeat (the affine plane of order 3);
    # the draw finds such a seating.
    n = night(9, tours=4)
    for _ in range(4):
        n, report = draw(n)
        assert report.repeats == ()
        n = ended(n)
    assert repeats_of(n) == 0
    assert max(meetings(n.drawn).values()) == 1


def test_six_players_must_repeat_and_the_draw_says_so() -> None:
    # 6 players at two tables of three: tour 2's tables each hold two players of one tour-1
    # table (3 + 3 split into 2 + 1 and 1 + 2), so 2 repeats at least; the draw finds exactly 2.
    n = ended(draw(night(6))[0])
    n, report = draw(n)
    assert len(report.repeats) == 2
    assert all(r.times == 1 for r in report.repeats)
    first = {frozenset(t.players) for t in n.drawn[0].tables}
    for r in report.repeats:
        assert any({r.first, r.second} <= t for t in first)
        assert {r.first, r.second} <= set(n.drawn[1].table(r.table).players)


def test_forty_players_five_tours_without_a_repeat() -> None:
    n = night(40, tours=5)
    for _ in range(5):
        n, report = draw(n)
        assert report.repeats == ()
        assert sorted(len(t.players) for t in n.drawn[-1].tables) == [3] * 12 + [4]
        n = ended(n)


def test_byes_go_round() -> None:
    # 5 players: one bye a tour, never the same player twice in five tours.
    n = night(5, tours=5)
    byes = []
    for _ in range(5):
        n, report = draw(n)
        assert len(report.byes) == 1 and len(n.drawn[-1].tables[0].players) == 4
        byes.append(report.byes[0])
        n = ended(n)
    assert sorted(byes) == [1, 2, 3, 4, 5]


def test_tables_of_four_only_give_byes() -> None:
    n, report = draw(night(10, seats=4))
    assert len(report.byes) == 2
    assert [len(t.players) for t in n.drawn[0].tables] == [4, 4]


def test_the_seed_decides_the_seats() -> None:
    a = draw(night(12, seed=1))[0].drawn[0]
    b = draw(night(12, seed=1))[0].drawn[0]
    c = draw(night(12, seed=2))[0].drawn[0]
    assert a == b
    assert a != c


def test_redraw_only_before_the_first_deal() -> None:
    n, _ = draw(night(12))
    again, _ = redraw(n)
    assert again.drawn[0].redraws == 1
    assert again.drawn[0].tables != n.drawn[0].tables
    playing = again.started(1)
    with pytest.raises(ClubError) as exc:
        redraw(playing)
    assert (
        exc.value.message.render("en") == "tour 1 cannot be drawn again: its first deal is written"
    )


def test_redraw_takes_a_late_arrival() -> None:
    n, _ = draw(night(8))
    n = n.check_in("Late")
    assert n.player(9).first_tour == 1  # tour 1 has not started: he can still be seated
    n, _ = redraw(n)
    assert any(9 in t.players for t in n.drawn[0].tables)


def test_a_draw_with_too_few_players_is_refused() -> None:
    n = night(2)
    with pytest.raises(ClubError) as exc:
        draw(n)
    assert exc.value.message.render("en") == (
        "tour 1 cannot be drawn: 2 players are checked in, a table needs at least 3"
    )
    assert n.drawn == ()


def test_the_next_draw_waits_for_the_tour_to_end() -> None:
    n, _ = draw(night(6))
    with pytest.raises(ClubError, match="tour 1 has not ended"):
        draw(n)


def test_no_draw_past_the_last_tour() -> None:
    n = ended(draw(night(6, tours=1))[0])
    with pytest.raises(ClubError, match="every tour of the night is drawn"):
        draw(n)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 60),
    st.sampled_from([None, 3, 4]),
    st.integers(0, 2**32),
    st.integers(1, 4),
)
def test_every_player_seated_once_or_given_a_bye(
    players: int, seats: int | None, seed: int, tours: int
) -> None:
    n = night(players, tours=tours, seats=seats, seed=seed)
    if not table_sizes(players, seats)[0]:
        with pytest.raises(ClubError):
            draw(n)
        return
    for _ in range(tours):
        n, report = draw(n)
        t = n.drawn[-1]
        seated = Counter(p for tab in t.tables for p in tab.players)
        assert all(3 <= len(tab.players) <= 4 for tab in t.tables)
        if seats is not None:
            assert all(len(tab.players) == seats for tab in t.tables)
        assert set(seated.values()) <= {1}
        assert sorted([*seated, *t.byes]) == list(range(1, players + 1))
        assert report.byes == t.byes
        assert len(t.byes) == table_sizes(players, seats)[1]
        n = ended(n)
