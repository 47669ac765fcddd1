"""The league's operator (issue #39): ``scorepad league club add|revoke|renew|list`` and
``league nights --all`` on a real SQLite file and a real PostgreSQL; and the league's door on
the server, its bounds said in the club's language (the ASGI app itself, in this process)."""

from __future__ import annotations

import asyncio
import json
import re
import threading
from pathlib import Path
from typing import Any

import pytest
from support.league import correct_first_deal, played_night

from scorepad.app.server import league as door
from scorepad.app.server.league import LeagueDoor, language
from scorepad.cli import main
from scorepad.club.store import ClubStore
from scorepad.league.store import LeagueError, LeagueStore
from scorepad.store import Store

NAMES = ["Anna", "Boris", "Vera", "Gleb", "Dina", "Egor"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["--lang", "en", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_operator_revokes_and_renews_a_club(
    target: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "league", "club", "add", "Sochi Club", "--db", target)
    assert code == 0
    cid, secret = re.findall(r"its id is (\S+)\nIts secret .*: (\S+)$", out.strip())[0]
    club = ClubStore(Store(tmp_path / "club.db"))
    nid = played_night(club, NAMES)
    with Store(target) as store:
        LeagueStore(store).take(secret, club.export_night(nid))

    code, out, _ = run(capsys, "league", "club", "revoke", cid, "--db", target)
    assert (code, out) == (0, f"Club {cid} is revoked: its secret publishes nothing from now on\n")
    code, out, _ = run(capsys, "league", "club", "list", "--db", target)
    [row] = [line.split("\t") for line in out.splitlines()]
    assert row[:2] == [cid, "Sochi Club"] and row[3] != ""  # revoked, when
    correct_first_deal(club, nid)
    with Store(target) as store, pytest.raises(LeagueError):
        LeagueStore(store).take(secret, club.export_night(nid))

    # A new secret lets the club in again; its night is still its own, corrected as version 2.
    code, out, _ = run(capsys, "league", "club", "renew", cid, "--db", target)
    renewed = re.findall(r": (\S+)$", out.strip())[0]
    assert code == 0 and renewed != secret
    with Store(target) as store:
        league = LeagueStore(store)
        with pytest.raises(LeagueError):
            league.take(secret, club.export_night(nid))  # the old secret opens nothing
        assert league.take(renewed, club.export_night(nid), "deal 1 was a raspasy").new
    code, out, _ = run(capsys, "league", "club", "list", "--db", target)
    assert out.split("\t")[3] == "\n"  # not revoked any more
    code, out, _ = run(capsys, "league", "nights", "--all", "--db", target)
    assert [line.split("\t")[1:4] + line.split("\t")[5:] for line in out.splitlines()] == [
        ["Sochi Club", "Friday", "1", ""],
        ["Sochi Club", "Friday", "2", "deal 1 was a raspasy"],
    ]
    code, _, err = run(capsys, "league", "club", "revoke", "no-such-club", "--db", target)
    assert (code, err) == (2, "the league has no club no-such-club\n")
    club.store.close()


def call(
    app: Any,
    headers: dict[str, str],
    chunks: list[bytes],
    *,
    method: str = "POST",
    ends: bool = True,
    client: str = "127.0.0.1",
    query: bytes = b"",
) -> Any:
    """One request to the ASGI app (``ends``: its last chunk is the body's end; otherwise the
    client stops sending after them): its status and its JSON."""
    sent: list[dict[str, Any]] = []
    incoming = [{"type": "http.request", "body": c, "more_body": True} for c in chunks]
    if incoming and ends:
        incoming[-1]["more_body"] = False

    async def receive() -> dict[str, Any]:
        if incoming:
            return incoming.pop(0)
        await asyncio.sleep(3600)  # a client that stops sending
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": method,
        "path": "/league/publish",
        "query_string": query,
        "client": (client, 50000),
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
    }
    asyncio.run(app(scope, receive, send))
    return sent[0]["status"], json.loads(sent[1]["body"])


def test_the_door_bounds_a_slow_or_lying_body_in_the_clubs_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def elsewhere(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("the league's door answers its own path")

    with Store(tmp_path / "league.db", check_same_thread=False) as store:
        _, secret = LeagueStore(store).add_club("A")
        app = LeagueDoor(elsewhere, store, threading.RLock(), "en")
        auth = {"Authorization": f"Bearer {secret}", "Accept-Language": "de-DE,de;q=0.9"}
        monkeypatch.setattr(door, "READ_WITHIN", 0.2)
        status, data = call(app, {**auth, "Content-Length": "100"}, [b"{"], ends=False)
        assert (status, data) == (
            408,
            {"refused": "der Abend kam zu langsam an: senden Sie ihn noch einmal"},
        )
        status, data = call(app, {**auth, "Content-Length": "2"}, [b"{}{}"])
        assert (status, data) == (
            400,
            {"refused": "der Inhalt des Abends hat nicht die angegebene Größe"},
        )
        status, data = call(app, auth, [], method="GET")
        assert status == 405
        for query in (b"change=a&change=b", b"other=1", b"&".join([b"a=1"] * 9)):
            status, data = call(app, {**auth, "Content-Length": "2"}, [b"{}"], query=query)
            assert (status, data) == (
                400,
                {"refused": "die Liga nimmt einen Abend mit höchstens einer Änderung an"},
            )
        status, data = call(app, {**auth, "Content-Length": "2"}, [b"{}"])
        assert status == 422 and data["refused"].startswith("das ist keine Klubdatei")
        assert LeagueStore(store).nights(current=False) == []


def test_the_clubs_language_is_its_first_that_scorepad_speaks() -> None:
    assert language({b"accept-language": b"fr, sr-Latn;q=0.8, ru"}, "en") == "sr_Latn"
    assert language({b"accept-language": b"el-GR"}, "en") == "el"
    assert language({}, "ru") == "ru"


def test_wrong_secrets_make_an_address_wait_even_for_the_right_one(tmp_path: Path) -> None:
    async def elsewhere(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("the league's door answers its own path")

    club = ClubStore(Store(tmp_path / "club.db"))
    document = club.export_night(played_night(club, NAMES)).encode()
    now = [1000.0]
    with Store(tmp_path / "league.db", check_same_thread=False) as store:
        _, secret = LeagueStore(store).add_club("A")
        app = LeagueDoor(elsewhere, store, threading.RLock(), "en", clock=lambda: now[0])
        size = {"Content-Length": str(len(document))}
        right = {"Authorization": f"Bearer {secret}", **size}
        wrong = {"Authorization": "Bearer " + "w" * 32, **size}
        for _ in range(19):
            assert call(app, wrong, [document], client="203.0.113.7")[0] == 401
        status, data = call(app, {**size}, [document], client="203.0.113.7")  # the 20th
        assert status == 401
        status, data = call(app, right, [document], client="203.0.113.7")
        assert (status, data) == (
            429,
            {"refused": "Too many wrong secrets from this network: wait 60 s, then try again."},
        )
        assert call(app, right, [document], client="198.51.100.1")[0] == 201  # another network
        now[0] += 61
        status, data = call(app, right, [document], client="203.0.113.7")
        assert status == 200 and data["new"] is False
        assert call(app, wrong, [document], client="203.0.113.7")[0] == 401  # counted anew
    club.store.close()
