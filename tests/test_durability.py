"""Nothing entered is lost: SIGKILL at random moments, and two writers at one table."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from scorepad.scoring.pulya.session import parse_session
from scorepad.store import Store

WORKER = Path(__file__).resolve().parent / "support" / "workers.py"
KILLS = 50


def spawn(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, str(WORKER), *args], stdout=subprocess.PIPE, text=True)


def notes_in(db: Path, sid: int) -> list[str]:
    conn = sqlite3.connect(db)
    try:
        return [
            json.loads(r[0]).get("note")
            for r in conn.execute(
                "SELECT deal FROM actions WHERE session_id = ? ORDER BY seq", (sid,)
            )
        ]
    finally:
        conn.close()


def test_sigkill_at_random_moments_loses_nothing_that_returned(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    with Store(db) as s:
        sid = s.create_session(["Anna", "Boris", "Vera"])
    rng = random.Random(2026)
    promised: list[str] = []
    for round_ in range(KILLS):
        child = spawn("crash", str(db), str(sid), f"r{round_}")
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.0, 0.15))
        os.kill(child.pid, signal.SIGKILL)
        out, _ = child.communicate()
        assert child.returncode == -signal.SIGKILL
        promised.extend(line for line in out.splitlines() if line)
        # After every kill the database opens, is whole, and holds every write that returned.
        conn = sqlite3.connect(db)
        try:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        finally:
            conn.close()
    stored = notes_in(db, sid)
    assert len(stored) == len(set(stored))
    assert set(promised) <= set(stored)
    # At most one more per kill: a write that committed just before its reply was printed.
    assert len(stored) - len(promised) <= KILLS
    with Store(db) as s:
        current = s.load(sid)
        assert current.revision == len(stored)
        assert [a.seq for a in s.history(sid)] == list(range(1, len(stored) + 1))
        assert s.sessions()[0].revision == len(stored) and s.sessions()[0].deals == len(stored)
        # No half entry: every stored deal is whole and valid, and the session still scores.
        parse_session(s.export_session(sid))
        assert sum(current.scored.sheet.gora) >= 0


def test_two_writers_never_lose_or_duplicate_an_action(tmp_path: Path) -> None:
    db = tmp_path / "race.db"
    with Store(db) as s:
        sid = s.create_session(["Anna", "Boris", "Vera"])
    go = tmp_path / "go"
    count = 25
    workers = [spawn("race", str(db), str(sid), tag, str(count), str(go)) for tag in ("p1", "p2")]
    time.sleep(1.0)
    go.touch()
    outs = [w.communicate(timeout=120)[0] for w in workers]
    assert [w.returncode for w in workers] == [0, 0]
    lines = [line.split() for out in outs for line in out.splitlines()]
    stored_ok = [
        (kind, note, int(rest[0])) for kind, note, *rest in lines if kind in ("add", "edit")
    ]
    refused = [note for kind, note, *_ in lines if kind == "stale"]
    assert len(stored_ok) == 2 * count
    assert refused, "both writers started from revision 0: one must have been refused"
    with Store(db) as s:
        history = s.history(sid)
    # Every success is stored exactly once, at the revision its call returned, and nothing else.
    assert len(history) == len(stored_ok)
    assert sorted(rev for *_, rev in stored_ok) == [a.seq for a in history]
    by_seq = {a.seq: a for a in history}
    for kind, note, rev in stored_ok:
        assert (
            by_seq[rev].kind == kind
            and by_seq[rev].deal is not None
            and by_seq[rev].deal.note == note
        )
