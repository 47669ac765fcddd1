"""``scorepad league players|link|claim-code|merge|split|members-link|standings|pdf`` (issue #39),
through the real CLI in process on a real league database; the PDF read back with pdftotext."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from support.league_nights import club_night, roster_names, uid_of

from scorepad.cli import main
from scorepad.core.numbers import signed, whist_figure
from scorepad.league.players import LeaguePlayers
from scorepad.league.season import rating_figure, recompute_from_files
from scorepad.store import Store

NORTH, SOUTH = uid_of("club north"), uid_of("club south")
NP, SP = roster_names("North", 6), roster_names("South", 6)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["--lang", "en", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def files(tmp_path: Path) -> list[str]:
    """Three nights of the North and one of the South, as the clubs' own files."""
    out = []
    for club, people, k in ((NORTH, NP, 0), (NORTH, NP, 1), (SOUTH, SP, 2), (NORTH, NP, 3)):
        p = tmp_path / f"night-{k}.json"
        p.write_text(
            club_night(people, date=dt.date(2026, 3, 1 + k), seed=40 + k, name=f"Night {k}"),
            encoding="utf-8",
        )
        out.append(f"{club}={p}")
    return out


def test_link_claim_merge_split_and_the_standings(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, files: list[str]
) -> None:
    db = str(tmp_path / "league.db")
    code, out, _ = run(capsys, "league", "link", NORTH, NP[0][1], NP[0][0], "--db", db)
    assert code == 0
    anna = out.strip()
    code, out, err = run(capsys, "league", "link", SOUTH, SP[0][1], "North 1", "--db", db)
    assert code == 2 and out == ""
    assert err.strip() == (
        "the name 'North 1' looks like 'North 1', already a player of the league: link to that one"
    )
    code, out, _ = run(
        capsys, "league", "link", SOUTH, SP[0][1], "North 1", "--to", anna, "--db", db
    )
    assert (code, out.strip()) == (0, anna)
    code, out, _ = run(capsys, "league", "claim-code", SOUTH, SP[1][1], SP[1][0], "--db", db)
    assert code == 0
    claim = out.split(": ", 1)[1].split(" ", 1)[0]
    with Store(db) as store:
        boris = LeaguePlayers(store).claim(claim).player
    code, out, _ = run(capsys, "league", "players", "--db", db)
    assert out.splitlines() == [
        f"{anna} North 1: 2 club players linked",
        f"  {NORTH} / {NP[0][1]}: North 1, by the operator",
        f"  {SOUTH} / {SP[0][1]}: North 1, by the operator",
        f"{boris} South 2: 1 club player linked",
        f"  {SOUTH} / {SP[1][1]}: South 2, claimed by the player",
    ]
    # The standings recomputed from the clubs' files with the league's links.
    file_args = [a for f in files for a in ("--file", f)]
    code, out, _ = run(capsys, "league", "standings", "--json", "--db", db, *file_args)
    assert code == 0
    rows = json.loads(out)
    with Store(db) as store:
        roster = LeaguePlayers(store).roster()
    paths = {}
    for f in files:
        club, path = f.split("=", 1)
        paths.setdefault(club, []).append(Path(path))
    want = recompute_from_files(paths, roster)
    assert [(r["player"], r["nights"], r["rank"]) for r in rows] == [
        (r.who, r.nights, r.rank) for r in want.league
    ]
    assert {r["player"]: r["nights"] for r in rows}[anna] == 4
    code, out, _ = run(capsys, "league", "standings", "--db", db, *file_args)
    lines = out.splitlines()
    assert lines[0] == "The league's standings: 4 nights of 2 clubs"
    top = want.league[0]
    assert lines[1].startswith(f"1. {top.name}: {top.nights} night")
    # Merge and split through the CLI: records, and the figures come back.
    before = out
    code, _, err = run(capsys, "league", "merge", boris, anna, "--reason", "", "--db", db)
    assert (code, err.strip()) == (2, "a merge needs a reason")
    assert run(capsys, "league", "merge", boris, anna, "--reason", "one man", "--db", db)[0] == 0
    merged = run(capsys, "league", "standings", "--db", db, *file_args)[1]
    assert merged != before
    assert run(capsys, "league", "split", boris, "--reason", "two men", "--db", db)[0] == 0
    assert run(capsys, "league", "standings", "--db", db, *file_args)[1] == before
    # A bad --file is said, nothing written.
    code, _, err = run(capsys, "league", "standings", "--db", db, "--file", "nothing")
    assert (code, err.strip()) == (2, "'nothing' is not CLUB=PATH (a club's id and its file)")


