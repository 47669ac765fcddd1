"""The league's pages drawn without a browser (issue #39): the league's table, a player's page
(his clubs, rating, chart and nights) and the claim form show the season's figures in the
catalogs' sentences; the members' link is the right to open them."""

from __future__ import annotations

import datetime as dt
from typing import Any

import flet as ft
import flet_charts as fch
import pytest
from support.flet_fakes import by_id, find, texts
from support.league_nights import club_night, published, roster_names, uid_of

from scorepad.app.screens.league import LEAGUE, claim_controls, player_controls, table_controls
from scorepad.core.i18n import catalog, msg
from scorepad.league.players import Roster
from scorepad.league.season import Season, heading, night_line, rating_figure, row_line, season

NORTH, SOUTH = uid_of("club north"), uid_of("club south")
NP, SP = roster_names("North", 6), roster_names("South", 6)


@pytest.fixture(scope="module")
def league() -> Season:
    nights = [
        published(NORTH, club_night(NP, date=dt.date(2026, 4, 1 + k), seed=70 + k, name=f"N{k}"))
        for k in range(3)
    ] + [published(SOUTH, club_night(SP, date=dt.date(2026, 4, 10), seed=80, name="S0"))]
    roster = Roster(
        {(NORTH, NP[0][1]): "lp-anna", (SOUTH, SP[0][1]): "lp-anna"}, {"lp-anna": "Anna"}
    )
    return season(nights, roster)


def test_the_routes() -> None:
    assert LEAGUE.fullmatch("/league/abcDEF_-123")[3] is None  # type: ignore[index]
    m = LEAGUE.fullmatch(f"/league/tok/player/{NORTH}/{NP[1][1]}")
    assert m is not None and m[3] == f"{NORTH}/{NP[1][1]}"
    assert LEAGUE.fullmatch("/league/tok/claim")[2] == "claim"  # type: ignore[index]
    assert LEAGUE.fullmatch("/league/tok/player/../../x") is None
    assert LEAGUE.fullmatch("/league/") is None


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_table_page(league: Season, lang: str) -> None:
    cat = catalog(lang)
    opened: list[str] = []
    page = ft.Column(table_controls(league, cat, opened.append, lambda: None))
    shown = texts(page)
    assert by_id(page, "league-title").value == cat.render(heading(league))
    rows = [by_id(page, f"league-row-{k}") for k in range(1, len(league.league) + 1)]
    assert [r.content for r in rows] == [
        cat.render(row_line(r, league.ratings.get(r.who))) for r in league.league
    ]
    for club in league.clubs:
        assert cat.render(heading(league, club)) in shown
    anna = next(k for k, r in enumerate(league.league) if r.who == "lp-anna")
    rows[anna].on_click(None)
    assert opened == ["lp-anna"]
    assert not find(page, lambda c: isinstance(c, ft.Semantics) and c.identifier == "league-mine")
    mine = ft.Column(table_controls(league, cat, opened.append, lambda: None, None, "lp-anna"))
    by_id(mine, "league-mine").on_click(None)
    assert opened == ["lp-anna", "lp-anna"]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_players_page(league: Season, lang: str) -> None:
    cat = catalog(lang)
    page = ft.Column(player_controls(league, "lp-anna", cat, 330, lambda: None))
    assert by_id(page, "league-player-name").value == "Anna"
    r = league.ratings["lp-anna"]
    assert r.games == 8 and r.shown  # 4 nights of 2 tours
    rating = by_id(page, "league-player-rating").value
    assert (
        rating
        == {
            "en": f"Rating {rating_figure(r)} after 8 tables",
            "ru": f"Рейтинг {rating_figure(r)} после 8 столов",
        }[lang]
    )
    clubs = [by_id(page, f"league-player-club-{k}").value for k in (1, 2)]
    assert (
        clubs
        == {
            "en": [f"{NORTH}: 3 nights", f"{SOUTH}: 1 night"],
            "ru": [f"{NORTH}: 3 вечера", f"{SOUTH}: 1 вечер"],
        }[lang]
    )
    # The nights, newest first; the chart has one point a night, the rating after it.
    lines = league.lines["lp-anna"]
    assert [by_id(page, f"league-player-night-{k}").value for k in range(1, 5)] == [
        cat.render(night_line(x)) for x in reversed(lines)
    ]
    [chart] = find(page, lambda c: isinstance(c, fch.LineChart))
    points = chart.data_series[0].points
    assert [(p.x, p.y) for p in points] == [
        (k + 1, x.mu - 3 * x.sigma) for k, x in enumerate(lines)
    ]
    assert points[-1].y == pytest.approx(r.ordinal)
    # A player the season does not have.
    missing = ft.Column(player_controls(league, "nobody", cat, 330, lambda: None))
    assert by_id(missing, "league-player-missing").value == cat.render(
        msg("The league has no such player.")
    )


def test_an_unlinked_players_page(league: Season) -> None:
    who = f"{NORTH}/{NP[2][1]}"
    page = ft.Column(player_controls(league, who, catalog("en"), 330, lambda: None))
    assert by_id(page, "league-player-name").value == "North 3"
    shown = f"Rating {rating_figure(league.ratings[who])} after 6 tables"
    assert by_id(page, "league-player-rating").value == shown


def test_the_claim_form(league: Season) -> None:
    cat = catalog("en")
    claimed: list[str] = []
    page = ft.Column(claim_controls(cat, claimed.append, lambda: None, None, False))
    field: Any = by_id(page, "league-claim-code")
    field.value = "abcd-efgh-jkmn"
    by_id(page, "league-claim").on_click(None)
    assert claimed == ["abcd-efgh-jkmn"]
    said = ft.Column(claim_controls(cat, claimed.append, lambda: None, "refused", True))
    assert by_id(said, "league-claim-said").value == "refused"
    assert by_id(said, "league-claim-said").color == ft.Colors.ERROR
    assert not find(
        said, lambda c: isinstance(c, ft.Semantics) and c.identifier == "league-claim-mine"
    )
    opened: list[bool] = []
    done = ft.Column(
        claim_controls(
            cat, claimed.append, lambda: None, "claimed", False, lambda: opened.append(True)
        )
    )
    by_id(done, "league-claim-mine").on_click(None)
    assert opened == [True]
