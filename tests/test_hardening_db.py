"""Issue 22, round two, for databases: items 5-9 through the real CLI (its ``main``, in process).

Every odd database is a good one plus SQL statements run here (no committed binary file); each
refusal is one sentence naming the database, the session and, where it can, the action; exit 2;
nothing is written, and the database's intact sessions stay readable.  A read never writes.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import sqlite3
import stat
from pathlib import Path

import pytest

from conftest import ROOT, run_cli
from scorepad.scoring.ledger.bula import BulaAllPass
from scorepad.scoring.pulya.session import Raspasy
from scorepad.store import Store

RASPASY = Raspasy.model_validate({"type": "raspasy", "tricks": {"0": 3, "1": 3, "2": 4}})
AT = "'2026-01-01T00:00:00'"
DEAL = """'{"type": "raspasy", "tricks": {"0": 3, "1": 3, "2": 4}}'"""


@pytest.fixture
def good(tmp_path: Path) -> Path:
    """Session 1 (pulya, two deals), 2 (bula, one), 3 (pulya, one), in rollback-journal mode."""
    path = tmp_path / "good.db"
    with Store(path) as s:
        a = s.create_session(["Anna", "Boris", "Vera"])
        s.add_deal(a, RASPASY, seen=s.add_deal(a, RASPASY, seen=0).revision)
        b = s.create_session(["Anna", "Boris", "Vera"], convention="balkan")
        s.add_deal(b, BulaAllPass(type="allpass"), seen=0)
        c = s.create_session(["Gleb", "Dima", "Egor"])
        s.add_deal(c, RASPASY, seen=0)
    con = sqlite3.connect(path)
    con.execute("PRAGMA journal_mode=DELETE")
    con.close()
    return path


def damaged(good: Path, sql: str) -> Path:
    path = good.with_name("damaged.db")
    shutil.copy(good, path)
    con = sqlite3.connect(path)
    con.executescript(
        "DROP TRIGGER actions_no_update; DROP TRIGGER actions_no_delete; " + sql + ";"
    )
    con.commit()
    con.close()
    return path


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def one_line(*args: str) -> str:
    done = run_cli("--lang", "en", *args)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert "Traceback" not in done.stderr
    (line,) = done.stderr.splitlines()
    return line


# --- 5. hand-damaged databases ------------------------------------------------------------------

ACTION = "session 1 is damaged at action"
SESSION_CASES = [
    (
        "a journal seq gap",
        "UPDATE actions SET seq = 5 WHERE session_id = 1 AND seq = 2",
        f"{ACTION} 5 (action 5 is out of order after revision 1)",
    ),
    (
        "an edit of a deal that does not exist",
        "INSERT INTO actions(session_id, seq, kind, deal_id, deal, reason, at) "
        f"VALUES (1, 3, 'edit', 99, {DEAL}, 'x', {AT})",
        f"{ACTION} 3 (there is no deal #99 in this session)",
    ),
    (
        "a void of a deal that does not exist",
        f"INSERT INTO actions(session_id, seq, kind, deal_id, reason, at) VALUES (1, 3, 'void', 99, 'x', {AT})",
        f"{ACTION} 3 (there is no deal #99 in this session)",
    ),
    (
        "a redo with nothing to redo",
        f"INSERT INTO actions(session_id, seq, kind, target, at) VALUES (1, 3, 'redo', 1, {AT})",
        f"{ACTION} 3 (there is nothing to redo)",
    ),
    (
        "a seq that is a bidi override",  # quoted short and escaped, never sent to the terminal
        "UPDATE actions SET seq = char(8238) WHERE session_id = 1 AND seq = 2",
        f"{ACTION} '\\u202e' (the add lacks its seq)",
    ),
    (
        "a kind the code does not know",
        f"INSERT INTO actions(session_id, seq, kind, at) VALUES (1, 3, 'frobnicate', {AT})",
        f"{ACTION} 3 ('frobnicate' is not an action Scorepad writes)",
    ),
    (
        "an add without a deal",
        f"INSERT INTO actions(session_id, seq, kind, at) VALUES (1, 3, 'add', {AT})",
        f"{ACTION} 3 (the add lacks its deal)",
    ),
    (
        "a garbage deal",
        "UPDATE actions SET deal = '{x' WHERE session_id = 1 AND seq = 1",
        f"{ACTION} 1 ('Invalid JSON: key must be a string at line 1 column 2')",
    ),
    (
        "garbage JSON in players",
        "UPDATE sessions SET players = '[x' WHERE id = 1",
        "session 1 is damaged ('players: Expecting value: line 1 column 2 (char 1)')",
    ),
    (
        "garbage JSON in settings",
        "UPDATE sessions SET settings = '{x' WHERE id = 1",
        "session 1 is damaged ('settings: Expecting property name enclosed in double quotes:…')",
    ),
    (
        "settings = '[]'",
        "UPDATE sessions SET settings = '[]' WHERE id = 1",
        "session 1 is damaged ('settings: not an object')",
    ),
    (
        "players = '5'",
        "UPDATE sessions SET players = '5' WHERE id = 1",
        "session 1 is damaged ('players: not a list of names')",
    ),
    (
        "family = 'bogus'",
        "UPDATE sessions SET family = 'bogus' WHERE id = 1",
        "session 1 is damaged (\"family: 'bogus'\")",
    ),
]


@pytest.mark.parametrize(("name", "sql", "why"), SESSION_CASES, ids=[c[0] for c in SESSION_CASES])
def test_5_a_damaged_session_is_one_sentence_and_the_others_stay_readable(
    name: str, sql: str, why: str, good: Path
) -> None:
    db = damaged(good, sql)
    before = digest(db)
    for command in (["settle", "1"], ["export", "1", "-"]):
        assert one_line(*command, "--db", str(db)) == f"{db}: {why}; nothing was written"
    assert digest(db) == before  # nothing was written, not even the journal mode
    assert run_cli("settle", "3", "--db", str(db)).returncode == 0  # the intact one
    assert run_cli("settle", "2", "--db", str(db)).returncode == 0
    assert digest(db) == before


SCHEMA_CASES = [
    ("a dropped column", "ALTER TABLE sessions DROP COLUMN currency", "sessions lacks currency"),
    (
        "a renamed column",
        "ALTER TABLE sessions RENAME COLUMN players TO people",
        "sessions lacks players",
    ),
    (
        "actions replaced by a view",
        "DROP TABLE actions; CREATE VIEW actions AS SELECT 1 AS id",
        "actions is not a table",
    ),
]


@pytest.mark.parametrize(("name", "sql", "why"), SCHEMA_CASES, ids=[c[0] for c in SCHEMA_CASES])
def test_5_a_damaged_schema_is_one_sentence(name: str, sql: str, why: str, good: Path) -> None:
    db = damaged(good, sql)
    before = digest(db)
    for command in (["settle", "3"], ["history", "1"], ["sessions"], ["export", "1", "-"]):
        done = run_cli("--lang", "en", *command, "--db", str(db))
        assert (done.returncode, done.stdout) == (2, "") and "Traceback" not in done.stderr
        assert done.stderr.splitlines() == [
            f"{db} is damaged ({why!r}): Scorepad does not write to it; nothing was written",
            "No backup of it was found.",
        ]
    assert digest(db) == before


def test_5_the_session_list_names_a_damaged_row_and_lists_the_rest(good: Path) -> None:
    db = damaged(good, "UPDATE sessions SET players = '5' WHERE id = 1")
    done = run_cli("--lang", "en", "sessions", "--db", str(db))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == "    1  damaged ('players: not a list of names')"
    assert "Gleb, Dima, Egor" in lines[0] and len(lines) == 3


def test_5_a_thousand_bit_flips_never_give_a_traceback(good: Path) -> None:
    data = bytearray(good.read_bytes())
    rng = random.Random(22)
    for _ in range(1000):
        i = rng.randrange(len(data))
        data[i] ^= 1 << rng.randrange(8)
    db = good.with_name("flipped.db")
    db.write_bytes(bytes(data))
    before = digest(db)
    for command in (["sessions"], ["settle", "1"], ["history", "1"], ["export", "1", "-"]):
        done = run_cli("--lang", "en", *command, "--db", str(db))
        assert done.returncode in (0, 2) and "Traceback" not in done.stderr, done.stderr
        if done.returncode == 2:
            assert str(db) in done.stderr  # the sentence names the database
    assert digest(db) == before


def test_5_a_symlink_loop_given_to_export(good: Path, tmp_path: Path) -> None:
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    line = one_line("export", "1", str(loop), "--db", str(good))
    assert line == f"{loop} exists: add --force to overwrite it"  # O_EXCL: a link is a file
    assert one_line("sessions", "--db", str(loop)) == (
        f"cannot use {loop} for the database: Too many levels of symbolic links"
    )


# --- 6. a read never writes ---------------------------------------------------------------------


def test_6_reads_leave_a_rollback_journal_database_byte_identical(
    good: Path, tmp_path: Path
) -> None:
    before = digest(good)
    for command in (
        ["sessions"],
        ["settle", "1"],
        ["settle", "2"],
        ["history", "1"],
        ["export", "1", "-"],
        ["export", "1", str(tmp_path / "out.json")],
    ):
        done = run_cli("--lang", "en", *command, "--db", str(good))
        assert done.returncode == 0, (command, done.stderr)
        assert digest(good) == before, command
    con = sqlite3.connect(good)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    con.close()
    # A write switches to WAL, after its checks.
    stdin = json.dumps(
        {
            "format": "scorepad-session/1",
            "players": ["A", "B", "C"],
            "convention": "sochi",
            "pool_target": 10,
        }
    )
    assert run_cli("import", "-", "--db", str(good), stdin=stdin).stdout == "4\n"
    con = sqlite3.connect(good)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()


def test_6_a_refused_damaged_database_is_not_switched_to_wal(good: Path) -> None:
    db = damaged(good, f"INSERT INTO actions(session_id, seq, kind, at) VALUES (1, 3, 'x', {AT})")
    before = digest(db)
    one_line("settle", "1", "--db", str(db))
    assert digest(db) == before


# --- 7. a 1-byte file is not re-initialised -----------------------------------------------------


@pytest.mark.parametrize("content", [b"x", b"\0", b"SQLite format 3\0"])
def test_7_a_short_file_given_as_db_is_refused(content: bytes, tmp_path: Path) -> None:
    db = tmp_path / "notes.db"
    db.write_bytes(content)
    stdin = json.dumps(
        {
            "format": "scorepad-session/1",
            "players": ["A", "B", "C"],
            "convention": "sochi",
            "pool_target": 10,
        }
    )
    done = run_cli("--lang", "en", "import", "-", "--db", str(db), stdin=stdin)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"{db} is not a Scorepad database (not a SQLite file, or corrupt)\n"
    assert db.read_bytes() == content
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")  # only a missing or empty file becomes a new database
    assert run_cli("import", "-", "--db", str(empty), stdin=stdin).stdout == "1\n"


# --- 8. a read command creates nothing ------------------------------------------------------------


def test_8_settle_an_id_without_a_database_creates_nothing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "SCOREPAD_DB"}
    # This tree's scorepad (the cwd is elsewhere: no file named 5 beside it).
    env |= {"HOME": str(home), "XDG_DATA_HOME": str(home / "data"), "PYTHONPATH": str(ROOT)}
    for command in (["settle", "5"], ["history", "5"], ["export", "5", "-"], ["sessions"]):
        done = run_cli("--lang", "en", *command, cwd=tmp_path, env=env)
        assert "Traceback" not in done.stderr
        assert done.returncode == (0 if command == ["sessions"] else 2), done.stderr
        assert list(home.iterdir()) == [], command  # no database, no folder
    done = run_cli("--lang", "en", "settle", "5", cwd=tmp_path, env=env)
    db = home / "data" / "scorepad" / "scorepad.db"
    assert done.stderr == f"cannot read 5: there is no such file, and no database at {db}\n"


def test_8_the_players_read_commands_create_nothing(tmp_path: Path) -> None:
    """``players``, ``ratings``, ``debts`` and a season's standings only read: with no database
    they show nothing (or say there is no such season) and create no file and no folder."""
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "SCOREPAD_DB"}
    # This tree's scorepad (the cwd is elsewhere: no file named 5 beside it).
    env |= {"HOME": str(home), "XDG_DATA_HOME": str(home / "data"), "PYTHONPATH": str(ROOT)}
    missing = tmp_path / "missing.db"
    for command, code, err in (
        (["players"], 0, ""),
        (["ratings", "--csv"], 0, ""),
        (["debts"], 0, ""),
        (["season", "Fridays"], 2, "there is no season 'Fridays'\n"),
        (["players", "--db", str(missing)], 2, f"there is no database at {missing}\n"),
    ):
        done = run_cli("--lang", "en", *command, cwd=tmp_path, env=env)
        assert (done.returncode, done.stdout, done.stderr) == (code, "", err), command
        assert list(home.iterdir()) == [] and not missing.exists(), command


# --- 9. everything Scorepad creates is private ------------------------------------------------------


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_9_a_database_through_a_dangling_symlink_and_exports_are_0600(tmp_path: Path) -> None:
    target = tmp_path / "real.db"
    link = tmp_path / "link.db"
    link.symlink_to(target)
    stdin = json.dumps(
        {
            "format": "scorepad-session/1",
            "players": ["A", "B", "C"],
            "convention": "sochi",
            "pool_target": 10,
        }
    )
    assert run_cli("import", "-", "--db", str(link), stdin=stdin).stdout == "1\n"
    assert target.is_file() and mode(target) == 0o600
    out = tmp_path / "out.json"
    assert run_cli("export", "1", str(out), "--db", str(link)).returncode == 0
    assert mode(out) == 0o600
    out.chmod(0o644)
    assert run_cli("export", "1", str(out), "--force", "--db", str(link)).returncode == 0
    assert mode(out) == 0o600
    assert ROOT.is_dir()


def test_8_the_club_read_commands_create_nothing(good: Path, tmp_path: Path) -> None:
    """``club nights``, ``tables``, ``standings``, ``summary``, ``export`` and ``pdf`` only read:
    with no database they create no file and no folder; on a database without the club's tables
    (in rollback-journal mode) they leave it byte for byte as it was."""
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "SCOREPAD_DB"}
    env |= {"HOME": str(home), "XDG_DATA_HOME": str(home / "data"), "PYTHONPATH": str(ROOT)}
    reads: list[tuple[list[str], int, str]] = [
        (["club", "nights"], 0, ""),
        (["club", "tables", "1"], 2, "there is no night 1\n"),
        (["club", "standings", "1"], 2, "there is no night 1\n"),
        (["club", "summary", "1"], 2, "there is no night 1\n"),
        (["club", "export", "1", "-"], 2, "there is no night 1\n"),
        (["club", "pdf", "1", str(tmp_path / "night.pdf")], 2, "there is no night 1\n"),
    ]
    for command, code, err in reads:
        done = run_cli("--lang", "en", *command, cwd=tmp_path, env=env)
        assert (done.returncode, done.stdout, done.stderr) == (code, "", err), command
        assert list(home.iterdir()) == [], command
    before = digest(good)
    for command, code, err in reads:
        done = run_cli("--lang", "en", *command, "--db", str(good))
        assert (done.returncode, done.stdout, done.stderr) == (code, "", err), command
        assert digest(good) == before, command
    assert not (tmp_path / "night.pdf").exists()
