"""A league for real (issue #39, item 4): the league served by ``scorepad serve`` (a process) on
a throwaway PostgreSQL, behind TLS; three clubs on three stores of their own (two SQLite files
and a PostgreSQL database) play 30 nights and publish them over HTTPS with ``scorepad league``,
some while the league is down (queued, sent when it is back), and one night corrected and
published again (tests/support/league_scenario.py).  Then the league's nights are the clubs'
own exported files, byte for byte; and once the operator has linked a player across two clubs
and another has claimed his places in two clubs, the league's standings and ratings equal a
recomputation from the clubs' own files (the issue's acceptance), before the correction with the
file as first published, after it with the corrected file."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import pytest
from support.league_scenario import CHANGE, three_clubs

from scorepad.cli import main
from scorepad.league import season
from scorepad.league.players import LeaguePlayers
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
    paths: dict[str, list[Path]] = {}
    for name, db in league.stores.items():
        for nid in league.nights[name]:
            target = tmp_path / "files" / f"{name}-{nid}.json"
            target.parent.mkdir(exist_ok=True)
            assert main(["club", "export", str(nid), str(target), "--db", db]) == 0
            files[f"{name}-{nid}"] = target.read_text("utf-8")
            paths.setdefault(name, []).append(target)
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
    the_season_equals_the_recomputation_from_the_files(league, ids, paths, everything, capsys)
    league.close()


def uid_of(league: Any, club: str, name: str) -> str:
    """A club player's stable id, as his club's nights carry it."""
    night = league.clubs[club].load(league.nights[club][0])
    return next(p.uid for p in night.players if p.name == name)


def the_season_equals_the_recomputation_from_the_files(
    league: Any,
    ids: dict[str, str],
    paths: dict[str, list[Path]],
    everything: list[Any],
    capsys: pytest.CaptureFixture[str],
) -> None:
    def cli(*argv: str) -> str:
        assert main(["--lang", "en", *argv, "--db", league.league_db]) == 0
        return capsys.readouterr().out

    # The operator links Sochi's Anna, then Belgrade's Ana to the same league player.
    anna = cli("league", "link", ids["Sochi"], uid_of(league, "Sochi", "Anna"), "Anna").strip()
    cli("league", "link", ids["Belgrade"], uid_of(league, "Belgrade", "Ana"), "Ana", "--to", anna)
    # Athens's Nikos claims his place with his director's code, then Belgrade's code for Milan
    # from the same phone: one league player in two clubs.
    codes = []
    for club, name in (("Athens", "Nikos"), ("Belgrade", "Milan")):
        out = cli("league", "claim-code", ids[club], uid_of(league, club, name), name)
        codes.append(re.findall(r": (\S+) \(shown once\)", out)[0])
    with Store(league.league_db) as store:
        players = LeaguePlayers(store)
        first = players.claim(codes[0])
        again = players.claim(codes[1], secret=first.secret)
        assert again.player == first.player
        roster = players.roster()
        held = season.league_season(store)
    by_id = {ids[name]: files for name, files in paths.items()}
    recomputed = season.recompute_from_files(by_id, roster)
    assert season.differences(held, recomputed) == []
    assert held == recomputed
    assert len(held.nights) == 30
    # One player counts across two clubs: his nights of both in one line, one rating.
    for who, clubs in ((anna, ["Belgrade", "Sochi"]), (first.player, ["Athens", "Belgrade"])):
        assert sorted(c for c, _ in held.clubs_of(who)) == sorted(ids[c] for c in clubs)
        (row,) = [r for r in held.league if r.who == who]
        assert row.nights == 2 * len(paths["Sochi"])
        assert held.ratings[who].games > 0

    # Before the correction, the league's figures were those of the file first published.
    first_versions = [n for n in everything if n.version == 1]
    before_file = paths["Belgrade"][0].parent / "belgrade-before.json"
    before_file.write_text(league.before, "utf-8")
    corrected_path = paths["Belgrade"][league.nights["Belgrade"].index(league.corrected)]
    with_before = {
        **by_id,
        ids["Belgrade"]: [before_file if p == corrected_path else p for p in paths["Belgrade"]],
    }
    was = season.season(first_versions, roster)
    assert season.differences(was, season.recompute_from_files(with_before, roster)) == []
    # ...and the correction changed them: the league's figures now are the corrected file's.
    assert season.differences(was, held) != []
