"""The club's pages kept current: a table's write, a confirmation, an announcement reach the
director's view, the live standings and the table's phones at once (Flet's PubSub, one hub per
server), never by waiting for a timer."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import flet as ft

from ..frame.live import TOPIC as WRITTEN

#: What the club announces besides the deals written (live.TOPIC): ("table", session) when a
#: table's deal is confirmed or rejected, ("night", night) when the director announces.
CLUB = "scorepad-club"
#: Seconds a page that follows every table (the director's view, the standings) waits before
#: it is drawn again: the writing table's phones first, a burst of the night's tables drawn once.
SETTLE = 0.15
log = logging.getLogger(__name__)


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
