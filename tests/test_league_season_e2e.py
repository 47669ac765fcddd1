"""The league's pages in a browser (issue #39): a member opens the league's table with the
members' link, taps a player and reads his page (clubs, rating, the chart, his nights); a player
claims his place from his phone with his director's code; a forged link opens nothing.  On the
real ``scorepad serve`` (tests/support/hosted_server.py), the nights taken by the league's store, at 360×740 and 1280×800, in English and
Russian; screenshots go to ``screenshots/league-*.png``."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from e2e.harness import (
    browser,  # noqa: F401  (the fixture)
    has_text,
    local_only,
    semantics_on,
    shot,
    tap,
    text_of,
    type_text,
    visible,
)
from support.hosted_server import serving
from support.league_nights import club_night, roster_names

from scorepad.core.i18n import catalog
from scorepad.league.players import LeaguePlayers
from scorepad.league.season import heading, rating_figure, row_line, season
from scorepad.league.store import LeagueStore
from scorepad.store import Store

PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1280, "height": 800}
NP, SP = roster_names("North", 6), roster_names("South", 6)


def published_nights(store: Store) -> tuple[str, str]:
    """Two clubs let in, and their nights taken by the league's store as a publication takes
    them: the two clubs' ids."""
    league = LeagueStore(store)
    (north, n_secret), (south, s_secret) = league.add_club("North"), league.add_club("South")
    for k in range(3):
        night = club_night(NP, date=dt.date(2026, 5, 1 + k), seed=90 + k, name=f"North {k}")
        league.take(n_secret, night)
    league.take(s_secret, club_night(SP, date=dt.date(2026, 5, 2), seed=99, name="South 0"))
    return north, south


def opened(browser: Any, url: str, size: dict[str, int]) -> Any:  # noqa: F811
    page = local_only(browser.new_context(viewport=size)).new_page()
    page.goto(url)
    semantics_on(page)
    return page


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_member_reads_the_league_and_a_player_claims(
    browser: Any,  # noqa: F811
    tmp_path: Path,
    lang: str,
) -> None:
    db = str(tmp_path / "league.db")
    with Store(db) as store:
        north, south = published_nights(store)
        given = LeagueStore(store).nights()
        league = LeaguePlayers(store)
        anna = league.link(north, NP[0][1], "Anna")
        league.link(south, SP[0][1], "Anna N.", to=anna)
        token = league.issue_members_link()
        code = league.issue_claim_code(south, SP[2][1], SP[2][0])
        before = season(given, league.roster())
    cat = catalog(lang)
    with serving(db, tmp_path, "--lang", lang) as base:
        for size, px in ((PHONE, 360), (LAPTOP, 1280)):
            page = opened(browser, f"{base}/league/{token}", size)
            has_text(page, "league-title", cat.render(heading(before)))
            k = next(i for i, r in enumerate(before.league, start=1) if r.who == anna)
            row = before.league[k - 1]
            assert text_of(page, f"league-row-{k}") == cat.render(
                row_line(row, before.ratings.get(anna))
            )
            shot(page, f"league-table-{px}-{lang}")
            tap(page, f"league-row-{k}")
            has_text(page, "league-player-name", "Anna")
            r = before.ratings[anna]
            has_text(
                page,
                "league-player-rating",
                {
                    "en": f"Rating {rating_figure(r)} after {r.games} tables",
                    "ru": f"Рейтинг {rating_figure(r)} после {r.games} столов",
                }[lang],
            )
            visible(page, "league-player-chart")
            visible(page, "league-player-club-2")
            visible(page, "league-player-night-1")
            shot(page, f"league-player-{px}-{lang}")
            tap(page, "league-back")
            visible(page, "league-title")
            page.context.close()
        # A player's phone claims his place with the director's code.
        phone = opened(browser, f"{base}/league/{token}/claim", PHONE)
        field = phone.locator('[flt-semantics-identifier="league-claim-code"] input').first
        type_text(phone, field, code)
        tap(phone, "league-claim")
        has_text(
            phone,
            "league-claim-said",
            {
                "en": "South 3: your place in the league is claimed",
                "ru": "South 3: ваше место в лиге подтверждено",
            }[lang],
        )
        shot(phone, f"league-claim-360-{lang}")
        # His own page, from there: the South's night he played, now his league player's.
        tap(phone, "league-claim-mine")
        has_text(phone, "league-player-name", "South 3")
        visible(phone, "league-player-night-1")
        # The phone keeps its secret: the table offers his page from then on.
        again = phone.context.new_page()
        again.goto(f"{base}/league/{token}")
        semantics_on(again)
        tap(again, "league-mine")
        has_text(again, "league-player-name", "South 3")
        shot(again, f"league-mine-360-{lang}")
        phone.context.close()
        # A forged members' link opens nothing.
        stranger = opened(browser, f"{base}/league/{token[:-2]}xx", PHONE)
        has_text(
            stranger,
            "league-missing",
            {
                "en": "This link opens no league page.",
                "ru": "Эта ссылка не открывает страниц лиги.",
            }[lang],
        )
        stranger.context.close()
    with Store(db) as store:
        roster = LeaguePlayers(store).roster()
    claimed = roster.links[(south, SP[2][1])]
    assert roster.names[claimed] == "South 3"
