"""The sheet's cells: every entry with the deal that wrote it, the same on the drawing and in
the table (against the demo evening, whose sentences say what each deal wrote)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import flet as ft
import pytest
from support.flet_fakes import by_id, fire, make_page, texts

from scorepad.app.frame.shell import Shell
from scorepad.app.pulya.paper import Cell, CellEntry, cell_history
from scorepad.app.pulya.sheet import sheet_screen
from scorepad.scoring.pulya.score import replay
from scorepad.session import parse_session
from scorepad.store import Store

DEMO = Path(__file__).resolve().parent.parent / "scorepad" / "data" / "demo-session.json"


def test_every_entry_of_a_cell_with_its_deal() -> None:
    writings = [d.writing for d in replay(parse_session(DEMO.read_bytes())).deals]
    # Anna: 7♥ made in deal 3 (4), helped by Vera's closed pulya in deals 8, 10 and 11.
    assert cell_history(writings, Cell("pool", 0)) == [
        CellEntry(3, 4, 4),
        CellEntry(8, 1, 5),
        CellEntry(10, 4, 9),
        CellEntry(11, 1, 10),
    ]
    # Boris on Anna, whist by whist, to the sheet's 68.
    assert [e.total for e in cell_history(writings, Cell("whists", 1, 0))] == [8, 20, 60, 68]
    assert cell_history(writings, Cell("whists", 0, 2)) == []


@pytest.fixture
def shell(tmp_path: Path) -> Iterator[tuple[Shell, object]]:
    page, session, _conn = make_page(width=360, height=740)
    with Store(tmp_path / "app.db", check_same_thread=False) as store:
        shell = Shell(page, store, "ru", threading.RLock())
        shell.sid = store.import_session(DEMO.read_bytes())
        yield shell, session


async def test_a_tap_on_a_cell_opens_its_history(shell: tuple[Shell, object]) -> None:
    app, session = shell
    app.state.sheet_view = "table"
    app.show(sheet_screen)
    # the table marks the closed pools, as the drawing does
    assert sorted(texts(by_id(app.page, "pool-0"))) == ["10 ✓", "Пуля"]
    await fire(session, by_id(app.page, "pool-0"))
    dialog = app.page._dialogs.controls[-1]
    assert by_id(dialog, "cell-title").value == "Anna: пуля"
    lines = find_texts(by_id(dialog, "cell-history"))
    assert [t.value for t in lines] == [
        "Сдача 3: +4, всего 4",
        "Сдача 8: +1, всего 5",
        "Сдача 10: +4, всего 9",
        "Сдача 11: +1, всего 10",
    ]
    struck = [
        t.style is not None and t.style.decoration == ft.TextDecoration.LINE_THROUGH for t in lines
    ]
    assert struck == [True, True, True, False]  # as on paper: only the last total stands


def find_texts(root: ft.Control) -> list[ft.Text]:
    out: list[ft.Text] = []

    def walk(c: object) -> None:
        if isinstance(c, ft.Text):
            out.append(c)
        for attr in ("content", "controls"):
            v = getattr(c, attr, None)
            for x in v if isinstance(v, list) else [v] if v is not None else []:
                walk(x)

    walk(root)
    return out


@pytest.mark.parametrize("view", ["table", "drawing"])
async def test_an_empty_sheet_is_blank_as_paper_is(tmp_path: Path, view: str) -> None:
    page, _session, _conn = make_page(width=1280, height=800)
    with Store(tmp_path / "empty.db", check_same_thread=False) as store:
        app = Shell(page, store, "en", threading.RLock())
        app.sid = store.create_session(["Anna", "Boris", "Vera"])
        app.state.sheet_view = view  # type: ignore[assignment]
        app.show(sheet_screen)
        if view == "table":
            cells = [by_id(page, f"{k}-{p}").value for k in ("pool", "gora") for p in range(3)]
            cells += [by_id(page, f"whists-{p}-{q}").value for p in range(3) for q in range(3)]
            assert cells == [""] * 6 + ["—" if p == q else "" for p in range(3) for q in range(3)]
        else:
            import flet.canvas as cv
            from support.flet_fakes import find

            canvas = find(page, lambda c: isinstance(c, cv.Canvas))[0]
            written = [
                "".join(sp.text or "" for sp in shape.spans or [])
                for shape in canvas.shapes
                if isinstance(shape, cv.Text) and shape.spans
            ]
            # only the opponents' names over the whists columns: no "0" anywhere
            assert written and all(w.strip() in ("Anna", "Boris", "Vera") for w in written)
