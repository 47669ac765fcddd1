"""Issue 40, "Files, databases and the terminal" (items 10-16): each finding through the real
CLI on a real SQLite file (in process; a subprocess where the process is the point: exit codes,
signals, the terminal's encoding)."""

from __future__ import annotations

import datetime
import json
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ROOT
from scorepad.cli import main
from scorepad.club.store import ClubStore
from scorepad.scoring.pulya.session import SessionInvalid
from scorepad.store import Store
from scorepad.store.schema import schema_version

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
    are gone with it; the night's rows are gone too (its tables are the schema's, since 4)."""
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
        assert store.conn.execute("SELECT count(*) FROM nights").fetchone() == (0,)


def test_10_the_file_format_and_the_store_agree_on_a_reasons_limit() -> None:
    from scorepad.club.file import TableChange
    from scorepad.scoring.pulya import session
    from scorepad.store import MAX_REASON

    assert session.MAX_REASON == MAX_REASON == 200
    change = {"kind": "void", "deal": 1, "state": "provisional", "by": 1}
    assert TableChange.model_validate({**change, "reason": "r" * 200}).reason == "r" * 200
    with pytest.raises(ValueError, match="at most 200"):
        TableChange.model_validate({**change, "reason": "r" * 201})


# --- 11. reads never write ---------------------------------------------------------------------

FIXTURES = Path(__file__).parent / "fixtures"
READS = [
    ("sessions",),
    ("history", "1"),
    ("settle", "1"),
    ("export", "1", "-"),
    ("players",),
    ("club", "nights"),
]


@pytest.mark.parametrize("command", READS, ids=lambda c: c[0] if len(c) == 1 else "-".join(c))
def test_11_a_read_of_an_old_schema_does_not_migrate_it(
    command: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "old.db"
    shutil.copy(FIXTURES / "schema-1.db", db)
    before = db.read_bytes()
    code, out, err = cli(capsys, *command, "--db", str(db))
    assert (code, out) == (2, "")
    assert err == (
        f"{db} was written by an older Scorepad (schema 1, this one uses {schema_version()}); "
        "a read changes "
        "nothing: a command that writes, or scorepad migrate, updates it after a backup\n"
    )
    assert db.read_bytes() == before
    assert not list(tmp_path.glob("*.bak"))


def test_11_scorepad_migrate_backs_up_and_migrates_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "old.db"
    shutil.copy(FIXTURES / "schema-1.db", db)
    before = db.read_bytes()
    code, out, _ = cli(capsys, "migrate", "--db", str(db))
    backup = tmp_path / "old.db.schema-1.bak"
    assert (code, out) == (
        0,
        f"{db} is migrated from schema 1 to {schema_version()}; the backup is {backup}\n",
    )
    with sqlite3.connect(backup) as conn:
        assert conn.execute("SELECT max(version) FROM _migrations").fetchone() == (1,)
    assert db.read_bytes() != before
    assert cli(capsys, "migrate", "--db", str(db))[1] == (
        f"{db} is up to date (schema {schema_version()}); nothing was written\n"
    )
    assert cli(capsys, "sessions", "--db", str(db))[1].count("\n") == 2


def test_11_a_read_of_another_programs_empty_sqlite_file_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "empty.db"
    with sqlite3.connect(db) as conn:  # a header and no table: another program's, empty
        conn.execute("CREATE TABLE t (x)")
        conn.execute("DROP TABLE t")
    conn.close()
    before = files_of(tmp_path)
    for command in READS:
        code, out, err = cli(capsys, *command, "--db", str(db))
        assert (code, out, err) == (
            2,
            "",
            f"{db} holds no Scorepad data yet; nothing was written\n",
        )
        assert files_of(tmp_path) == before


def _crash_left(folder: Path) -> Path:
    """A database whose writer died with its last commit only in the WAL (no checkpoint)."""
    db = folder / "a.db"
    with Store(db) as store:
        store.create_session(["Anna", "Boris", "Vera"])
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA wal_autocheckpoint=0")
    conn.execute("UPDATE sessions SET convention = 'leningrad'")
    left = folder / "left"
    left.mkdir()
    for name in ("a.db", "a.db-wal"):
        shutil.copy(folder / name, left / name)
    conn.close()
    return left / "a.db"


def test_11_a_read_does_not_fold_a_crash_left_wal_into_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _crash_left(tmp_path)
    wal = Path(f"{db}-wal")
    before, wal_before = db.read_bytes(), wal.read_bytes()
    code, out, _ = cli(capsys, "sessions", "--db", str(db))
    assert code == 0 and "leningrad" in out  # the WAL's commit is read
    assert db.read_bytes() == before and wal.read_bytes() == wal_before


def test_11_a_wal_database_on_a_read_only_mount_is_read(tmp_path: Path) -> None:
    """A read-only mount (a bind mount in a mount namespace of its own): the WAL database is
    read (immutable: nobody can change it there), and nothing is created beside it."""
    folder = tmp_path / "mnt"
    folder.mkdir()
    with Store(folder / "a.db") as store:
        store.create_session(["Anna", "Boris", "Vera"])
    before = files_of(folder)
    script = (
        f"mount --bind -o ro {folder} {folder} && "
        f"{sys.executable} -m scorepad.cli --lang en sessions --db {folder / 'a.db'}"
    )
    done = subprocess.run(
        ["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert "sochi       Anna, Boris, Vera  0 deals, in play" in done.stdout
    assert files_of(folder) == before


@pytest.mark.parametrize(
    "command",
    [
        ("club", "import", "missing.json"),
        ("import", "missing.json"),
        ("club", "create", "", "--tours", "1", "--pool", "10"),
        ("club", "check-in", "1", "Anna"),
        ("rename", "5", "Bob"),
        ("merge", "1", "2", "--reason", "same man"),
    ],
    ids=" ".join,
)
def test_11_a_refused_command_creates_no_database_and_no_folder(
    command: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "new" / "folder" / "scorepad.db"
    code, out, err = cli(capsys, *command, "--db", str(db))
    assert (code, out) == (2, "") and err
    assert list(tmp_path.iterdir()) == []


# --- 12. the catch-all's sentences, each case its own ------------------------------------------

BIG = str(2**63)


@pytest.mark.parametrize(
    ("command", "field"),
    [
        (("history", BIG), "session"),
        (("export", BIG, "-"), "session"),
        (("settle", BIG), "session"),
        (("club", "standings", BIG), "night"),
        (("club", "tables", "1", "--tour", BIG), "tour"),
        (("rename", BIG, "Bob"), "player"),
    ],
)
def test_12_a_number_beyond_the_database_is_named(
    command: tuple[str, ...], field: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "a.db"
    with Store(db) as store:
        store.create_session(["Anna", "Boris", "Vera"])
    before = files_of(tmp_path)
    code, out, err = cli(capsys, *command, "--db", str(db))
    assert (code, out) == (2, "")
    assert err == f"{field}: {BIG} is too large: at most 9223372036854775807\n"
    assert files_of(tmp_path) == before


def test_12_a_club_file_nested_deep_is_said_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deep.json"
    path.write_text('{"format": "scorepad-club/1", "x": ' + "[" * 100_000 + "]" * 100_000 + "}")
    code, out, err = cli(capsys, "club", "import", str(path), "--db", str(tmp_path / "a.db"))
    assert (code, out) == (2, "")
    assert err.startswith("the file nests deeper than 201 levels (line 1, column ")
    assert list(tmp_path.iterdir()) == [path]


def test_12_a_bete_by_a_seat_the_table_does_not_have_names_the_deal_and_the_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bete.json"
    data = {
        "format": "scorepad-session/1",
        "players": ["Anton", "Brigitte", "Charlotte"],
        "convention": "austrian-1829",
        "deals": [{"type": "bete", "dealer": 1}, {"type": "bete", "dealer": 3}],
    }
    path.write_text(json.dumps(data))
    code, out, err = cli(capsys, "settle", str(path))
    assert (code, out, err) == (2, "", "deal 2: dealer: no such player\n")


def test_12_a_valid_file_on_a_terminal_that_is_not_utf8(tmp_path: Path) -> None:
    """A Latin-1 terminal (and locale): the file is read as UTF-8, as every Scorepad file is;
    what the terminal cannot show is escaped, never a refusal of the file."""
    path = tmp_path / "s.json"
    data = {
        "format": "scorepad-session/1",
        "players": ["Анна", "Борис", "Вера"],
        "convention": "sochi",
        "pool_target": 10,
        "deals": [RASP],
    }
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "PYTHONIOENCODING": "latin-1", "PYTHONUTF8": "0"}
    done = subprocess.run(
        [sys.executable, "-m", "scorepad.cli", "--lang", "ru", "settle", str(path)],
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert b"\\u0410\\u043d\\u043d\\u0430" in done.stdout and done.stderr == b""
    done = subprocess.run(
        [sys.executable, "-m", "scorepad.cli", "--lang", "en", "settle", str(path), "--json"],
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.decode("latin-1"))["players"] == ["Анна", "Борис", "Вера"]


def test_12_the_last_resort_never_claims_what_it_does_not_know(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import scorepad.cli

    def broken(args: Any) -> int:
        raise KeyError("x")

    monkeypatch.setattr(scorepad.cli, "cmd_sessions", broken)
    db = tmp_path / "a.db"
    code, out, err = cli(capsys, "sessions", "--db", str(db))
    assert (code, out) == (2, "")
    assert err == (
        f"the command stopped on an unexpected error (KeyError) while using {db}; "
        "please report it\n"
    )


# --- 13. the terminal: an output that cannot be written, Ctrl-C --------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ("settle", "scorepad/data/demo-session.json"),
        ("settle", "scorepad/data/demo-session.json", "--json"),
        ("audit", "tests/fixtures/deals/eight-spades.json"),
    ],
    ids=" ".join,
)
def test_13_an_output_that_cannot_be_written_is_a_sentence_and_exit_2(
    command: tuple[str, ...],
) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "scorepad.cli", "--lang", "en", *command],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            timeout=60,
        )
    assert (done.returncode, done.stderr) == (
        2,
        "cannot write the output: No space left on device; what was written of it is incomplete\n",
    )


def test_13_ctrl_c_is_one_line_and_exit_130(tmp_path: Path) -> None:
    """Ctrl-C while the command waits (here for its standard input): one line, status 130."""
    db = tmp_path / "new" / "a.db"
    proc = subprocess.Popen(
        [sys.executable, "-m", "scorepad.cli", "--lang", "en", "import", "-", "--db", str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    # Until it is in read(0, …): its standard input (imports done, main running).  Not its
    # wait channel alone: a pipe read while it starts (a library reading a helper's output)
    # says "pipe" too, and a Ctrl-C then can land in a library that swallows it.
    syscall = Path(f"/proc/{proc.pid}/syscall")
    deadline = time.monotonic() + 30
    while not syscall.read_text().startswith("0 0x0 ") and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    # Its standard input stays open until it has exited: only the Ctrl-C can end it (closing
    # the pipe at once, as communicate() does, races the signal with an end of file).
    proc.wait(timeout=30)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    proc.stdin.close()
    out, err = proc.stdout.read(), proc.stderr.read()
    proc.stdout.close()
    proc.stderr.close()
    assert (proc.returncode, out, err) == (130, "", "interrupted (Ctrl-C)\n")
    assert list(tmp_path.iterdir()) == []


# --- 14. look-alike names: I, l and 1; O and 0 -------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second"), [("Gleb", "GIeb"), ("Ilya", "lIya"), ("Oleg", "0leg")]
)
def test_14_the_roster_refuses_a_look_alike_of_i_l_1_and_o_0(
    first: str, second: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from scorepad.store import StoreError

    with Store(tmp_path / "a.db") as store:
        store.add_player(first)
        with pytest.raises(StoreError, match="looks like"):
            store.add_player(second)
        with pytest.raises(SessionInvalid, match="look"):
            store.create_session(["Vera", first, second])
        assert store.players() == [first]
    night = tmp_path / "night.json"
    code, out, _ = cli(
        capsys,
        "club",
        "create",
        "Friday",
        "--tours",
        "1",
        "--pool",
        "10",
        "--db",
        str(tmp_path / "a.db"),
    )
    assert (code, out) == (0, "1\n")
    code, out, err = cli(capsys, "club", "check-in", "1", second, "--db", str(tmp_path / "a.db"))
    assert code == 2 and "looks like" in err
    assert not night.exists()


_STROKES = "Il1"
_RINGS = "Oo0"


@settings(max_examples=300, deadline=None)
@given(
    st.text(
        alphabet="abcdefghjkmnpqrstuvwxyzABCDEFGHJKMNPQRSTUVWXYZ" + _STROKES + _RINGS,
        min_size=1,
        max_size=12,
    ),
    st.data(),
)
def test_14_swapping_a_stroke_or_a_ring_keeps_a_latin_names_key(
    name: str, data: st.DataObject
) -> None:
    """Any I, l, 1 of a Latin name written as another of them, any O, o, 0 as another: the
    look-alike key stays (and so does the key of the name in another case)."""
    from scorepad.scoring.pulya.session import look_alike

    name = "K" + name  # a Latin name: a Latin letter that no swap touches
    swapped = "".join(
        data.draw(st.sampled_from(_STROKES if ch in _STROKES else _RINGS))
        if ch in _STROKES + _RINGS
        else ch
        for ch in name
    )
    assert look_alike(swapped) == look_alike(name) == look_alike(name.swapcase())


# --- 15. every free text is checked as a player's name -----------------------------------------

BAD_TEXTS = [("\x1b[2J", "U+001B"), ("line\nbreak", "U+000A"), ("evil\u202etxt", "U+202E")]


def _directory(db: Path) -> None:
    with Store(db) as store:
        store.create_session(["Anna", "Boris", "Vera"])


@pytest.mark.parametrize(("text", "char"), BAD_TEXTS)
@pytest.mark.parametrize(
    ("command", "said"),
    [
        (
            ("season", "{text}", "--since", "2026-01-01", "--until", "2026-12-31", "--player", "1"),
            "a season name",
        ),
        (("rename", "1", "Ann", "--reason", "{text}"), "a reason"),
        (("unmerge", "1", "--reason", "{text}"), "a reason"),
        (("merge", "1", "2", "--reason", "{text}"), "a reason"),
        (("settled", "1", "2", "10", "--reason", "{text}"), "a reason"),
    ],
    ids=lambda v: v[0] if isinstance(v, tuple) else None,
)
def test_15_a_free_text_with_a_control_bidi_or_hidden_character_is_refused(
    command: tuple[str, ...],
    said: str,
    text: str,
    char: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    db = tmp_path / "a.db"
    _directory(db)
    before = files_of(tmp_path)
    argv = [a.replace("{text}", text) for a in command]
    code, out, err = cli(capsys, *argv, "--db", str(db))
    assert (code, out, err) == (2, "", f"{said} must not contain the character {char}\n")
    assert files_of(tmp_path) == before


def test_15_an_announcement_with_an_escape_is_refused(tmp_path: Path) -> None:
    from scorepad.club.errors import ClubError

    with Store(tmp_path / "a.db") as store:
        club = ClubStore(store)
        nid = club.create_night("Friday", date=datetime.date(2026, 12, 1), tours=1, pool_target=10)
        with pytest.raises(ClubError, match="must not contain the character U\\+001B"):
            club.announce(nid, "tea \x1b[31m now")
        with pytest.raises(ClubError, match="must not contain the character U\\+202E"):
            club.announce(nid, "tea \u202e now")
        assert club.announcement(nid) is None


def test_15_a_season_named_before_the_check_never_drives_the_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A season written by an older Scorepad with an escape in its name: shown escaped."""
    db = tmp_path / "a.db"
    _directory(db)
    with sqlite3.connect(db) as conn:
        conn.execute(
            "INSERT INTO seasons (name, since, until, players, created_at) "
            "VALUES ('Fr\x1b[2Jidays', '2026-01-01', '2026-12-31', '[1]', '2026-01-01')"
        )
    conn.close()
    code, out, err = cli(capsys, "season", "Fr\x1b[2Jidays", "--db", str(db))
    assert code == 0, err
    assert "\x1b" not in out and out.startswith("Fr\\x1b[2Jidays: 2026-01-01 to 2026-12-31\n")


