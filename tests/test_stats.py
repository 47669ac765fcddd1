"""Players' statistics over the stored pulkas, against three pulkas computed by hand.

Sochi, pool 10.  The hand computation (gora less pulya, least subtracted, shared by 3 at 10
whists a point; balance = whists written less received):

Pulka 1 (Anna, Boris, Vera; 1.00 RUB a whist)
  1. Boris 6♠, both whist, 6/3(Vera)/1(Anna): Boris pulya 2; Vera 6 on Boris, Anna 2 on Boris.
  2. Anna 7♥, both whist, 6/2/2: Anna gora 4; Boris and Vera each 8 + 4 consolation on Anna.
  3. Vera's misère, no trick: Vera pulya 10.
  gora − pulya = 4, −2, −10 → 14, 8, 0; shares 140/3, 80/3.
  balances −266/3, −8/3, +274/3 → −88.66, −2.67, +91.33 RUB.
  An all-pass 2/4/4 written after deal 1 and voided must not count.

Pulka 2 (Anna, Boris, Gleb; 0.50 RUB)
  1. All-pass 3/4/3: the amnesty takes 3 tricks off each; Boris 1 into his gora.
  2. Gleb 6♣, both whist, 7/2(Anna)/1(Boris): Gleb pulya 2; Anna 4, Boris 2 on Gleb; Boris
     short on his whist by 1: 2 into his gora.
  gora − pulya = 0, 3, −2 → 2, 5, 0; balances +22/3, −74/3, +52/3 → +3.67, −12.33, +8.66 RUB.

Pulka 3 (Vera, Anna, Boris; 1.00 RUB)
  1. Anna's misère, 2 tricks: 20 into her gora.   2. Boris 8♦, nobody whists: pulya 6.
  gora − pulya = 0, 20, −6 → 6, 26, 0; balances +140/3, −460/3, +320/3
  → +46.67, −153.33, +106.66 RUB.

A fourth, deleted pulka must count for nobody.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from conftest import typed
from scorepad.players.pulkas import Contracts, store_stats
from scorepad.store import Store


def game(declarer: int, contract: str, calls: list[str], **tricks: int) -> dict[str, Any]:
    deal: dict[str, Any] = {
        "type": "game",
        "declarer": declarer,
        "contract": contract,
        "calls": calls,
    }
    if tricks:
        deal["tricks"] = {k[1:]: v for k, v in tricks.items()}
    return deal


def add(store: Store, sid: int, *deals: dict[str, Any]) -> None:
    for d in deals:
        store.add_deal(sid, typed(store, sid, d), seen=store.load(sid).revision)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store(tmp_path / "scorepad.db") as s:
        p1 = s.create_session(["Anna", "Boris", "Vera"], pool_target=10)
        add(
            s,
            p1,
            game(1, "6S", ["whist", "whist"], s1=6, s2=3, s0=1),
            {"type": "raspasy", "tricks": {"0": 2, "1": 4, "2": 4}},
        )
        voided = s.load(p1).journal.live[1].deal_id
        s.void_deal(p1, voided, reason="wrong table", seen=s.load(p1).revision)
        add(
            s,
            p1,
            game(0, "7H", ["whist", "whist"], s0=6, s1=2, s2=2),
            {"type": "misere", "declarer": 2, "tricks": {"2": 0}},
        )
        p2 = s.create_session(["Anna", "Boris", "Gleb"], pool_target=10, whist_price="0.50")
        add(
            s,
            p2,
            {"type": "raspasy", "tricks": {"0": 3, "1": 4, "2": 3}},
            game(2, "6C", ["whist", "whist"], s2=7, s0=2, s1=1),
        )
        p3 = s.create_session(["Vera", "Anna", "Boris"], pool_target=10)
        add(s, p3, {"type": "misere", "declarer": 1, "tricks": {"1": 2}}, game(2, "8D", []))
        gone = s.create_session(["Anna", "Boris", "Gleb"], pool_target=10)
        add(s, gone, game(0, "9S", []))
        s.delete_session(gone, seen=s.load(gone).revision)
        yield s


def test_each_player_across_three_pulkas(store: Store) -> None:
    stats = store_stats(store)
    assert sorted(stats) == ["Anna", "Boris", "Gleb", "Vera"]
    anna, boris, vera, gleb = (stats[n] for n in ("Anna", "Boris", "Vera", "Gleb"))

    assert [anna.pulkas, boris.pulkas, vera.pulkas, gleb.pulkas] == [3, 3, 2, 1]
    # money in kopecks: won and lost (a loss counted as a positive sum lost)
    assert (anna.won, anna.lost) == ({"RUB": 367}, {"RUB": 8866 + 15333})
    assert (boris.won, boris.lost) == ({"RUB": 10666}, {"RUB": 267 + 1233})
    assert (vera.won, vera.lost) == ({"RUB": 9133 + 4667}, {})
    assert (gleb.won, gleb.lost) == ({"RUB": 866}, {})
    assert anna.net == {"RUB": 367 - 24199}
    total = sum(s.net.get("RUB", 0) for s in stats.values())
    assert total == 0  # what one wins another loses

    assert anna.contracts == {7: Contracts(declared=1, made=0, failed=1)}
    assert boris.contracts == {
        6: Contracts(declared=1, made=1, failed=0),
        8: Contracts(declared=1, made=1, failed=0),
    }
    assert gleb.contracts == {6: Contracts(declared=1, made=1, failed=0)}
    assert vera.contracts == {}
    assert (anna.miseres_made, anna.miseres_failed) == (0, 1)
    assert (vera.miseres_made, vera.miseres_failed) == (1, 0)
    assert (boris.miseres_made, boris.miseres_failed) == (0, 0)

    # whists written on the others / written on him, over all his pulkas
    assert (anna.whists_written, anna.whists_received) == (2 + 4, 24)
    assert (boris.whists_written, boris.whists_received) == (12 + 2, 8)
    assert (vera.whists_written, vera.whists_received) == (18, 0)
    assert (gleb.whists_written, gleb.whists_received) == (0, 6)
    # all-pass tricks (the voided all-pass of pulka 1 is not counted)
    assert [anna.all_pass_tricks, boris.all_pass_tricks, gleb.all_pass_tricks] == [3, 4, 3]
    assert vera.all_pass_tricks == 0


def test_money_over_pulkas_runs_in_order(store: Store) -> None:
    stats = store_stats(store)
    anna = stats["Anna"]
    assert [r.session for r in anna.results] == [1, 2, 3]
    assert [r.balance for r in anna.results] == [
        Fraction(-266, 3),
        Fraction(22, 3),
        Fraction(-460, 3),
    ]
    assert anna.money_over_pulkas() == ("RUB", [-8866, -8866 + 367, -8866 + 367 - 15333])
    assert stats["Gleb"].money_over_pulkas() == ("RUB", [866])


def test_no_pulkas_no_players(tmp_path: Path) -> None:
    with Store(tmp_path / "empty.db") as s:
        s.create_session(["Anna", "Boris", "Vera"])  # no deal yet: not a pulka played
        assert store_stats(s) == {}


async def test_the_players_screen_shows_the_engine_figures(store: Store) -> None:
    import threading

    from support.flet_fakes import by_id, fire, make_page

    from scorepad.app.frame.shell import Shell
    from scorepad.app.screens.players import players_screen

    page, session, _conn = make_page(width=360, height=740)
    shell = Shell(page, store, "ru", threading.RLock())
    shell.show(players_screen)
    # most pulkas first: Anna and Boris (3), then Vera (2), then Gleb (1)
    assert [by_id(page, f"player-{k}").content for k in range(4)] == [
        "Anna",
        "Boris",
        "Vera",
        "Gleb",
    ]
    assert by_id(page, "stat-pulkas").value == "3"
    assert by_id(page, "stat-lost").value == "241,99\u00a0₽"
    assert by_id(page, "stat-won").value == "3,67\u00a0₽"
    assert by_id(page, "stat-miseres").value == "0 / 1"
    await fire(session, by_id(page, "player-1"))
    assert by_id(page, "stat-won").value == "106,66\u00a0₽"
    assert by_id(page, "stat-lost").value == "15,00\u00a0₽"
    assert [by_id(page, f"{k}-8").value for k in ("declared", "made", "failed")] == ["1", "1", "0"]
    # and as a graph: a bar a level, made stacked under failed
    bars = by_id(page, "player-contracts-chart").groups
    assert [
        (g.rods[0].to_y, [(i.from_y, i.to_y) for i in g.rods[0].stack_items]) for g in bars
    ] == [
        (1, [(0, 1), (1, 1)]),
        (1, [(0, 1), (1, 1)]),
    ]
    # three pulkas: Boris's running money over them, a point an evening, as counted by hand above
    # (−2.67, then −12.33, then +106.66)
    (line,) = by_id(page, "player-chart").data_series
    assert [(p.x, p.y) for p in line.points] == [(1, -2.67), (2, -15.0), (3, 91.66)]
