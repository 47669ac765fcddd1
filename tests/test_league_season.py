"""The league's season (issue #39, item 3): standings per club and across the league as the
clubs' own standings count them, one OpenSkill rating replayed from every night in order (the
players' model), merge and split giving the figures back, and the league's figures equal to a
recomputation from the clubs' own files (exported by real club stores)."""

from __future__ import annotations

import datetime as dt
import random
from collections import defaultdict
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.league_nights import club_night, published, roster_names, uid_of

from scorepad.club.file import parse_night
from scorepad.club.scoring import Places
from scorepad.club.store import ClubStore
from scorepad.league.players import LeaguePlayers, Roster
from scorepad.league.season import differences, recompute_from_files, season, season_of
from scorepad.players.rating import ratings
from scorepad.players.stats import Played
from scorepad.scoring.results import SeatRecord, SessionRecord
from scorepad.store import Store, StoreError

NORTH, SOUTH = uid_of("club north"), uid_of("club south")
NORTH_PLAYERS = roster_names("North", 7)
SOUTH_PLAYERS = roster_names("South", 6)


def nights_of(club: str, players: list[tuple[str, str]], count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for k in range(count):
        chosen = rng.sample(players, rng.randint(6, len(players)))
        out.append(
            club_night(
                chosen,
                date=dt.date(2026, 1, 2) + dt.timedelta(days=7 * k),
                seed=seed * 100 + k,
                tours=2,
                deals=3,
                scoring=Places() if k % 2 else None,
                name=f"Night {k + 1}",
            )
        )
    return out


@pytest.fixture(scope="module")
def documents() -> dict[str, list[str]]:
    return {
        NORTH: nights_of(NORTH, NORTH_PLAYERS, 4, 1),
        SOUTH: nights_of(SOUTH, SOUTH_PLAYERS, 3, 2),
    }


def all_published(documents: dict[str, list[str]]) -> list[Any]:
    return [published(club, d) for club, docs in documents.items() for d in docs]


def test_a_clubs_standings_are_its_nights_standings_summed(
    documents: dict[str, list[str]], tmp_path: Path
) -> None:
    """Counted independently: each night imported into a real club store, its standings read
    from there, summed per player by hand here."""
    got = season(all_published(documents), Roster({}, {}))
    for club, docs in documents.items():
        want: dict[str, list[Any]] = defaultdict(lambda: [0, 0, 0, []])
        with Store(tmp_path / f"{club}.db") as store:
            cs = ClubStore(store)
            for d in docs:
                nid = cs.import_night(d)
                night = cs.load(nid)
                for s in cs.standings(nid):
                    if not s.played:
                        continue
                    uid = night.player(s.number).uid
                    w = want[f"{club}/{uid}"]
                    w[0] += 1
                    w[1] += s.points
                    w[2] += s.whists
                    w[3].append(s.rank)
        rows = got.clubs[club]
        assert {r.who: [r.nights, r.points, r.whists, list(r.places)] for r in rows} == dict(want)
        # Ranked by points, then whists.
        keys = [(r.points, r.whists) for r in rows]
        assert keys == sorted(keys, reverse=True)
        assert rows[0].rank == 1
    # The nights of places scoring (3, 3/2, 0 at a table of three) give exact halves.
    assert any(
        isinstance(x.points, Fraction) and x.points.denominator == 2
        for mine in got.lines.values()
        for x in mine
    )


def played_of(documents: dict[str, list[str]], roster: Roster) -> tuple[list[Played], list[str]]:
    """The same tables as the players' ratings read them: one finished game each, its result
    the table's whists, in the league's order (dates, then clubs)."""
    from scorepad.league.season import in_order, who

    ids: list[str] = []
    out = []
    read = [(club, parse_night(d)[0]) for club, docs in documents.items() for d in docs]
    k = 0
    for club, night in in_order(read):
        for t in night.drawn:
            for tab in t.tables:
                assert tab.whists is not None
                people = []
                for n in tab.players:
                    w = who(club, night.player(n), roster)
                    if w not in ids:
                        ids.append(w)
                    people.append(ids.index(w))
                seats = tuple(SeatRecord(money=0, result=tab.whists[n]) for n in tab.players)
                record = SessionRecord("pulya", 3, True, "RUB", 2, seats, ())
                out.append(Played(k, "pulya", f"{k:08d}", tuple(people), record))
                k += 1
    return out, ids


def test_the_ratings_are_the_players_model_on_the_same_tables(
    documents: dict[str, list[str]],
) -> None:
    roster = Roster(
        {(SOUTH, SOUTH_PLAYERS[0][1]): "lp-1", (NORTH, NORTH_PLAYERS[0][1]): "lp-1"},
        {"lp-1": "Anna"},
    )
    got = season(all_published(documents), roster)
    played, ids = played_of(documents, roster)
    want = ratings(played)
    assert {ids[p]: (r.mu, r.sigma, r.games) for (p, _f), r in want.items()} == {
        w: (r.mu, r.sigma, r.games) for w, r in got.ratings.items()
    }
    # The linked player is one rating across the two clubs.
    assert got.ratings["lp-1"].games == sum(x.tables for x in got.lines["lp-1"])
    nights_in = {
        club: sum(
            1
            for d in docs
            if any(
                p.uid in (NORTH_PLAYERS[0][1], SOUTH_PLAYERS[0][1])
                for p in parse_night(d)[0].players
            )
        )
        for club, docs in documents.items()
    }
    assert dict(got.clubs_of("lp-1")) == {c: n for c, n in nights_in.items() if n}
    assert len(got.clubs_of("lp-1")) == 2
    # A player's rating history: one point per night, the last is his rating now.
    last = got.lines["lp-1"][-1]
    assert (last.mu, last.sigma) == (got.ratings["lp-1"].mu, got.ratings["lp-1"].sigma)


def test_the_order_of_publishing_changes_nothing(documents: dict[str, list[str]]) -> None:
    nights = all_published(documents)
    roster = Roster(
        {(SOUTH, SOUTH_PLAYERS[1][1]): "lp", (NORTH, NORTH_PLAYERS[2][1]): "lp"}, {"lp": "Lev"}
    )
    base = season(nights, roster)
    for seed in range(3):
        shuffled = list(nights)
        random.Random(seed).shuffle(shuffled)
        assert season(shuffled, roster) == base


def test_a_correction_replaces_its_earlier_version(
    documents: dict[str, list[str]], tmp_path: Path
) -> None:
    first = documents[NORTH][0]
    night = parse_night(first)[0]
    fixed = club_night(
        [(p.name, p.uid or "") for p in night.players],
        date=night.date,
        seed=999,
        tours=2,
        deals=3,
        name=night.name,
        uid=night.uid,
    )
    nights = [*all_published(documents), published(NORTH, fixed, version=2)]
    got = season(nights, Roster({}, {}))
    # The files hold the corrected night only.
    paths: dict[str, list[Path]] = {}
    for club, docs in documents.items():
        for i, d in enumerate(docs):
            text = fixed if d is first else d
            p = tmp_path / f"{club}-{i}.json"
            p.write_text(text, encoding="utf-8")
            paths.setdefault(club, []).append(p)
    assert recompute_from_files(paths, Roster({}, {})) == got
    assert season(all_published(documents), Roster({}, {})) != got


def test_the_league_equals_a_recomputation_from_the_clubs_own_stores(
    documents: dict[str, list[str]], target: str, tmp_path: Path
) -> None:
    """Each club keeps its own store (one on ``target``: SQLite or PostgreSQL); the league's
    links are in a league store; the season of the published nights equals the one recomputed
    from the files the clubs' stores export."""
    with Store(tmp_path / "league.db") as ls:
        league = LeaguePlayers(ls)
        anna = league.link(NORTH, NORTH_PLAYERS[0][1], NORTH_PLAYERS[0][0])
        league.link(SOUTH, SOUTH_PLAYERS[3][1], "Anna from the South", to=anna)
        code = league.issue_claim_code(SOUTH, SOUTH_PLAYERS[1][1], SOUTH_PLAYERS[1][0])
        league.claim(code)
        roster = league.roster()
    paths: dict[str, list[Path]] = {}
    for club, where in ((NORTH, str(tmp_path / "north.db")), (SOUTH, target)):
        with Store(where) as store:
            cs = ClubStore(store)
            for i, d in enumerate(documents[club]):
                nid = cs.import_night(d)
                p = tmp_path / f"{club}-{i}.json"
                p.write_text(cs.export_night(nid), encoding="utf-8")
                paths.setdefault(club, []).append(p)
    league_side = season(all_published(documents), roster)
    assert recompute_from_files(paths, roster) == league_side
    assert differences(league_side, recompute_from_files(paths, roster)) == []
    # A file that is not the club's current night is said, row by row.
    other = recompute_from_files({NORTH: paths[NORTH][:-1], SOUTH: paths[SOUTH]}, roster)
    said = differences(league_side, other)
    assert said[0] == "nights: 7 in the league, 6 in the files"
    assert any(x.startswith(f"club {NORTH}: ") for x in said)
    assert anna in league_side.ratings and len(league_side.clubs_of(anna)) == 2


def test_merge_then_split_gives_the_figures_back(
    documents: dict[str, list[str]], tmp_path: Path
) -> None:
    nights = all_published(documents)
    with Store(tmp_path / "league.db") as ls:
        league = LeaguePlayers(ls)
        a = league.link(NORTH, NORTH_PLAYERS[0][1], NORTH_PLAYERS[0][0])
        b = league.link(SOUTH, SOUTH_PLAYERS[0][1], SOUTH_PLAYERS[0][0])
        before = season(nights, league.roster())
        league.merge(a, b, reason="the same person")
        merged = season(nights, league.roster())
        league.split(a, reason="two people")
        after = season(nights, league.roster())
    assert after == before
    one = {r.who: r for r in merged.league}[b]
    two = {r.who: r for r in before.league}
    assert one.nights == two[a].nights + two[b].nights
    assert one.points == two[a].points + two[b].points
    assert a not in merged.ratings and merged.ratings[b].games == (
        before.ratings[a].games + before.ratings[b].games
    )


def test_a_table_where_one_league_player_sits_twice_is_not_rated(
    documents: dict[str, list[str]],
) -> None:
    night = parse_night(documents[NORTH][0])[0]
    tab = night.drawn[0].tables[0]
    x, y = (night.player(n).uid for n in tab.players[:2])
    roster = Roster({(NORTH, x): "lp", (NORTH, y): "lp"}, {"lp": "Twice"})  # type: ignore[dict-item]
    got = season(all_published(documents), roster)
    first = got.conflicts[0]
    assert (first.night.night, first.tour, first.table, first.who) == (
        night.uid,
        1,
        tab.number,
        "lp",
    )


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    links=st.lists(
        st.tuples(st.sampled_from(NORTH_PLAYERS + SOUTH_PLAYERS), st.integers(0, 3)), max_size=6
    )
)
def test_the_league_is_the_clubs_summed(documents: dict[str, list[str]], links: list[Any]) -> None:
    roster = Roster(
        {
            (NORTH if (name, uid) in NORTH_PLAYERS else SOUTH, uid): f"lp-{k}"
            for (name, uid), k in links
        },
        {f"lp-{k}": f"League {k}" for k in range(4)},
    )
    got = season(all_published(documents), roster)
    summed: dict[str, list[Any]] = defaultdict(lambda: [0, 0, 0, []])
    for rows in got.clubs.values():
        for r in rows:
            w = summed[r.who]
            w[0] += r.nights
            w[1] += r.points
            w[2] += r.whists
            w[3] += list(r.places)
    league = {r.who: [r.nights, r.points, r.whists, sorted(r.places)] for r in got.league}
    assert league == {w: [n, p, x, sorted(pl)] for w, (n, p, x, pl) in summed.items()}
    assert season_of([], roster).league == ()
    # And the ratings are the players' model on the same tables, whoever is linked to whom
    # (a table where one league player holds two seats is left out on both sides).
    played, ids = played_of(documents, roster)
    rated = [p for p in played if len(set(p.players)) == len(p.players)]
    want = {ids[p]: (r.mu, r.sigma, r.games) for (p, _f), r in ratings(rated).items()}
    assert want == {w: (r.mu, r.sigma, r.games) for w, r in got.ratings.items()}


@settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(pairs=st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=5))
def test_merges_then_splits_give_back_the_season(
    documents: dict[str, list[str]],
    tmp_path_factory: pytest.TempPathFactory,
    pairs: list[tuple[int, int]],
) -> None:
    """Any merges (of players of one club or of two), taken back in reverse: the standings and
    the ratings are exactly what they were; while merged, the league's table still sums the
    clubs'."""
    nights = all_published(documents)
    people = [(NORTH, *NORTH_PLAYERS[i]) for i in range(3)] + [
        (SOUTH, *SOUTH_PLAYERS[i]) for i in range(2)
    ]
    with Store(tmp_path_factory.mktemp("league") / "league.db") as ls:
        league = LeaguePlayers(ls)
        uids = [league.link(club, uid, name) for club, name, uid in people]
        before = season(nights, league.roster())
        done = []
        for x, y in pairs:
            try:
                league.merge(uids[x], uids[y], reason="the same")
            except StoreError:
                continue
            done.append(x)
        merged = season(nights, league.roster())
        assert sum(r.nights for r in merged.league) == sum(r.nights for r in before.league)
        assert sum(r.points for r in merged.league) == sum(r.points for r in before.league)
        for x in reversed(done):
            league.split(uids[x], reason="not the same")
        assert season(nights, league.roster()) == before
