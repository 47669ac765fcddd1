"""The store's seam (scorepad/store/backend.py): the Protocol both backends satisfy, the
notify/listen hook (PostgreSQL's LISTEN/NOTIFY; nothing on SQLite), an address's password never
shown, and the throwaway PostgreSQL that fails loudly when it cannot start."""

from __future__ import annotations

from pathlib import Path
from typing import get_type_hints

import pytest

from conftest import typed
from scorepad.store import open_store
from scorepad.store.backend import Backend, PostgresBackend, SqliteBackend, redacted


def test_both_backends_have_every_primitive_of_the_seam() -> None:
    wanted = {name for name in dir(Backend) if not name.startswith("_") and name not in {"dialect"}}
    assert {"execute", "query", "insert", "upsert", "begin", "commit", "rollback"} <= wanted
    for backend in (SqliteBackend, PostgresBackend):
        assert wanted <= set(dir(backend)), backend
    assert "dialect" in get_type_hints(Backend)


def test_an_address_is_shown_without_its_password() -> None:
    assert redacted("postgresql://ann:s3cret@db.example:5433/club") == (
        "postgresql://ann@db.example:5433/club"
    )
    assert redacted("postgresql://ann@db.example/club") == "postgresql://ann@db.example/club"


def test_a_notify_on_postgresql_reaches_another_connection(postgres_url: str) -> None:
    heard: list[str] = []
    with open_store(postgres_url) as writer, open_store(postgres_url) as reader:
        backend = reader.backend
        assert isinstance(backend, PostgresBackend)
        backend.listen("scorepad", heard.append)
        with writer._write():  # sent when the transaction commits, not before
            writer.backend.notify("scorepad", "session 1")
            assert backend.poll() == 0
        assert backend.poll(timeout=1.0) == 1
    assert heard == ["session 1"]


def test_notify_and_listen_are_nothing_on_sqlite(tmp_path: Path) -> None:
    heard: list[str] = []
    with open_store(tmp_path / "s.db") as store:
        changes = store.conn.total_changes
        store.backend.listen("scorepad", heard.append)
        with store._write():
            store.backend.notify("scorepad", "session 1")
        assert store.conn.total_changes == changes  # nothing written for it
    assert heard == []


def test_a_postgresql_that_cannot_start_fails_loudly(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from support import postgres

    monkeypatch.setattr(postgres, "_bin_dir", lambda: tmp_path / "no-such-bin")
    with pytest.raises(RuntimeError, match="initdb failed"):
        postgres.start()


def test_a_dropped_postgresql_connection_is_opened_again_and_a_cut_write_is_refused(
    postgres_url: str,
) -> None:
    import time

    import psycopg

    from scorepad.store import Unavailable

    deal = {"type": "raspasy", "tricks": {"0": 4, "1": 3, "2": 3}}
    with open_store(postgres_url) as store, psycopg.connect(postgres_url, autocommit=True) as admin:
        sid = store.create_session(["Anna", "Boris", "Vera"])
        backend = store.backend
        assert isinstance(backend, PostgresBackend)

        def drop() -> None:  # as a server restart does to an idle connection
            pid = backend.conn.info.backend_pid
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
            while admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", (pid,)).fetchone():
                time.sleep(0.05)

        drop()
        assert [x.id for x in store.sessions()] == [sid]  # a read: on a new connection
        drop()
        assert store.add_deal(sid, typed(store, sid, deal), seen=0).revision == 1  # a write
        with pytest.raises(Unavailable, match=r"^cannot open postgresql://"), store._write():
            backend.insert("players", {"name": "Zed", "created_at": "2026-12-07"})
            drop()  # cut in the middle of the write: refused, nothing of it kept
        assert "Zed" not in store.players()
        assert store.load(sid).revision == 1
