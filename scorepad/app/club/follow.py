"""The club's pages kept current: a table's write, a confirmation, an announcement reach the
director's view, the live standings and the table's phones at once (Flet's PubSub, one hub per
server), never by waiting for a timer."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable
from typing import Any

import flet as ft

from ..frame.live import TOPIC as WRITTEN
from ..frame.live import turn
from ..frame.outside import Look, add_source

#: What the club announces besides the deals written (live.TOPIC): ("table", session) when a
#: table's deal is confirmed or rejected, ("night", night) when the director announces.
CLUB = "scorepad-club"
#: Seconds a page that follows every table (the director's view, the standings) waits before
#: it is drawn again: the writing table's phones first, a burst of the night's tables drawn once.
SETTLE = 0.15
log = logging.getLogger(__name__)


def _club_deals(conn: sqlite3.Connection) -> Look:
    """Each club table's confirmations, as another process may write them (outside.py)."""
    return {
        ("club-deals", sid): (marks, CLUB, ("table", sid))
        for sid, marks in conn.execute(
            "SELECT session_id, group_concat(deal_id || state || ifnull(decided_by, ''), ',') "
            "FROM night_deals GROUP BY session_id"
        )
    }


def _club_changes(conn: sqlite3.Connection) -> Look:
    """Each club table's voids, undos... and what the table said of them."""
    return {
        ("club-changes", sid): (changes, CLUB, ("table", sid))
        for sid, changes in conn.execute(
            "SELECT session_id, group_concat(id || state, ',') FROM night_changes "
            "GROUP BY session_id"
        )
    }


def _club_nights(conn: sqlite3.Connection) -> Look:
    """Each night's tours, registry and latest announcement."""
    return {
        ("club-night", nid): ((tours, players, said), CLUB, ("night", nid))
        for nid, tours, players, said in conn.execute(
            "SELECT n.id, (SELECT group_concat(tour || state || redraws, ',') FROM night_tours "
            "WHERE night_id = n.id), (SELECT group_concat(number || ifnull(last_tour, ''), ',') "
            "FROM night_players WHERE night_id = n.id), (SELECT max(id) FROM "
            "night_announcements WHERE night_id = n.id) FROM nights n"
        )
    }


for _source in (_club_deals, _club_changes, _club_nights):
    add_source(_source)


def tell(page: ft.Page, message: tuple[str, int]) -> None:
    """Tell the other pages of this server what changed in the club."""
    try:
        page.pubsub.send_others_on_topic(CLUB, message)
    except RuntimeError:  # a page with no server behind it: nobody to tell
        log.debug("no pubsub loop; %s not announced", message)


def follow(
    page: ft.Page,
    wanted: Callable[[str, Any], bool],
    draw: Callable[[], None],
    *,
    topics: tuple[str, ...] = ("written", "club"),
    settle: float = 0.0,
) -> None:
    """Call ``draw`` after every change ``wanted`` says concerns this page.

    One drawing at a time: changes that come while the page is being drawn are drawn together
    once it is done (a busy night's twelve tables never queue twelve drawings of the director's
    view), and the last change is always drawn.  ``settle``: seconds to wait before drawing,
    the changes that come meanwhile drawn with it (a page that follows every table: the tables'
    own phones are drawn first, and a burst of writes is one drawing, not one a table)."""
    busy = False
    again = False

    async def on(topic: str, message: Any) -> None:
        nonlocal busy, again
        try:
            if not wanted(topic, message):
                return
        except RuntimeError:
            return
        if busy:
            again = True
            return
        busy = True
        try:
            if settle:
                await asyncio.sleep(settle)
            while True:
                again = False
                # In turn with the pages redrawn for a write (live.turn): those waiting already,
                # a table's own phones, are drawn first.
                async with turn():
                    try:
                        draw()
                    except RuntimeError:  # the page is gone
                        return
                await asyncio.sleep(0)
                if not again:
                    return
        finally:
            busy = False

    names = {"written": WRITTEN, "club": CLUB}
    for t in topics:
        page.pubsub.subscribe_topic(names[t], on)
