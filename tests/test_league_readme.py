"""The README's "A league", run as the league's operator and a club's director would: every
command line of the section, in its order, against ``scorepad serve`` on a real PostgreSQL (the
test cluster's address in place of the example's) behind TLS answering as the example's
address would (a private authority this computer trusts, SSL_CERT_FILE), and a club's SQLite
store with an ended night."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest
from support.league import league_serving, played_night
from support.table_server import free_port
from support.tls import make_certificates, tls_proxy

from scorepad.cli import main
from scorepad.club.store import ClubStore
from scorepad.league.store import LeagueStore
from scorepad.store import Store

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_DB = "postgresql://scorepad@localhost/scorepad"
EXAMPLE_URL = "https://scorepad.example.org"


def readme_commands() -> list[list[str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## A league\n", 1)[1].split("\n## ", 1)[0]
    lines = [line[4:] for line in section.splitlines() if line.startswith("    ")]
    return [shlex.split(line.split("  #", 1)[0]) for line in lines]


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
    ]
    port = free_port()
    secret = ""
    with tls_proxy(certs, upstream=port) as proxy:
        url = f"https://localhost:{proxy.port}"
        with league_serving(db, tmp_path, port, "--public-url", url):
            for argv in commands:
                argv = [
                    {EXAMPLE_DB: db, EXAMPLE_URL: url, "SECRET": secret}.get(a, a) for a in argv
                ]
                assert main(argv[1:]) == 0, capsys.readouterr()
                out = capsys.readouterr().out
                if argv[2] == "club":
                    secret = re.findall(r"director\): (\S+)$", out.strip())[0]
                elif argv[2] == "publish":
                    assert out == "Friday of 2026-12-04: published, version 1\n"
    assert out.split("\t")[:4] == ["2026-12-04", "Sochi Club", "Friday", "1"]
    with Store(db) as store:
        [held] = LeagueStore(store).nights()
    assert held.document == club.export_night(nid)
    club.store.close()
