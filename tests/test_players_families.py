"""The players' statistics of every family counted by hand (Prefa, the pot games, the bula closed
first), and the rating: the library's documented figures, four-player tables, and a replay in
order after an edit, a void and a restore of a deal."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce

from conftest import typed
from scorepad.players.rating import MODEL, Rating, ranks, ratings
from scorepad.players.season import season_table
from scorepad.players.stats import chosen, family_stats, played
from scorepad.store import Store


def add(store: Store, sid: int, *deals: dict[str, Any]) -> None:
    for d in deals:
        store.add_deal(sid, typed(store, sid, d), seen=store.load(sid).revision)


def ids(store: Store) -> dict[str, int]:
    return {e.name: e.id for e in store.directory()}


# --- the library's documented figures -----------------------------------------------------------


def test_the_library_gives_its_documented_figures() -> None:
    # openskill 6.2's README, «Limited Example»: two teams of two at the default rating, the first
    # winning, with the library's defaults (its drift tau = 25/300 included).
    model = PlackettLuce()
    r = model.rating
    [[a, b], [x, y]] = model.rate([[r(), r()], [r(), r()]])
    assert (a.mu, a.sigma) == (26.964294621803063, 8.177962604389991)
    assert (x.mu, x.sigma) == (23.035705378196937, 8.177962604389991)
    assert (a.mu, a.sigma) == (b.mu, b.sigma) and (x.mu, x.sigma) == (y.mu, y.sigma)
    # Scorepad's model is the library's with no drift (tau = 0), every other default kept:
    # openskill's earlier README (3.x, before tau) documents its figures to the last digit.
    assert (MODEL.mu, MODEL.sigma, MODEL.beta, MODEL.kappa, MODEL.tau) == (
        model.mu,
        model.sigma,
        model.beta,
        model.kappa,
        0,
    )
    a1, a2 = MODEL.rating(), MODEL.rating(mu=32.444, sigma=5.123)
    b1, b2 = MODEL.rating(mu=43.381, sigma=2.421), MODEL.rating(mu=25.188, sigma=6.211)
    [[x1, x2], [y1, y2]] = MODEL.rate([[a1, a2], [b1, b2]])
    assert [(v.mu, v.sigma) for v in (x1, x2, y1, y2)] == [
        (28.669648436582808, 8.071520788025197),
        (33.83086971107981, 5.062772998705765),
        (43.071274808241974, 2.4166900452721256),
        (23.149503312339064, 6.1378606973362135),
    ]
    # The reference implementation's own tests (openskill.js, test/rate.test.js), which are
    # about ranked tables of three and four like ours, ties included: «allows ties» …
    a, b, c = (MODEL.rating(mu=m, sigma=s) for m, s in ((10, 8), (5, 10), (0, 12)))
    assert [(t[0].mu, t[0].sigma) for t in MODEL.rate([[a], [b], [c]], ranks=[1, 2, 2])] == [
        (11.942833056030613, 7.926463661123746),
        (2.938193791485662, 9.65347573412201),
        (-1.4023734358082325, 11.323360667700934),
    ]
    # … «four-way-tie with newbies» …
    tie = MODEL.rate([[MODEL.rating()] for _ in range(4)], ranks=[1, 1, 1, 1])
    assert [(t[0].mu, t[0].sigma) for t in tie] == [(25.0, 8.263160757613477)] * 4
    # … and «fixes orders of ties».
    four = [[MODEL.rating(mu=m, sigma=25 / 3)] for m in (15, 20, 25, 30)]
    assert [(t[0].mu, t[0].sigma) for t in MODEL.rate(four, ranks=[2, 4, 2, 1])] == [
        (15.340046366255285, 8.21273604193863),
        (18.007807436399276, 8.188629384105589),
        (24.25804790911316, 8.166514496319483),
        (32.39409828823228, 8.247276990243211),
    ]
    # openskill's README (3.x): the ordinal μ − 3σ of (43.07, 2.42) is 35.81
    assert round(Rating(1, "pulya", 43.07, 2.42, 9).ordinal, 2) == 35.81
    assert round(MODEL.rating(mu=43.07, sigma=2.42).ordinal(), 2) == 35.81


# --- statistics counted by hand -----------------------------------------------------------------


def test_a_prefa_game_is_counted_in_prefas_terms(store: Store) -> None:
    """Greek Prefa, kassa 4, 1 € a point (a chip is 0.10 €), §7.2–§7.4 by hand:

    1. Vera 6♠ (c = 2), both whist, 6/2/2: her kassa 4 → 2; she pays each whister 2 × 2 = 4
       chips.  Chips: Anna +4, Boris +4, Vera −8.
    2. Anna 7♥ (c = 7), both whist, 6/2/2, down one (G4): her kassa 4 → 11; she pays each whister
       7 × 2 = 14 chips.  Chips: Anna −24, Boris +18, Vera +6.
    3. Vera 6♠ again as in 1: her kassa 2 → 0, the first kassa closed.  Chips −20, +22, −2:
       −2.00 €, +2.20 €, −0.20 €.

    Vera made both her games although each cost her chips: made and failed are the kassa's.
    """
    sid = store.create_session(
        ["Anna", "Boris", "Vera"],
        convention="prefa",
        overrides={"kassa": 4},
        whist_price="1.00",
        currency="EUR",
    )
    six = {
        "type": "game",
        "declarer": 2,
        "contract": "6S",
        "defence": {"0": "whist", "1": "whist"},
        "tricks": {"2": 6, "0": 2, "1": 2},
    }
    seven = {
        "type": "game",
        "declarer": 0,
        "contract": "7H",
        "defence": {"1": "whist", "2": "whist"},
        "tricks": {"0": 6, "1": 2, "2": 2},
    }
    add(store, sid, six, seven, six)
    p = ids(store)
    stats = family_stats(played(store))
    anna, boris, vera = (stats[(p[n], "kassa")] for n in ("Anna", "Boris", "Vera"))
    assert (anna.result, boris.result, vera.result) == (-20, 22, -2)
    assert (anna.lost, boris.won, vera.lost) == ({"EUR": 200}, {"EUR": 220}, {"EUR": 20})
    assert (anna.won, boris.lost, vera.won) == ({}, {}, {})
    assert vera.by_level() == {"6S": (2, 2, 0)}
    assert anna.by_level() == {"7H": (1, 0, 1)}
    assert boris.by_level() == {}
    assert [s.counts.get("kassa_closed_first", 0) for s in (anna, boris, vera)] == [0, 0, 1]
    assert [s.games for s in (anna, boris, vera)] == [1, 1, 1]


def test_an_austrian_evening_is_counted_in_the_pot_games_terms(store: Store) -> None:
    """Digest A-E6 (Austrian 1829, ante 240 kr, a kreuzer 1/60 gulden): Anton makes ♦ with 6/2/2,
    Brigitte deals a Bete, Charlotte fails ♥ with 5/4/1: results 54, −20, −34 kr, which is
    0.90, −0.33, −0.57 (−20/60 and −34/60 rounded once, the sum kept at zero)."""
    sid = store.create_session(
        ["Anton", "Brigitte", "Charlotte"],
        convention="austrian-1829",
        whist_price="1/60",
        currency="EUR",
    )
    add(
        store,
        sid,
        {
            "type": "game",
            "declarer": 0,
            "suit": "D",
            "defence": {"1": "play", "2": "play"},
            "tricks": {"0": 6, "1": 2, "2": 2},
        },
        {"type": "bete", "dealer": 1},
        {
            "type": "game",
            "declarer": 2,
            "suit": "H",
            "defence": {"0": "play", "1": "play"},
            "tricks": {"2": 5, "0": 4, "1": 1},
        },
    )
    p = ids(store)
    stats = family_stats(played(store))
    anton, brigitte, charlotte = (stats[(p[n], "pot")] for n in ("Anton", "Brigitte", "Charlotte"))
    assert (anton.result, brigitte.result, charlotte.result) == (54, -20, -34)
    assert (anton.net, brigitte.net, charlotte.net) == ({"EUR": 90}, {"EUR": -33}, {"EUR": -57})
    assert anton.by_level() == {"game:D": (1, 1, 0)}
    assert charlotte.by_level() == {"game:H": (1, 0, 1)}
    assert brigitte.by_level() == {}  # a Bete is no game declared


def test_the_bula_closed_first_is_counted(store: Store) -> None:
    # Start bula 6: Vera declares 3 with the talon and takes 6 (2 × 3 = 6 off her bula): closed.
    sid = store.create_session(
        ["Anna", "Boris", "Vera"], convention="balkan", overrides={"start_bula": 6}
    )
    add(
        store,
        sid,
        {
            "type": "game",
            "declarer": 2,
            "bid": 3,
            "defence": {"0": "follow", "1": "follow"},
            "tricks": {"2": 6, "0": 2, "1": 2},
        },
    )
    assert store.load(sid).scored.table.bulas == [6, 6, 0]  # type: ignore[union-attr]
    p = ids(store)
    stats = family_stats(played(store))
    assert [
        stats[(p[n], "bula")].counts.get("bula_closed_first", 0) for n in ("Anna", "Boris", "Vera")
    ] == [0, 0, 1]
    assert stats[(p["Vera"], "bula")].by_level() == {"3": (1, 1, 0)}


def test_the_cli_chooses_a_group_of_players(tmp_path: Path) -> None:
    import csv
    import io

    from conftest import cli_out

    db = tmp_path / "club.db"
    with Store(db) as s:
        a = s.create_session(["Anna", "Boris", "Vera"])
        b = s.create_session(["Anna", "Boris", "Gleb"])
        add(s, a, {"type": "game", "declarer": 0, "contract": "6S", "calls": []})
        add(s, b, {"type": "game", "declarer": 0, "contract": "6S", "calls": []})
        p = ids(s)
    group = [x for n in ("Anna", "Boris", "Vera") for x in ("--player", str(p[n]))]
    rows = list(csv.DictReader(io.StringIO(cli_out("players", "--csv", *group, "--db", str(db)))))
    assert sorted(r["name"] for r in rows) == [
        "Anna",
        "Boris",
        "Vera",
    ]  # Gleb's table is not theirs
    assert {r["name"]: r["games"] for r in rows} == {"Anna": "1", "Boris": "1", "Vera": "1"}
    every = list(csv.DictReader(io.StringIO(cli_out("players", "--csv", "--db", str(db)))))
    assert {r["name"]: r["games"] for r in every}["Anna"] == "2"


# --- the rating ---------------------------------------------------------------------------------


def pulka(store: Store, declarer: int, *, whisted: bool = True) -> int:
    """A pulka of pool 2 that finishes: ``declarer`` first makes 7♠ (whisted 7/2/1), then each of
    the others makes 6♠ unwhisted, then ``declarer`` 6♠."""
    sid = store.create_session(["Anna", "Boris", "Vera"], pool_target=2)
    o = [s for s in range(3) if s != declarer]
    first: dict[str, Any] = {"type": "game", "declarer": declarer, "contract": "7S", "calls": []}
    if whisted:
        first |= {
            "calls": ["whist", "whist"],
            "tricks": {str(declarer): 7, str(o[0]): 2, str(o[1]): 1},
        }
    add(
        store,
        sid,
        first,
        {"type": "game", "declarer": o[0], "contract": "6S", "calls": []},
        {"type": "game", "declarer": o[1], "contract": "6S", "calls": []},
    )
    assert store.load(sid).scored.finished
    return sid


def replayed(*tables: list[Any]) -> list[tuple[float, float]]:
    """The three players' (μ, σ) after rating ``tables`` (each the seats' results) in order."""
    now = [MODEL.rating() for _ in range(3)]
    for results in tables:
        new = MODEL.rate([[r] for r in now], ranks=[float(x) for x in ranks(results)])
        now = [t[0] for t in new]
    return [(r.mu, r.sigma) for r in now]


def test_equal_results_tie_whatever_kopeck_the_rounding_gives(store: Store) -> None:
    # Anna makes 7♠ whisted 7/2/1: Anna and Boris each end +4/3 whists, Vera −8/3; the money
    # rounds to 1.34, 1.33 and −2.67, but the two results are one: a tie for the first place.
    pulka(store, 0)
    (table,) = played(store)
    assert [s.result for s in table.record.seats] == [
        Fraction(4, 3),
        Fraction(4, 3),
        Fraction(-8, 3),
    ]
    assert [s.money for s in table.record.seats] == [134, 133, -267]
    p = ids(store)
    rated = ratings(played(store))
    anna, boris = rated[(p["Anna"], "pulya")], rated[(p["Boris"], "pulya")]
    assert (anna.mu, anna.sigma) == (boris.mu, boris.sigma)
    assert [(a.mu, a.sigma) for a in (anna, boris)] == replayed([1, 1, -2])[:2]


def test_an_edit_a_void_and_a_restore_replay_the_ratings_in_order(store: Store) -> None:
    first = pulka(store, 0)  # Anna and Boris share the first place, Vera last
    pulka(store, 1, whisted=False)  # Boris first, Anna and Vera share the second place
    p = ids(store)
    seats = [p["Anna"], p["Boris"], p["Vera"]]

    def now() -> list[tuple[float, float]]:
        rated = ratings(played(store))
        return [(rated[(pid, "pulya")].mu, rated[(pid, "pulya")].sigma) for pid in seats]

    def results() -> list[list[Any]]:
        return [[s.result for s in x.record.seats] for x in played(store)]

    before = results()
    assert [ranks(r) for r in before] == [[1, 1, 3], [2, 1, 2]]
    assert now() == replayed(*before)
    # An edit of the first pulka's first deal: Vera passed, Boris whisted alone and took 3.
    # Its ranks become Boris, Anna, Vera, and the second pulka is rated again from them.
    stored = store.load(first)
    edited = typed(
        store,
        first,
        {
            "type": "game",
            "declarer": 0,
            "contract": "7S",
            "calls": ["whist", "pass"],
            "tricks": {"0": 7, "1": 3, "2": 0},
        },
    )
    store.edit_deal(
        first, stored.journal.live[0].deal_id, edited, reason="Vera passed", seen=stored.revision
    )
    after = results()
    assert [ranks(r) for r in after] == [[2, 1, 3], [2, 1, 2]]
    assert after[1] == before[1]
    after_edit = now()
    assert after_edit == replayed(*after) != replayed(*before)
    # A void of the edited deal: the first pulka is unfinished (Anna's pool is empty), it rates
    # nobody, and the second is rated alone.
    stored = store.load(first)
    last = stored.journal.live[0].deal_id
    store.void_deal(first, last, reason="not played", seen=stored.revision)
    assert not store.load(first).scored.finished
    assert now() == replayed(before[1])
    assert all(r.games == 1 for r in ratings(played(store)).values())
    # restored (as edited): exactly the ratings after the edit
    store.restore_deal(first, last, seen=store.load(first).revision)
    assert now() == after_edit
    assert all(r.games == 2 for r in ratings(played(store)).values())


def test_a_four_player_table_is_rated_with_the_dealer_sitting_out(store: Store) -> None:
    # Pool 2, the dealer sits out (Anna deals first): Boris makes 7♠ whisted by Vera (2 tricks)
    # and Gleb (1); then Vera, Gleb and Anna each make 6♠ unwhisted; the pulka is finished.
    sid = store.create_session(["Anna", "Boris", "Vera", "Gleb"], pool_target=2)
    add(
        store,
        sid,
        {
            "type": "game",
            "declarer": 1,
            "contract": "7S",
            "calls": ["whist", "whist"],
            "tricks": {"1": 7, "2": 2, "3": 1},
        },
        {"type": "game", "declarer": 2, "contract": "6S", "calls": []},
        {"type": "game", "declarer": 3, "contract": "6S", "calls": []},
        {"type": "game", "declarer": 0, "contract": "6S", "calls": []},
    )
    assert store.load(sid).scored.finished
    (table,) = played(store)
    assert sum(s.money for s in table.record.seats) == 0
    order = ranks(s.result for s in table.record.seats)
    assert order[1] == 1  # Boris, who made the 7♠, ends on top (shared or not)
    expected = MODEL.rate([[MODEL.rating()] for _ in range(4)], ranks=[float(x) for x in order])
    p = ids(store)
    rated = ratings(played(store))
    for seat, name in enumerate(["Anna", "Boris", "Vera", "Gleb"]):
        got = rated[(p[name], "pulya")]
        assert (got.mu, got.sigma, got.games) == (expected[seat][0].mu, expected[seat][0].sigma, 1)
    # one rating per family: a finished bula of the same players is rated apart
    assert {f for (_pid, f) in rated} == {"pulya"}
    assert ratings(chosen(played(store), family="bula")) == {}


def test_the_ratings_and_a_settled_debt_read_back_from_the_cli_csv(tmp_path: Path) -> None:
    import csv
    import io

    from conftest import cli_out
    from scorepad.players.rating import MIN_GAMES
    from scorepad.players.season import debts

    db = tmp_path / "club.db"
    with Store(db) as s:
        for declarer in (0, 1, 2, 0, 0):  # 7♠ unwhisted: Anna's three times, Boris's, Vera's
            pulka(s, declarer, whisted=False)
        assert MIN_GAMES == 5
        p = ids(s)
        rated = ratings(played(s))
        owed = {(d.debtor, d.creditor): d for d in debts(played(s))}

    def table(*args: str) -> list[dict[str, str]]:
        return list(csv.DictReader(io.StringIO(cli_out(*args, "--csv", "--db", str(db)))))

    rows = table("ratings")
    assert len(rows) == 3 and all(r["games"] == str(MIN_GAMES) for r in rows)
    for r in rows:
        got = rated[(int(r["player_id"]), "pulya")]
        assert r["family"] == "pulya" and r["rating"] == f"{got.ordinal:.2f}"
        assert (float(r["mu"]), float(r["sigma"])) == (round(got.mu, 4), round(got.sigma, 4))
    assert rows[0]["name"] == "Anna"  # three wins of five: the highest μ, first
    assert [float(r["mu"]) for r in rows] == sorted((float(r["mu"]) for r in rows), reverse=True)
    # a debt, then part of it settled: the journal keeps it and the debts go down by it
    debts_before = table("debts")
    (vera_anna,) = [r for r in debts_before if (r["debtor"], r["creditor"]) == ("Vera", "Anna")]
    cents = owed[(p["Vera"], p["Anna"])].amount
    assert vera_anna["amount"] == f"{cents // 100}.{cents % 100:02d}"
    assert vera_anna["evenings"] == str(owed[(p["Vera"], p["Anna"])].evenings)
    assert cli_out("settled", str(p["Vera"]), str(p["Anna"]), "1.00", "--db", str(db)) == ""
    after = {(r["debtor"], r["creditor"]): r["amount"] for r in table("debts")}
    left = cents - 100
    assert after[("Vera", "Anna")] == f"{left // 100}.{left % 100:02d}"
    with Store(db) as s:
        (act,) = s.player_history()
        assert (act.kind, act.player_id, act.other_id, act.amount, act.currency) == (
            "settle",
            p["Vera"],
            p["Anna"],
            100,
            "RUB",
        )


async def test_the_players_screen_shows_a_seasons_period_group_and_standings(
    store: Store,
) -> None:
    import threading

    from support.flet_fakes import by_id, find, fire, make_page

    from scorepad.app.frame.shell import Shell
    from scorepad.app.screens.players import players_screen

    pulka(store, 0)  # the regulars: Anna and Boris share the first place
    pulka(store, 0)
    guest = store.create_session(["Anna", "Boris", "Gleb"], pool_target=10)
    add(store, guest, {"type": "game", "declarer": 2, "contract": "8S", "calls": []})
    p = ids(store)
    day = played(store)[0].started[:10]
    regulars = [p["Anna"], p["Boris"], p["Vera"]]
    sid = store.create_season("Fridays", since=day, until=day, players=regulars)
    page, session, _conn = make_page(width=360, height=740)
    shell = Shell(page, store, "en", threading.RLock())
    shell.show(players_screen)
    assert by_id(page, "player-0").content == "Anna"
    assert by_id(page, "stat-pulkas").value == "3"  # every evening: the guest's table too
    await fire(session, by_id(page, f"season-{sid}"))
    assert by_id(page, "season-title").value == f"Fridays: {day} to {day}"
    assert by_id(page, "stat-pulkas").value == "2"  # the season's: only the regulars' tables
    table = season_table(played(store), since=day, until=day, group=regulars)
    money = [by_id(page, f"standing-money-{k}").value for k in range(3)]
    assert money == [
        f"{k + 1}. {n} — {v}"
        for k, (n, v) in enumerate(
            [("Anna", "RUB\u00a02.68"), ("Boris", "RUB\u00a02.66"), ("Vera", "−RUB\u00a05.34")]
        )
    ]
    assert [s.player for s in table.by_money] == [p["Anna"], p["Boris"], p["Vera"]]
    games = [by_id(page, f"standing-games-{k}").value for k in range(3)]
    assert games == ["1. Anna — 2 games", "2. Boris — 2 games", "3. Vera — 2 games"]
    assert by_id(page, "standing-rating-0").value.endswith("not yet rated")  # 2 of 5 games
    # Gleb sat only at the guest's table: not in the season's record
    assert [by_id(page, f"player-{k}").content for k in range(3)] == ["Anna", "Boris", "Vera"]
    assert not find(page, lambda c: getattr(c, "identifier", None) == "player-3")
    await fire(session, by_id(page, "season-all"))
    assert by_id(page, "stat-pulkas").value == "3"


def test_the_benchmark_prints_its_figures_beside_the_goals_and_the_machine() -> None:
    import subprocess
    import sys

    bench = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_players.py"
    out = subprocess.run(
        [sys.executable, str(bench), "--sessions", "12", "--repeat", "1"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert out[0].startswith("machine: ") and " cores, load " in out[0] and ", Python " in out[0]
    assert "over 12 sessions" in out[1] and out[1].endswith("goal ≤ 500 ms")
    assert "rating replay after an edit" in out[2] and out[2].endswith("goal ≤ 200 ms")
    assert all("ms wall" in line and "ms CPU" in line for line in out[1:3])


def test_a_merged_name_and_its_entry_cannot_take_two_seats_at_one_table(store: Store) -> None:
    from scorepad.store import StoreError

    store.create_session(["Anna", "Boris", "Vera"])
    store.create_session(["Ann", "Gleb", "Dima"])
    p = ids(store)
    store.merge_players(p["Ann"], p["Anna"], reason="the same Anna")
    before = store.sessions()
    with pytest.raises(StoreError) as err:
        store.create_session(["Ann", "Anna", "Vera"])
    assert err.value.render("en") == (
        "'Ann' and 'Anna' are one player in the directory: one seat at a table"
    )
    assert err.value.render("ru") == (
        "'Ann' и 'Anna' — один игрок в справочнике: за столом у него одно место"
    )
    assert store.sessions() == before  # nothing written


def test_the_cli_deletes_only_an_entry_nobody_sits_under(tmp_path: Path) -> None:
    from conftest import cli_out, run_cli

    db = tmp_path / "club.db"
    with Store(db) as s:
        s.create_session(["Anna", "Boris", "Vera"])
        gleb = s.add_player("Gleb")
        anna = ids(s)["Anna"]
    refused = run_cli("delete-player", str(anna), "--db", str(db), "--lang", "en")
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.strip().endswith(
        "Anna still sits in session 1: a player in a session cannot be deleted"
    )
    assert cli_out("delete-player", str(gleb), "--db", str(db)) == ""
    with Store(db) as s:
        assert [e.name for e in s.directory()] == ["Anna", "Boris", "Vera"]
        assert [(a.kind, a.old_name) for a in s.player_history()] == [("delete", "Gleb")]


async def test_the_host_marks_a_debt_settled_on_the_players_screen(store: Store) -> None:
    import threading

    from support.flet_fakes import by_id, find, fire, make_page

    from scorepad.app.frame.shell import Shell
    from scorepad.app.screens.players import players_screen
    from scorepad.players.season import debts, settled_in

    pulka(store, 0)
    pulka(store, 0)  # twice: Vera owes Anna 1.34 + 1.34 and Boris 1.33 + 1.33
    p = ids(store)
    page, session, _conn = make_page(width=360, height=740)
    shell = Shell(page, store, "en", threading.RLock())
    shell.show(players_screen)
    assert by_id(page, "player-name").value == "Anna"
    line = by_id(page, "debt-0").value
    assert line == "Vera owes Anna RUB\u00a02.68 over 2 evenings"
    await fire(session, by_id(page, "settle-0"))
    dialog = page._dialogs.controls[-1]
    await fire(session, by_id(dialog, "confirm-settled"))
    (act,) = store.player_history()
    assert (act.kind, act.player_id, act.other_id, act.amount, act.currency) == (
        "settle",
        p["Vera"],
        p["Anna"],
        268,
        "RUB",
    )
    # Anna is owed nothing now; Vera still owes Boris
    assert not find(page, lambda c: getattr(c, "identifier", None) == "debt-0")
    left = debts(played(store), settled_in(store))
    assert [(d.debtor, d.creditor, d.amount) for d in left] == [(p["Vera"], p["Boris"], 266)]


def test_refe_rounds_are_the_refe_the_rules_let_write(store: Store) -> None:
    # At most one round of refe (D8): the second all-pass writes none; a pik nobody contra'd
    # is then counted made without play (D9: −4, doubled to −8 as Boris holds a refe, which he
    # uses), as a pik declared and made.
    sid = store.create_session(
        ["Anna", "Boris", "Vera"],
        convention="balkan",
        overrides={"start_bula": 30, "refe_limit": 1},
    )
    add(
        store,
        sid,
        {"type": "allpass"},
        {"type": "allpass"},
        {"type": "pik_no_contra", "declarer": 1},
    )
    assert store.load(sid).scored.table.bulas == [30, 22, 30]  # type: ignore[union-attr]
    # Without a limit, the pik nobody contra'd is a round of refe for all (the Serbian clubs').
    other = store.create_session(
        ["Anna", "Boris", "Vera"], convention="balkan", overrides={"start_bula": 30}
    )
    add(store, other, {"type": "allpass"}, {"type": "pik_no_contra", "declarer": 1})
    p = ids(store)
    first, second = (x.record for x in played(store))
    assert [s.counts.get("refe_rounds", 0) for s in first.seats] == [1, 1, 1]
    assert [s.counts.get("refe_rounds", 0) for s in second.seats] == [2, 2, 2]
    boris = family_stats(played(store))[(p["Boris"], "bula")]
    assert boris.by_level() == {"2": (2, 1, 0)}  # declared twice, made once, once not played
    assert boris.counts["refe_rounds"] == 3


def test_a_swabian_evening_is_counted_in_the_direct_games_terms(store: Store) -> None:
    # Digest E-E1 and E-E2: Anna bids 4 and takes 7 (4 + 1 overtrick = 5 from each: +10);
    # Boris bids 5 and takes 4 (5 + 2 undertricks = 7 to each: −14).  Cash 17, −19, 2.
    sid = store.create_session(
        ["Anna", "Boris", "Vera"], convention="swabian", whist_price="1.00", currency="EUR"
    )
    add(
        store,
        sid,
        {"type": "swabian", "declarer": 0, "bid": 4, "tricks": 7},
        {"type": "swabian", "declarer": 1, "bid": 5, "tricks": 4},
    )
    p = ids(store)
    stats = family_stats(played(store))
    anna, boris, vera = (stats[(p[n], "direct")] for n in ("Anna", "Boris", "Vera"))
    assert (anna.result, boris.result, vera.result) == (17, -19, 2)
    assert (anna.net, boris.net, vera.net) == ({"EUR": 1700}, {"EUR": -1900}, {"EUR": 200})
    assert anna.by_level() == {"4": (1, 1, 0)}
    assert boris.by_level() == {"5": (1, 0, 1)}
    assert vera.by_level() == {}
