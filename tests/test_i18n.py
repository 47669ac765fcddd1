"""Every sentence a player reads comes from the catalogs, in Russian and English."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from conftest import explain, one
from scorepad.i18n import catalog, nmsg, whist_count

ROOT = Path(__file__).resolve().parent.parent


def test_catalogs_are_up_to_date_and_russian_is_complete() -> None:
    done = subprocess.run(
        [sys.executable, "scripts/catalogs.py", "--check"], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_russian_keeps_every_placeholder() -> None:
    en, ru = catalog("en"), catalog("ru")

    def names(text: str | tuple[str, ...]) -> set[str]:
        forms = text if isinstance(text, tuple) else (text,)
        return {name for form in forms for name in re.findall(r"{(\w+)}", form)}

    for msgid, text in ru.messages.items():
        assert msgid in en.messages
        assert names(text) == names(en.messages[msgid]), msgid


def test_russian_plurals() -> None:
    ru = catalog("ru")
    assert [ru.render(whist_count(n)) for n in (1, 2, 5, 11, 21, 22, 25)] == [
        "1 вист",
        "2 виста",
        "5 вистов",
        "11 вистов",
        "21 вист",
        "22 виста",
        "25 вистов",
    ]
    m = nmsg(
        "{player} took {n} trick: {n} × {price} = {gora} into the gora.",
        "{player} took {n} tricks: {n} × {price} = {gora} into the gora.",
        3,
        player="Вера",
        price=1,
        gora=3,
    )
    assert ru.render(m) == "Вера: 3 взятки, 3 × 1 = 3 в гору."  # no verb to agree with the name


def test_a_deal_explained_in_both_languages() -> None:
    w = one(
        {
            "type": "game",
            "declarer": 0,
            "contract": "6NT",
            "calls": ["whist", "pass"],
            "tricks": {"0": 5, "1": 4, "2": 1},
        }
    )
    assert explain(w, "en") == [
        "Anna failed 6NT, down 1: 2 into the gora.",
        "Boris whisted alone: 5 defence tricks × 2 = 10 whists on Anna.",
        "Boris writes consolation: 1 undertrick × 2 = 2 whists on Anna.",
        "Vera writes consolation: 1 undertrick × 2 = 2 whists on Anna.",
    ]
    assert explain(w, "ru") == [
        "Anna: без одной на 6БК, 2 в гору.",
        "Boris → Anna: вист в одиночку, 5 взяток защиты × 2 = 10 вистов.",
        "Boris → Anna: консоляция, 1 недобранная × 2 = 2 виста.",
        "Vera → Anna: консоляция, 1 недобранная × 2 = 2 виста.",
    ]
