"""scorepad/app/frame/flet_diff.py: Flet's diff made cheaper, proved equal to Flet's own.

The same evening is played twice in-process (a writer's page and a watching page on one
store, every screen of the session visited, deals written, voided, undone, edited), once with
Flet's own ``_configure_dataclass`` and ``_removed_controls`` and once with ours, the control
ids counted from the same number: every message the two pages are sent must be the same bytes.
With ours, a live redraw leaves every control on screen in the page's index (a tap reaches it)
and nothing that left it.
"""

from __future__ import annotations

import itertools
import threading
from pathlib import Path
from typing import Any

import flet as ft
import msgpack
import pytest
from flet.controls.id_counter import ControlId
from flet.controls.object_patch import DiffBuilder
from support.flet_fakes import _encode, by_id, find, fire, make_page, navigate, type_into

from scorepad.app.frame import flet_diff, live
from scorepad.app.frame.screens import sessions_screen
from scorepad.app.frame.shell import Shell
from scorepad.store import Store

PAGE_PARTS = {"Overlay", "ServiceRegistry", "Window"}


def _shown(page: ft.Page) -> dict[int, Any]:
    """Every control reachable from the page, by id."""
    return {c._i: c for c in find(page, lambda c: isinstance(c, ft.BaseControl))}


async def _counts(shell: Shell, session: Any, value: int) -> None:
    """An all-pass: every count but the rest tapped."""
    page = shell.page
    ids = [c.identifier for c in find(page, lambda c: isinstance(c, ft.Semantics))]
    if "kind-raspasy" in ids and not any(f"tricks-{k}-{value}" in ids for k in range(3)):
        await fire(session, by_id(page, "kind-raspasy"))
        ids = [c.identifier for c in find(page, lambda c: isinstance(c, ft.Semantics))]
    for k in range(3):
        if f"tricks-{k}-{value}" in ids:
            await fire(session, by_id(page, f"tricks-{k}-{value}"))


async def _evening(tmp_path: Path, checks: list[str]) -> list[bytes]:
    """The evening, played from the same first control id; every message sent, encoded."""
    ControlId._counter = itertools.count(10_000_000)
    lock = threading.RLock()
    with Store(tmp_path / "evening.db", check_same_thread=False) as store:
        sid = store.create_session(["Anna", "Boris", "Vera"], pool_target=10_000)
        wpage, wsession, wconn = make_page()
        writer = Shell(wpage, store, "en", lock)
        writer.show(sessions_screen)
        await fire(wsession, by_id(wpage, f"session-open-{sid}"))
        vpage, vsession, vconn = make_page()
        watcher = Shell(vpage, store, "en", lock)
        watcher.show(sessions_screen)
        await fire(vsession, by_id(vpage, f"session-open-{sid}"))
        await navigate(vsession, vpage, "nav-history")

        def watched() -> None:
            live.refresh(watcher)
            index = vsession.index
            shown = _shown(vpage)
            lost = [i for i, c in shown.items() if index.get(i) is not c]
            stale = [  # the page's own services are not drawn, hence not walked here
                i
                for i, c in list(index.items())
                if i not in shown and type(c).__name__ not in PAGE_PARTS
            ]
            checks.append(f"{len(shown)} shown, {len(lost)} not indexed, {len(stale)} stale")

        for n in range(1, 7):
            await _counts(writer, wsession, 3 if n % 2 else 4)
            await fire(wsession, by_id(wpage, "confirm-deal"))
            watched()
        for screen in ("nav-sheet", "nav-settle", "nav-chart", "nav-history"):
            await navigate(wsession, wpage, screen)
            await navigate(vsession, vpage, screen if screen != "nav-chart" else "nav-history")
        await fire(wsession, by_id(wpage, "void-2"))
        await type_into(wsession, by_id(wpage, "void-reason"), "misdealt")
        await fire(wsession, by_id(wpage, "confirm-void"))
        watched()
        await fire(wsession, by_id(wpage, "undo"))
        watched()
        await fire(wsession, by_id(wpage, "redo"))
        watched()
        await fire(wsession, by_id(wpage, "edit-3"))
        await type_into(wsession, by_id(wpage, "edit-reason"), "miscounted")
        await _counts(writer, wsession, 2)
        await fire(wsession, by_id(wpage, "confirm-deal"))
        watched()
        return [
            msgpack.packb([m.action, m.body], default=_encode)
            for m in [*wconn.messages, *vconn.messages]
        ]


@pytest.fixture
def flets_own() -> Any:
    flet_diff.uninstall()
    yield
    assert flet_diff.install()


async def test_flets_own_diff_and_ours_send_the_same_bytes(tmp_path: Path, flets_own: Any) -> None:
    assert DiffBuilder._configure_dataclass is flet_diff.ORIGINAL
    own_checks: list[str] = []
    own = await _evening(tmp_path / "own", own_checks)
    flet_diff.install()
    assert DiffBuilder._configure_dataclass is flet_diff.configure
    ours_checks: list[str] = []
    ours = await _evening(tmp_path / "ours", ours_checks)
    assert len(ours) == len(own) > 40
    for k, (a, b) in enumerate(zip(own, ours, strict=True)):
        assert a == b, f"message {k} differs"
    # Both leave every control shown reachable by a tap (Flet's own through Shell._reindex).
    assert ours_checks == own_checks
    assert all(", 0 not indexed, 0 stale" in c for c in ours_checks), ours_checks


def test_installed_only_on_the_flet_it_repeats(monkeypatch: pytest.MonkeyPatch) -> None:
    assert DiffBuilder._configure_dataclass is flet_diff.configure  # tests/support/flet_fakes.py
    monkeypatch.setattr(flet_diff.flet, "__version__", "1.0.6")
    flet_diff.uninstall()
    try:
        assert not flet_diff.install()
        assert DiffBuilder._configure_dataclass is flet_diff.ORIGINAL
        assert DiffBuilder._removed_controls is flet_diff.ORIGINAL_REMOVED
    finally:
        monkeypatch.undo()
        assert flet_diff.install()
