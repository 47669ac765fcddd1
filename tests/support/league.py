"""Club nights played to their end in a real club store, for the league's tests: each deal
written at its table by one player and confirmed by another, each tour ended by the director's
store, as an evening does."""

from __future__ import annotations

import datetime
import http.client
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import Any

from scorepad.club.store import ClubStore
from support.club_nights import RASP, SIX
from support.table_server import ROOT, stop

#: A table of three's deals, by seed: a game, a raspasy, a game with another declarer.
DEALS = (SIX, RASP, {**SIX, "declarer": 2, "tricks": {"2": 6, "0": 3, "1": 1}})


def played_night(
    club: ClubStore,
    names: Sequence[str],
    *,
    name: str = "Friday",
    date: datetime.date = datetime.date(2026, 12, 4),
    tours: int = 1,
    deals: int = 2,
    seed: int = 0,
) -> int:
    """A night with ``names`` (a multiple of three), played and ended: the night's id."""
    nid = club.create_night(
        name, date=date, tours=tours, deals_per_tour=deals, seats=3, seed=1000 + seed
    )
    for n in names:
        club.check_in(nid, n)
    for tour in range(1, tours + 1):
        club.draw(nid)
        for tab in club.load(nid).tour(tour).tables:
            a, b, _ = tab.players
            sid = club.session_of(nid, tour, tab.number)
            for k in range(deals):
                deal = DEALS[(seed + k + tab.number) % len(DEALS)]
                stored = club.write_deal(
                    nid, tour, tab.number, deal, by=a, seen=club.store.load(sid).revision
                )
                club.confirm(nid, tour, tab.number, stored.journal.live[-1].deal_id, by=b)
        club.end_tour(nid, tour)
    return nid


def correct_first_deal(club: ClubStore, nid: int) -> None:
    """The director's correction after the night: table 1's first deal of tour 1 was a
    raspasy."""
    sid = club.session_of(nid, 1, 1)
    deal = club.store.load(sid).journal.live[0].deal_id
    club.correct_deal(
        nid,
        1,
        1,
        deal,
        {"type": "raspasy", "tricks": {"0": 4, "1": 3, "2": 3}},
        reason="the protocol says raspasy",
        seen=club.store.load(sid).revision,
    )


def unbalanced(document: str, tour: int = 1, table: int = 1) -> str:
    """A club file whose table ``tour``/``table`` does not add up (one whist moved)."""
    data = json.loads(document)
    tab = next(t for t in data["drawn"][tour - 1]["tables"] if t["number"] == table)
    first, second = list(tab["whists"])[:2]  # the sum stays 0: the deals say otherwise
    tab["whists"][first] = str(Fraction(str(tab["whists"][first])) + 1)
    tab["whists"][second] = str(Fraction(str(tab["whists"][second])) - 1)
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


@contextmanager
def league_serving(db: str, logs: Path, port: int, *extra: str) -> Iterator[None]:
    """``scorepad serve --db DB`` on 127.0.0.1:``port`` (a process) until the block ends, once
    it answers; its log checked for a traceback when it stops."""
    env = dict(os.environ, FLET_WEB_NO_CDN="1")
    env.pop("DISPLAY", None)
    env.pop("SCOREPAD_ADMIN_SECRET", None)
    log = logs / f"league-{port}-{time.monotonic_ns()}.log"
    argv = [sys.executable, "-m", "scorepad.cli", "serve", "--lang", "en", "--db", db]
    proc = subprocess.Popen(
        [*argv, "--host", "127.0.0.1", "--port", str(port), *extra],
        cwd=ROOT,
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:  # any HTTP answer (the alive probe's 204) means it serves
            assert proc.poll() is None, log.read_text(errors="replace")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
                    s.sendall(
                        f"GET /scorepad-alive HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
                    )
                    if s.recv(12).startswith(b"HTTP/1.1"):
                        break
            except OSError:
                pass
            assert time.monotonic() < deadline, log.read_text(errors="replace")
            time.sleep(0.1)
        yield
    finally:
        stop(proc)
        assert "Traceback" not in log.read_text(errors="replace"), log.read_text()


def post(
    url: str, path: str, headers: dict[str, str], body: bytes = b"", method: str = "POST"
) -> tuple[int, Any]:
    """One raw request to the league's door (``url``: ``http://host:port``): its status and its
    JSON answer.  Raw, so that a test can send what a client library would refuse to."""
    host, port = url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        conn.putrequest(method, path)
        for k, v in headers.items():
            conn.putheader(k, v)
        conn.endheaders()
        if body:
            conn.send(body)
        answer = conn.getresponse()
        return answer.status, json.loads(answer.read())
    finally:
        conn.close()
