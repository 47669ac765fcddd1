"""The Players screen in a real browser, at phone and laptop size, in English and Russian: the
record of every family, the rating once five pulkas are finished, the debts, a season's standings,
and a rename by the host that every sheet then shows."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from e2e.harness import browser as browser
from e2e.harness import (
    choose_language,
    has_text,
    open_app,
    running_app,
    shot,
    tap,
    text_of,
    type_text,
    visible,
)

from conftest import typed
from scorepad.players.rating import MIN_GAMES
from scorepad.store import Store

pytestmark = pytest.mark.flaky(reruns=1, reruns_delay=2)


def add(store: Store, sid: int, *deals: dict[str, Any]) -> None:
    for d in deals:
        store.add_deal(sid, typed(store, sid, d), seen=store.load(sid).revision)


def gone(page: Any, ident: str) -> None:
    """Wait until the control ``ident`` is no longer on the screen (the screen was redrawn)."""
    from playwright.sync_api import expect

    expect(page.locator(f'[flt-semantics-identifier="{ident}"]')).to_have_count(0, timeout=15000)


def evening(store: Store, declarer: int) -> None:
    """A pulka of pool 2 that finishes: each makes 6♠ once; ``declarer`` first makes 7♠ whisted."""
    sid = store.create_session(["Anna", "Boris", "Vera"], pool_target=2)
    others = [s for s in range(3) if s != declarer]
    add(
        store,
        sid,
        {
            "type": "game",
            "declarer": declarer,
            "contract": "7S",
            "calls": ["whist", "whist"],
            "tricks": {str(declarer): 7, str(others[0]): 2, str(others[1]): 1},
        },
        {"type": "game", "declarer": others[0], "contract": "6S", "calls": []},
        {"type": "game", "declarer": others[1], "contract": "6S", "calls": []},
    )
    assert store.load(sid).scored.finished


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    db = tmp_path_factory.mktemp("players") / "scorepad.db"
    with Store(db) as store:
        for k in range(MIN_GAMES):
            evening(store, k % 3 if k < 4 else 0)
        bula = store.create_session(
            ["Anna", "Boris", "Vera"], convention="balkan", overrides={"start_bula": 30}
        )
        add(
            store,
            bula,
            {
                "type": "game",
                "declarer": 2,
                "bid": 3,
                "defence": {"0": "follow", "1": "follow"},
                "tricks": {"2": 6, "0": 2, "1": 2},
            },
            {"type": "allpass"},
        )
        day = store.sessions()[0].created_at[:10]
        trio = [e.id for e in store.directory()]
        store.create_season("Fridays", since=day, until=day, players=trio)
    with running_app(db) as found:
        yield found


@pytest.mark.parametrize(
    ("lang", "width", "height"),
    [("en", 360, 740), ("ru", 360, 740), ("en", 1280, 800), ("ru", 1280, 800)],
)
def test_the_players_screen(
    browser: Any, club: tuple[str, Path], lang: str, width: int, height: int
) -> None:
    url, db = club
    page = open_app(browser, url, width, height)
    if lang == "ru":
        choose_language(page, "Русский")
        has_text(page, "session-players", "Игроки")
    tap(page, "session-players")
    visible(page, "player-stats")
    # Anna made the most 7♠: she leads; five finished pulkas, so a rating is shown
    has_text(page, "stat-pulkas", "5")
    rating = text_of(page, "stat-rating")
    assert rating.replace(".", "").replace("\u2212", "").isdigit(), rating
    has_text(page, "declared-7", "3")
    visible(page, "debt-0")
    shot(page, f"players-{lang}-{width}")
    # the bula, in its own terms
    tap(page, "family-bula")
    has_text(page, "stat-pulkas", "1")
    has_text(page, "stat-refe", "1")
    shot(page, f"players-bula-{lang}-{width}")
    # a season: its period and group, its standings (five pulkas and a bula each)
    with Store(db) as store:
        (season,) = store.seasons()
    day = season.since
    tap(page, f"season-{season.id}")
    has_text(
        page,
        "season-title",
        f"Fridays: с {day} по {day}" if lang == "ru" else f"Fridays: {day} to {day}",
    )
    has_text(page, "standing-games-0", "1. Anna — " + ("6 игр" if lang == "ru" else "6 games"))
    shot(page, f"players-season-{lang}-{width}")
    tap(page, "season-all")
    gone(page, "season-title")  # every evening again: the next tap lands on the new screen
    tap(page, "family-pulya")
    has_text(page, "stat-pulkas", "5")
    if (lang, width) == ("en", 360):
        tap(page, "player-1")
        has_text(page, "player-name", "Boris")
        tap(page, "rename-player")
        visible(page, "rename-name")
        type_text(page, page.get_by_label("New name"), "Borya")
        tap(page, "confirm-rename")
        has_text(page, "player-1", "Borya")
        with Store(db) as store:
            assert store.load(1).session.players == ["Anna", "Borya", "Vera"]
    else:  # the rename shows on every later visit
        has_text(page, "player-1", "Borya")
    page.context.close()
