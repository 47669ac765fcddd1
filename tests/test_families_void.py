"""Issue 38 items 1 and 2: a void in the middle of an evening, in every family.

A voided deal keeps its number (the next deal is numbered as said at the table, in the entry, the
sheet and the history) and keeps its dealer: the deals written after it were dealt by the
dealers they were dealt by, so with four players nobody's sitter changes and a deal naming its
dealer (the pot's all-pass) is not refused.  A refusal is left only where the rules forbid the
result, and it names the deal by its number and the field in the player's words.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support.flet_fakes import by_id, make_page, texts

from conftest import typed
from scorepad.app.frame import screens  # noqa: F401  (the navigation's screens)
from scorepad.app.frame.shell import Shell
from scorepad.app.screens.history import history_screen
from scorepad.report.ledger import to_text_sheet
from scorepad.scoring.ledger.families import settle_family
from scorepad.store import InvalidEntry, Store
from scorepad.store.journal import live_numbers

FOUR = ["Ana", "Boris", "Vera", "Dima"]


def _bula(place: int, dealer: int) -> dict[str, Any]:
    d = (dealer + 1) % 4  # the first seat after the dealer declares; the dealer sits out
    a, b = sorted(p for p in range(4) if p not in (dealer, d))
    return {"type": "game", "declarer": d, "bid": 3, "defence": {str(a): "pass", str(b): "pass"}}


def _kassa(place: int, dealer: int) -> dict[str, Any]:
    d = (dealer + 1) % 4
    a, b = sorted(p for p in range(4) if p not in (dealer, d))
    return {
        "type": "game",
        "declarer": d,
        "contract": "6S",
        "defence": {str(a): "pass", str(b): "pass"},
    }


def _pot(place: int, dealer: int) -> dict[str, Any]:
    if place % 2:  # every other deal an all-pass naming its dealer (checked by the rotation)
        return {"type": "allpass", "dealer": dealer}
    d = (dealer + 1) % 4
    a, b = sorted(p for p in range(4) if p not in (dealer, d))
    return {
        "type": "game",
        "declarer": d,
        "suit": "D",
        "defence": {str(a): "play", str(b): "play"},
        "tricks": {str(d): 7, str(a): 2, str(b): 1},
    }


CASES: dict[str, tuple[str, Callable[[int, int], dict[str, Any]]]] = {
    "balkan": ("bula", _bula),
    "prefa": ("kassa", _kassa),
    "austrian": ("pot", _pot),
}


def _evening(store: Store, convention: str, deals: int = 6) -> tuple[int, list[int]]:
    """``deals`` deals of four players, each by the dealer of its number (first dealer Dima)."""
    sid = store.create_session(FOUR, convention=convention, first_dealer=3)
    make = CASES[convention][1]
    rev = 0
    for place in range(deals):
        deal = typed(store, sid, make(place, (3 + place) % 4))
        rev = store.add_deal(sid, deal, seen=rev).revision
    return sid, [e.deal_id for e in store.load(sid).journal.live]


@pytest.mark.parametrize("convention", sorted(CASES))
def test_a_deal_in_the_middle_of_a_four_player_evening_is_voided_edited_and_restored(
    tmp_path: Path, convention: str
) -> None:
    with Store(tmp_path / "v.db") as store:
        sid, ids = _evening(store, convention)
        rev = store.load(sid).revision
        # Deal 3 voided: the deals after it keep their dealers (and the sitters), so nothing is
        # refused (before: "deal 3: declarer: Ana deals and sits out this deal").
        s = store.void_deal(sid, ids[2], reason="misdeal", seen=rev)
        assert s.scored.numbers == [1, 2, 4, 5, 6]
        assert s.scored.next_number == 7 == len(s.journal.entries) + 1
        assert s.scored.table.dealer == (3 + 6) % 4  # deal 7's dealer, as before the void
        # The store's sheet is its exported file's, voided deal and all.
        exported = settle_family(store.export_session(sid))
        assert exported.results() == s.scored.results()
        assert exported.numbers == [1, 2, 4, 5, 6]
        # Deal 2 edited after the void: its own dealer (Ana) and sitter.
        make = CASES[convention][1]
        s = store.edit_deal(
            sid, ids[1], typed(store, sid, make(1, 0)), reason="retyped", seen=s.revision
        )
        # The next deal is written with deal 7's dealer sitting out.
        s = store.add_deal(sid, typed(store, sid, make(6, (3 + 6) % 4)), seen=s.revision)
        assert s.scored.numbers == [1, 2, 4, 5, 6, 7]
        # Deal 3 restored in its place, by its own dealer.
        s = store.restore_deal(sid, ids[2], seen=s.revision)
        assert s.scored.numbers == [1, 2, 3, 4, 5, 6, 7]
        assert s.scored.next_number == 8


def test_a_stored_sheet_and_the_cli_number_the_deals_after_a_void_as_said(tmp_path: Path) -> None:
    with Store(tmp_path / "s.db") as store:
        sid, ids = _evening(store, "balkan", deals=4)
        s = store.void_deal(sid, ids[1], reason="misdeal", seen=4)
        text = to_text_sheet(s.scored, "en", numbers=s.scored.numbers)
        assert [line for line in text.splitlines() if line.startswith("Deal ")] == [
            "Deal 1",
            "Deal 3",
            "Deal 4",
        ]
        assert s.scored.numbers == live_numbers(s.journal)
        # The sheet's column of Vera (she declared deal 3): its line says deal 3.
        from scorepad.app.families.columns import running
        from scorepad.scoring.ledger.ledger import Account

        assert [(e.deal, e.change) for e in running(s.scored, Account("bula", 2))] == [(3, -6)]


def test_a_refusal_after_a_void_names_the_deal_by_its_number(tmp_path: Path) -> None:
    """Where the rules do forbid it (no deal after the bulas sum to zero, D10), the refusal
    names the deal as said at the table, counting the voided one."""
    with Store(tmp_path / "r.db") as store:
        sid = store.create_session(
            ["Ana", "Boris", "Vera"], convention="balkan", overrides={"start_bula": 4}
        )
        karo = {"type": "game", "bid": 3, "defence": {}}
        deals = [
            {**karo, "declarer": 0, "defence": {"1": "pass", "2": "pass"}},
            {"type": "allpass"},
            {"type": "allpass"},
            {**karo, "declarer": 1, "defence": {"0": "pass", "2": "pass"}},
        ]
        rev = 0
        for d in deals:
            rev = store.add_deal(sid, typed(store, sid, d), seen=rev).revision
        ids = [e.deal_id for e in store.load(sid).journal.live]
        rev = store.void_deal(sid, ids[1], reason="misdeal", seen=rev).revision
        closing = {**karo, "declarer": 2, "defence": {"0": "pass", "1": "pass"}}
        with pytest.raises(InvalidEntry) as err:  # deal 3 closes the game: deal 4 cannot follow
            store.edit_deal(sid, ids[2], typed(store, sid, closing), reason="x", seen=rev)
        assert err.value.problems[0].deal == 3  # deal 4, not "deal 3"
        assert "deal 4: the bulas sum to zero" in err.value.render("en")
        assert "deljenje 4: zbir bula je nula" in err.value.render("sr_Latn").lower()
        assert len(store.load(sid).journal.live) == 3  # nothing written


@pytest.mark.parametrize("convention", sorted(CASES))
async def test_the_entry_sheet_and_history_number_the_next_deal_after_a_void(
    tmp_path: Path, convention: str
) -> None:
    from scorepad.app.frame.family import ui_of

    page, _session, _conn = make_page()
    with Store(tmp_path / "app.db", check_same_thread=False) as store:
        sid, ids = _evening(store, convention, deals=5)
        store.void_deal(sid, ids[2], reason="misdeal", seen=5)
        shell = Shell(page, store, "en", threading.RLock())
        shell.sid = sid
        shell.new_form()
        family = CASES[convention][0]
        shell.show(ui_of(family).entry)
        shown = " ".join(texts(shell.page))
        assert "Deal 6" in shown and "Deal 5" not in shown  # (before: "Deal 5", said already)
        # Editing deal 4 says deal 4 (its number), not the 3rd live deal's index + 1.
        shell.edit_form(ids[3], 2)
        shell.show(ui_of(family).entry)
        assert "Editing deal 4: the later deals are checked again." in texts(shell.page)
        shell.new_form()
        shell.show(ui_of(family).sheet)
        sheet = " ".join(texts(shell.page))
        shell.show(history_screen)
        assert by_id(shell.page, "deal-5")  # the history's card of deal 5
        assert "Deal 3" in " ".join(texts(shell.page))  # the voided one, struck, keeps its number
        if family == "pot":
            assert by_id(shell.page, "deal-5")
            shell.show(ui_of(family).sheet)
            assert by_id(shell.page, "sheet-deal-5")
            assert "5. " in sheet


def test_a_refused_write_names_the_deal_and_the_field_in_the_players_words(tmp_path: Path) -> None:
    """Issue 38 item 2: "deljenje 10: declarer: Ljubica deli …" named the field by its name in
    the file; the app says it in the player's words, the deal by its number as said."""
    page, _session, _conn = make_page()
    with Store(tmp_path / "w.db", check_same_thread=False) as store:
        sid, ids = _evening(store, "balkan", deals=3)
        rev = store.void_deal(sid, ids[1], reason="misdeal", seen=3).revision
        # Deal 4 is dealt by Vera (seat 2), who sits out: she cannot declare it.
        bad = typed(store, sid, {**_bula(3, 1), "declarer": 2})
        shell = Shell(page, store, "sr_Latn", threading.RLock())
        shell.sid = sid
        assert not shell.attempt(lambda: store.add_deal(sid, bad, seen=rev), seen=rev)
        assert shell.message == (
            "upis je odbijen:\ndeljenje 4, igrač koji igra: Vera deli i ne igra u ovom deljenju"
        )
        shell.lang = "de"
        shell.attempt(lambda: store.add_deal(sid, bad, seen=rev), seen=rev)
        assert "Runde 4, Alleinspieler: " in (shell.message or "")
        for lang in ("ru", "de", "sr_Latn", "sr_Cyrl", "el"):
            shell.lang = lang
            shell.attempt(lambda: store.add_deal(sid, bad, seen=rev), seen=rev)
            assert "declarer" not in (shell.message or "")  # the file's field name
        shell.lang = "en"
        shell.attempt(lambda: store.add_deal(sid, bad, seen=rev), seen=rev)
        assert "deal 4, the declarer: Vera deals" in (shell.message or "")
        assert len(store.load(sid).journal.live) == 2  # nothing written


async def test_the_greek_void_dialog_says_void_the_deal_and_back(tmp_path: Path) -> None:
    """Issue 38 item 11: "Ακύρωση" (void) beside "Άκυρο" (cancel) read alike."""
    from support.flet_fakes import fire

    page, session, _conn = make_page()
    with Store(tmp_path / "el.db", check_same_thread=False) as store:
        sid, _ids = _evening(store, "prefa", deals=2)
        shell = Shell(page, store, "el", threading.RLock())
        shell.sid = sid
        shell.show(history_screen)
        await fire(session, by_id(shell.page, "void-2"))
        dialog = shell.page._dialogs.controls[-1]
        assert by_id(dialog, "confirm-void").content == "Ακύρωση μοιρασιάς"
        assert by_id(dialog, "confirm-void-back").content == "Πίσω"
        await fire(session, by_id(dialog, "confirm-void-back"))
        assert len(store.load(sid).journal.live) == 2  # nothing voided
