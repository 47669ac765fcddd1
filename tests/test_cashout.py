"""The cash-out: the screen and `scorepad settle` say the same whole sentences, in both
languages; counts of whists agree with their number ("1 whist", "5 вистов", never "1 whists"
or "5 виста"); money in the language's format; a remainder only where there is one."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from support.flet_fakes import by_id, make_page

from conftest import run_cli
from scorepad.app.frame.shell import Shell
from scorepad.app.screens.cashout import cash_out_png, settle_screen
from scorepad.core.numbers import whist_figure
from scorepad.report.pulya import cash_out, money_text
from scorepad.scoring.pulya.score import replay
from scorepad.session import parse_session
from scorepad.store import Store


def pulka(*deals: dict[str, Any], price: str = "0.50") -> str:
    return json.dumps(
        {
            "format": "scorepad-session/1",
            "players": ["Anna", "Boris", "Vera"],
            "convention": "sochi",
            "pool_target": 10,
            "whist_price": price,
            "currency": "RUB",
            "deals": list(deals),
        }
    )


def writes(seat: int, on: int, whists: int) -> dict[str, Any]:
    return {"type": "correction", "seat": seat, "whists": {str(on): whists}, "note": "x"}


# Anna writes 1 on Boris, Vera 5: balances +1, −6, +5 (at 0.50 a whist).
ONE_AND_FIVE = pulka(writes(0, 1, 1), writes(2, 1, 5))
# Anna writes 2, Vera 21 on Boris: +2, −23, +21.
TWO_AND_21 = pulka(writes(0, 1, 2), writes(2, 1, 21))
# Anna's gora 1 (10 whists a point, shared by 3: 10/3 on her from each), Boris 2 on Vera:
# Anna −20/3, Boris 10/3 + 2 = 16/3, Vera 10/3 − 2 = 4/3.
THIRDS = pulka({"type": "correction", "seat": 0, "gora": 1, "note": "x"}, writes(1, 2, 2))

EXPECTED = {
    (ONE_AND_FIVE, "en"): (
        ["Anna: 1 whist, RUB 0.50", "Boris: −6 whists, −RUB 3.00", "Vera: 5 whists, RUB 2.50"],
        ["Boris → Anna: RUB 0.50", "Boris → Vera: RUB 2.50"],
    ),
    (ONE_AND_FIVE, "ru"): (
        ["Anna: 1 вист, 0,50 ₽", "Boris: −6 вистов, −3,00 ₽", "Vera: 5 вистов, 2,50 ₽"],
        ["Boris → Anna: 0,50 ₽", "Boris → Vera: 2,50 ₽"],
    ),
    (TWO_AND_21, "ru"): (
        ["Anna: 2 виста, 1,00 ₽", "Boris: −23 виста, −11,50 ₽", "Vera: 21 вист, 10,50 ₽"],
        ["Boris → Anna: 1,00 ₽", "Boris → Vera: 10,50 ₽"],
    ),
    (THIRDS, "en"): (
        ["Anna: −6⅔ whists, −RUB 3.33", "Boris: 5⅓ whists, RUB 2.67", "Vera: 1⅓ whists, RUB 0.66"],
        ["Anna → Boris: RUB 2.67", "Anna → Vera: RUB 0.66"],
    ),
    (THIRDS, "ru"): (
        ["Anna: −6⅔ виста, −3,33 ₽", "Boris: 5⅓ виста, 2,67 ₽", "Vera: 1⅓ виста, 0,66 ₽"],
        ["Anna → Boris: 2,67 ₽", "Anna → Vera: 0,66 ₽"],
    ),
}


def nbsp(lines: list[str]) -> list[str]:
    """Babel puts a no-break space between the figure and the currency."""
    return [line.replace("RUB ", "RUB\u00a0").replace(" ₽", "\u00a0₽") for line in lines]


@pytest.mark.parametrize(("text", "lang"), list(EXPECTED))
def test_report_says_whole_sentences(text: str, lang: str) -> None:
    balances, payments = EXPECTED[(text, lang)]
    cash = cash_out(replay(parse_session(text)), lang)
    assert list(cash.balances) == nbsp(balances)
    assert list(cash.payments) == nbsp(payments)


@pytest.mark.parametrize(("text", "lang"), list(EXPECTED))
def test_cli_settle_ends_with_the_same_sentences(text: str, lang: str) -> None:
    balances, payments = EXPECTED[(text, lang)]
    done = run_cli("--lang", lang, "settle", "-", stdin=text)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    note = cash_out(replay(parse_session(text)), lang).note
    if note is not None:  # the rounding note closes the sheet, after a blank line
        assert lines[-2:] == ["", note]
        lines = lines[:-2]
    tail = lines[-(len(balances) + len(payments) + 2) :]
    assert tail == [
        *nbsp(balances),
        "",
        "Payments:" if lang == "en" else "Платежи:",
        *("  " + p for p in nbsp(payments)),
    ]


@pytest.fixture
def shell(tmp_path: Path) -> Iterator[Shell]:
    page, _session, _conn = make_page(width=360, height=740)
    with Store(tmp_path / "app.db", check_same_thread=False) as store:
        yield Shell(page, store, "en", threading.RLock())


@pytest.mark.parametrize(("text", "lang"), list(EXPECTED))
def test_the_screen_says_what_settle_says(shell: Shell, text: str, lang: str) -> None:
    balances, payments = EXPECTED[(text, lang)]
    shell.sid = shell.session.store.import_session(text)
    shell.lang = lang
    shell.show(settle_screen)
    assert [by_id(shell.page, f"balance-{p}").value for p in range(3)] == nbsp(balances)
    assert [by_id(shell.page, f"payment-{k}").value for k in range(len(payments))] == nbsp(payments)


def test_the_table_has_every_figure(shell: Shell) -> None:
    shell.sid = shell.session.store.import_session(THIRDS)
    shell.show(settle_screen)
    figures = {
        field: [by_id(shell.page, f"cash-{p}-{field}").value for p in range(3)]
        for field in ("pool", "gora", "written", "received", "balance", "money")
    }
    assert figures == {
        "pool": ["0", "0", "0"],
        "gora": ["1", "0", "0"],
        "written": ["0", "2", "0"],
        "received": ["0", "0", "2"],
        "balance": ["−6⅔", "5⅓", "1⅓"],
        "money": ["−RUB\u00a03.33", "RUB\u00a02.67", "RUB\u00a00.66"],
    }


def test_the_image_to_send_is_a_png(shell: Shell) -> None:
    cash = cash_out(replay(parse_session(THIRDS)), "ru")
    png = cash_out_png(cash, "Расчёт", "ru")
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert width > 400 and height > 300


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Fraction(-530, 3), "−176⅔"),
        (Fraction(530, 3), "176⅔"),
        (Fraction(1, 2), "½"),
        (Fraction(-1, 3), "−⅓"),
        (Fraction(12, 7), "1 5/7"),
        (-40, "−40"),
        (0, "0"),
    ],
)
def test_whole_whists_and_a_remainder_only_where_there_is_one(value: Any, text: str) -> None:
    assert whist_figure(value) == text


def test_money_in_the_language_format() -> None:
    assert money_text(8733, 2, "RUB", "ru") == "87,33\u00a0₽"
    assert money_text(-8733, 2, "RUB", "en") == "−RUB\u00a087.33"
    assert money_text(123456, 2, "USD", "en") == "$1,234.56"
    assert money_text(500, 0, "JPY", "ru") == "500\u00a0¥"


def test_a_kopeck_moved_so_that_the_total_is_zero_is_said_in_one_line() -> None:
    # −3.333…, 2.666… and 0.666… ₽: rounded each by hand, −3.33 + 2.67 + 0.67 = 0.01; the
    # largest remainders (all ⅔, the first seats first) give Vera 0.66 so that the sum is zero.
    thirds = replay(parse_session(THIRDS))
    assert cash_out(thirds, "en").note == (
        "Rounded so that the total is zero: Vera RUB\u00a00.66, not RUB\u00a00.67."
    )
    assert cash_out(thirds, "ru").note == (
        "Округлено так, чтобы сумма была нулём: Vera 0,66\u00a0₽, а не 0,67\u00a0₽."
    )
    assert cash_out(replay(parse_session(ONE_AND_FIVE)), "en").note is None  # nothing moved


def test_the_note_on_the_screen_and_money_that_never_breaks_on_a_phone(tmp_path: Path) -> None:
    page, _session, _conn = make_page(360, 740)
    with Store(tmp_path / "c.db", check_same_thread=False) as store:
        sid = store.import_session(THIRDS.encode())
        shell = Shell(page, store, "en", threading.RLock())
        shell.sid = sid
        shell.show(settle_screen)
        assert by_id(page, "rounding-note").value.startswith("Rounded so that the total is zero")
        money = by_id(page, "cash-0-money")
        assert money.value == "−RUB\u00a03.33" and money.no_wrap  # one line, whatever the width
        column = next(
            c
            for c in _columns(page)
            if any(getattr(x, "content", None) is money for x in c.controls)
        )
        assert column.width >= 9.5 * len(money.value)
    assert "Rounded so that the total is zero: Vera RUB\u00a00.66, not RUB\u00a00.67." in (
        run_cli("--lang", "en", "settle", "-", stdin=THIRDS).stdout
    )


def _columns(page: Any) -> list[Any]:
    import flet as ft
    from support.flet_fakes import find

    return find(page, lambda c: isinstance(c, ft.Column) and c.width is not None)
