"""The league's distributed scenario (issue #39, item 4), for every test that wants the league
as three clubs made it: ``scorepad serve`` (a process) on a throwaway PostgreSQL behind TLS;
three clubs on three stores of their own (two SQLite files and a PostgreSQL database of the
same cluster) play 30 nights at home and publish them over HTTPS with ``scorepad league``,
five while the league is down (queued, sent when it is back), and one night corrected after
it was published, queued while the league is down again and sent as its second version.

:func:`three_clubs` runs it, checking each step's words, and returns where everything is: the
league's database, each club's store and nights, the corrected night and its first document.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from scorepad.cli import main
from scorepad.club.store import ClubStore
from scorepad.store import Store
from support.league import correct_first_deal, league_serving, played_night
from support.table_server import free_port
from support.tls import make_certificates, tls_proxy

NIGHTS_PER_CLUB = 10
ROSTERS = {
    "Sochi": ["Anna", "Boris", "Vera", "Gleb", "Dina", "Egor"],
    "Belgrade": ["Milan", "Jelena", "Nikola", "Ana", "Marko", "Ivana"],
    "Athens": ["Nikos", "Maria", "Yannis", "Eleni", "Kostas", "Sofia"],
}
#: The director's words for the correction.
CHANGE = "deal 1 of table 1 was a raspasy (the protocol)"


@dataclass
class League:
    league_db: str  # the league's database (PostgreSQL)
    stores: dict[str, str]  # each club's store: a SQLite path or a PostgreSQL address
    clubs: dict[str, ClubStore]  # each club's store, open (close with close())
    nights: dict[str, list[int]]  # each club's nights, their ids in its store
    corrected: int  # Belgrade's night corrected after it was published
    before: str  # that night's file as first published

    def close(self) -> None:
        for c in self.clubs.values():
            c.store.close()


def three_clubs(
    postgres_cluster: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> League:
    """The scenario of the module's note, every command's answer checked on the way."""

    def cli(*argv: str) -> tuple[int, str]:
        code = main(["--lang", "en", *argv])
        out, err = capsys.readouterr()
        return code, out + err

    # The PostgreSQL club's league file goes to the user's data folder: this test's.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    league_db = postgres_cluster.database()
    Store(league_db).close()
    stores = {
        "Sochi": str(tmp_path / "sochi.db"),
        "Belgrade": str(tmp_path / "belgrade.db"),
        "Athens": postgres_cluster.database(),  # another database of the same cluster
    }

    # The operator lets the three clubs in; each gets its secret once.
    secrets: dict[str, str] = {}
    for name in stores:
        code, out = cli("league", "club", "add", name, "--db", league_db)
        assert code == 0, out
        secrets[name] = re.findall(r"director\): (\S+)$", out.strip())[0]

    # Each club plays its nights at home: 30 in all, on 30 days of December.
    clubs = {name: ClubStore(Store(db)) for name, db in stores.items()}
    nights: dict[str, list[int]] = {name: [] for name in stores}
    for k in range(NIGHTS_PER_CLUB * len(stores)):
        name = list(stores)[k % len(stores)]
        nights[name].append(
            played_night(
                clubs[name],
                ROSTERS[name],
                name=f"{name} {k // len(stores) + 1}",
                date=datetime.date(2026, 12, 1) + datetime.timedelta(days=k),
                seed=k,
            )
        )

    certs = make_certificates(tmp_path)
    logs = tmp_path / "logs"
    logs.mkdir()
    port = free_port()
    with tls_proxy(certs, upstream=port) as proxy:  # nothing listens there yet
        league_url = f"https://localhost:{proxy.port}"
        for name, db in stores.items():
            code, out = cli(
                "league", "join", league_url, secrets[name], "--ca", str(certs.ca),
                "--db", db,
            )  # fmt: skip
            assert (code, out) == (0, f"This club publishes to the league at {league_url}\n")

        # The league is down: Sochi's first five nights wait in its outbox.
        sochi_first = [str(n) for n in nights["Sochi"][:5]]
        code, out = cli("league", "publish", *sochi_first, "--db", stores["Sochi"])
        assert code == 0, out
        assert out == ("5 nights wait in the outbox: the league answered 502\n"), out

        serve = ("--public-url", league_url)
        with league_serving(league_db, logs, port, *serve):
            # A club that does not trust the league's authority sends nothing.
            stranger = tmp_path / "stranger.json"
            cli(
                "league", "join", league_url, secrets["Sochi"], "--outbox",
                str(stranger), "--db", stores["Sochi"],
            )  # fmt: skip
            code, out = cli(
                "league", "publish", sochi_first[0], "--outbox", str(stranger),
                "--db", stores["Sochi"],
            )  # fmt: skip
            assert code == 0 and out.startswith(
                "1 night waits in the outbox: the league's certificate is not trusted: "
            ), out

            # The league is back: the queue goes first, then every other ended night.
            for db in stores.values():
                code, out = cli("league", "publish", "--db", db)
                assert code == 0, out
                lines = out.splitlines()
                assert len(lines) == NIGHTS_PER_CLUB
                assert all(line.endswith(": published, version 1") for line in lines), out
            # Everything again: nothing is sent, nothing changes.
            for db in stores.values():
                assert cli("league", "publish", "--db", db) == (0, "")

        # Down again: Belgrade's director corrects a deal of its third night after the night;
        # the correction waits, and goes when the league is back.
        belgrade = clubs["Belgrade"]
        corrected = nights["Belgrade"][2]
        before = belgrade.export_night(corrected)
        correct_first_deal(belgrade, corrected)
        change = CHANGE
        code, out = cli(
            "league", "publish", str(corrected), "--change", change,
            "--db", stores["Belgrade"],
        )  # fmt: skip
        assert (code, out) == (0, "1 night waits in the outbox: the league answered 502\n")
        with league_serving(league_db, logs, port, *serve):
            code, out = cli("league", "publish", "--db", stores["Belgrade"])
            assert (code, out) == (0, "Belgrade 3 of 2026-12-08: published, version 2\n")

    return League(league_db, stores, clubs, nights, corrected, before)
