"""A league for real (issue #39, item 4): the league served by ``scorepad serve`` (a process) on
a throwaway PostgreSQL, behind TLS; three clubs on three stores of their own (two SQLite files
and a PostgreSQL database) play 30 nights and publish them over HTTPS with ``scorepad league``,
some while the league is down (queued, sent when it is back), and one night corrected and
published again (tests/support/league_scenario.py).  Then the league's nights are the clubs'
own exported files, byte for byte."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import pytest
from support.league_scenario import CHANGE, three_clubs

from scorepad.cli import main
from scorepad.league.store import LeagueStore
from scorepad.store import Store


def test_three_clubs_publish_thirty_nights_over_https_through_an_outage(
    postgres_cluster: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    league = three_clubs(postgres_cluster, tmp_path, capsys, monkeypatch)
    corrected = league.corrected
    # The clubs' own files, as `scorepad club export` writes them.
    files: dict[str, str] = {}
    for name, db in league.stores.items():
        for nid in league.nights[name]:
            target = tmp_path / "files" / f"{name}-{nid}.json"
            target.parent.mkdir(exist_ok=True)
            assert main(["club", "export", str(nid), str(target), "--db", db]) == 0
            files[f"{name}-{nid}"] = target.read_text("utf-8")
    capsys.readouterr()
    with Store(league.league_db) as store:
        held_by = LeagueStore(store)
        held = held_by.nights()
        everything = held_by.nights(current=False)
        ids = {c.name: c.id for c in held_by.clubs()}
        versions = held_by.versions(
            ids["Belgrade"], league.clubs["Belgrade"].load(corrected).uid or ""
        )
    # Every night once, in the order played, each the club's own file byte for byte.
    by_date = sorted(files.values(), key=lambda text: re.findall(r'"date": "(.*?)"', text)[0])
    assert [n.document for n in held] == by_date
    assert [n.digest for n in held] == [hashlib.sha256(t.encode()).hexdigest() for t in by_date]
    assert len(held) == 30 and len(everything) == 31
    # The correction is the night's second version, with its words; the first kept.
    assert [(v.version, v.document, v.change) for v in versions] == [
        (1, league.before, None),
        (2, files[f"Belgrade-{corrected}"], CHANGE),
    ]
    league.close()
