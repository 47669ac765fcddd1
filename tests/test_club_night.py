"""The night: its settings, check-in, late arrival and withdrawal between tours, ending a tour."""

from __future__ import annotations

import datetime

import pytest
from pydantic import ValidationError
from support.club_nights import ended, night

from scorepad.club.draw import draw
from scorepad.club.errors import ClubError
from scorepad.club.night import Night


def test_players_get_numbers_in_order() -> None:
    n = night(3)
    assert [(p.number, p.name, p.first_tour) for p in n.players] == [
        (1, "P1", 1),
        (2, "P2", 1),
        (3, "P3", 1),
    ]


def test_a_player_checked_in_twice_is_refused() -> None:
    n = night().check_in("Анна")
    for again in ("Анна", "анна", " АННА "):
        with pytest.raises(ClubError) as exc:
            n.check_in(again)
        assert exc.value.message.render("en") == "'Анна' is already checked in as number 1"
        assert exc.value.message.render("ru") == "'Анна' уже зарегистрирован под номером 1"
    assert len(n.players) == 1


def test_a_bad_name_is_refused_with_the_session_sentence() -> None:
    with pytest.raises(ClubError) as exc:
        night().check_in("   ")
    assert exc.value.message.render("en") == "a player name must not be empty"


def test_late_arrival_plays_from_the_next_tour() -> None:
    n, _ = draw(night(6))
    n = n.started(1)
    n = n.check_in("Late")
    assert n.player(7).first_tour == 2
    assert [p.number for p in n.present(1)] == [1, 2, 3, 4, 5, 6]
    n, _ = draw(ended(n))
    assert 7 in {p for t in n.drawn[1].tables for p in t.players}


def test_withdrawal_between_tours() -> None:
    n = ended(draw(night(7))[0])
    n = n.withdraw(3)
    assert n.player(3).last_tour == 1
    n, _ = draw(n)
    assert 3 not in {p for t in n.drawn[1].tables for p in t.players}
    assert [p.number for p in n.present(2)] == [1, 2, 4, 5, 6, 7]
    with pytest.raises(ClubError, match="number 3 has withdrawn already"):
        n.withdraw(3)
    with pytest.raises(ClubError, match="no player has the number 99 tonight"):
        n.withdraw(99)


def test_a_withdrawn_player_may_check_in_again() -> None:
    # Issue #37: the same person checked in again comes back with his number and record,
    # not as a second player of the same name.
    n = ended(draw(night(6))[0]).withdraw(2)
    back = n.check_in("P2")
    assert len(back.players) == 6
    assert back.player(2).last_tour is None and back.player(2).plays(2)


def test_a_tour_ends_only_with_every_table_written() -> None:
    n, _ = draw(night(6))
    with pytest.raises(ClubError, match="tour 1 cannot end: table 1 has no result"):
        n.end(1)
    n = ended(n)
    assert n.drawn[0].state == "ended"
    with pytest.raises(ClubError, match="tour 1 has ended already"):
        n.end(1)


def test_whists_must_name_the_table_players() -> None:
    n, _ = draw(night(6))
    with pytest.raises(ClubError, match="the whists name other players than the table"):
        n.with_whists(1, 1, {1: 0, 2: 0, 99: 0})


def test_a_night_has_a_pool_or_a_deal_count() -> None:
    with pytest.raises(ValidationError):
        Night(name="X", date=datetime.date(2026, 1, 1), convention="sochi", tours=2)
    with pytest.raises(ValidationError):
        Night(
            name="X",
            date=datetime.date(2026, 1, 1),
            convention="sochi",
            tours=2,
            pool_target=10,
            deals_per_tour=12,
        )
    n = Night(
        name="X", date=datetime.date(2026, 1, 1), convention="sochi", tours=2, deals_per_tour=12
    )
    assert n.deals_per_tour == 12