# --- 16. smaller: the catalogs' words, currencies, encodings, SQLite's codes -------------------


@pytest.mark.parametrize(
    ("currency", "shown_as"), [("", "''"), ("EUR\n", "'EUR\\n'"), ("XYZ", "'XYZ'")]
)
def test_16_settled_refuses_a_currency_that_is_no_iso_4217_code(
    currency: str, shown_as: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "a.db"
    _directory(db)
    before = files_of(tmp_path)
    code, out, err = cli(capsys, "settled", "1", "2", "10", "--currency", currency, "--db", str(db))
    assert (code, out) == (2, "")
    assert err == f"{shown_as} is not an ISO 4217 currency code\n"
    assert files_of(tmp_path) == before
    assert cli(capsys, "settled", "1", "2", "10", "--currency", "EUR", "--db", str(db))[0] == 0


@pytest.mark.parametrize(
    ("command", "change", "said"),
    [
        (
            "settle",
            lambda d: d.__setitem__("pool_target", 1.5),
            "pool_target: должно быть целым числом",
        ),
        (
            "settle",
            lambda d: d.__setitem__("first_dealer", "x"),
            "first_dealer: должно быть целым числом",
        ),
        (
            "club",
            lambda d: d.__setitem__("date", "soon"),
            "date: должно быть датой вида 2026-12-01",
        ),
        ("club", lambda d: d.__setitem__("seed", 1.5), "seed: должно быть целым числом"),
    ],
)
def test_16_pydantics_english_never_shows_under_another_language(
    command: str,
    change: Callable[[dict[str, Any]], None],
    said: str,
    night_file: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if command == "settle":
        data: dict[str, Any] = {
            "format": "scorepad-session/1",
            "players": ["Anna", "Boris", "Vera"],
            "convention": "sochi",
            "pool_target": 10,
            "deals": [],
        }
        argv = ["settle"]
    else:
        data, argv = json.loads(json.dumps(night_file)), ["club", "import"]
    change(data)
    path = tmp_path / "in.json"
    path.write_text(json.dumps(data))
    code = main(["--lang", "ru", *argv, str(path), "--db", str(tmp_path / "a.db")])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert said in err and "Input should" not in err and "Value error" not in err


SESSION = {
    "format": "scorepad-session/1",
    "players": ["Анна", "Борис", "Вера"],
    "convention": "sochi",
    "pool_target": 10,
    "deals": [RASP],
}


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "utf-16-le", "utf-32"])
def test_16_a_session_file_with_a_bom_or_in_utf16_is_read_as_the_club_file_is(
    encoding: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], night_file: dict[str, Any]
) -> None:
    plain, other = tmp_path / "plain.json", tmp_path / "other.json"
    text = json.dumps(SESSION, ensure_ascii=False)
    plain.write_text(text, encoding="utf-8")
    other.write_bytes(text.encode(encoding))
    expected = cli(capsys, "settle", str(plain))
    assert expected[0] == 0
    assert cli(capsys, "settle", str(other)) == expected
    db = tmp_path / "a.db"
    assert cli(capsys, "import", str(other), "--db", str(db))[:2] == (0, "1\n")
    club = tmp_path / "night.json"
    club.write_bytes(json.dumps(night_file, ensure_ascii=False).encode(encoding))
    assert cli(capsys, "club", "import", str(club), "--db", str(db))[:2] == (0, "1\n")


def test_16_a_file_that_starts_like_utf16_and_is_not_gets_a_hint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "broken.json"
    path.write_bytes(b"\xff\xfe" + json.dumps(SESSION).encode("utf-16-le") + b"\x00\xd8")
    code, out, err = cli(capsys, "settle", str(path))
    assert (code, out) == (2, "")
    assert (
        err == f"{path} is not text in UTF-8 (nor in the UTF-16 it starts like): save it as UTF-8\n"
    )


def test_16_no_raw_sqlite_code_in_a_sentence() -> None:
    from scorepad.store import database_error

    for code, words in [
        ("SQLITE_IOERR_SHMSIZE", "a read or write of the disk failed"),
        ("SQLITE_ERROR", "an error inside SQLite"),
    ]:
        exc = sqlite3.OperationalError("disk I/O error")
        exc.sqlite_errorname = code  # type: ignore[attr-defined]
        line = database_error(exc, Path("/x/a.db"), 30).render("en")
        assert line == f"the database /x/a.db failed ({words}); nothing was written"
        assert "SQLITE" not in database_error(exc, Path("/x/a.db"), 30).render("ru")
