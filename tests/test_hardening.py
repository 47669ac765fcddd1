"""Hostile and unlucky input (issue: hardening): a sentence and exit 2, never a traceback,
never a damaged database, never a world-readable one."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT, run_cli, session, typed
from scorepad.scoring.pulya.session import MAX_DEALS, SessionInvalid, look_alike, parse_session
from scorepad.store import Damaged, Store, StoreError, Unavailable
from scorepad.store import actions as store_actions
from scorepad.store import schema as store_schema

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MALFORMED = FIXTURES / "malformed"
WORKERS = Path(__file__).resolve().parent / "support" / "workers.py"


def correction(**kw: Any) -> dict[str, Any]:
    return {"type": "correction", "seat": 0, "note": "agreed at the table", **kw}


def rasp(a: int, b: int, c: int) -> dict[str, Any]:
    return {"type": "raspasy", "tricks": {"0": a, "1": b, "2": c}}


def files_of(db: Path) -> dict[str, bytes]:
    """Every file of the database (and its companions) byte for byte: 'nothing was written'."""
    return {
        p.name: p.read_bytes()
        for p in sorted(db.parent.iterdir())
        if p.name.startswith(db.name) and p.is_file()
    }


@pytest.fixture
def filled(tmp_path: Path) -> Path:
    """A database with two sessions, closed cleanly (no -wal left)."""
    db = tmp_path / "evening.db"
    with Store(db) as s:
        s.import_session(json.dumps(session([rasp(3, 3, 4), rasp(2, 4, 4)])))
        s.import_session(json.dumps(session([rasp(1, 4, 5)], convention="leningrad")))
    return db


def unprivileged(*args: str) -> subprocess.CompletedProcess[str]:
    """The real CLI without root's power to write anywhere (as a user runs it)."""
    prefix: list[str] = []
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        assert setpriv, "running as root needs util-linux setpriv to drop CAP_DAC_OVERRIDE"
        prefix = [setpriv, "--bounding-set=-dac_override,-dac_read_search"]
    return subprocess.run(
        [*prefix, sys.executable, "-m", "scorepad.cli", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


# --- 1-3: numbers the format accepts -----------------------------------------------------------

FIXTURE_LINES = {
    "zero-denominator.json": "deal 1: pool: '1/0' has a zero denominator",
    "seat-key-minus-one.json": "deal 1: whists: '-1' is not a seat: seats are 0 to 3",
    "seat-key-minus-three.json": "deal 1: whists: '-3' is not a seat: seats are 0 to 3",
    "seat-key-minus-four.json": "deal 1: whists: '-4' is not a seat: seats are 0 to 3",
    "huge-pool.json": "deal 1: pool: a sheet entry is at most 1000000 either way",
    "huge-setting.json": "overrides: pool_point_whists: a setting's numbers are at most 10000",
    "bidi-name.json": "players.1: a player name must not contain the character U+202E",
    "ansi-name.json": "players.1: a player name must not contain the character U+001B",
    "newline-name.json": "players.1: a player name must not contain the character U+000A",
    "look-alike-names.json": "players: the name 'Ａnna' looks like 'Anna': use one spelling",
    "zero-width-name.json": "players.1: a player name must not contain the character U+200B",
    "control-currency.json": r"currency: 'RU\x1bB' is not an ISO 4217 currency code",
    "control-convention.json": (
        r"convention: 'sochi\u202e' is not a convention id: letters, digits, '-' and '_', "
        "at most 40 characters, like 'sochi'"
    ),
}


def test_every_malformed_fixture_has_its_expected_line() -> None:
    assert sorted(p.name for p in MALFORMED.glob("*.json")) == sorted(FIXTURE_LINES)


@pytest.mark.parametrize("name", sorted(FIXTURE_LINES))
def test_a_malformed_file_is_refused_by_settle_and_import(name: str, tmp_path: Path) -> None:
    path = MALFORMED / name
    done = run_cli("--lang", "en", "settle", str(path))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [FIXTURE_LINES[name]]
    db = tmp_path / "kept.db"
    with Store(db) as s:
        s.import_session(json.dumps(session([rasp(3, 3, 4)])))
    before = files_of(db)
    done = run_cli("--lang", "en", "import", str(path), "--db", str(db))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [FIXTURE_LINES[name]]
    assert files_of(db) == before


def test_the_app_import_path_refuses_in_words(tmp_path: Path) -> None:
    # The app's import dialog hands the pasted text to the store, and shows what it raises.
    with Store(tmp_path / "x.db") as s:
        for name in ("zero-denominator.json", "seat-key-minus-three.json", "huge-pool.json"):
            with pytest.raises(SessionInvalid) as exc:
                s.import_session((MALFORMED / name).read_text(encoding="utf-8"))
            assert exc.value.render() == [FIXTURE_LINES[name]]
        assert s.sessions() == [] and s.players() == []


def test_refusals_in_russian() -> None:
    done = run_cli("--lang", "ru", "settle", str(MALFORMED / "zero-denominator.json"))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == ["сдача 1: pool: у '1/0' нулевой знаменатель"]
    done = run_cli("--lang", "ru", "settle", str(MALFORMED / "seat-key-minus-one.json"))
    assert done.stderr.splitlines() == [
        "сдача 1: whists: '-1' — не место за столом: места от 0 до 3"
    ]
    done = run_cli("--lang", "ru", "settle", str(MALFORMED / "look-alike-names.json"))
    assert done.stderr.splitlines() == [
        "players: имена 'Ａnna' и 'Anna' выглядят одинаково: оставьте одно написание"
    ]


@pytest.mark.parametrize(
    ("value", "line"),
    [
        ("1/00", "deal 1: gora: '1/00' has a zero denominator"),
        ("-7/0", "deal 1: gora: '-7/0' has a zero denominator"),
        ("1/13", "deal 1: gora: a fraction on a sheet has a denominator of at most 12"),
        (1_000_001, "deal 1: gora: a sheet entry is at most 1000000 either way"),
        ("-1000001", "deal 1: gora: a sheet entry is at most 1000000 either way"),
        ("9" * 4300, "deal 1: gora: a sheet entry is at most 1000000 either way"),
        (10**300, "deal 1: gora: a sheet entry is at most 1000000 either way"),
    ],
    ids=["1/00", "-7/0", "1/13", "1000001", "-1000001", "4300 digits", "10**300"],
)
def test_correction_numbers_are_bounded(value: Any, line: str) -> None:
    with pytest.raises(SessionInvalid) as exc:
        parse_session(json.dumps(session([correction(gora=value)])))
    assert exc.value.render() == [line]


def test_the_largest_entries_a_sheet_can_hold_are_accepted() -> None:
    data = session(
        [correction(pool=1_000_000, gora="-1000000", whists={"1": "-88/3", "2": "999999/12"})],
        overrides={"pool_point_whists": 10_000},
    )
    parsed = parse_session(json.dumps(data))
    deal = parsed.deals[0]
    assert (deal.pool, deal.gora) == (1_000_000, -1_000_000)  # type: ignore[union-attr]


def test_seat_keys_are_0_to_3_in_every_map_by_seat() -> None:
    for deal in (
        {"type": "raspasy", "tricks": {"0": 3, "1": 3, "-2": 4}},
        {"type": "misere", "declarer": 0, "tricks": {"00": 0}},
        {"type": "game", "declarer": 1, "contract": "6S", "tricks": {"1": 6, " 2": 4}},
    ):
        with pytest.raises(SessionInvalid) as exc:
            parse_session(session([deal]))
        [line] = exc.value.render()
        assert line.startswith("deal 1: tricks: '") and line.endswith(
            "' is not a seat: seats are 0 to 3"
        )


# --- 4: long values, odd files -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "line"),
    [
        (
            "convention",
            "convention: 'xxxxxxxxxxxxxxxxxxxxxxxx…' is not a convention id: letters, digits, "
            "'-' and '_', at most 40 characters, like 'sochi'",
        ),
        ("currency", "currency: 'xxxxxxxxxxxxxxxxxxxxxxxx…' is not an ISO 4217 currency code"),
        (
            "contract",
            "deal 1: contract: 'xxxxxxxxxxxxxxxxxxxxxxxx…' is not a contract: level 6-10 and "
            "S, C, D, H or NT, like '7S'",
        ),
        ("setting", "overrides: unknown setting 'xxxxxxxxxxxxxxxxxxxxxxxx…'"),
    ],
)
def test_a_10_mb_value_is_quoted_by_a_short_prefix(field: str, line: str, tmp_path: Path) -> None:
    huge = "x" * 10_000_000
    if field == "contract":
        data = session([{"type": "game", "declarer": 1, "contract": huge}])
    elif field == "setting":
        data = session([], overrides={huge: 1})
    else:
        data = session([], **{field: huge})
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    done = run_cli("--lang", "en", "settle", str(path))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [line]


def test_dev_zero_and_a_fifo_are_refused_without_reading(tmp_path: Path) -> None:
    done = run_cli("--lang", "en", "settle", "/dev/zero")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == ["/dev/zero is not a regular file"]
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    for command in ("settle", "import", "audit"):
        done = run_cli("--lang", "en", command, str(fifo), "--db", str(tmp_path / "x.db"))
        assert (done.returncode, done.stdout) == (2, "")
        assert done.stderr.splitlines() == [f"{fifo} is not a regular file"]
    assert not (tmp_path / "x.db").exists()


def test_a_file_over_16_mb_is_refused_before_reading(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as f:
        f.truncate(16 * 1024 * 1024 + 1)  # sparse: the size says enough
    done = run_cli("--lang", "ru", "settle", str(big))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [f"{big} больше 16 МБ: это не файл Scorepad"]
    exactly = tmp_path / "limit.json"
    text = json.dumps(session([rasp(3, 3, 4)]))
    exactly.write_text(text + " " * (16 * 1024 * 1024 - len(text)), encoding="utf-8")
    done = run_cli("--lang", "en", "settle", str(exactly), "--json")
    assert done.returncode == 0, done.stderr


def test_standard_input_over_16_mb_is_refused() -> None:
    done = run_cli("--lang", "en", "settle", "-", stdin=" " * (16 * 1024 * 1024 + 1))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == ["- is larger than 16 MB: it is not a Scorepad file"]


# --- 5: deals per session ----------------------------------------------------------------------


def test_a_session_holds_at_most_10000_deals(tmp_path: Path) -> None:
    deals = [correction(seat=i % 3, pool=1) for i in range(MAX_DEALS + 1)]
    path = tmp_path / "long.json"
    path.write_text(json.dumps(session(deals)), encoding="utf-8")
    done = run_cli("--lang", "en", "import", str(path), "--db", str(tmp_path / "x.db"))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == ["deals: a session holds at most 10000 deals"]
    path.write_text(json.dumps(session(deals[:MAX_DEALS])), encoding="utf-8")
    done = run_cli("--lang", "en", "import", str(path), "--db", str(tmp_path / "x.db"))
    assert (done.returncode, done.stdout, done.stderr) == (0, "1\n", "")


def test_adding_past_the_deal_limit_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_actions, "MAX_DEALS", 2)
    with Store(tmp_path / "x.db") as s:
        sid = s.import_session(json.dumps(session([rasp(3, 3, 4), rasp(2, 4, 4)])))
        with pytest.raises(StoreError) as exc:
            s.add_deal(sid, typed(s, sid, rasp(1, 4, 5)), seen=2)
        assert exc.value.render() == "a session holds at most 10000 deals"
        assert len(s.history(sid)) == 2


# --- 6: export never overwrites the database ---------------------------------------------------


def test_export_refuses_the_database_and_its_files(filled: Path, tmp_path: Path) -> None:
    with Store(filled) as s:
        s.backup(filled.with_name(filled.name + ".schema-1.bak"))
        link = tmp_path / "link.json"
        link.symlink_to(filled)
        hard = tmp_path / "hard.json"
        os.link(filled, hard)
        before = files_of(filled)
        targets = [
            str(filled),
            f"{filled}-wal",
            f"{filled}-shm",
            f"{filled}.schema-1.bak",
            f"{filled}.schema-7.bak",  # a backup yet to be written
            str(tmp_path / "sub" / ".." / filled.name),
            str(link),
            str(hard),
        ]
        for target in targets:
            done = run_cli("--lang", "en", "export", "1", target, "--db", str(filled), "--force")
            assert (done.returncode, done.stdout) == (2, ""), target
            assert done.stderr.splitlines() == [
                f"{target} is the database or one of its files: the export was not written"
            ]
        assert files_of(filled) == before
    with Store(filled) as s:
        assert len(s.sessions()) == 2


def test_export_overwrites_an_existing_file_only_with_force(filled: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    out.write_text("my notes", encoding="utf-8")
    done = run_cli("--lang", "en", "export", "1", str(out), "--db", str(filled))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [f"{out} exists: add --force to overwrite it"]
    assert out.read_text(encoding="utf-8") == "my notes"
    done = run_cli("--lang", "en", "export", "1", str(out), "--db", str(filled), "--force")
    assert (done.returncode, done.stderr) == (0, "")
    assert (
        parse_session(out.read_bytes()).deals
        == parse_session(session([rasp(3, 3, 4), rasp(2, 4, 4)])).deals
    )
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".out")] == []


