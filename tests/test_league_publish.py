"""A club publishes to its league over the real server (issue #39, item 1): ``scorepad serve``'s
``POST /league/publish``, the client, the club's outbox and the ``scorepad league`` commands,
each run for real (the server as a process; the CLI's ``main`` in this one)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.hosted_server import serving
from support.league import played_night, post, unbalanced
from support.table_server import free_port

from scorepad.cli import main
from scorepad.club.file import MAX_FILE
from scorepad.club.store import ClubStore
from scorepad.league.client import (
    LeagueAddressRefused,
    Refusal,
    Sent,
    Unreachable,
    league_base,
    send_night,
)
from scorepad.league.outbox import Outbox, outbox_path
from scorepad.league.store import LeagueStore
from scorepad.store import Store

NAMES = ["Anna", "Boris", "Vera", "Gleb", "Dina", "Egor"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["--lang", "en", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def secret_of(out: str) -> str:
    found = re.search(r"director\): (\S+)$", out.strip())
    assert found, out
    return found[1]


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """A league served by ``scorepad serve`` on a SQLite file: its database and its address."""
    folder = tmp_path_factory.mktemp("league")
    db = str(folder / "league.db")
    Store(db).close()
    with serving(db, folder) as url:
        yield db, url


def test_the_operator_adds_a_club_and_the_club_publishes_its_ended_nights(
    league: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, url = league
    code, out, _ = run(capsys, "league", "club", "add", "Sochi Club", "--db", db)
    assert code == 0 and "Club Sochi Club is in the league: its id is " in out
    secret = secret_of(out)
    club_db = tmp_path / "club.db"
    club = ClubStore(Store(club_db))
    first = played_night(club, NAMES, name="Monday", tours=2)
    second = played_night(club, NAMES, name="Tuesday", seed=1)
    still_open = club.create_night("Open", date=club.load(first).date, tours=1, deals_per_tour=1)
    code, out, _ = run(capsys, "league", "join", url, secret, "--db", str(club_db))
    assert code == 0 and out == f"This club publishes to the league at {url}\n"
    box = outbox_path(club_db)
    assert box == Path(f"{club_db}.league.json") and box.stat().st_mode & 0o777 == 0o600
    assert secret in box.read_text()

    # A night named that has not ended is refused, and nothing is queued with it.
    code, out, err = run(
        capsys, "league", "publish", str(first), str(still_open), "--db", str(club_db)
    )
    assert (code, out) == (2, "")
    assert err == (
        "the club night Open of 2026-12-04 has not ended: publish it after its last tour\n"
    )
    code, out, _ = run(capsys, "league", "publish", "--db", str(club_db))  # every ended night
    assert code == 0, out
    assert out.splitlines() == [
        "Monday of 2026-12-04: published, version 1",
        "Tuesday of 2026-12-04: published, version 1",
    ]
    # Publishing again sends nothing; the league holds each night once, byte for byte.
    code, out, _ = run(capsys, "league", "publish", str(first), "--db", str(club_db))
    assert (code, out) == (0, "")
    with Store(db) as store:
        held = LeagueStore(store).nights()
    assert [n.document for n in held] == [club.export_night(first), club.export_night(second)]
    code, out, _ = run(capsys, "league", "nights", "--db", db)
    assert [line.split("\t")[:4] for line in out.splitlines()] == [
        ["2026-12-04", "Sochi Club", "Monday", "1"],
        ["2026-12-04", "Sochi Club", "Tuesday", "1"],
    ]
    club.store.close()


def test_a_refusal_comes_back_in_the_clubs_language_naming_the_table(
    league: tuple[str, str], tmp_path: Path
) -> None:
    db, url = league
    with Store(db) as store:
        _, secret = LeagueStore(store).add_club("Belgrade")
    club = ClubStore(Store(tmp_path / "club.db"))
    nid = played_night(club, NAMES, tours=2, name="Petak")
    bad = unbalanced(club.export_night(nid), tour=2, table=2)
    answer = send_night(url, secret, bad, None, lang="ru")
    assert isinstance(answer, Refusal) and answer.final
    assert answer.said.startswith("тур 2, стол 2 не сходится"), answer.said
    wrong = send_night(url, "x" * 32, club.export_night(nid), None, lang="de")
    assert wrong == Refusal(
        "die Liga kennt dieses Geheimnis des Clubs nicht oder hat es widerrufen", final=False
    )
    good = send_night(url, secret, club.export_night(nid), "nothing yet", lang="en")
    assert isinstance(good, Sent) and good.new and good.version == 1
    again = send_night(url, secret, club.export_night(nid), None)
    assert again == Sent(good.night, 1, new=False)
    with Store(db) as store:
        assert [
            n.version for n in LeagueStore(store).nights(current=False) if n.night == good.night
        ] == [1]
    club.store.close()


def _post(url: str, headers: dict[str, str], body: bytes = b"") -> tuple[int, Any]:
    return post(url, "/league/publish", headers, body)


def test_the_body_is_bounded_before_it_is_read(league: tuple[str, str]) -> None:
    _, url = league
    auth = {"Authorization": "Bearer " + "x" * 32, "Host": url.removeprefix("http://")}
    # Too large by its own word: refused before a byte of it is read (none is sent).
    status, data = _post(url, {**auth, "Content-Length": str(MAX_FILE + 1)})
    assert status == 413 and data == {"refused": "a club file is at most 16 MB"}
    status, data = _post(url, {**auth, "Transfer-Encoding": "chunked"})
    assert status == 411
    assert data == {"refused": "the league needs the night's size before its body"}
    status, data = _post(url, {"Host": auth["Host"], "Content-Length": "2"}, b"{}")
    assert status == 401


def test_the_outbox_keeps_nights_while_the_league_is_away(
    league: tuple[str, str], tmp_path: Path
) -> None:
    db, url = league
    with Store(db) as store:
        _, secret = LeagueStore(store).add_club("Away")
    club = ClubStore(Store(tmp_path / "club.db"))
    nid = played_night(club, NAMES, name="Away night")
    path = tmp_path / "outbox.json"
    night = club.load(nid)
    with Outbox.open(path) as box:
        box.join(f"http://127.0.0.1:{free_port()}", secret)  # nobody listens there
        assert box.add(night, club.export_night(nid))
        done = box.flush()
    assert done.sent == [] and done.waiting == 1 and done.unreachable is not None
    assert (
        done.lines()[0]
        .render("en")
        .startswith("1 night waits in the outbox: the league cannot be reached: ")
    )
    with Outbox.open(path) as box:  # kept on disk
        assert [q.night for q in box.queue] == [night.uid]
        assert not box.add(night, club.export_night(nid))  # it waits already
        box.join(url, secret)
        done = box.flush()
        assert [s.version for _, s in done.sent] == [1] and box.queue == []
        assert not box.add(night, club.export_night(nid))  # sent: nothing to do
    club.store.close()


def test_a_league_address_is_https_or_this_computer() -> None:
    assert league_base("https://league.example.org/") == "https://league.example.org"
    assert league_base("http://127.0.0.1:8550") == "http://127.0.0.1:8550"
    assert league_base("http://localhost:1/x/") == "http://localhost:1/x"
    for url in ("http://league.example.org", "ftp://x", "https://", "https://h/?q=1"):
        with pytest.raises(LeagueAddressRefused):
            league_base(url)
    answer = send_night("https://127.0.0.1:1", "s" * 32, "{}", None)
    assert isinstance(answer, Unreachable)


@pytest.mark.parametrize(
    "content", ["{", "[]", '{"format": "scorepad-league-outbox/1"}', '{"format": "x"}']
)
def test_a_damaged_outbox_is_said_and_nothing_is_sent(
    content: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    club_db = tmp_path / "club.db"
    Store(club_db).close()
    outbox_path(club_db).write_text(content)
    code, out, err = run(capsys, "league", "publish", "--db", str(club_db))
    assert (code, out) == (2, "")
    assert err == f"{club_db}.league.json is not a league outbox: nothing was sent\n"
    assert outbox_path(club_db).read_text() == content
