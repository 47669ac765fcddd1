"""`scorepad club …` through the real CLI: a whole small night, its bad input, the club file;
the standings checked against each table's `scorepad settle`."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from support.club_nights import RASP, SIX

from conftest import cli_out, run_cli

MISERE = {"type": "misere", "declarer": 2, "tricks": {"2": 1}}


def _club(db: Path, *args: str) -> str:
    return cli_out("club", *args, "--db", str(db), "--lang", "en")


def _refused(db: Path, *args: str, lang: str = "en") -> str:
    done = run_cli("club", *args, "--db", str(db), "--lang", lang)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    return done.stderr.strip()


def _seating(db: Path, night: str) -> dict[int, list[int]]:
    data = json.loads(_club(db, "export", night, "-"))
    return {t["number"]: t["players"] for t in data["drawn"][-1]["tables"]}


def _play_tour(db: Path, night: str, tour: int, deals: list[dict[str, object]]) -> None:
    for table, players in _seating(db, night).items():
        for k, deal in enumerate(deals, start=1):
            _club(
                db, "deal", night, str(tour), str(table), json.dumps(deal), "--by", str(players[0])
            )
            _club(db, "confirm", night, str(tour), str(table), str(k), "--by", str(players[1]))
    _club(db, "end-tour", night, str(tour))


def test_a_whole_small_night(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    night = _club(
        db,
        "create",
        "Friday",
        "--date",
        "2026-12-04",
        "--tours",
        "2",
        "--deals",
        "2",
        "--scoring",
        "places",
        "--seed",
        "3",
    ).strip()
    assert night == "1"
    out = _club(db, "check-in", night, *[f"Player {i}" for i in range(1, 10)])
    assert out.splitlines()[0] == "#1 Player 1" and out.splitlines()[-1] == "#9 Player 9"
    # A player checked in twice: a sentence, nothing written.
    assert _refused(db, "check-in", night, "Player 10", "player 3") == (
        "'Player 3' is already checked in as number 3"
    )
    assert _refused(db, "check-in", night, "player 3", lang="ru") == (
        "'Player 3' уже зарегистрирован под номером 3"
    )
    drawn = _club(db, "draw", night).splitlines()
    assert drawn[0] == "Friday, tour 1 of 2"
    assert [line.split(":")[0] for line in drawn[1:4]] == ["Table 1", "Table 2", "Table 3"]
    assert drawn[-1] == "No one meets an opponent again."
    # A deal confirmed by the player who wrote it is refused.
    seats = _seating(db, night)
    a, b, _ = seats[1]
    _club(db, "deal", night, "1", "1", json.dumps(SIX), "--by", str(a))
    assert _refused(db, "confirm", night, "1", "1", "1", "--by", str(a)) == (
        f"deal 1 was written by number {a}: another player at the table confirms it"
    )
    assert "Table 1: 1 deal, playing; 1 to confirm" in _club(db, "tables", night)
    _club(db, "confirm", night, "1", "1", "1", "--by", str(b))
    _club(db, "deal", night, "1", "1", json.dumps(RASP), "--by", str(b))
    _club(db, "confirm", night, "1", "1", "2", "--by", str(a))
    for table in (2, 3):
        p = seats[table]
        for k, deal in enumerate((RASP, MISERE), start=1):
            _club(db, "deal", night, "1", str(table), json.dumps(deal), "--by", str(p[0]))
            _club(db, "confirm", night, "1", str(table), str(k), "--by", str(p[2]))
    _club(db, "end-tour", night, "1")
    # A deal at a table whose tour has ended is refused.
    assert _refused(db, "deal", night, "1", "1", json.dumps(RASP), "--by", str(a)).startswith(
        "tour 1 has ended"
    )
    # The next tour: a draw that avoids every opponent of tour 1 (9 players can).
    assert _club(db, "draw", night).splitlines()[-1] == "No one meets an opponent again."
    _play_tour(db, night, 2, [SIX, RASP])
    # The director's correction: without a reason it is refused, with one it is in the journal.
    assert _refused(db, "correct", night, "1", "2", "2", json.dumps(RASP)) == (
        "a director's correction needs a reason"
    )
    _club(db, "correct", night, "1", "2", "2", json.dumps(RASP), "--reason", "the protocol")

    # Standings by hand: each table's `scorepad settle` gives the whists, places give points.
    data = json.loads(_club(db, "export", night, "-"))
    points: dict[int, Fraction] = dict.fromkeys(range(1, 10), Fraction(0))
    whists: dict[int, Fraction] = dict.fromkeys(range(1, 10), Fraction(0))
    for s in data["sessions"]:
        f = tmp_path / f"t{s['tour']}-{s['table']}.json"
        f.write_text(json.dumps(s["session"]), encoding="utf-8")
        balance = json.loads(cli_out("settle", str(f), "--json"))["balance"]
        players = next(
            t["players"]
            for t in data["drawn"][s["tour"] - 1]["tables"]
            if t["number"] == s["table"]
        )
        got = [Fraction(x) for x in balance]
        for seat, n in enumerate(players):
            whists[n] += got[seat]
            # 3 / 1½ / 0 at a table of three, ties sharing their places' points.
            better = sum(1 for x in got if x > got[seat])
            equal = sum(1 for x in got if x == got[seat])
            places = [Fraction(3), Fraction(3, 2), Fraction(0)][better : better + equal]
            points[n] += sum(places) / equal
    rows = json.loads(_club(db, "standings", night, "--json"))
    assert {r["number"]: Fraction(str(r["points"])) for r in rows} == points
    assert {r["number"]: Fraction(str(r["whists"])) for r in rows} == whists
    assert [len(r["tours"]) for r in rows] == [2] * 9
    text = _club(db, "standings", night).splitlines()
    assert text[0] == "Friday, 2026-12-04: final standings"
    assert text[1].startswith("1. #")

    # The night as one file, into another database: the same standings.
    file = tmp_path / "night.json"
    _club(db, "export", night, str(file))
    other = tmp_path / "other.db"
    assert _club(other, "import", str(file)).strip() == "1"
    assert json.loads(_club(other, "standings", "1", "--json")) == rows


def test_a_draw_with_too_few_players(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    night = _club(db, "create", "Tiny", "--tours", "1", "--pool", "10").strip()
    _club(db, "check-in", night, "A", "B")
    assert _refused(db, "draw", night) == (
        "tour 1 cannot be drawn: 2 players are checked in, a table needs at least 3"
    )
    assert _refused(db, "draw", night, lang="ru") == (
        "тур 1 не рассадить: зарегистрировано игроков — 2, а за стол нужно не меньше 3"
    )
    assert json.loads(_club(db, "export", night, "-"))["drawn"] == []


def test_a_club_file_whose_table_does_not_add_up(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    night = _club(db, "create", "Friday", "--tours", "1", "--deals", "1", "--seed", "1").strip()
    _club(db, "check-in", night, "A", "B", "C")
    _club(db, "draw", night)
    _club(db, "deal", night, "1", "1", json.dumps(SIX), "--by", "1")
    data = json.loads(_club(db, "export", night, "-"))
    whists = data["drawn"][0]["tables"][0]["whists"]
    whists["1"] = str(Fraction(str(whists["1"])) + 1)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    other = tmp_path / "other.db"
    assert _refused(other, "import", str(bad)) == (
        "tour 1, table 1 does not add up: its whists sum to 1, not 0"
    )
    assert not other.exists()  # checked before the database is opened: none is created


def test_redraw_needs_yes_and_a_bad_scoring_is_a_sentence(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    assert _refused(db, "create", "X", "--tours", "1", "--pool", "10", "--scoring", "elo") == (
        "'elo' is not a tournament scoring: whists, whists:normalised, places:3/2/1/0 or piecewise:200=1:1,10:1"
    )
    assert _refused(db, "create", "X", "--tours", "0", "--pool", "10").startswith(
        "the night is refused at tours: "
    )
    night = _club(db, "create", "X", "--tours", "1", "--pool", "10").strip()
    _club(db, "check-in", night, *"ABCDEF")
    _club(db, "draw", night)
    assert _refused(db, "draw", night, "--again") == "a re-draw of tour 1 needs a confirmation"
    assert _club(db, "draw", night, "--again", "--yes").startswith("X, tour 1 of 1")
    # Publishing: the PDF (read back in test_club_pdf) and the messenger summary.
    pdf = tmp_path / "night.pdf"
    _club(db, "pdf", night, str(pdf), "--base", "http://10.0.0.2:8550")
    assert pdf.read_bytes().startswith(b"%PDF-")
    assert _refused(db, "pdf", night, str(pdf)) == f"{pdf} exists: add --force to overwrite it"
    # Each table's join link with its token, and the table's own PIN, on the seating sheet.
    import subprocess
    import threading

    from scorepad.app.server.grants import Grants
    from scorepad.club.store import ClubStore, table_pin
    from scorepad.store import Store

    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    with Store(db) as store:
        club = ClubStore(store)
        for tab in club.load(int(night)).tour(1).tables:
            sid = club.session_of(int(night), 1, tab.number)
            token = Grants(store.db, threading.RLock()).link(sid)
            assert f"http://10.0.0.2:8550/join/{sid}/{token}" in text
            assert f"Table PIN (needed to write): {table_pin(store, sid)}" in text
    summary = _club(db, "summary", night).splitlines()
    assert summary[0].startswith("X, ") and summary[0].endswith(": standings, no tour ended yet")
    assert "X, tour 1 of 1" in summary


def test_a_void_an_undo_and_their_confirmation_from_the_cli(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    night = _club(db, "create", "Friday", "--tours", "1", "--deals", "3", "--seed", "3").strip()
    _club(db, "check-in", night, *[f"Player {i}" for i in range(1, 7)])
    _club(db, "draw", night)
    a, b, c = _seating(db, night)[1]
    for deal, by in ((SIX, a), (RASP, b)):
        _club(db, "deal", night, "1", "1", json.dumps(deal), "--by", str(by))
    _club(db, "confirm", night, "1", "1", "1", "--by", str(b))
    _club(db, "confirm", night, "1", "1", "2", "--by", str(c))
    # A void: written, provisional; counted "to confirm" by the director's view.
    assert _club(db, "void", night, "1", "1", "1", "--reason", "misdeal", "--by", str(a)) == (
        "change 3, the void of deal 1 (misdeal): provisional\n"
    )
    assert "Table 1: 1 deal, playing; 1 to confirm" in _club(db, "tables", night)
    # Its writer cannot confirm it; a deal or a change, one of them; nothing written.
    assert _refused(db, "confirm", night, "1", "1", "--change", "3", "--by", str(a)) == (
        f"change 3, the void of deal 1 (misdeal) was made by number {a}: another player at "
        "the table confirms it"
    )
    assert _refused(db, "confirm", night, "1", "1", "--by", str(b)) == (
        "name a deal or a change (--change), one of them"
    )
    assert _refused(db, "confirm", night, "1", "1", "--change", "7", "--by", str(b)) == (
        "there is no change 7 to confirm at this table"
    )
    assert _refused(db, "void", night, "1", "1", "9", "--reason", "x", "--by", str(a)) == (
        "table 1 has no deal 9"
    )
    assert _club(db, "confirm", night, "1", "1", "--change", "3", "--by", str(c)) == (
        "change 3, the void of deal 1 (misdeal): confirmed\n"
    )
    # An undo rejected: taken back at once (a redo in the journal), disputed.
    assert _club(db, "undo", night, "1", "1", "--by", str(b)) == (
        "change 4, an undo (deal 1): provisional\n"
    )
    assert _refused(
        db, "confirm", night, "1", "1", "--change", "4", "--reject", "--by", str(a)
    ) == ("an undo (deal 1): a rejection needs a reason (what is wrong with it)")
    assert _club(
        db, "confirm", night, "1", "1", "--change", "4", "--reject", "--by", str(a),
        "--reason", "we played it",
    ) == "change 4, an undo (deal 1): disputed (we played it)\n"  # fmt: skip
    assert "Table 1: 1 deal, playing; 0 to confirm" in _club(db, "tables", night)
    exported = json.loads(_club(db, "export", night, "-"))
    [table] = [s for s in exported["sessions"] if s["table"] == 1]
    assert [d.get("voided") for d in table["session"]["deals"]] == ["misdeal", None]
    assert [(c["kind"], c["state"], c["taken_back"]) for c in table["changes"]] == [
        ("void", "confirmed", False),
        ("undo", "disputed", True),
    ]