# --- 7: damaged, missing, locked, read-only, full ----------------------------------------------


def _scribble(db: Path, pages: range | None = None) -> None:
    """Write over the head of each page (all but the first, by default): a scribbled disk."""
    data = bytearray(db.read_bytes())
    size = 4096
    for number in pages or range(1, len(data) // size):
        data[number * size : number * size + 300] = b"\xff" * 300
    db.write_bytes(bytes(data))


@pytest.mark.parametrize("damage", ["truncated to 50 bytes", "scribbled pages"])
def test_a_damaged_database_is_refused_in_words_and_left_as_it_is(
    damage: str, filled: Path, tmp_path: Path
) -> None:
    if damage == "truncated to 50 bytes":
        filled.write_bytes(filled.read_bytes()[:50])
    else:
        _scribble(filled)
    before = files_of(filled)
    src = tmp_path / "in.json"
    src.write_text(json.dumps(session([rasp(3, 3, 4)])), encoding="utf-8")
    for command in (
        ["settle", "1"],
        ["export", "1", str(tmp_path / "out.json")],
        ["import", str(src)],
        ["sessions"],
    ):
        done = run_cli("--lang", "en", *command, "--db", str(filled))
        assert (done.returncode, done.stdout) == (2, ""), command
        if damage == "truncated to 50 bytes":  # too short to be a database at all (#22.7)
            assert done.stderr.splitlines() == [
                f"{filled} is not a Scorepad database (not a SQLite file, or corrupt)"
            ], command
        else:
            assert done.stderr.splitlines() == [
                f"{filled} is damaged ('database disk image is malformed'): Scorepad does not "
                "write to it; nothing was written",
                "No backup of it was found.",
            ], command
    assert files_of(filled) == before
    assert not (tmp_path / "out.json").exists()


def test_a_damaged_database_points_to_the_latest_backup(filled: Path) -> None:
    with Store(filled) as s:
        older = s.backup(filled.with_name(filled.name + ".schema-1.bak"))
        newer = s.backup(filled.with_name(filled.name + ".manual.bak"))
    os.utime(older, (1_000_000_000, 1_000_000_000))
    _scribble(filled)
    done = run_cli("--lang", "ru", "sessions", "--db", str(filled))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [
        f"{filled} повреждён ('database disk image is malformed'): Scorepad в него не пишет; "
        "ничего не записано",
        f"Последняя резервная копия: {newer} — положите её на место этого файла.",
    ]


@pytest.mark.parametrize("how", ["DROP TABLE _migrations", "DELETE FROM _migrations"])
def test_a_lost_schema_record_is_refused_not_rebuilt(how: str, filled: Path) -> None:
    conn = sqlite3.connect(filled)
    conn.execute(how)
    conn.commit()
    conn.close()
    before = files_of(filled)
    done = run_cli("--lang", "en", "sessions", "--db", str(filled))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [
        f"{filled} is damaged ('_migrations'): Scorepad does not write to it; nothing was written",
        "No backup of it was found.",
    ]
    assert files_of(filled) == before


def test_db_a_folder_or_a_path_under_a_file(tmp_path: Path) -> None:
    done = run_cli("--lang", "en", "sessions", "--db", str(tmp_path))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [f"{tmp_path} is a folder, not a database file"]
    plain = tmp_path / "notes.txt"
    plain.write_text("notes", encoding="utf-8")
    done = run_cli("--lang", "ru", "sessions", "--db", str(plain / "x.db"))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [
        f"{plain / 'x.db'} нельзя использовать для базы: Not a directory"
    ]
    assert plain.read_text(encoding="utf-8") == "notes"


def test_a_missing_folder_in_a_read_only_folder(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    src = tmp_path / "in.json"
    src.write_text(json.dumps(session([rasp(3, 3, 4)])), encoding="utf-8")
    src.chmod(0o644)
    locked.chmod(0o555)
    try:
        # A write (import) needs the folder; a read would only say there is no database (#22.8).
        done = unprivileged(
            "--lang", "en", "import", str(src), "--db", str(locked / "new" / "x.db")
        )
    finally:
        locked.chmod(0o755)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [
        f"cannot use {locked / 'new'} for the database: Permission denied"
    ]
    assert list(locked.iterdir()) == []


def test_importing_into_a_read_only_database(filled: Path, tmp_path: Path) -> None:
    src = tmp_path / "in.json"
    src.write_text(json.dumps(session([rasp(3, 3, 4)])), encoding="utf-8")
    before = filled.read_bytes()
    filled.chmod(0o400)
    try:
        done = unprivileged("--lang", "en", "import", str(src), "--db", str(filled))
        listed = unprivileged("--lang", "en", "sessions", "--db", str(filled))
    finally:
        filled.chmod(0o600)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [f"{filled} is read-only: nothing was written"]
    assert listed.returncode == 0 and listed.stdout.count("\n") == 2  # reading still works
    assert filled.read_bytes() == before


def test_a_locked_database_is_refused_after_the_wait(
    filled: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from scorepad.cli import main

    src = tmp_path / "in.json"
    src.write_text(json.dumps(session([rasp(3, 3, 4)])), encoding="utf-8")
    holder = sqlite3.connect(filled, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another program in the middle of a write
    monkeypatch.setattr(store_schema, "LOCK_TIMEOUT", 0.2)
    try:
        code = main(["--lang", "en", "import", str(src), "--db", str(filled)])
        out, err = capsys.readouterr()
        assert (code, out) == (2, "")
        assert err.splitlines() == [
            f"{filled} is locked by another program (waited 0.2 s); nothing was written: try again"
        ]
        code = main(["--lang", "ru", "import", str(src), "--db", str(filled)])
        out, err = capsys.readouterr()
        assert err.splitlines() == [
            f"{filled} занят другой программой (ждали 0.2 с); ничего не записано: попробуйте ещё раз"
        ]
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    with Store(filled) as s:
        assert len(s.sessions()) == 2


def test_a_full_disk_writes_nothing(filled: Path) -> None:
    with Store(filled) as s:
        pages = s.conn.execute("PRAGMA page_count").fetchone()[0]
        # SQLite's own size cap: past it, a write fails exactly as on a full disk (SQLITE_FULL).
        s.conn.execute(f"PRAGMA max_page_count={pages}")
        big = [rasp(3, 3, 4) for _ in range(400)]
        with pytest.raises(Unavailable) as exc:
            s.import_session(json.dumps(session(big)))
        assert exc.value.render() == f"the disk is full: nothing was written to {filled}"
        assert exc.value.render("ru") == f"диск заполнен: в {filled} ничего не записано"
        assert len(s.sessions()) == 2 and not s.conn.in_transaction
        s.conn.execute(f"PRAGMA max_page_count={pages * 100}")
        assert s.import_session(json.dumps(session([rasp(3, 3, 4)]))) == 3


def test_damage_quick_check_finds_stops_every_write(filled: Path, tmp_path: Path) -> None:
    # One table page scribbled, the last such page of the file: the schema still reads (a page
    # of the schema itself would make the file unreadable, which another test covers).
    pristine = filled.read_bytes()
    found = "ok"
    for page in range(filled.stat().st_size // 4096 - 1, 0, -1):
        filled.write_bytes(pristine)
        _scribble(filled, range(page, page + 1))
        conn = sqlite3.connect(filled)
        try:
            found = conn.execute("PRAGMA quick_check").fetchall()[0][0]
        except sqlite3.DatabaseError:
            continue
        finally:
            conn.close()
        if found != "ok":
            break
    assert found != "ok"
    shown = repr(found[:60] + "…") if len(found) > 60 else repr(found)
    before = files_of(filled)
    with Store(filled) as s:
        with pytest.raises(Damaged) as exc:
            s.import_session(json.dumps(session([rasp(3, 3, 4)])))
        assert exc.value.render().splitlines() == [
            f"{filled} is damaged ({shown}): Scorepad does not write to it; nothing was written",
            "No backup of it was found.",
        ]
        with pytest.raises(Damaged):
            s.add_player("Gleb")
    src = tmp_path / "in.json"
    src.write_text(json.dumps(session([rasp(3, 3, 4)])), encoding="utf-8")
    done = run_cli("--lang", "en", "import", str(src), "--db", str(filled))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines()[0] == (
        f"{filled} is damaged ({shown}): Scorepad does not write to it; nothing was written"
    )
    assert files_of(filled) == before


# --- 8: two stores in one process beside a writing process ---------------------------------------


def _held_locks(path: Path) -> list[str]:
    """This process's POSIX locks on ``path`` (Linux /proc/locks)."""
    inode = os.stat(path).st_ino
    pid = str(os.getpid())
    with open("/proc/locks", encoding="ascii") as f:
        return [
            line.split()[-2]
            for line in f
            if line.split()[4] == pid and line.split()[5].endswith(f":{inode}")
        ]


def test_opening_a_second_store_keeps_the_first_ones_locks(filled: Path) -> None:
    with Store(filled) as first:
        first.load(1)
        held = _held_locks(filled)
        assert held  # an open WAL connection holds a shared lock on the file
        with Store(filled) as second:
            second.load(1)
        assert _held_locks(filled) == held


def test_two_stores_in_one_process_beside_a_writing_process(filled: Path) -> None:
    writer = subprocess.Popen(
        [sys.executable, str(WORKERS), "crash", str(filled), "1", "w"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert writer.stdout is not None
        assert writer.stdout.readline().strip() == "ready"
        errors: list[BaseException] = []

        def reader() -> None:
            try:
                for _ in range(40):
                    with Store(filled) as s:
                        s.load(1)
            except BaseException as exc:  # the test reports it
                errors.append(exc)

        with Store(filled) as mine:
            thread = threading.Thread(target=reader)
            thread.start()
            seen = 0
            while thread.is_alive():
                stored = mine.load(1)
                assert stored.revision >= seen
                seen = stored.revision
            thread.join()
        assert errors == []
        assert writer.stdout.readline().startswith("w-")  # the writer wrote all along
    finally:
        writer.kill()
        writer.wait()
    with Store(filled) as s:
        assert s.load(1).revision > 2


# --- 9: private files --------------------------------------------------------------------------


def test_the_database_its_companions_and_backups_are_private(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir(mode=0o755)
    home.chmod(0o755)
    db = home / "a" / "b" / "scorepad.db"
    with Store(db) as s:
        s.import_session(json.dumps(session([rasp(3, 3, 4)])))
        backup = s.backup(db.with_name("scorepad.db.schema-1.bak"))
        modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in db.parent.iterdir() if p.is_file()}
    assert modes == {
        "scorepad.db": 0o600,
        "scorepad.db-wal": 0o600,
        "scorepad.db-shm": 0o600,
        backup.name: 0o600,
    }
    assert stat.S_IMODE((home / "a").stat().st_mode) == 0o700
    assert stat.S_IMODE(db.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(home.stat().st_mode) == 0o755  # a folder it found is left alone


def test_a_migration_backup_is_private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "v1.db"
    shutil.copy(FIXTURES / "schema-1.db", path)
    monkeypatch.setattr(
        store_schema,
        "MIGRATIONS",
        [
            *store_schema.MIGRATIONS,
            (store_schema.MIGRATIONS[-1][0] + 1, "venue", lambda db: db.execute("SELECT 1")),
        ],
    )
    with Store(path):
        pass
    backup = tmp_path / "v1.db.schema-1.bak"
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600


# --- 13: names ---------------------------------------------------------------------------------


def test_names_are_nfc(tmp_path: Path) -> None:
    decomposed = "Zoe\u0308"  # Zoë typed with a combining diaeresis
    parsed = parse_session(session([], players=["Anna", decomposed, "Vera"]))
    assert parsed.players[1] == "Zo\u00eb"
    with Store(tmp_path / "x.db") as s:
        s.add_player("Zo\u00eb")
        with pytest.raises(StoreError):
            s.add_player("Zo\u00eb\u200b")
        s.create_session(["Anna", decomposed, "Vera"])
        assert s.players() == ["Anna", "Vera", "Zo\u00eb"]


@pytest.mark.parametrize("twin", ["\uff21nna", "Anna\u200d", "ANNA"])
def test_look_alike_names_on_the_roster(twin: str, tmp_path: Path) -> None:
    with Store(tmp_path / "x.db") as s:
        anna = s.add_player("Anna")
        if twin.casefold() == "anna":
            assert s.add_player(twin) == anna  # the same name in another case
            return
        with pytest.raises(StoreError) as exc:
            s.add_player(twin)
        assert exc.value.render() == (
            f"the name {twin!r} looks like 'Anna', already on the roster: use that one"
        )
        with pytest.raises(StoreError):
            s.create_session([twin, "Boris", "Vera"])
        assert s.players() == ["Anna"] and s.sessions() == []


def test_cyrillic_names_in_another_case_are_one_player(tmp_path: Path) -> None:
    with Store(tmp_path / "x.db") as s:
        first = s.add_player("Анна")
        assert s.add_player("анна") == first
        assert s.players() == ["Анна"]
    # A wide letter and a Cyrillic А look like the Latin one (TR39's skeleton, #22.10).
    assert look_alike("Ａnna") == look_alike("anna") == look_alike("Аnna")


def test_a_name_cannot_forge_rows_in_sessions(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    with Store(db) as s:
        for bad in ("Boris\n    9  2026", "Boris\x1b[2J", "Boris\u202e", "Bo\u2028ris"):
            with pytest.raises(StoreError, match="must not contain the character"):
                s.add_player(bad)
            with pytest.raises(SessionInvalid, match="must not contain the character"):
                s.create_session(["Anna", bad, "Vera"])
        assert s.sessions() == [] and s.players() == []


def test_notes_and_reasons_are_clean_text(tmp_path: Path) -> None:
    with Store(tmp_path / "x.db") as s:
        sid = s.create_session(["Anna", "Boris", "Vera"])
        with pytest.raises(StoreError) as exc:
            # (model_copy does not validate: the store checks the deal again)
            bad = typed(s, sid, rasp(3, 3, 4)).model_copy(update={"note": "ok\x1b[2J"})
            s.add_deal(sid, bad, seen=0)
        assert exc.value.render().splitlines() == [
            "the entry was refused:",
            "note: a note must not contain the character U+001B",
        ]
        r = s.add_deal(sid, typed(s, sid, rasp(3, 3, 4)), seen=0).revision
        with pytest.raises(StoreError) as exc:
            s.void_deal(sid, 1, reason="typo\u202e", seen=r)
        assert exc.value.render() == "a reason must not contain the character U+202E"
        assert len(s.history(sid)) == 1


@pytest.fixture(autouse=True)
def _no_stray_writable_bits(tmp_path: Path) -> Iterator[None]:
    yield
    for p in tmp_path.rglob("*"):  # leave every folder removable for pytest's cleanup
        if p.is_dir() and not p.is_symlink():
            p.chmod(stat.S_IMODE(p.stat().st_mode) | 0o700)


# --- the ledger families' session files (bula, kassa, pot, direct) ------------------------------


@pytest.mark.parametrize(
    ("change", "line"),
    [
        (
            {"currency": "x" * 100_000},
            "currency: 'xxxxxxxxxxxxxxxxxxxxxxxx…' is not an ISO 4217 currency code",
        ),
        (
            {"overrides": {"y" * 100_000: 1}},
            "overrides: unknown setting 'yyyyyyyyyyyyyyyyyyyyyyyy…'",
        ),
        (
            {"whist_price": "1e999999"},
            "whist_price: the price is a decimal string more than zero, like '1.00', or a fraction like '1/60'",
        ),
        (
            {"deals": [{"type": "allpass"}] * (MAX_DEALS + 1)},
            "deals: a session holds at most 10000 deals",
        ),
        (
            {"deals": [{"type": "allpass", "note": "x\x1b[2J"}]},
            "deal 1: note: a note must not contain the character U+001B",
        ),
    ],
    ids=["currency", "setting name", "price", "deals", "note"],
)
def test_family_session_files_are_bounded_too(
    change: dict[str, Any], line: str, tmp_path: Path
) -> None:
    from test_families_cli import D_E1

    path = tmp_path / "bula.json"
    path.write_text(json.dumps({**D_E1, **change}), encoding="utf-8")
    done = run_cli("--lang", "en", "settle", str(path))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [line]
