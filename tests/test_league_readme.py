"""The README's "A league", run as the league's operator and a club's director would: every
command line of the section, in its order, against ``scorepad serve`` on a real PostgreSQL (the
test cluster's address in place of the example's) behind TLS answering as the example's
address would (a private authority this computer trusts, SSL_CERT_FILE), and a club's SQLite
store with an ended night; then the season's steps: the director's claim code, the operator's
link of the player the standings name (CLUB/PLAYER, read from their JSON as a reader would),
the standings, the members' link and the PDF."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from support.league import league_serving, played_night
from support.readme import section_commands
from support.table_server import free_port
from support.tls import make_certificates, tls_proxy

from scorepad.cli import main
from scorepad.club.store import ClubStore
from scorepad.league.players import LeaguePlayers
from scorepad.league.store import LeagueStore
from scorepad.store import Store

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_DB = "postgresql://scorepad@localhost/scorepad"
EXAMPLE_URL = "https://scorepad.example.org"


def readme_commands() -> list[list[str]]:
    return section_commands("A league")


def test_every_command_of_the_readme_section_runs(
    postgres_cluster: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LANGUAGE", "en")
    certs = make_certificates(tmp_path)
    monkeypatch.setenv("SSL_CERT_FILE", str(certs.ca))  # this computer trusts the league's CA
    db = postgres_cluster.database()
    Store(db).close()
    club = ClubStore(Store(tmp_path / "club.db"))
    nid = played_night(club, ["Anna", "Boris", "Vera", "Gleb", "Dina", "Egor"])
    commands = readme_commands()
    assert [c[:3] for c in commands] == [
        ["scorepad", "league", "club"],
        ["scorepad", "league", "join"],
        ["scorepad", "league", "publish"],
        ["scorepad", "league", "nights"],
        ["scorepad", "league", "claim-code"],
        ["scorepad", "league", "standings"],
        ["scorepad", "league", "link"],
        ["scorepad", "league", "standings"],
        ["scorepad", "league", "members-link"],
        ["scorepad", "league", "pdf"],
    ]
    port = free_port()
    secret = ""
    said: dict[str, str] = {}
    with tls_proxy(certs, upstream=port) as proxy:
        url = f"https://localhost:{proxy.port}"
        with league_serving(db, tmp_path, port, "--public-url", url):
            for argv in commands:
                argv = [
                    {EXAMPLE_DB: db, EXAMPLE_URL: url, "SECRET": secret, **said}.get(a, a)
                    for a in argv
                ]
                assert main(argv[1:]) == 0, capsys.readouterr()
                out = capsys.readouterr().out
                said[" ".join(argv[2:4])] = out
                if argv[2] == "club":
                    secret = re.findall(r"director\): (\S+)$", out.strip())[0]
                elif argv[2] == "publish":
                    assert out == "Friday of 2026-12-04: published, version 1\n"
                elif argv[2] == "nights":
                    assert out.split("\t")[:4] == ["2026-12-04", "Sochi Club", "Friday", "1"]
                elif argv[2] == "standings" and "--json" in argv:
                    # The reader takes Boris's CLUB/PLAYER from the JSON for the next line.
                    [boris] = [r for r in json.loads(out) if r["name"] == "Boris"]
                    said["CLUB"], said["PLAYER"] = boris["player"].split("/")
    assert re.fullmatch(
        r"The code for Anna to claim a place in the league: \S+ \(shown once\)\n",
        said["claim-code Anna"],
    )
    lines = said["standings --db"].splitlines()
    assert lines[0] == "The league's standings: 1 night of one club"
    assert len(lines) == 7 and any(
        line.split(". ", 1)[1].startswith("Boris:") for line in lines[1:]
    )
    assert said["members-link --public-url"].startswith(
        f"The league's pages for its members (shown once): {url}/league/"
    )
    assert (tmp_path / "league.pdf").read_bytes().startswith(b"%PDF")
    with Store(db) as store:
        [held] = LeagueStore(store).nights()
        [linked] = [p for p in LeaguePlayers(store).players() if p.name == "Boris"]
    assert held.document == club.export_night(nid)
    assert [(x.club, x.player, x.by) for x in linked.links] == [
        (said["CLUB"], said["PLAYER"], "operator")
    ]
    assert said[f"link {said['CLUB']}"] == linked.uid + "\n"  # `link` prints the league player
    club.store.close()
