"""The league's pages on the hosted server (issue #39): the league's table, a player's page (his
clubs, his nights, his rating over the season as a chart) and the claim of a player's place
from his phone.

**Who opens them: a members' link** (``/league/TOKEN``) the league's operator issues
(``scorepad league members-link``) and can revoke.  The pages name players and their results,
so they are not public to the whole internet as a night's hall standings are; but a league is a
city's or a federation's clubs, whose members have no accounts on the server, so the right is a
capability, as a club night's standings link is: 128 random bits, kept hashed, checked in the
database on every page opened.  A link that opens nothing says so in one sentence, the same for
a revoked, a forged or a mistyped one.  The claim page is behind the same link: a stranger has
no form to try codes on.

Screens draw: the figures are the season's (:mod:`scorepad.league.season`), the writes
(a claim) the league players' (:mod:`scorepad.league.players`).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import threading
from collections.abc import Callable, Mapping

import flet as ft
import flet_charts as fch

from ...core.i18n import N_, Catalog, Msg, catalog, msg, nmsg
from ...league.players import LeaguePlayers
from ...league.season import (
    Season,
    club_names,
    heading,
    night_line,
    rating_figure,
    row_line,
    season,
    store_nights,
)
from ...players.rating import MIN_GAMES
from ...store import Store, StoreError
from ..frame.shell import remembered_language
from ..frame.theme import heading as title
from ..frame.theme import sem
from .chart import line_chart

#: ``/league/TOKEN``, ``/league/TOKEN/player/WHO`` (a league player's uid, or an unlinked club
#: player's ``club/uid``), ``/league/TOKEN/claim``.
LEAGUE = re.compile(r"/league/([A-Za-z0-9_-]{1,64})(?:/(claim)|/player/([0-9a-z:/_-]{1,120}))?")
#: The browser's storage key of a player's secret (what his next claim says "this is me" with).
PLAYER_KEY = "scorepad-league-player"


def season_of(store: Store) -> Season:
    """The season the pages draw: the league's published nights, read from its store."""
    return season(store_nights(store), LeaguePlayers(store).roster())


def _line(text: str, key: str) -> ft.Control:
    return sem(key, ft.Text(text))


def table_controls(
    s: Season,
    cat: Catalog,
    open_player: Callable[[str], None],
    open_claim: Callable[[], None],
    clubs: Mapping[str, str] | None = None,
    me: str | None = None,
) -> list[ft.Control]:
    """The league's table, then each club's; a player's line opens his page; ``me``: the league
    player this phone claimed (his page a tap away)."""
    out: list[ft.Control] = [sem("league-title", title(cat.render(heading(s))))]
    if me is not None:
        out.append(
            sem(
                "league-mine",
                ft.OutlinedButton(
                    cat.render(msg(N_("Open my page"))), on_click=lambda _e: open_player(me)
                ),
            )
        )
    for k, r in enumerate(s.league, start=1):
        out.append(
            sem(
                f"league-row-{k}",
                ft.TextButton(
                    cat.render(row_line(r, s.ratings.get(r.who))),
                    on_click=lambda _e, who=r.who: open_player(who),
                    style=ft.ButtonStyle(alignment=ft.Alignment.CENTER_LEFT),
                ),
            )
        )
    for club in sorted(s.clubs, key=lambda c: (clubs or {}).get(c, c)):
        out.append(ft.Divider())
        out.append(title(cat.render(heading(s, club, clubs))))
        for r in s.clubs[club]:
            out.append(ft.Text(cat.render(row_line(r, s.ratings.get(r.who)))))
    out.append(ft.Divider())
    out.append(
        sem(
            "league-claim-open",
            ft.OutlinedButton(
                cat.render(msg(N_("Claim your place in the league"))),
                on_click=lambda _e: open_claim(),
            ),
        )
    )
    return out


def rating_chart(s: Season, who: str, cat: Catalog, width: float) -> ft.Control:
    """His rating (μ − 3σ) after each night, in the order played."""
    values = [x.mu - 3 * x.sigma for x in s.lines[who]]
    series = [
        fch.LineChartData(
            points=[fch.LineChartDataPoint(k + 1, v) for k, v in enumerate(values)],
            color=ft.Colors.BLUE,
            stroke_width=3,
            # Each night a dot: a player of one night has a point and no line.
            point=fch.ChartCirclePoint(radius=4, color=ft.Colors.BLUE),
        )
    ]
    return line_chart(series, len(values), values, cat.render(msg(N_("Night"))), str, width, 240)


def player_controls(
    s: Season,
    who: str,
    cat: Catalog,
    width: float,
    back: Callable[[], None],
    clubs: Mapping[str, str] | None = None,
) -> list[ft.Control]:
    """A player's page: his clubs, his rating and its history, his nights."""
    back_button = sem(
        "league-back",
        ft.TextButton(
            cat.render(msg(N_("The league's table"))),
            icon=ft.Icons.ARROW_BACK,
            on_click=lambda _e: back(),
        ),
    )
    if who not in s.lines:
        return [
            back_button,
            sem(
                "league-player-missing",
                ft.Text(cat.render(msg(N_("The league has no such player.")))),
            ),
        ]
    r = s.ratings.get(who)
    games = r.games if r is not None else 0
    rating: Msg = (
        nmsg(
            "Rating {rating} after {n} table",
            "Rating {rating} after {n} tables",
            games,
            rating=rating_figure(r),
        )
        if r is not None and r.shown
        else nmsg(
            "No rating yet: {n} table of {min}",
            "No rating yet: {n} tables of {min}",
            games,
            min=MIN_GAMES,
        )
    )
    out: list[ft.Control] = [
        back_button,
        sem("league-player-name", title(s.names[who])),
        sem("league-player-rating", ft.Text(cat.render(rating))),
        ft.Text(cat.render(msg(N_("Clubs"))), weight=ft.FontWeight.BOLD),
        *(
            _line(
                cat.render(
                    nmsg(
                        "{club}: {n} night",
                        "{club}: {n} nights",
                        n,
                        club=(clubs or {}).get(club, club),
                    )
                ),
                f"league-player-club-{k}",
            )
            for k, (club, n) in enumerate(s.clubs_of(who), start=1)
        ),
        ft.Text(cat.render(msg(N_("Rating after each night (μ − 3σ)"))), weight=ft.FontWeight.BOLD),
        sem("league-player-chart", rating_chart(s, who, cat, width)),
        ft.Text(cat.render(msg(N_("Nights"))), weight=ft.FontWeight.BOLD),
        *(
            _line(cat.render(night_line(x, clubs)), f"league-player-night-{k}")
            for k, x in enumerate(reversed(s.lines[who]), start=1)
        ),
    ]
    return out


