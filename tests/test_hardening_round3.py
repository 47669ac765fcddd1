"""Issue 40, "Files, databases and the terminal" (items 10-16): each finding through the real
CLI on a real SQLite file (in process; a subprocess where the process is the point: exit codes,
signals, the terminal's encoding)."""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from scorepad.cli import main
from scorepad.club.store import ClubStore
from scorepad.store import Store

SIX = {
    "type": "game",
    "declarer": 1,
    "contract": "6S",
    "calls": ["whist"],
    "tricks": {"1": 6, "2": 3, "0": 1},
}
RASP = {"type": "raspasy", "tricks": {"0": 3, "1": 4, "2": 3}}


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["--lang", "en", *args])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def files_of(folder: Path) -> dict[str, bytes]:
    """Every file of a folder, byte for byte (the database, its companions, any backup)."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


@pytest.fixture(scope="module")
def night_file(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A club file: six players, tour 1 drawn, two deals at each table, one change."""
    folder = tmp_path_factory.mktemp("night")
    with Store(folder / "src.db") as store:
        club = ClubStore(store)
        nid = club.create_night(
            "Friday", date=datetime.date(2026, 12, 1), tours=2, pool_target=10, seed=5
        )
        for i in range(1, 7):
            club.check_in(nid, f"Player {i}")
        club.draw(nid)
        for tab in club.load(nid).tour(1).tables:
            for deal in (SIX, RASP):
                sid = club.session_of(nid, 1, tab.number)
                seen = store.load(sid).revision
                club.write_deal(nid, 1, tab.number, deal, by=tab.players[0], seen=seen)
        data: dict[str, Any] = json.loads(club.export_night(nid))
    return data


def edited(data: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    copy: dict[str, Any] = json.loads(json.dumps(data))
    change(copy)
    return copy


# --- 10. `club import` is one transaction, checked in full first ------------------------------


def _bad_settings(d: dict[str, Any]) -> None:
    d["settings"]["remiz_factor"] = "x"


def _long_void(d: dict[str, Any]) -> None:
    deals = d["sessions"][0]["session"]["deals"]
    deals.append({**deals[0], "voided": "x" * 500})


def _huge_seed(d: dict[str, Any]) -> None:
    d["seed"] = 2**63


def _huge_number(d: dict[str, Any]) -> None:
    d["sessions"][0]["changes"] = [{"kind": "undo", "deal": 2**63, "state": "provisional", "by": 1}]


def _control_in_reason(d: dict[str, Any]) -> None:
    d["sessions"][0]["changes"] = [
        {"kind": "void", "deal": 1, "reason": "wrong\x1b[2J", "state": "provisional", "by": 1}
    ]


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (_bad_settings, "the club file's settings are refused: "),
        (_long_void, "a reason is at most 200 characters"),
        (_huge_seed, "seed: at most 9223372036854775807"),
        (_huge_number, "changes.0.deal: at most 9223372036854775807"),
        (_control_in_reason, "a reason must not contain the character U+001B"),
    ],
)
def test_10_a_refused_club_file_changes_no_byte_and_the_fixed_one_is_one_night(
    change: Callable[[dict[str, Any]], None],
    said: str,
    night_file: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    db = tmp_path / "db" / "club.db"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(edited(night_file, change)))
    # Into no database at all: none is created, nor its folder.
    code, out, err = cli(capsys, "club", "import", str(bad), "--db", str(db))
    assert (code, out) == (2, "") and said in err
    assert not db.parent.exists()
    # Into a database with a player and a session: not a byte of it changes.
    db.parent.mkdir()
    with Store(db) as store:
        store.create_session(["Anna", "Boris", "Vera"])
    before = files_of(db.parent)
    code, out, err = cli(capsys, "club", "import", str(bad), "--db", str(db))
    assert (code, out) == (2, "") and said in err
    assert files_of(db.parent) == before
    good = tmp_path / "good.json"
    good.write_text(json.dumps(night_file))
    assert cli(capsys, "club", "import", str(good), "--db", str(db))[:2] == (0, "1\n")
    assert cli(capsys, "club", "nights", "--db", str(db))[1] == "    1  2026-12-01  Friday\n"


def test_10_a_roster_look_alike_met_while_writing_leaves_nothing(
    night_file: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The roster's new players are written in the import's transaction: a look-alike of the
    sixth player's name (a Cyrillic "а") refuses the import after five were added, and the five
    are gone with it; the club's tables, made by the import, are gone too."""
    db = tmp_path / "club.db"
    with Store(db) as store:
        store.add_player("Plаyer 6")
    before = files_of(tmp_path)
    path = tmp_path / "night.json"
    path.write_text(json.dumps(night_file))
    code, out, err = cli(capsys, "club", "import", str(path), "--db", str(db))
    assert (code, out) == (2, "") and "looks like" in err
    assert files_of(tmp_path) == {**before, "night.json": path.read_bytes()}
    with Store(db) as store:
        assert store.players() == ["Plаyer 6"]
        assert "nights" not in store.db.table_names()


def test_10_the_file_format_and_the_store_agree_on_a_reasons_limit() -> None:
    from scorepad.club.file import TableChange
    from scorepad.scoring.pulya import session
    from scorepad.store import MAX_REASON

    assert session.MAX_REASON == MAX_REASON == 200
    change = {"kind": "void", "deal": 1, "state": "provisional", "by": 1}
    assert TableChange.model_validate({**change, "reason": "r" * 200}).reason == "r" * 200
    with pytest.raises(ValueError, match="at most 200"):
        TableChange.model_validate({**change, "reason": "r" * 201})
