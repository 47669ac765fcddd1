"""A club night on ``scorepad serve`` in a browser (issue #36): a phone alone creates a night on
the hosted server (it owns it), checks the players in and draws the first tour from its own
screens; a phone at a table joins with the table's link and PIN as on the LAN; a second browser,
without the night's secret, is not offered the night and cannot direct it.  The director
corrects a deal from his screen and hands the night to another browser with a one-time code;
his own browser directs nothing from then on.  Screenshots (360×740 and 1280×800, English and
Russian) go to ``screenshots/hosted-club-*.png``."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from e2e.harness import (
    browser,  # noqa: F401  (the fixture)
    has_text,
    shot,
    tap,
    type_text,
    visible,
)
from playwright.sync_api import expect
from support.club_nights import RASP
from support.hosted_server import LAPTOP, hand_over_code, opened, serving, tab
from test_table_e2e import enter_pin, message_of

from scorepad.app.server.grants import Grants
from scorepad.club.store import ClubStore, table_pin
from scorepad.store import Store

NAMES = ["Anna", "Boris", "Vera", "Gleb", "Dmitri", "Elena"]


@pytest.fixture
def hosted(tmp_path: Path) -> Iterator[tuple[str, str]]:
    db = str(tmp_path / "serve.db")
    with serving(db, tmp_path) as base:
        yield base, db


def new_night(browser: Any, base: str, screenshot: str | None = None) -> Any:  # noqa: F811
    """A phone that opened the server and created the night "Friday" (2 tours of 2 deals): it
    directs it, its director's view open."""
    director = opened(browser, base + "/")
    tap(director, "session-club")
    type_text(director, director.get_by_label("Name of the night", exact=True), "Friday")
    type_text(director, director.get_by_label("Tours", exact=True), "2")
    type_text(director, director.get_by_label("Deals a tour", exact=True), "2")
    if screenshot is not None:
        shot(director, screenshot)
    tap(director, "create-night")
    visible(director, "club-registry")
    return director


def test_a_phone_directs_a_club_night_and_another_browser_cannot(
    browser: Any,  # noqa: F811
    hosted: tuple[str, str],
) -> None:
    base, db = hosted
    director = new_night(browser, base, "hosted-club-new-360-en")
    with Store(db) as store:
        ((nid, name, _),) = ClubStore(store).nights()
        assert name == "Friday"
        assert [r["night"] for r in store.backend.query("SELECT night FROM night_owners")] == [nid]
    tap(director, "club-registry")
    for k, who in enumerate(NAMES, 1):
        type_text(director, director.get_by_label("Name", exact=True), who)
        tap(director, "club-check-in")
        visible(director, f"club-player-{k}")
    shot(director, "hosted-club-registry-360-en")
    tap(director, "club-back")
    tap(director, "club-draw")
    visible(director, "club-table-2")
    shot(director, "hosted-club-director-360-en")
    with Store(db) as store:
        views = ClubStore(store).tables(nid)
        assert sorted(len(v.players) for v in views) == [3, 3]
        sid = views[0].session_id
        pin = table_pin(store, sid)
        token = Grants(store, threading.RLock()).link(sid)
    assert pin is not None

    # A phone at table 1: its link and the table's own PIN, as on the LAN.
    player = opened(browser, f"{base}/join/{sid}/{token}")
    visible(player, "pin-open")
    tap(player, "pin-open")
    enter_pin(player, pin, "Table PIN")
    visible(player, "nav-entry")
    shot(player, "hosted-club-table-360-en")

    # A second browser without the night's secret: its nights list does not offer the night,
    # and it draws nothing (the night's tour stays as the director left it).
    other = opened(browser, base + "/", LAPTOP)
    tap(other, "language-ru")
    tap(other, "session-club")
    visible(other, "create-night")
    assert other.locator(f'[flt-semantics-identifier="night-{nid}"]').count() == 0
    shot(other, "hosted-club-other-1280-ru")
    # The director's own list does offer it (in Russian too), and opens it again.
    again = tab(director, base + "/")
    tap(again, "language-ru")
    tap(again, "session-club")
    tap(again, f"night-{nid}")
    visible(again, "club-table-2")
    shot(again, "hosted-club-director-360-ru")
    with Store(db) as store:
        assert len(ClubStore(store).tables(nid)) == 2
        assert store.backend.query("SELECT count(*) AS n FROM night_owners") == [{"n": 1}]


def test_the_director_corrects_a_deal_from_his_screen_and_hands_the_night_over(
    browser: Any,  # noqa: F811
    hosted: tuple[str, str],
) -> None:
    base, db = hosted
    director = new_night(browser, base)
    # The players and the first tour's deals come from another process (as the CLI writes
    # them): the director's screens show the store as it stands.
    with Store(db) as store:
        club = ClubStore(store)
        ((nid, _, _),) = club.nights()
        for who in NAMES:
            club.check_in(nid, who)
        club.draw(nid)
        sid = club.session_of(nid, 1, 1)
        first, second, _ = club.load(nid).tour(1).table(1).players
        stored = club.write_deal(nid, 1, 1, RASP, by=first, seen=store.load(sid).revision)
        club.confirm(nid, 1, 1, stored.journal.live[-1].deal_id, by=second)
    tap(director, "club-back")
    tap(director, f"night-{nid}")
    visible(director, "club-open-1")

    # The director opens table 1 from his screen and corrects its deal, with a reason.
    tap(director, "club-open-1")
    visible(director, "club-director")
    tap(director, "edit-1")
    tap(director, "tricks-1-2")
    type_text(director, director.get_by_label("Reason for the change"), "the protocol")
    shot(director, "hosted-club-correction-360-en")
    tap(director, "confirm-deal")
    visible(director, "deal-1")
    tap(director, "club-director")
    expect(director.get_by_text("Tour 1, table 1, deal 1: the protocol")).to_be_visible(
        timeout=15000
    )
    with Store(db) as store:
        assert [c["reason"] for c in ClubStore(store).corrections(nid)] == ["the protocol"]
        tricks = store.load(sid).session.deals[0].model_dump(mode="json")["tricks"]
        assert tricks["1"] == 2 and sum(tricks.values()) == 10

    # He hands the night to a laptop: a one-time code, opened there.
    take = hand_over_code(director, "night-hand-over", "hosted-club-hand-over-360-en")
    assert take.startswith(f"{base}/take/night/{nid}/")
    laptop = opened(browser, take, LAPTOP)
    visible(laptop, "club-open-1")
    visible(laptop, "night-hand-over")
    has_text(laptop, "message", f"This phone directs club night {nid} now.")
    shot(laptop, "hosted-club-taken-1280-en")
    # The old director's screen refuses his next action; his list no longer offers the night.
    type_text(director, director.get_by_label("Announcement to every table"), "Tour 2 at ten")
    tap(director, "club-announce")
    visible(director, "message")
    assert message_of(director) == "Only the phone that created this club night may direct it."
    again = tab(director, base + "/")
    tap(again, "session-club")
    visible(again, "create-night")
    assert again.locator(f'[flt-semantics-identifier="night-{nid}"]').count() == 0
    # The code was used once: another browser that opens it gets nothing.
    visible(opened(browser, take), "join-missing")
    with Store(db) as store:
        assert ClubStore(store).announcement(nid) is None