async def _held_secret() -> str | None:
    try:
        got = await asyncio.wait_for(ft.SharedPreferences().get(PLAYER_KEY), timeout=10)
    except (TimeoutError, RuntimeError):
        return None
    return got if isinstance(got, str) else None


async def _keep_secret(secret: str) -> None:
    with contextlib.suppress(TimeoutError, RuntimeError):  # no storage: this claim alone
        await asyncio.wait_for(ft.SharedPreferences().set(PLAYER_KEY, secret), timeout=10)


def claim_controls(
    cat: Catalog,
    claim: Callable[[str], None],
    back: Callable[[], None],
    said: str | None,
    error: bool,
    mine: Callable[[], None] | None = None,
) -> list[ft.Control]:
    """The claim: the code the club's director gave, typed on the player's phone; once claimed,
    ``mine`` opens the player's own page."""
    code: ft.TextField = ft.TextField(
        label=cat.render(msg(N_("The code from your club's director"))),
        autofocus=True,
        capitalization=ft.TextCapitalization.CHARACTERS,
    )
    code.on_submit = lambda _e: claim(code.value or "")
    out: list[ft.Control] = [
        sem(
            "league-back",
            ft.TextButton(
                cat.render(msg(N_("The league's table"))),
                icon=ft.Icons.ARROW_BACK,
                on_click=lambda _e: back(),
            ),
        ),
        title(cat.render(msg(N_("Claim your place in the league")))),
        sem("league-claim-code", code),
        sem(
            "league-claim",
            ft.Button(
                cat.render(msg(N_("Claim my place"))), on_click=lambda _e: claim(code.value or "")
            ),
        ),
    ]
    if said is not None:
        out.append(
            sem(
                "league-claim-said",
                ft.Text(said, color=ft.Colors.ERROR if error else None),
            )
        )
    if mine is not None:
        out.append(
            sem(
                "league-claim-mine",
                ft.Button(cat.render(msg(N_("Open my page"))), on_click=lambda _e: mine()),
            )
        )
    return out


async def league_page(
    page: ft.Page, store: Store, lang: str, lock: threading.RLock, found: re.Match[str]
) -> None:
    """The pages of a members' link: the route chooses the first; the rest is drawn in place."""
    token, claiming, who = found[1], found[2], found[3]
    cat = catalog(await remembered_language(lang))
    with lock:
        member = LeaguePlayers(store).member(token)
    if not member:
        page.controls = [
            ft.SafeArea(
                sem(
                    "league-missing",
                    ft.Text(cat.render(msg(N_("This link opens no league page.")))),
                )
            )
        ]
        page.update()
        return
    secret = await _held_secret()

    def show(controls: list[ft.Control]) -> None:
        page.controls = [
            ft.SafeArea(
                ft.Container(
                    ft.Column(controls, spacing=6, scroll=ft.ScrollMode.AUTO, expand=True),
                    padding=ft.Padding.symmetric(horizontal=12, vertical=8),
                    expand=True,
                ),
                expand=True,
            )
        ]
        page.update()

    def draw_table() -> None:
        with lock:
            s, names = season_of(store), club_names(store)
            me = LeaguePlayers(store).player_of_secret(secret)
        show(table_controls(s, cat, draw_player, lambda: draw_claim(None, False), names, me))

    def draw_player(person: str) -> None:
        with lock:
            s, names = season_of(store), club_names(store)
            if person not in s.lines:  # a league player merged since: his page is the merged one
                with contextlib.suppress(StoreError):
                    person = LeaguePlayers(store).player(person).merged_into or person
        width = min(900, max(300, (page.width or 360) - 54))
        show(player_controls(s, person, cat, width, draw_table, names))

    def draw_claim(said: str | None, error: bool, mine: Callable[[], None] | None = None) -> None:
        show(claim_controls(cat, claim, draw_table, said, error, mine))

    def claim(code: str) -> None:
        nonlocal secret
        try:
            with lock:
                got = LeaguePlayers(store).claim(code, secret=secret)
        except StoreError as exc:
            draw_claim(cat.render(exc.message), True)
            return
        secret = got.secret
        page.run_task(_keep_secret, got.secret)
        draw_claim(
            cat.render(msg(N_("{name}: your place in the league is claimed"), name=got.name)),
            False,
            lambda: draw_player(got.player),
        )

    if claiming:
        draw_claim(None, False)
    elif who:
        draw_player(who)
    else:
        draw_table()


__all__ = ["LEAGUE", "league_page", "player_controls", "table_controls"]
