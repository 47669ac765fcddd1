"""The Prefa deal form (contracts 6♠ … 10♥, the defence's calls, tricks of the players in play,
preview, load, carry) and the kassa screens on a real Store (G-E15 entered by taps)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.family_app import in_order
from support.flet_fakes import by_id, fire, make_page

from scorepad.app.frame import screens  # noqa: F401  (the navigation's screens)
from scorepad.app.frame.family import ui_of
from scorepad.app.frame.shell import Shell
from scorepad.app.kassa.entry import kassa_entry
from scorepad.app.kassa.form import KassaForm, carry, edit_form, new_form, title
from scorepad.app.kassa.sheet import kassa_sheet
from scorepad.core.i18n import catalog
from scorepad.scoring.contract import Contract
from scorepad.scoring.ledger.families import parse_family_session, replay_family
from scorepad.store import Store

# G-E15: C is on A's right, so the turn order is A, C, B.
NAMES = ["A", "C", "B"]
A, C, B = 0, 1, 2


class Held:
    def __init__(self, deals: list[dict[str, Any]], **overrides: Any) -> None:
        self.session = parse_family_session(
            {
                "format": "scorepad-session/1",
                "players": overrides.pop("players", NAMES),
                "convention": "prefa",
                "overrides": overrides,
                "deals": deals,
            }
        )
        self.scored = replay_family(self.session)


def form(deals: list[dict[str, Any]] | None = None, **overrides: Any) -> KassaForm:
    return new_form(Held(deals or [], **overrides))


def test_the_ladder_has_no_ten_no_trump() -> None:
    f = form()
    assert f.declarers() == [0, 1, 2]
    f.choose_declarer(C)
    assert f.levels() == [6, 7, 8, 9, 10]
    assert [c.code for c in f.contracts(6)] == ["6S", "6C", "6D", "6H", "6NT"]
    assert [c.code for c in f.contracts(10)] == ["10S", "10C", "10D", "10H"]
    assert f.defenders() == [B, A]  # his right (next in turn), then his left


def test_g_e15_first_deal_in_the_form() -> None:
    f = form()
    f.choose_declarer(C)
    f.choose_contract(Contract.parse("6S"))
    assert f.preview() == ([], "B: whist or pass?")
    f.say(B, "whist")
    f.say(A, "whist")
    assert f.trick_seats() == [C, B, A]
    assert f.tricks == {}  # no count nobody chose (issue #21)
    assert f.preview() == ([], "C: how many tricks?")
    f.set_tricks(C, 6)
    assert f.tricks == {C: 6} and f.preview() == ([], "B: how many tricks?")
    f.set_tricks(B, 2)
    assert f.tricks == {C: 6, B: 2, A: 2}
    assert f.to_deal() == {
        "type": "game",
        "declarer": C,
        "contract": "6S",
        "defence": {"2": "whist", "0": "whist"},
        "tricks": {"1": 6, "2": 2, "0": 2},
    }
    assert f.preview() == (
        ["C: 6♠", "C: 6♠ made, kassa −2", "C pays B 4 chips", "C pays A 4 chips"],
        None,
    )


def test_both_pass_write_no_tricks_and_an_invitation_brings_the_passer_in() -> None:
    f = form()
    f.choose_declarer(A)
    f.choose_contract(Contract.parse("7S"))
    f.say(C, "pass")
    f.say(B, "pass")
    assert f.trick_seats() == []
    assert f.preview() == (["A: 7♠, both pass", "A: 7♠ made, both passed, kassa −7"], None)
    # example 8: 7♠, B passes and is invited; 7-2-1 (C is A's right)
    f.say(C, "invite")
    assert f.defence() == {C: "invite", B: "invited"}
    assert f.trick_seats() == [A, C, B]
    f.set_tricks(A, 7)
    f.set_tricks(C, 2)
    assert f.tricks == {A: 7, C: 2, B: 1}
    assert f.preview() == (["A: 7♠, invited", "A: 7♠ made, kassa −7", "A pays C 21 chips"], None)


def test_a_written_deal_loads_and_carries() -> None:
    deals = [
        {
            "type": "game",
            "declarer": C,
            "contract": "6S",
            "defence": {"2": "whist", "0": "whist"},
            "tricks": {"1": 6, "2": 2, "0": 2},
        },
        {
            "type": "game",
            "declarer": A,
            "contract": "8NT",
            "defence": {"1": "pass", "2": "pass"},
        },
    ]
    held = Held(deals)

    live = [SimpleNamespace(deal=d) for d in held.session.deals]
    held.journal = SimpleNamespace(live=live)  # type: ignore[attr-defined]
    for i, deal in enumerate(deals):
        f = edit_form(held, i)
        assert f.to_deal() == deal
        moved = carry(f, Held(deals[:1]))
        assert moved.to_deal() == deal


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_deal_the_form_can_write_is_accepted(data: st.DataObject) -> None:
    # With G-Q1's variants drawn too: the counter-invitation and who held four aces.
    variants = data.draw(
        st.fixed_dictionaries(
            {},
            optional={
                "four_aces": st.sampled_from(["off", "kassa", "chips"]),
                "counter_invitation": st.booleans(),
                "ten_nt": st.sampled_from(["off", "A", "B"]),
            },
        )
    )
    deals: list[dict[str, Any]] = []
    for _ in range(5):
        f = form(deals, kassa=10, **variants)
        if f.finished:
            break
        f.choose_declarer(data.draw(st.sampled_from(f.declarers())))
        f.choose_contract(data.draw(st.sampled_from(f.contracts())))
        for s in f.defenders():
            if s not in f.calls:
                f.say(s, data.draw(st.sampled_from(f.call_options(s))))
        for s in f.defenders():
            if "counter" in f.call_options(s) and data.draw(st.booleans()):
                f.say(s, "counter")
        if f.four_aces_options():
            f.choose_four_aces(data.draw(st.sampled_from([None, *f.four_aces_options()])))
        for s in f.trick_seats()[:-1]:
            f.set_tricks(s, data.draw(st.sampled_from(f.trick_choices(s))))
        sentences, problem = f.preview()
        assert problem is None, problem
        deals.append(f.to_deal())
        replay_family(Held(deals, kassa=10, **variants).session)
        assert sentences[0] == title(deals[-1], NAMES).render("en")


def test_titles() -> None:
    deal = {"type": "game", "declarer": 1, "contract": "8NT", "defence": {}}
    assert title(deal, NAMES).render("en") == "C: 8NT"
    assert catalog("ru").render(title(deal, NAMES)) == "C: 8БК"
    assert ui_of("kassa").title is title


@pytest.fixture
def app(tmp_path: Path) -> Iterator[tuple[Shell, Any, Store]]:
    page, session, _conn = make_page()
    with Store(tmp_path / "app.db", check_same_thread=False) as store:
        shell = Shell(page, store, "en", threading.RLock())
        shell.sid = store.create_session(NAMES, convention="prefa")
        shell.new_form()
        shell.show(kassa_entry)
        yield shell, session, store


async def tap(shell: Shell, session: Any, *idents: str) -> None:
    for ident in idents:
        await fire(session, by_id(shell.page, ident))


async def test_the_contract_grid_keeps_the_red_suits_red(app: Any) -> None:
    """♥ ♦ red and ♠ ♣ the text's own colour, as on the pulya's grid (issue #27)."""
    import flet as ft

    shell, session, _store = app
    await tap(shell, session, "declarer-1")
    colours = {
        t: [
            sp.style.color if sp.style else None
            for sp in (by_id(shell.page, f"contract-7{t}").content.spans or [])
        ]
        for t in ("S", "C", "D", "H")
    }
    red = [None, ft.Colors.ERROR]
    assert colours == {"S": [None], "C": [None], "D": red, "H": red}
    assert in_order(by_id(shell.page, "contract-7NT")) == ["7NT"]


async def test_g_e15_entered_on_the_screen_and_drawn_on_the_sheet(app: Any) -> None:
    shell, session, store = app
    await tap(shell, session, "declarer-1", "contract-6S", "call-2-whist", "call-0-whist")
    await tap(shell, session, "tricks-1-6", "tricks-2-2", "confirm-deal")
    await tap(shell, session, "declarer-0", "contract-7H", "call-1-whist", "call-2-whist")
    await tap(shell, session, "tricks-0-8", "tricks-1-2")
    assert in_order(by_id(shell.page, "preview")) == [
        "A: 7♥",
        "B pays A 56 chips: too few tricks as a whister",  # why the chips move (issue 38)
        "B pays C 14 chips: too few tricks as a whister",
    ]
    await tap(shell, session, "confirm-deal")
    stored = store.load(shell.sid)
    assert stored.scored.results() == (60, 6, -66)
    shell.show(kassa_sheet)
    page = shell.page
    assert in_order(by_id(page, "kassa-1")) == ["31", "29"]
    assert in_order(by_id(page, "kassa-0")) == ["31"]
    assert in_order(by_id(page, "chips-0-2")) == ["56"]  # what A received from B
    assert in_order(by_id(page, "chips-0-1")) == ["4"]
    assert in_order(by_id(page, "chips-2-1")) == ["4"]
    assert in_order(by_id(page, "chips-1-2")) == ["14"]
    assert in_order(by_id(page, "chips-total-0")) == ["chips: +60"]
    assert in_order(by_id(page, "chips-total-2")) == ["chips: −66"]
    assert in_order(by_id(page, "sheet-left")) == ["Left in the kassas: 91"]


async def test_four_players_on_the_screen_the_dealer_sits_out_and_is_paid_25(
    tmp_path: Path,
) -> None:
    # §7.1, §7.4: Dora deals (seat 3) and sits out; C plays 6♦ (4) and goes down one, 5-3-2
    # (PAG-GR example 3): kassa +4, C pays B 12 and A 8 chips, and Dora 25.
    page, session, _conn = make_page()
    with Store(tmp_path / "four.db", check_same_thread=False) as store:
        shell = Shell(page, store, "en", threading.RLock())
        shell.sid = store.create_session([*NAMES, "Dora"], convention="prefa", first_dealer=3)
        shell.new_form()
        shell.show(kassa_entry)
        with pytest.raises(AssertionError, match="got 0"):
            by_id(shell.page, "declarer-3")  # the dealer declares nothing
        await tap(shell, session, "declarer-1", "contract-6D", "call-2-whist", "call-0-whist")
        await tap(shell, session, "tricks-1-5", "tricks-2-3", "confirm-deal")
        stored = store.load(shell.sid)
        assert stored.scored.results() == (8, -45, 12, 25)
        shell.show(kassa_sheet)
        assert in_order(by_id(shell.page, "chips-3-1")) == ["25"]  # Dora's, from C
        assert in_order(by_id(shell.page, "kassa-1")) == ["31", "35"]
        assert in_order(by_id(shell.page, "chips-total-3")) == ["chips: +25"]


async def test_four_players_an_all_pass_redeal_is_one_tap_and_moves_who_sits_out(
    tmp_path: Path,
) -> None:
    """Issue 38 item 4: the format and the CLI had the redeal, the entry had no button, so with
    four players who sits out drifted.  Dora deals deal 1 and sits out; all pass; A deals
    deal 2 and sits out, Dora declares."""
    page, session, _conn = make_page()
    with Store(tmp_path / "redeal.db", check_same_thread=False) as store:
        shell = Shell(page, store, "el", threading.RLock())
        shell.sid = store.create_session([*NAMES, "Dora"], convention="prefa", first_dealer=3)
        shell.new_form()
        shell.show(kassa_entry)
        assert in_order(by_id(shell.page, "kind-redeal")) == ["Όλοι πάσο, ξαναμοίρασμα"]
        await tap(shell, session, "declarer-1", "kind-redeal")
        assert in_order(by_id(shell.page, "preview"))[0] == "Όλοι πάσο: ξαναμοιράζουμε"
        assert not by_id(shell.page, "confirm-deal").disabled
        await tap(shell, session, "confirm-deal")
        stored = store.load(shell.sid)
        assert [e.deal.type for e in stored.journal.live] == ["redeal"]
        assert stored.scored.table.dealer == 0 and stored.scored.results() == (0, 0, 0, 0)
        assert "Μοιρασιά 2" in " ".join(in_order(shell.page.views[-1]))
        with pytest.raises(AssertionError, match="got 0"):
            by_id(shell.page, "declarer-0")  # A deals now and sits out
        by_id(shell.page, "declarer-3")  # Dora plays
        # The redeal loads back into the form to be edited.
        f = edit_form(stored, 0)
        assert f.redeal and f.to_deal() == {"type": "redeal"}


def test_a_redeal_needs_no_more_choices_and_a_declarer_takes_it_back() -> None:
    f = form()
    f.choose_redeal()
    assert f.declarer is None and f.missing() is None
    f.choose_declarer(C)
    # The game he takes it back with is still to be chosen (the form builds no deal before).
    assert not f.redeal and f.declarer == C
    assert f.preview() == ([], "choose the contract")


# --- G-Q1's variants at the table: who held four aces, the counter-invitation ----------------


def test_without_the_variants_neither_four_aces_nor_a_counter_is_offered() -> None:
    # G-Q1: none is on by default.
    f = form()
    f.choose_declarer(A)
    f.choose_contract(Contract.parse("7S"))
    assert f.four_aces_options() == []
    f.say(C, "invite")
    assert f.call_options(B) == ["pass"]  # called in; nothing to answer with
    with pytest.raises(ValueError):
        f.choose_four_aces(A)


def test_g_q1_a_counter_invitation_entered_in_the_form() -> None:
    # PAG-GR example 8 (7♠, invited, 7-2-1: kassa −7, 7 × 3 chips to the defence) with the
    # invited B answering by a counter-invitation (G-Q1): B answers for the defence and gets the
    # 21 chips; C, who invited, plays without liability.
    f = form(counter_invitation=True)
    f.choose_declarer(A)
    f.choose_contract(Contract.parse("7S"))
    assert "counter" not in f.call_options(B)  # only an answer to an invitation
    f.say(C, "invite")
    assert f.call_options(B) == ["pass", "counter"]
    f.say(B, "counter")
    assert f.defence() == {C: "invite", B: "counter"}
    assert f.trick_seats() == [A, C, B]
    f.set_tricks(A, 7)
    f.set_tricks(C, 2)
    assert f.to_deal() == {
        "type": "game",
        "declarer": A,
        "contract": "7S",
        "defence": {"1": "invite", "2": "counter"},
        "tricks": {"0": 7, "1": 2, "2": 1},
    }
    assert f.preview() == (["A: 7♠, invited", "A: 7♠ made, kassa −7", "A pays B 21 chips"], None)
    held = Held([f.to_deal()], counter_invitation=True)
    assert held.scored.results() == (-21, 0, 21)
    held.journal = SimpleNamespace(live=[SimpleNamespace(deal=d) for d in held.session.deals])  # type: ignore[attr-defined]
    assert edit_form(held, 0).to_deal() == f.to_deal()  # loads back as written
    # The other way round: B (A's left) invites, C answers; the answer stays once the form is
    # redrawn (its check waits for the invitation it answers).
    g = form(counter_invitation=True)
    g.choose_declarer(A)
    g.choose_contract(Contract.parse("7S"))
    g.say(B, "invite")
    g.say(C, "counter")
    assert g.defence() == {C: "counter", B: "invite"}
    g.set_tricks(A, 7)
    assert g.defence() == {C: "counter", B: "invite"}
    assert g.to_deal()["defence"] == {"1": "counter", "2": "invite"}


@pytest.mark.parametrize(
    ("variant", "results"),
    [
        # chips: each other player pays the holder four_aces_value (10) chips.
        ("chips", (4 + 20, -8 - 10, 4 - 10)),
        # kassa: the holder's kassa goes down by four_aces_value; no chips move for them.
        ("kassa", (4, -8, 4)),
    ],
)
def test_g_q1_four_aces_entered_in_the_form(variant: str, results: tuple[int, ...]) -> None:
    # G-E15's first deal (C 6♠, both whist, 6-2-2: kassa −2, 4 chips to each) with four aces in
    # A's hand, where the convention pays them (G-Q1).
    f = form(four_aces=variant)
    f.choose_declarer(C)
    f.choose_contract(Contract.parse("6S"))
    assert f.four_aces_options() == [A, C, B]
    f.say(B, "whist")
    f.say(A, "whist")
    f.set_tricks(C, 6)
    f.set_tricks(B, 2)
    f.choose_four_aces(A)  # the counts chosen stay: four aces do not change who plays
    assert f.to_deal()["four_aces"] == A and f.preview()[1] is None
    held = Held([f.to_deal()], four_aces=variant)
    assert held.scored.results() == results
    kassas = held.scored.table.kassas  # type: ignore[union-attr]
    assert kassas == ([31, 29, 31] if variant == "chips" else [21, 29, 31])
    f.choose_four_aces(None)
    assert "four_aces" not in f.to_deal()


async def test_the_variants_on_the_screen(tmp_path: Path) -> None:
    # The buttons the two variants add to the entry, and the deal they write.
    page, session, _conn = make_page()
    with Store(tmp_path / "variants.db", check_same_thread=False) as store:
        shell = Shell(page, store, "en", threading.RLock())
        shell.sid = store.create_session(
            NAMES,
            convention="prefa",
            overrides={"four_aces": "chips", "counter_invitation": True},
        )
        shell.new_form()
        shell.show(kassa_entry)
        await tap(shell, session, "declarer-0", "contract-7S", "call-1-invite")
        assert in_order(by_id(shell.page, "call-2-counter")) == ["counter-invite"]
        assert in_order(by_id(shell.page, "four-aces-none")) == ["nobody"]
        await tap(shell, session, "call-2-counter", "four-aces-2", "tricks-0-7", "tricks-1-2")
        assert in_order(by_id(shell.page, "defender-2")) == ["B: counter-invite"]
        await tap(shell, session, "confirm-deal")
        deal = store.load(shell.sid).session.deals[0].model_dump(mode="json", exclude_none=True)
        assert deal["defence"] == {"1": "invite", "2": "counter"} and deal["four_aces"] == 2
        # example 8 countered (A −21, B +21) and B's four aces (10 from each other player)
        assert store.load(shell.sid).scored.results() == (-21 - 10, -10, 21 + 20)


async def test_a_count_that_cannot_be_says_why_when_tapped(app: Any) -> None:
    """A greyed count still answers a tap, with the pulya's sentence, and changes nothing; raising
    the declarer's count lowers the last seat's (issue #27)."""
    from support.flet_fakes import find

    from scorepad.core.i18n import catalog

    shell, session, _store = app
    await tap(shell, session, "declarer-0", "contract-7H", "call-1-whist", "call-2-whist")
    await tap(shell, session, "tricks-0-7", "tricks-1-2")
    assert [by_id(shell.page, f"tricks-{s}").value for s in (0, 1, 2)] == ["7", "2", "1"]
    await tap(shell, session, "tricks-0-8")  # one more for A: C, filled in, gives way
    assert [by_id(shell.page, f"tricks-{s}").value for s in (0, 1, 2)] == ["8", "2", "0"]
    await tap(shell, session, "tricks-1-3")
    assert in_order(by_id(shell.page, "message")) == ["3 is not possible: A has 8"]
    assert shell.form.tricks == {0: 8, 1: 2, 2: 0}
    await tap(shell, session, "tricks-1-1")
    assert find(shell.page, lambda c: getattr(c, "identifier", None) == "message") == []
    assert catalog("ru").render(shell.form.trick_refusal(1, 3)) == "3 не получится: A — уже 8"


# --- no default counts (issue #21 item 10) ------------------------------------------------------


def test_a_fresh_prefa_game_cannot_be_written_until_each_count_is_tapped() -> None:
    """C 7♠, both whist: no count starts chosen (once 7 / 0 / 3 was writable untouched)."""
    f = form()
    f.choose_declarer(C)
    f.choose_contract(Contract.parse("7S"))
    f.say(B, "whist")
    f.say(A, "whist")
    assert f.trick_seats() == [C, B, A] and f.tricks == {}
    assert f.preview() == ([], "C: how many tricks?")
    assert catalog("ru").render(f.missing()) == "C: сколько взяток?"  # type: ignore[arg-type]
    assert f.trial() == (None, f.missing())
    f.set_tricks(B, 1)  # a defender first: the declarer's count is still to choose
    assert f.tricks == {B: 1} and f.preview() == ([], "C: how many tricks?")
    f.set_tricks(C, 7)
    assert f.tricks == {C: 7, B: 1, A: 2} and f.missing() is None
    assert f.to_deal()["tricks"] == {"1": 7, "2": 1, "0": 2}
    f.set_tricks(C, 8)  # raising it lowers only the last, filled-in count
    assert f.tricks == {C: 8, B: 1, A: 1}
    f.unsay(A)  # an earlier choice changed: the counts go
    assert f.tricks == {} and f.preview() == ([], "A: whist or pass?")


def test_prefa_four_players_the_last_count_is_filled_only_after_the_others() -> None:
    f = new_form(Held([], players=["A", "C", "B", "D"]))
    assert A not in f.declarers()  # the dealer sits out
    f.choose_declarer(C)
    f.choose_contract(Contract.parse("6H"))
    first, second = f.defenders()
    f.say(first, "whist")
    f.say(second, "whist")
    assert f.trick_seats() == [C, first, second] and f.tricks == {}
    f.set_tricks(C, 6)
    assert f.tricks == {C: 6} and f.preview()[1] == f"{f.names[first]}: how many tricks?"
    assert f.trick_choices(second) == []  # the last is filled in, never tapped
    f.set_tricks(first, 3)
    assert f.tricks == {C: 6, first: 3, second: 1} and f.preview()[1] is None


async def test_a_prefa_write_with_a_count_nobody_tapped_is_refused(app: Any) -> None:
    """Write stays disabled, and the handler reached anyway refuses with the sentence: nothing
    is written."""
    shell, session, store = app
    await tap(shell, session, "declarer-1", "contract-7S", "call-2-whist", "call-0-whist")
    assert by_id(shell.page, "tricks-1").value == "—"
    assert by_id(shell.page, "confirm-deal").disabled
    await tap(shell, session, "confirm-deal")
    assert in_order(by_id(shell.page, "message")) == ["C: how many tricks?"]
    await tap(shell, session, "tricks-1-7")
    assert [by_id(shell.page, f"tricks-{s}").value for s in (1, 2, 0)] == ["7", "—", "—"]
    await tap(shell, session, "confirm-deal")
    assert in_order(by_id(shell.page, "message")) == ["B: how many tricks?"]
    assert store.load(shell.sid).session.deals == []
    await tap(shell, session, "tricks-2-1")
    assert [by_id(shell.page, f"tricks-{s}").value for s in (1, 2, 0)] == ["7", "1", "2"]
    await tap(shell, session, "confirm-deal")
    written = store.load(shell.sid).session.deals
    assert [d.model_dump(mode="json")["tricks"] for d in written] == [{"1": 7, "2": 1, "0": 2}]
