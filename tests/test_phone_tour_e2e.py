"""The whole app on the phone alone (issue #35, item 2), each part in the page's own Python
(Pyodide) with no server: history (undo, redo), the analysis of a deal (its rules check and the
double-dummy search, pure Python), the chart, the players, a game file imported, another
language, dark mode.

The build, the static server and the browser are those of ``test_phone_e2e.py``.
"""

from __future__ import annotations

import io
import json
import time
from pathlib import Path
from typing import Any

import pytest
from e2e.harness import (
    ROOT,
    Table,
    choose_language,
    has_text,
    new_session,
    settle,
    shot,
    tap,
    visible,
)
from e2e.harness import browser as browser
from test_phone_e2e import Static, open_phone
from test_phone_e2e import built as built
from test_phone_e2e import static as static

from scorepad.cli import main
from scorepad.core.i18n import LANGUAGE_LIST, N_, catalog, msg

pytestmark = pytest.mark.flaky(reruns=1, reruns_delay=2)

DEMO = ROOT / "scorepad" / "data" / "demo-session.json"
RECORD = ROOT / "tests" / "fixtures" / "deals" / "made-seven.json"


def count(page: Any, ident: str) -> int:
    return int(page.locator(f'[flt-semantics-identifier="{ident}"]').count())


def darkness(page: Any) -> float:
    """The mean brightness (0 black … 255 white) of the page as drawn."""
    from PIL import Image, ImageStat

    # The canvas trails the semantics tree: the page once two captures agree.
    image = Image.open(io.BytesIO(settle(page))).convert("L")
    return float(ImageStat.Stat(image).mean[0])


def darkness_until(page: Any, below: float) -> float:
    """The page's brightness once it is below ``below`` (a theme switched is drawn a frame or
    more after it is asked for), or as it stands after 10 seconds."""
    deadline = time.monotonic() + 10
    while (found := darkness(page)) >= below and time.monotonic() < deadline:
        continue
    return found


def test_history_analysis_chart_players_import_language_and_dark_mode_on_the_phone_alone(
    browser: Any, static: Static, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from playwright.sync_api import expect

    page = open_phone(browser, static.url)
    new_session(page, ["Olga", "Pavel", "Ivan"])
    tap(page, "create-session")
    expect(page.get_by_text("Deal 1: Olga deals, Pavel leads.")).to_be_visible(timeout=30000)
    table = Table(page, 3)
    table.game(1, "7S", ["whist", "pass"], {1: 7, 2: 3})
    table.game(2, "6H", ["whist", "whist"], {2: 5, 0: 3})

    # History: the last deal undone, then redone.
    tap(page, "nav-history")
    visible(page, "deal-2")
    tap(page, "undo")
    expect(page.locator('[flt-semantics-identifier="deal-2"]')).to_have_count(0, timeout=30000)
    tap(page, "redo")
    visible(page, "deal-2")

    # A deal record checked step by step and analysed (the search in pure Python).
    tap(page, "analyse-deal")
    visible(page, "analysis-record")
    record = page.locator('[flt-semantics-identifier="analysis-record"] textarea').first
    record.click()
    record.fill(RECORD.read_text(encoding="utf-8"))
    tap(page, "analysis-run")
    # The result's lines are selectable texts, whose words the semantics tree leaves out (an
    # empty read-only field each): as many lines as the laptop's analysis of the same record
    # says (a refusal or "paste a record first" is one line).
    from scorepad.app.analyses import record_lines

    said = record_lines(RECORD.read_text(encoding="utf-8"))
    assert said[0].text == "Verdict: every step is legal." and len(said) > 3
    expect(page.locator('[flt-semantics-identifier="analysis-result"] textarea')).to_have_count(
        len(said), timeout=120_000
    )
    shot(page, "phone-app-analysis")
    page.get_by_role("button", name="Close", exact=True).click()

    tap(page, "nav-chart")
    visible(page, "chart")

    # The players' statistics, then a game file imported by paste.
    tap(page, "nav-sessions")
    tap(page, "session-players")
    visible(page, "player-stats")
    tap(page, "back-to-sessions")
    tap(page, "session-import")
    visible(page, "import-text")
    field = page.locator('[flt-semantics-identifier="import-text"] textarea').first
    field.click()
    field.fill(DEMO.read_text(encoding="utf-8"))
    tap(page, "confirm-import")
    demo = json.loads(DEMO.read_text(encoding="utf-8"))
    visible(page, "nav-sheet")  # the imported game opened (the demo is a finished one)
    tap(page, "nav-sessions")
    expect(page.locator('[flt-semantics-identifier^="session-open-"]')).to_have_count(2)

    # One tap: every game of the phone in one file, which the laptop opens as its store.
    with page.expect_download(timeout=60000) as info:
        tap(page, "backup")
    backup = tmp_path / "backup.db"
    info.value.save_as(backup)
    capsys.readouterr()
    assert main(["--lang", "en", "--db", str(backup), "sessions"]) == 0
    listed = capsys.readouterr().out
    assert "Olga, Pavel, Ivan" in listed and ", ".join(demo["players"]) in listed
    assert len(listed.strip().splitlines()) == 2

    # Another language, chosen on the first screen; then the phone in dark mode.
    for language in LANGUAGE_LIST:  # each of the six, by its own name, in the page's Python
        choose_language(page, language.name)
        has_text(page, "session-new", catalog(language.code).render(msg(N_("New game"))))
    choose_language(page, "Русский")
    has_text(page, "session-new", "Новая пулька")
    light = darkness(page)
    page.emulate_media(color_scheme="dark")
    expect(page.locator('[flt-semantics-identifier="session-new"]')).to_be_visible()
    dark = darkness_until(page, light - 60)
    assert dark < light - 60, (light, dark)
    page.context.close()
