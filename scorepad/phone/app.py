"""Scorepad on the phone: the whole app in the browser's Python (Pyodide), its SQLite store in
the browser's persistent storage (IndexedDB, through Emscripten's IDBFS).

A write is acknowledged only once it is persisted: the store commits to the in-memory file, and
nothing more goes to the screen until IDBFS has copied the files to IndexedDB (``syncfs``). The
screen showing the deal written is the acknowledgement, so a reload, a closed tab or a killed
browser after it loses nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import flet as ft

from ..core.i18n import LANGUAGES, N_, language_of
from ..store import Store

MOUNT = "/scorepad"
DB = Path(MOUNT) / "scorepad.db"


async def _syncfs(populate: bool) -> None:
    """Emscripten's FS.syncfs: ``populate`` reads IndexedDB into memory, else memory is written
    to IndexedDB; awaited until IndexedDB reports it done."""
    import pyodide_js  # type: ignore[import-not-found]
    from pyodide.ffi import create_once_callable  # type: ignore[import-not-found]

    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def finished(error: Any = None) -> None:
        if done.done():
            return
        if error:
            done.set_exception(OSError(f"IndexedDB: {error}"))
        else:
            done.set_result(None)

    pyodide_js.FS.syncfs(populate, create_once_callable(finished))
    await done


_mounted: asyncio.Task[None] | None = None


async def mount() -> None:
    """The persistent folder, mounted and read from IndexedDB once per start of the app."""
    global _mounted
    if _mounted is None:

        async def first() -> None:
            import pyodide_js

            fs = pyodide_js.FS
            with contextlib.suppress(Exception):
                fs.mkdir(MOUNT)
            fs.mount(fs.filesystems.IDBFS, {}, MOUNT)
            await _syncfs(True)

        _mounted = asyncio.ensure_future(first())
    await _mounted


class Durable:
    """Holds what goes to the screen while a write is being persisted.

    Python on the phone runs in one thread: a write handler commits and draws its screen before
    anything else runs, so the draw's messages are held here and sent once ``syncfs`` has
    finished, in their order. A write made while a flush runs gets a flush of its own after it
    (the running one may have copied the files before the commit)."""

    def __init__(self) -> None:
        self.flushing: asyncio.Task[None] | None = None
        self.again = False
        self.held: list[Callable[[], None]] = []
        self.failed: BaseException | None = None

    @property
    def pending(self) -> bool:
        return self.flushing is not None and not self.flushing.done()

    def written(self) -> None:
        if self.pending:
            self.again = True
            return
        self.flushing = asyncio.ensure_future(self._flush())

    async def _flush(self) -> None:
        while True:
            self.again = False
            try:
                await _syncfs(False)
                self.failed = None
            except OSError as exc:  # the screen is still told; the next write tries again
                self.failed = exc
            if not self.again:
                break
        held, self.held = self.held, []
        for send in held:
            send()

    def gate(self, connection: Any) -> None:
        """Every message of ``connection`` to the screen waits for a flush in progress."""
        for name in ("send_message", "send_data_channel_frame"):
            original = getattr(connection, name)

            def gated(*args: Any, _send: Any = original) -> None:
                if self.pending or self.held:
                    self.held.append(lambda: _send(*args))
                else:
                    _send(*args)

            setattr(connection, name, gated)


class PhoneStore(Store):
    """The store whose every write is persisted (``Durable``) before the screen hears of it."""

    def __init__(self, path: Path, durable: Durable) -> None:
        super().__init__(path)
        self.durable = durable

    def _to_wal(self) -> None:
        """The rollback journal stays: IndexedDB keeps whole files, so a WAL file (up to some
        megabytes before its checkpoint) would be copied whole on every write, and a flush is one
        IndexedDB transaction anyway, all of the files or none."""
        self._wal = True

    @contextlib.contextmanager
    def _write(self) -> Iterator[None]:
        outer = not self._depth
        with super()._write():
            yield
        if outer:
            self.durable.written()


def browser_language() -> str:
    """The phone's language (``navigator.language``), as the app's own list knows it."""
    try:
        import js  # type: ignore[import-not-found]

        found = language_of(str(js.navigator.language).replace("-", "_"))
    except Exception:
        return "en"
    return found if found in LANGUAGES else "en"


async def persisted() -> bool | None:
    """Whether the browser keeps this app's storage (the page asked for it, index.html);
    None where the browser cannot say."""
    try:
        import js

        storage = js.navigator.storage
        if not storage or not hasattr(storage, "persisted"):
            return None
        return bool(await storage.persisted())
    except Exception:
        return None


#: Shown on the first screen when the browser did not grant persistent storage.
NOT_PERSISTED = N_(
    "This browser keeps Scorepad's games only while it has room: when the phone runs short of "
    "space, it may clear them. To keep a copy, tap “Back up to a file” on the list of games after "
    "each evening: the file holds every game, and Scorepad on a laptop opens it."
)


def backup(store: Store) -> bytes:
    """The whole store as one SQLite file (SQLite's own online backup: a consistent copy even
    of a store being written), for the phone's one-tap backup."""
    import sqlite3
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "backup.db"
        target = sqlite3.connect(path)
        try:
            store.db.conn.backup(target)
        finally:
            target.close()
        return path.read_bytes()


_store: PhoneStore | None = None
_durable = Durable()


async def main(page: ft.Page) -> None:
    from ..app.frame import flet_diff, live, theme
    from ..app.frame.screens import sessions_screen
    from ..app.frame.shell import Shell, remember_language, remembered_language

    global _store
    flet_diff.install()
    page.title = "Scorepad"
    theme.apply(page)
    _durable.gate(page.session.connection)
    await mount()
    if _store is None:
        _store = PhoneStore(DB, _durable)
    shell = Shell(page, _store, await remembered_language(browser_language()), threading.RLock())
    shell.remember_language = lambda code: page.run_task(remember_language, code)
    shell.show(sessions_screen)
    if await persisted() is False:
        live.notice(shell, shell.t(NOT_PERSISTED))
        page.update()


def start() -> None:
    ft.run(main)
