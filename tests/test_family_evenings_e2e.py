"""Issue 38's acceptance: three evenings tapped in on a phone (360×740) in the players' own
languages, each ending on a cash-out equal to ``scorepad settle --json`` of the exported game:

* a Serbian Balkan bula of four (the dealer sitting out), in Latin letters;
* a German Illustrated Préférence with a Bettel, a concession and a deal voided mid-evening (the
  next deal keeps its number);
* a Greek Prefa with an all-pass redeal and a voided deal.

Screenshots: ``screenshots/evening-<lang>-*.png``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from e2e import harness
from e2e.harness import (
    has_text,
    running_app,
    settle,
    shot,
    tap,
    type_text,
    visible,
)
from support.evenings import BALKAN_FOUR, BALKAN_FOUR_PLAYERS, BALKAN_START, PREFA
from support.pot_e2e_table import Deal, PotEntry, previews
from test_bula_e2e import Entry, Words, count, new_game, newest_session

from conftest import cli_out
from scorepad.core.i18n import N_
from scorepad.core.numbers import whist_figure
from scorepad.report.pulya import money_text
from scorepad.scoring.ledger.families import family_presets

pytestmark = pytest.mark.flaky(reruns=1, reruns_delay=2)
browser = harness.browser  # the shared headless chromium fixture


def cash_out_matches_cli(page: Any, db: Path, sid: int, tmp: Path, t: Words) -> dict[str, Any]:
    """The cash-out screen's results, money and payments equal ``settle --json`` of the
    exported game, each said as the language writes it (a result of 41/3 is "13⅔")."""
    tap(page, "nav-settle")
    visible(page, "cash-0-result")
    exported = tmp / f"session-{sid}.json"
    cli_out("--db", str(db), "export", str(sid), str(exported), "--force")
    currency = json.loads(exported.read_text(encoding="utf-8")).get("currency", "RUB")
    settled = json.loads(cli_out("settle", str(exported), "--json"))
    names = settled["players"]

    def money(amount: str) -> str:
        digits = len(amount.partition(".")[2])
        return money_text(int(amount.replace(".", "")), digits, currency, t.lang)

    for p in range(len(names)):
        has_text(page, f"cash-{p}-result", whist_figure(Fraction(settled["balance"][p])))
        has_text(page, f"cash-{p}-money", money(settled["money"][p]))
    for k, pay in enumerate(settled["payments"]):
        line = t(
            N_("{payer} → {payee}: {amount}"),
            payer=names[pay["from"]],
            payee=names[pay["to"]],
            amount=money(pay["amount"]),
        )
        has_text(page, f"payment-{k}", line)
    assert count(page, f"payment-{len(settled['payments'])}") == 0
    return settled


def void(page: Any, number: int, reason: str, t: Words) -> None:
    """Void deal ``number`` from the history, asked first, with its reason."""
    from playwright.sync_api import expect

    tap(page, "nav-history")
    visible(page, f"void-{number}")
    settle(page)
    tap(page, f"void-{number}")
    field = page.get_by_label(t(N_("Reason")))
    expect(field).to_be_visible(timeout=10000)
    type_text(page, field, reason)
    tap(page, "confirm-void")
    page.get_by_text(reason).first.wait_for(timeout=15000)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """One app for the three evenings: each begins its own new game and reads back the newest
    session (the one it made), so the others' in the same database change nothing it sees."""
    with running_app(tmp_path_factory.mktemp("evenings") / "scorepad.db") as found:
        yield found


@pytest.fixture(scope="module")
def phone(browser: Any, server: tuple[str, Path]) -> Iterator[harness.KeptPage]:
    """The phone (360×740) each evening is tapped in on, from the list of sessions in the
    evening's language: one page load for the file (harness.KeptPage)."""
    kept = harness.KeptPage(browser, server[0])
    yield kept
    kept.discard()


def test_a_serbian_bula_of_four(
    phone: harness.KeptPage, server: tuple[str, Path], tmp_path: Path
) -> None:
    t = Words("sr_Latn")
    _url, db = server
    page = phone.sessions("sr_Latn")
    balkan = family_presets()["balkan"].name_in("sr_Latn")
    new_game(page, BALKAN_FOUR_PLAYERS, balkan, {N_("Starting bula"): str(BALKAN_START)}, t)
    table = Entry(page, BALKAN_FOUR_PLAYERS, t)
    for k, deal in enumerate(BALKAN_FOUR, start=1):
        table.bula(deal, shot_as="evening-sr-entry" if k == 3 else None)
    tap(page, "nav-sheet")
    visible(page, "sheet-player-3")
    shot(page, "evening-sr-sheet")
    settled = cash_out_matches_cli(page, db, newest_session(db), tmp_path, t)
    assert settled["players"] == BALKAN_FOUR_PLAYERS
    assert settled["balance"] == ["190", "108", "234", "-532"]  # as the English evening
    shot(page, "evening-sr-cash-out")


