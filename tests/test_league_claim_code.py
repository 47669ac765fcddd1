"""A claim code from the club's side (issue #39, item 2: "a code the club's director gives
him"): ``scorepad league claim-code PLAYER`` on the club's store asks the league's
``POST /league/claim-code`` (a real ``scorepad serve``) with the club's secret from its league
file; the league gives a code only for a player of the club's own published nights, and the
player's claim with it links him."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.hosted_server import serving
from support.league import played_night, post

from scorepad.cli import main
from scorepad.club.store import ClubStore
from scorepad.league.client import Issued, Refusal, ask_claim_code
from scorepad.league.players import LeaguePlayers
from scorepad.league.store import LeagueStore
from scorepad.store import Store

SOCHI = ["Anna", "Boris", "Vera"]
BELGRADE = ["Milan", "Jelena", "Nikola"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["--lang", "en", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    folder = tmp_path_factory.mktemp("league")
    db = str(folder / "league.db")
    Store(db).close()
    with serving(db, folder) as url:
        yield db, url


def a_club(db: str, tmp_path: Path, name: str, names: list[str]) -> tuple[str, str, ClubStore]:
    """A club of the league with one ended night at home: its id, secret and store."""
    with Store(db) as store:
        cid, secret = LeagueStore(store).add_club(name)
    club = ClubStore(Store(tmp_path / f"{name}.db"))
    played_night(club, names, name=f"{name} 1")
    return cid, secret, club


def uid_of(club: ClubStore, name: str) -> str:
    night = club.load(club.nights()[0][0])
    return next(p.uid or "" for p in night.players if p.name == name)


def test_the_directors_code_claims_his_player_once_and_only_his_clubs(
    league: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, url = league
    cid, secret, club = a_club(db, tmp_path, "Sochi", SOCHI)
    club_db = str(tmp_path / "Sochi.db")

    # Not joined yet: the command says how to join, and asks nobody.
    code, out, err = run(capsys, "league", "claim-code", "Anna", "--db", club_db)
    assert (code, out) == (2, "")
    assert err == "this club has not joined a league: scorepad league join URL SECRET\n"
    assert run(capsys, "league", "join", url, secret, "--db", club_db)[0] == 0

    # A name the club's nights do not have is refused at home.
    code, out, err = run(capsys, "league", "claim-code", "Zoe", "--db", club_db)
    assert (code, out, err) == (2, "", "there is no player 'Zoe' in this club's nights\n")
    # Anna plays in the club, but in none of its nights the league has: no code.
    anna = uid_of(club, "Anna")
    code, out, err = run(capsys, "league", "claim-code", "Anna", "--db", club_db)
    assert (code, out) == (2, "")
    assert err == (
        f"the league says: {anna} plays in none of this club's nights in the league: "
        "publish one of his nights first\n"
    )

    assert run(capsys, "league", "publish", "--db", club_db)[0] == 0
    code, out, err = run(capsys, "league", "claim-code", "anna", "--db", club_db)
    assert code == 0, err
    found = re.fullmatch(
        r"The code for Anna to claim a place in the league: (\S+) \(shown once\)\n", out
    )
    assert found, out
    # Anna claims from her phone with it: the league links Sochi's Anna to her league player.
    with Store(db) as store:
        players = LeaguePlayers(store)
        claimed = players.claim(found[1])
        assert claimed.name == "Anna"
        assert players.link_of(cid, anna) == claimed.player
        assert [x.by for x in players.player(claimed.player).links] == ["claim"]
    # A player linked already gets no second code.
    code, out, err = run(capsys, "league", "claim-code", anna, "--db", club_db)
    assert (code, out) == (2, "")
    assert err == "the league says: 'Anna' of this club is linked to a league player already\n"

    # Another club's secret gets no code for Sochi's player, in that club's language.
    _, other, belgrade = a_club(db, tmp_path, "Belgrade", BELGRADE)
    boris = uid_of(club, "Boris")
    answer = ask_claim_code(url, other, boris, lang="ru")
    assert isinstance(answer, Refusal) and answer.final
    assert answer.said.startswith(boris) and "лиг" in answer.said, answer.said
    # ...while Sochi's own secret does.
    mine = ask_claim_code(url, secret, boris)
    assert isinstance(mine, Issued) and mine.name == "Boris"
    # A wrong secret is the publish door's refusal.
    wrong = ask_claim_code(url, "x" * 32, boris, lang="de")
    assert wrong == Refusal(
        "die Liga kennt dieses Geheimnis des Clubs nicht oder hat es widerrufen", final=False
    )
    club.store.close()
    belgrade.store.close()


def _post(url: str, headers: dict[str, str], body: bytes = b"", method: str = "POST") -> Any:
    host_port = url.removeprefix("http://")
    return post(url, "/league/claim-code", {"Host": host_port, **headers}, body, method)


def test_the_claim_code_door_is_bounded_and_speaks_the_clubs_language(
    league: tuple[str, str], tmp_path: Path
) -> None:
    db, url = league
    _, secret, club = a_club(db, tmp_path, "Athens", ["Nikos", "Maria", "Yannis"])
    club.store.close()
    auth = {"Authorization": f"Bearer {secret}"}
    assert _post(url, {**auth, "Content-Length": "4097"}) == (
        413,
        {"refused": "a claim code's request is at most 4 kB"},
    )
    assert _post(url, {**auth, "Transfer-Encoding": "chunked"}) == (
        411,
        {"refused": "the league needs the request's size before its body"},
    )
    assert _post(url, auth, method="GET") == (
        405,
        {"refused": "the league gives a claim code for a POST only"},
    )
    for body in (b"[]", b"{", b'{"player": 7}', b'{"player": "a", "name": "b"}'):
        status, data = _post(url, {**auth, "Content-Length": str(len(body))}, body)
        assert status == 400, body
        assert data == {"refused": 'the request names no player of the club: {"player": ID}'}
    body = b'{"player": "nobody"}'
    status, data = _post(
        url, {**auth, "Content-Length": str(len(body)), "Accept-Language": "de"}, body
    )
    assert status == 422 and data["refused"].startswith("nobody "), data


def test_a_league_away_or_a_wrong_command_line_gives_no_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from support.table_server import free_port

    club = ClubStore(Store(tmp_path / "club.db"))
    played_night(club, SOCHI)
    club.store.close()
    club_db = str(tmp_path / "club.db")
    away = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    assert run(capsys, "league", "join", away, "s" * 32, "--db", club_db)[0] == 0
    code, out, err = run(capsys, "league", "claim-code", "Anna", "--db", club_db)
    assert (code, out) == (2, "")
    assert err.startswith("the league gives no code now: the league cannot be reached: "), err
    code, out, err = run(capsys, "league", "claim-code", "Anna", "Boris", "--db", club_db)
    assert (code, out) == (2, "")
    assert err == (
        "claim-code takes PLAYER (the club's director) or CLUB PLAYER NAME "
        "(the league's operator)\n"
    )
