"""The club file scorepad-club/1: a whole night round-trips; a table that does not add up is
refused with a sentence naming the tour and the table."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from support.club_nights import night

from conftest import session
from scorepad.club.draw import draw
from scorepad.club.errors import ClubError
from scorepad.club.file import dump_night, parse_night
from scorepad.club.night import Night
from scorepad.scoring.pulya.score import replay
from scorepad.scoring.pulya.session import Session, parse_session
from scorepad.scoring.pulya.settlement import balances

# Two deals at a table of three (sochi), settled by the engine: the file must agree with them.
DEALS = [
    {
        "type": "game",
        "declarer": 1,
        "contract": "6S",
        "calls": ["whist"],
        "tricks": {"1": 6, "2": 3, "0": 1},
    },
    {
        "type": "game",
        "declarer": 0,
        "contract": "7H",
        "calls": ["whist", "whist"],
        "tricks": {"0": 6, "1": 2, "2": 2},
    },
]


def _played() -> tuple[Night, dict[tuple[int, int], Session]]:
    n, _ = draw(night(3, tours=2))
    tab = n.drawn[0].tables[0]
    s = parse_session(session(DEALS, players=[n.name_of(p) for p in tab.players], pool_target=10))
    got = balances(replay(s).sheet, replay(s).settings)
    n = n.with_whists(1, 1, dict(zip(tab.players, got, strict=True))).end(1)
    return n, {(1, 1): s}


def test_a_night_round_trips() -> None:
    n, sessions = _played()
    text = dump_night(n, sessions)
    back, back_sessions, _, _ = parse_night(text)
    assert back == n
    assert back_sessions == sessions
    assert dump_night(back, back_sessions) == text
    data = json.loads(text)
    assert data["format"] == "scorepad-club/1"
    assert sum(Fraction(str(v)) for v in data["drawn"][0]["tables"][0]["whists"].values()) == 0


def _edit(text: str, change: Any) -> str:
    data = json.loads(text)
    change(data)
    return json.dumps(data, ensure_ascii=False)


def _refusal(text: str) -> str:
    with pytest.raises(ClubError) as exc:
        parse_night(text)
    return exc.value.message.render("en")


def test_a_table_whose_whists_do_not_sum_to_zero() -> None:
    n, sessions = _played()

    def bump(data: dict[str, Any]) -> None:
        w = data["drawn"][0]["tables"][0]["whists"]
        first = next(iter(w))
        w[first] = str(Fraction(str(w[first])) + 5)

    got = _refusal(_edit(dump_night(n, sessions), bump))
    assert got == "tour 1, table 1 does not add up: its whists sum to 5, not 0"


def test_a_table_whose_whists_are_not_its_deals() -> None:
    n, sessions = _played()
    tab = n.drawn[0].tables[0]
    a, b, _ = tab.players

    def swap(data: dict[str, Any]) -> None:
        w = data["drawn"][0]["tables"][0]["whists"]
        w[str(a)], w[str(b)] = w[str(b)], w[str(a)]

    real = tab.whists
    assert real is not None and real[a] != real[b]
    got = _refusal(_edit(dump_night(n, sessions), swap))
    assert got == (
        f"tour 1, table 1 does not add up: {n.name_of(a)} has {real[b]} whists in the file, "
        f"the deals give {real[a]}"
    )


def test_a_player_twice_in_a_tour() -> None:
    n, sessions = _played()

    def twice(data: dict[str, Any]) -> None:
        data["drawn"][0]["byes"] = [data["drawn"][0]["tables"][0]["players"][0]]

    got = _refusal(_edit(dump_night(n, sessions), twice))
    assert got.startswith("tour 1: number ") and got.endswith("is not one player of the tour, once")


def test_a_player_checked_in_twice_in_a_file() -> None:
    n, sessions = _played()
    got = _refusal(
        _edit(dump_night(n, sessions), lambda d: d["players"].append({"number": 9, "name": "p1"}))
    )
    assert got == "the club file checks one player in twice"


def test_not_a_club_file() -> None:
    assert _refusal("{") == "this is not a club file: it is not JSON"
    assert _refusal('{"format": "scorepad-session/1"}') == (
        "this is not a club file: its format is not scorepad-club/1"
    )
    n, sessions = _played()
    got = _refusal(_edit(dump_night(n, sessions), lambda d: d.update(tours=0)))
    assert got.startswith("the club file is refused at tours: ")