def test_the_members_link(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "league.db")
    code, out, _ = run(
        capsys, "league", "members-link", "--public-url", "https://league.example.org/", "--db", db
    )
    assert code == 0
    url = out.strip().rsplit(" ", 1)[1]
    assert url.startswith("https://league.example.org/league/")
    with Store(db) as store:
        assert LeaguePlayers(store).member(url.rsplit("/", 1)[1])
    code, out, _ = run(capsys, "league", "members-link", "--revoke", "--db", db)
    assert out.strip() == "1 members' link revoked"
    with Store(db) as store:
        assert not LeaguePlayers(store).member(url.rsplit("/", 1)[1])


def pdf_text(path: Path) -> str:
    return subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_league_pdf(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, files: list[str], lang: str
) -> None:
    db = str(tmp_path / "league.db")
    run(capsys, "league", "link", NORTH, NP[0][1], NP[0][0], "--db", db)
    out = tmp_path / "league.pdf"
    file_args = [a for f in files for a in ("--file", f)]
    code = main(["--lang", lang, "league", "pdf", str(out), "--db", db, *file_args])
    assert code == 0
    text = pdf_text(out)
    with Store(db) as store:
        roster = LeaguePlayers(store).roster()
    paths: dict[str, list[Any]] = {}
    for f in files:
        club, path = f.split("=", 1)
        paths.setdefault(club, []).append(path)
    s = recompute_from_files(paths, roster)
    words = " ".join(text.split())  # a long heading wraps
    if lang == "en":
        assert "The league's standings: 4 nights of 2 clubs" in words
        assert f"Standings of the club {NORTH}: 3 nights" in words
        assert "Place Player Nights Points Whists Wins Rating" in words
    else:
        assert "Таблица лиги: 4 вечера, клубов: 2" in words
        assert f"Таблица клуба {NORTH}: 3 вечера" in words
        assert "Место Игрок Вечера Очки Висты Победы Рейтинг" in words
    # The North's players have 6 tables: their ratings are shown.
    assert sum(1 for r in s.ratings.values() if r.shown) == 6
    # Every player of the league's table, his nights and his points, on the first page.
    first = text.split("\f")[0]
    for r in s.league:
        line = next(x for x in first.splitlines() if f" {r.name} " in f" {x} ")
        cells = line.split()
        assert cells[0] == str(r.rank)
        assert cells[-5:] == [
            str(r.nights),
            whist_figure(r.points),
            signed(r.whists),
            str(r.wins),
            rating_figure(s.ratings.get(r.who)),
        ]
    # The same season, the same file.
    again = tmp_path / "again.pdf"
    main(["--lang", lang, "league", "pdf", str(again), "--db", db, *file_args])
    assert again.read_bytes() == out.read_bytes()
    # An existing file is not overwritten without --force.
    assert main(["--lang", "en", "league", "pdf", str(out), "--db", db, *file_args]) == 2


def test_the_commands_on_both_backends(capsys: pytest.CaptureFixture[str], target: str) -> None:
    """The operator's commands on a SQLite file and on a PostgreSQL database alike; the commands
    that read open it read-only."""
    code, out, _ = run(capsys, "league", "link", NORTH, NP[0][1], "Anna", "--db", target)
    assert code == 0
    anna = out.strip()
    code, out, _ = run(capsys, "league", "link", SOUTH, SP[0][1], "Boris", "--db", target)
    boris = out.strip()
    assert run(capsys, "league", "merge", boris, anna, "--reason", "one", "--db", target)[0] == 0
    code, out, _ = run(capsys, "league", "players", "--json", "--db", target)
    got = {p["uid"]: (p["name"], p["merged_into"], len(p["links"])) for p in json.loads(out)}
    assert got == {anna: ("Anna", None, 1), boris: ("Boris", anna, 1)}
    assert run(capsys, "league", "split", boris, "--reason", "two", "--db", target)[0] == 0
    code, out, _ = run(capsys, "league", "players", "--json", "--db", target)
    assert [p["merged_into"] for p in json.loads(out)] == [None, None]
    code, out, _ = run(capsys, "league", "claim-code", SOUTH, SP[1][1], "Vera", "--db", target)
    assert code == 0 and out.startswith("The code for Vera to claim a place in the league: ")
