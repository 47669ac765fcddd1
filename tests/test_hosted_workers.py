"""``scorepad serve --workers N`` (workers.hosted_workers): the hosted server in several
processes on one socket, sharing one PostgreSQL, each hearing the others' writes (listen.py);
and refused on a SQLite file, before anything is opened."""

from __future__ import annotations

import time
from pathlib import Path

from support.flet_wire import Client
from support.online import workers
from test_online_notify import raspasy
from test_workers_kill import deals_of, nav, sessions, worker_of

from scorepad.app.server.access import ServeRefused
from scorepad.app.server.hosted import HostedOptions
from scorepad.app.server.workers import hosted_workers
from scorepad.store import Store


def test_serve_with_two_workers_shows_a_write_on_the_pages_of_both_within_a_second(
    postgres_url: str, tmp_path: Path
) -> None:
    [(sid, token)] = sessions(postgres_url, 1)  # a table nobody owns: its phones only look
    with workers(postgres_url, tmp_path, hosted=True) as (port, supervisor):
        pages: dict[int, Client] = {}
        opened: list[Client] = []
        # The kernel chooses the worker of each connection: pages are opened in batches (a
        # worker busy with one leaves the next to the other) until both workers have one.
        for _ in range(6):
            batch = [Client(port, f"/join/{sid}/{token}") for _ in range(6)]
            opened += batch
            for page in batch:
                page.wait(lambda c: c.has("nav-history"))
                pid = worker_of(page, supervisor)
                assert pid is not None
                pages.setdefault(pid, page)
            if len(pages) == 2:
                break
        assert len(pages) == 2, "every page reached one worker"
        for page in pages.values():
            nav(page, "History")
        # Written by another process (the operator's CLI, a third worker): each worker hears
        # it from PostgreSQL (NOTIFY) and draws it on its page, with no reload.
        started = time.monotonic()
        with Store(postgres_url) as store:
            store.add_deal(sid, raspasy(), seen=0)
        for page in pages.values():
            while not page.has("deal-title-1"):  # deal 1's card, as a viewer sees it
                assert time.monotonic() - started < 5, "a worker's page never showed the write"
                page.pump(0.01)
        assert time.monotonic() - started < 1.0
        assert sorted(worker_of(p, supervisor) or 0 for p in pages.values()) == sorted(pages)
        assert deals_of(postgres_url, sid)[0] == 1
        for page in opened:
            page.close()


def test_serve_with_two_workers_on_a_sqlite_file_is_refused_and_creates_nothing(
    tmp_path: Path,
) -> None:
    db = tmp_path / "scores.db"
    options = HostedOptions(db=db, lang="en", host="127.0.0.1", port=0, workers=2)
    try:
        hosted_workers(options)
    except ServeRefused as refused:
        said = refused.render("en")
    else:
        raise AssertionError("two workers on a SQLite file were started")
    assert said.startswith("--workers 2 needs a PostgreSQL database")
    assert not db.exists()
