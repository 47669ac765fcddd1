"""A join link renewed or moved on one worker reaches the pages of the others (grants.py's
NOTIFY, listen.py): a hosted table deleted by its owner on one worker shuts the phones of the
other, as on one worker (live.link_renewed).  On the test's own PostgreSQL."""

from __future__ import annotations

import threading
import time
from typing import Any

from test_online_notify import PLAYERS, Heard, listening, loop  # noqa: F401  (the fixture)

from scorepad.app.frame.live import LINKS
from scorepad.app.server.grants import Grants
from scorepad.app.server.listen import Listener, parse, parse_link
from scorepad.store import Store


def test_the_link_payloads_are_read_as_numbers_or_not_at_all() -> None:
    assert parse_link("link 12") == 12
    assert parse_link("moved 12 13") == (12, 13)
    for bad in ("", "link", "link x", "link 1 2", "moved 1", "moved 1 x", "12 34", "links 1"):
        assert parse_link(bad) is None
    assert parse("link 12") is None and parse("moved 12 13") is None  # no session's write


def test_another_workers_new_link_and_move_reach_this_worker_and_its_own_do_not_come_back(
    postgres_url: str,
    loop: Any,  # noqa: F811
) -> None:
    with Store(postgres_url) as mine, Store(postgres_url) as other:
        sid = mine.create_session(PLAYERS, pool_target=10_000)
        nxt = mine.create_session(PLAYERS, pool_target=10_000)
        heard = Heard()
        listener = Listener(postgres_url, mine, heard, loop).start()
        try:
            listening(listener, nxt)
            Grants(mine, threading.RLock()).renew(sid)  # this worker's own: its pages know it
            theirs = Grants(other, threading.RLock())
            theirs.renew(sid)  # another worker's (an owner's New link, or his delete)
            heard.wait((LINKS, sid))
            theirs.move_table(sid, nxt)  # the next pulka at that table, on another worker
            heard.wait((LINKS, (sid, nxt)))
            time.sleep(0.3)
            assert heard.said == [(LINKS, sid), (LINKS, (sid, nxt))]
        finally:
            listener.stop()
