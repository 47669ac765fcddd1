"""Standings: tour points added up, byes, tie-breaks, each player's tour-by-tour line."""

from __future__ import annotations

from fractions import Fraction

from support.club_nights import night

from scorepad.club.draw import draw
from scorepad.club.night import Night, Table, Tour
from scorepad.club.scoring import Places, parse_scoring
from scorepad.club.standings import standings


def _two_tours(scoring: str) -> Night:
    # Five players: a table of four and a bye each tour (seats fixed here, not drawn, so the
    # arithmetic can be followed by hand).
    n = night(5, tours=2).model_copy(update={"scoring": parse_scoring(scoring)})
    t1 = Tour(
        number=1,
        tables=(Table(number=1, players=(1, 2, 3, 4), whists={1: 40, 2: 10, 3: -20, 4: -30}),),
        byes=(5,),
        state="ended",
    )
    t2 = Tour(
        number=2,
        tables=(Table(number=1, players=(5, 2, 3, 1), whists={5: 30, 2: 30, 3: -20, 1: -40}),),
        byes=(4,),
        state="ended",
    )
    return n.model_copy(update={"drawn": (t1, t2)})


def test_whists_standings_by_hand() -> None:
    # Whists summed: P1 40 - 40 = 0; P2 10 + 30 = 40; P3 -20 - 20 = -40; P4 -30 + bye 0 = -30;
    # P5 bye 0 + 30 = 30.
    rows = standings(_two_tours("whists"))
    assert [(s.rank, s.number, s.points) for s in rows] == [
        (1, 2, 40),
        (2, 5, 30),
        (3, 1, 0),
        (4, 4, -30),
        (5, 3, -40),
    ]
    p4 = next(s for s in rows if s.number == 4)
    assert [(x.tour, x.table, x.whists, x.points, x.bye) for x in p4.tours] == [
        (1, 1, -30, -30, False),
        (2, None, 0, 0, True),
    ]


def test_place_standings_with_shared_places_and_a_bye() -> None:
    # Tour 1 (3/2/1/0): P1 3, P2 2, P3 1, P4 0; P5 bye 3/2.
    # Tour 2: P5 and P2 share first (3+2)/2 = 5/2; P3 1; P1 0; P4 bye 3/2.
    # Totals: P2 2 + 5/2 = 9/2; P5 3/2 + 5/2 = 4; P1 3; P3 2; P4 3/2.
    rows = standings(_two_tours("places"))
    assert [(s.number, s.points) for s in rows] == [
        (2, Fraction(9, 2)),
        (5, 4),
        (1, 3),
        (3, 2),
        (4, Fraction(3, 2)),
    ]
    assert [s.rank for s in rows] == [1, 2, 3, 4, 5]


def test_tie_breaks_points_then_whists_then_best_tour() -> None:
    # Places 2/2/2/2 make every tour point 2 (all tie on points); whists break the tie:
    # P2 40 > P5 30 > P1 0 > P4 -30 > P3 -40.
    n = _two_tours("places").model_copy(update={"scoring": Places(four=(2, 2, 2, 2))})
    # Every line is 2 points (a bye's average of 2/2/2/2 is 2 too): everyone has 4.
    assert {s.points for s in standings(n)} == {4}
    assert [s.number for s in standings(n)] == [2, 5, 1, 4, 3]


def test_equal_on_every_break_share_the_rank() -> None:
    n = night(3, tours=1)
    n, _ = draw(n)
    tab = n.drawn[0].tables[0]
    a, b, c = tab.players
    n = n.with_whists(1, 1, {a: 10, b: 10, c: -20})
    rows = standings(n)
    assert [(s.rank, s.number) for s in rows] == [(1, min(a, b)), (1, max(a, b)), (3, c)]


def test_live_standings_count_written_tables_only() -> None:
    n, _ = draw(night(6, tours=2))
    first = n.drawn[0].tables[0]
    n = n.with_whists(1, 1, dict(zip(first.players, (6, -2, -4), strict=True)))
    rows = standings(n)
    assert {s.number: len(s.tours) for s in rows} == {
        p: (1 if p in first.players else 0) for p in range(1, 7)
    }
    assert all(not x.final for s in rows for x in s.tours)


def test_a_player_with_no_table_is_not_ranked_above_one_who_played_by_his_whists() -> None:
    # Issue #37: places 3/2/1/0 at a table of four; the last (0 points, -50 whists) and a late
    # arrival with no tour yet (0 points, 0 whists): the one who played ranks first.
    n = night(4, tours=2).model_copy(update={"scoring": Places()})
    n, _ = draw(n)
    tab = n.tour(1).tables[0]
    a, b, c, d = tab.players
    n = n.with_whists(1, tab.number, {a: 60, b: 10, c: -20, d: -50})
    n = n.check_in("Late")
    rows = {s.number: s for s in standings(n)}
    assert (rows[d].points, rows[5].points) == (0, 0)
    assert rows[d].rank == 4 and rows[5].rank == 5
    assert rows[d].played and not rows[5].played