#: The German evening (Illustrated, Anton deals first): a game, Brigitte's Bettel, Anton gives
#: up against Brigitte alone, a failed game, then deal 2 is voided and a fifth deal follows.
NAMES = ["Anton", "Brigitte", "Maximiliane"]
GERMAN: list[dict[str, Any]] = [
    {
        "type": "game",
        "declarer": 0,
        "suit": "D",
        "defence": {"1": "play", "2": "play"},
        "tricks": {"0": 7, "1": 2, "2": 1},
    },
    {"type": "nonsuit", "declarer": 1, "contract": "bettel", "tricks": 0},
    {"type": "concede", "declarer": 0, "defence": {"1": "play", "2": "drop"}},
    {
        "type": "game",
        "declarer": 1,
        "suit": "S",
        "defence": {"2": "play", "0": "play"},
        "tricks": {"1": 4, "2": 4, "0": 2},
    },
    {
        "type": "game",
        "declarer": 2,
        "suit": "H",
        "defence": {"0": "play", "1": "play"},
        "tricks": {"2": 6, "0": 3, "1": 1},
    },
]
GERMAN_TAPS = [
    Deal(0, "D", tricks={0: 7, 1: 2}),
    None,  # the Bettel: tapped below
    Deal(0, kind="concede", roles={2: "drop"}),
    Deal(1, "S", tricks={1: 4, 2: 4}),
    Deal(2, "H", tricks={2: 6, 0: 3}),
]


def test_a_german_pot_evening_with_a_bettel_a_concession_and_a_void(
    phone: harness.KeptPage, server: tuple[str, Path], tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    t = Words("de")
    _url, db = server
    page = phone.sessions("de")
    tap(page, "session-new")
    visible(page, "player-0")
    for i, name in enumerate(NAMES):
        type_text(page, page.get_by_label(t(N_("Player {n}"), n=i + 1)), name)
    tap(page, "convention")
    illustrated = family_presets()["illustrated"].name_in("de")
    page.get_by_role("button", name=illustrated, exact=True).click()
    create = page.locator('[flt-semantics-identifier="create-session"]').first
    expect(create).to_be_enabled(timeout=10000)
    tap(page, "create-session")
    has_text(page, "deal-header", t(N_("Deal {n}: {dealer} deals."), n=1, dealer="Anton"))
    table = PotEntry(page, lang="de")
    said = previews("illustrated", NAMES, GERMAN[:4], lang="de")
    for k, taps in enumerate(GERMAN_TAPS[:4]):
        if taps is not None:
            table.enter(taps, said[k])
            continue
        for before, ident in [
            (None, "kind-nonsuit"),
            ("kind-nonsuit", "declarer-1"),
            ("declarer-1", "contract-bettel"),
        ]:
            table.tap_after(before, ident)
        table.set_tricks(1, 0)
        settle(page)
        for j, line in enumerate(said[k]):
            has_text(page, f"preview-{j}", line)
        shot(page, "evening-de-bettel")
        table.confirm()
    void(page, 2, "falsch gegeben", t)
    shot(page, "evening-de-history-void")
    tap(page, "nav-entry")
    # The voided Runde 2 keeps its number: the next is Runde 5, as said at the table.
    has_text(page, "deal-header", t(N_("Deal {n}: {dealer} deals."), n=5, dealer="Brigitte"))
    live = [GERMAN[0], *GERMAN[2:]]
    table.number = 5
    table.enter(GERMAN_TAPS[4], previews("illustrated", NAMES, live, lang="de")[-1])
    sid = newest_session(db)
    exported = tmp_path / "evening-de.json"
    cli_out("--db", str(db), "export", str(sid), str(exported), "--force")
    last = json.loads(exported.read_text(encoding="utf-8"))["deals"][-1]
    assert "uid" in last  # the stable id the store gave it; the rest as tapped
    assert {k: v for k, v in last.items() if k != "uid"} == GERMAN[4]
    tap(page, "nav-sheet")
    visible(page, "pot-summary")
    shot(page, "evening-de-sheet")
    settled = cash_out_matches_cli(page, db, sid, tmp_path, t)
    assert settled["players"] == NAMES
    shot(page, "evening-de-cash-out")


GREEK = ["Νίκος", "Ελένη", "Γιώργος"]


def test_a_greek_prefa_evening_with_a_redeal_and_a_void(
    phone: harness.KeptPage, server: tuple[str, Path], tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    t = Words("el")
    _url, db = server
    page = phone.sessions("el")
    prefa = family_presets()["prefa"].name_in("el")
    new_game(page, GREEK, prefa, {}, t)
    table = Entry(page, GREEK, t)
    table.prefa(PREFA[0])
    tap(page, "kind-redeal")  # all pass: the cards are redealt, the next player deals
    expect(page.get_by_text(t(N_("All pass: the cards are redealt")))).to_be_visible(timeout=10000)
    shot(page, "evening-el-redeal")
    table.confirm()
    for deal in PREFA[1:]:
        table.prefa(deal)
    void(page, 2, "λάθος μοίρασμα", t)
    shot(page, "evening-el-history-void")
    tap(page, "nav-entry")
    has_text(page, "deal-header", t(N_("Deal {n}"), n=table.number))  # 6: no number reused
    tap(page, "nav-sheet")
    visible(page, "sheet-player-0")
    shot(page, "evening-el-sheet")
    settled = cash_out_matches_cli(page, db, newest_session(db), tmp_path, t)
    assert settled["players"] == GREEK
    shot(page, "evening-el-cash-out")
