"""The bula deal form (legal choices by trial on the engine, tricks as counted when play stopped,
the preview in the engine's words, load, edit, carry) and the bula screens on a real Store."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import flet as ft
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.family_app import in_order
from support.flet_fakes import by_id, find, fire, make_page, texts, type_into
from test_families_cli import D_E1

from conftest import typed
from scorepad.app.bula.entry import bula_entry
from scorepad.app.bula.form import BulaForm, carry, edit_form, new_form, title
from scorepad.app.bula.sheet import bula_sheet
from scorepad.app.families.columns import refe_marks, short_names
from scorepad.app.frame import (
    nav,
    screens,  # noqa: F401  (the navigation's screens)
)
from scorepad.app.frame.family import registered, ui_of
from scorepad.app.frame.shell import Shell
from scorepad.core.i18n import catalog
from scorepad.scoring.ledger.families import parse_family_session, replay_family
from scorepad.store import Store

NAMES = ["Ana", "Boris", "Vera"]


class Held:
    """A stored-like view of a session file (the forms need its session and scored)."""

    def __init__(self, deals: list[dict[str, Any]], **overrides: Any) -> None:
        self.session = parse_family_session(
            {
                "format": "scorepad-session/1",
                "players": overrides.pop("players", NAMES),
                "first_dealer": overrides.pop("first_dealer", 0),
                "convention": overrides.pop("convention", "balkan"),
                "overrides": overrides,
                "deals": deals,
            }
        )
        self.scored = replay_family(self.session)


def form(deals: list[dict[str, Any]] | None = None, **overrides: Any) -> BulaForm:
    return new_form(Held(deals or [], **overrides))


def game(form: BulaForm, declarer: int, bid: int, *calls: str, hand: bool = False) -> None:
    form.choose_declarer(declarer)
    form.choose_bid(bid, hand)
    for seat, call in zip(form.defenders(), calls, strict=True):
        form.say(seat, call)  # type: ignore[arg-type]


HERC = {
    "type": "game",
    "declarer": 0,
    "bid": 4,
    "hand": False,
    "defence": {"1": "follow", "2": "follow"},
}


def test_every_kind_declarer_and_bid_is_offered_at_the_start() -> None:
    f = form()
    assert f.kinds() == ["game", "allpass", "pik_no_contra"]
    assert f.declarers() == [0, 1, 2]
    f.choose_declarer(1)
    assert f.bids() == [(b, h) for b in range(2, 8) for h in (False, True)]
    assert f.defenders() == [2, 0]
    assert f.missing() is not None and f.missing().text == "choose the bid"  # type: ignore[union-attr]


def test_pik_with_the_talon_is_offered_only_under_contra() -> None:
    f = form()
    game(f, 0, 2, "follow", "follow")
    assert f.contra_levels() == [1, 2, 3, 4]  # no "no contra": D9
    assert f.preview() == ([], "choose the contra (or no contra)")
    f.choose_contra(1)
    assert f.contra_sayers() == [1, 2]
    assert f.preview() == ([], "choose who said kontra")
    f.choose_contra(1, 2)
    assert f.trick_seats() == [0, 1, 2]
    # pik igra needs no contra
    f.choose_bid(2, True)
    assert f.contra_levels() == [0, 1, 2, 3, 4]


def test_the_contra_chain_stops_at_rekontra_when_the_convention_says_so() -> None:
    f = form(allow_sub_mort_kontra=False)
    game(f, 0, 4, "follow", "pass")
    assert f.contra_levels() == [0, 1, 2]
    f.choose_contra(2)
    assert f.contra_by == 1  # only the follower can say it: chosen for the player
    assert f.trick_seats() == [0, 1, 2]  # the contra brings the passer in


def test_betl_is_followed_by_both_and_never_contrad() -> None:
    f = form()
    f.choose_declarer(2)
    f.choose_bid(6, False)
    assert f.call_options(0) == ["follow"]
    f.say(0, "follow")
    f.say(1, "follow")
    assert f.contra_levels() == [0] and f.contra_level == 0
    assert f.tricks == {}  # no count nobody chose (issue #21)
    assert f.preview() == ([], "Vera: how many tricks?")
    f.set_tricks(2, 0)
    assert f.tricks == {2: 0} and f.preview() == ([], "Ana: how many tricks?")
    f.set_tricks(0, 0)
    assert f.tricks == {2: 0, 0: 0, 1: 10}
    assert f.preview() == (["Vera: betl", "Vera made betl: bula −12"], None)
    f.set_tricks(2, 1)
    assert f.preview() == (
        [
            "Vera: betl",
            "Vera failed betl: bula +12",
            "Ana writes 60 supe on Vera (5 × 12)",
            "Boris writes 60 supe on Vera (5 × 12)",
        ],
        None,
    )


def test_tricks_are_counted_when_play_stopped_the_last_seat_filled_in() -> None:
    f = form()
    game(f, 0, 4, "follow", "follow")
    f.choose_contra(0)
    assert f.trick_seats() == [0, 1, 2]
    assert f.tricks == {}  # nothing taken for granted: each count tapped (issue #21)
    assert f.missing() is not None and f.missing().text == "{player}: how many tricks?"  # type: ignore[union-attr]
    # The declarer took 3 when the defence reached five: play stopped there.
    f.set_tricks(0, 3)
    assert f.tricks == {0: 3}  # Vera is filled in only once Boris is chosen
    assert f.preview() == ([], "Boris: how many tricks?")
    assert f.trick_choices(1) == [0, 1, 2, 3, 4, 5]
    f.set_tricks(1, 4)
    assert f.tricks == {0: 3, 1: 4, 2: 1}
    assert f.to_deal() == HERC | {"tricks": {"0": 3, "1": 4, "2": 1}}
    assert f.preview() == (
        [
            "Ana: herc",
            "Ana failed herc: bula +8",
            "Boris writes 32 supe on Ana (4 × 8)",
            "Vera writes 8 supe on Ana (1 × 8)",
        ],
        None,
    )
    with pytest.raises(ValueError):
        f.set_tricks(1, 6)  # the defence never writes more than five
    assert f.trick_choices(2) == []  # filled in


def test_both_defenders_pass_write_no_tricks() -> None:
    f = form()
    game(f, 1, 5, "pass", "pass", hand=True)
    assert f.contra_level == 0 and f.trick_seats() == []
    assert f.to_deal() == {
        "type": "game",
        "declarer": 1,
        "bid": 5,
        "hand": True,
        "defence": {"2": "pass", "0": "pass"},
    }
    assert f.preview() == (["Boris: tref igra", "Boris made tref igra: bula −12"], None)


def test_an_invitation_calls_the_passer_in_and_the_inviter_writes_for_both() -> None:
    """D-E3: start 50, Marko herc, Nada invites Ognjen; 5-3-2: Marko +8, Nada writes 40."""
    held = Held([], start_bula=50)
    held.session = held.session.model_copy(update={"players": ["Marko", "Nada", "Ognjen"]})
    held.scored = replay_family(held.session)
    f = new_form(held)
    f.choose_declarer(0)
    f.choose_bid(4, False)
    f.say(1, "follow")
    assert f.call_options(2) == ["follow", "pass"]  # no invite while the other follows
    f.say(2, "pass")
    assert f.call_options(1) == ["follow", "pass", "invite"]
    f.say(1, "invite")
    assert f.defence() == {1: "invite", 2: "invited"}
    f.choose_contra(0)
    f.set_tricks(0, 5)
    f.set_tricks(1, 3)
    assert f.tricks == {0: 5, 1: 3, 2: 2}
    assert f.preview() == (
        ["Marko: herc", "Marko failed herc: bula +8", "Nada writes 40 supe on Marko (5 × 8)"],
        None,
    )
    # the invitation taken back: the other stays out
    f.say(1, "follow")
    assert f.defence() == {1: "follow", 2: "pass"}


def test_refe_after_an_all_pass_and_the_declarer_plays_double() -> None:
    f = form([{"type": "allpass"}])
    f.choose_declarer(2)
    assert f.on_refe
    f.choose_bid(3, False)
    f.say(0, "follow")
    f.say(1, "pass")
    f.choose_contra(0)
    f.set_tricks(2, 7)
    sentences, problem = f.preview()
    assert problem is None
    assert sentences == [
        "Vera: karo",
        "Vera plays on a refe: everything ×2",
        "Vera made karo: bula −12",
        "Ana writes 36 supe on Vera (3 × 12)",
    ]
    assert not form().on_refe


def test_an_all_pass_under_the_hat_writes_no_refe() -> None:
    f = form([HERC | {"tricks": {"0": 10, "1": 0, "2": 0}}], start_bula=6)
    f.choose_kind("allpass")
    assert f.preview() == (["All pass (refe)", "no refe: a bula is under the hat"], None)


def test_pik_without_contra_and_its_declarers() -> None:
    f = form()
    f.choose_kind("pik_no_contra")
    assert f.preview() == ([], "choose the declarer")
    f.choose_declarer(1)
    assert f.to_deal() == {"type": "pik_no_contra", "declarer": 1}
    assert f.preview()[0][0] == "Boris: pik without contra"
    played = form(pik_without_contra="play")
    assert played.kinds() == ["game", "allpass"]


def test_a_finished_game_offers_nothing() -> None:
    both_pass = {"defence": {"1": "pass", "2": "pass"}}
    f = form([HERC | {"bid": 5} | both_pass], start_bula=2)
    assert f.finished
    assert f.kinds() == []
    assert f.preview() == ([], "the bulas sum to zero: the game is over, no deal can follow")


WRITTEN = [
    {"type": "allpass"},
    {"type": "pik_no_contra", "declarer": 2},
    HERC | {"tricks": {"0": 6, "1": 2, "2": 2}},
    HERC
    | {
        "declarer": 1,
        "defence": {"2": "invite", "0": "invited"},
        "tricks": {"1": 4, "2": 5, "0": 0},
    },
    HERC
    | {
        "declarer": 2,
        "bid": 2,
        "defence": {"0": "follow", "1": "pass"},
        "contra": {"by": 0, "level": 3},
        "tricks": {"2": 6, "0": 3, "1": 1},
    },
    HERC | {"bid": 6, "hand": True, "tricks": {"0": 2, "1": 3, "2": 5}},
    HERC | {"bid": 7, "defence": {"1": "pass", "2": "pass"}},
]


@pytest.mark.parametrize("index", range(len(WRITTEN)))
def test_a_written_deal_loads_into_the_form_as_written(index: int) -> None:
    held = Held(WRITTEN)

    live = [SimpleNamespace(deal=d) for d in held.session.deals]
    held.journal = SimpleNamespace(live=live)  # type: ignore[attr-defined]
    f = edit_form(held, index)
    assert f.to_deal() == held.session.deals[index].model_dump(mode="json", exclude_none=True)
    assert f.number == index + 1


def test_carry_keeps_the_choices_still_legal() -> None:
    old = form(pik_without_contra="made")
    old.choose_kind("pik_no_contra")
    old.choose_declarer(0)
    # Meanwhile another device wrote an all pass: Ana holds a refe, so under "made" her pik
    # without contra must be played as a game.
    newer = Held([{"type": "allpass"}], pik_without_contra="made")
    f = carry(old, newer)
    assert (f.kind, f.declarer) == ("game", 0)
    # a complete herc carried with its tricks
    old = form()
    game(old, 0, 4, "follow", "follow")
    old.choose_contra(0)
    old.set_tricks(0, 7)
    old.set_tricks(1, 1)
    f = carry(old, Held([{"type": "allpass"}]))
    assert f.to_deal() == old.to_deal()
    assert f.on_refe


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_deal_the_form_can_write_is_accepted_by_the_engine(data: st.DataObject) -> None:
    """Random taps on offered choices only: every complete form writes a deal the engine
    accepts, and its title and preview are the engine's."""
    deals: list[dict[str, Any]] = []
    for _ in range(6):
        f = form(deals, start_bula=40)
        if f.finished:
            break
        f.choose_kind(data.draw(st.sampled_from(f.kinds())))
        if f.kind != "allpass":
            f.choose_declarer(data.draw(st.sampled_from(f.declarers())))
        if f.kind == "game":
            f.choose_bid(*data.draw(st.sampled_from(f.bids())))
            for s in f.defenders():
                if s not in f.calls:
                    f.say(s, data.draw(st.sampled_from(f.call_options(s))))
            if f.contra_level is None:
                level = data.draw(st.sampled_from(f.contra_levels()))
                f.choose_contra(level)
                if level and f.contra_by is None:
                    f.choose_contra(level, data.draw(st.sampled_from(f.contra_sayers())))
            for s in f.trick_seats()[:-1]:
                f.set_tricks(s, data.draw(st.sampled_from(f.trick_choices(s))))
        sentences, problem = f.preview()
        assert problem is None, problem
        deals.append(f.to_deal())
        replay_family(Held(deals).session)  # accepted
        assert sentences[0] == title(deals[-1], NAMES).render("en")


def test_titles_in_both_languages() -> None:
    ru = catalog("ru")
    t = title(HERC | {"hand": True, "contra": {"by": 1, "level": 2}}, NAMES)
    assert t.render("en") == "Ana: herc igra, rekontra (Boris)"
    assert ru.render(t) == "Ana: херц игра, реконтра (Boris)"
    assert title({"type": "allpass"}, NAMES).render("en") == "All pass (refe)"
    assert "bula" in registered() and ui_of("bula").title is title


# --- the screens, on a real Store ------------------------------------------------------------


@pytest.fixture
def app(tmp_path: Path) -> Iterator[tuple[Shell, Any, Store]]:
    page, session, _conn = make_page()
    with Store(tmp_path / "app.db", check_same_thread=False) as store:
        shell = Shell(page, store, "en", threading.RLock())
        shell.sid = store.create_session(NAMES, convention="balkan", overrides={"start_bula": 30})
        shell.new_form()
        shell.show(bula_entry)
        yield shell, session, store


async def tap(shell: Shell, session: Any, *idents: str) -> None:
    for ident in idents:
        await fire(session, by_id(shell.page, ident))


async def test_a_deal_entered_on_the_screen_is_written(app: Any) -> None:
    shell, session, store = app
    assert "Deal 1" in texts(shell.page)
    await tap(shell, session, "declarer-2", "bid-3", "call-0-follow", "call-1-follow", "contra-0")
    await tap(shell, session, "tricks-2-6", "tricks-0-2")
    assert by_id(shell.page, "tricks-1").value == "2"
    preview = in_order(by_id(shell.page, "preview"))
    assert preview == [
        "Vera: karo",
        "Vera made karo: bula −6",
        "Ana writes 12 supe on Vera (2 × 6)",
        "Boris writes 12 supe on Vera (2 × 6)",
    ]
    await tap(shell, session, "confirm-deal")
    assert "Deal 2" in texts(shell.page)
    stored = store.load(shell.sid)
    assert [d.deal.model_dump(mode="json", exclude_none=True) for d in stored.journal.live] == [
        {
            "type": "game",
            "declarer": 2,
            "bid": 3,
            "hand": False,
            "defence": {"0": "follow", "1": "follow"},
            "tricks": {"2": 6, "0": 2, "1": 2},
        }
    ]
    # the all pass, then the refe shown for the next declarer
    await tap(shell, session, "kind-allpass", "confirm-deal", "declarer-0")
    assert "Ana holds a refe: this game counts double." in texts(shell.page)
    assert len(store.load(shell.sid).journal.live) == 2


async def test_the_write_is_off_until_the_deal_is_complete(app: Any) -> None:
    shell, session, _store = app
    await tap(shell, session, "declarer-0", "bid-2")
    assert by_id(shell.page, "confirm-deal").disabled
    assert in_order(by_id(shell.page, "preview")) == ["Boris: follow or pass?"]
    await tap(shell, session, "call-1-follow", "call-2-pass")
    ids = {c.identifier for c in find(shell.page, lambda c: isinstance(c, ft.Semantics))}
    assert "contra-0" not in ids and "contra-1" in ids
    await tap(shell, session, "contra-1")  # the follower said it: the passer is in
    # No count is taken for granted (issue #21): each is tapped, the last filled in after.
    assert by_id(shell.page, "confirm-deal").disabled
    assert in_order(by_id(shell.page, "preview")) == ["Ana: how many tricks?"]
    assert [by_id(shell.page, f"tricks-{s}").value for s in (0, 1, 2)] == ["—", "—", "—"]
    await tap(shell, session, "tricks-0-6")
    assert by_id(shell.page, "confirm-deal").disabled
    assert in_order(by_id(shell.page, "preview")) == ["Boris: how many tricks?"]
    assert [by_id(shell.page, f"tricks-{s}").value for s in (0, 1, 2)] == ["6", "—", "—"]
    await tap(shell, session, "tricks-1-3")
    assert [by_id(shell.page, f"tricks-{s}").value for s in (0, 1, 2)] == ["6", "3", "1"]
    assert not by_id(shell.page, "confirm-deal").disabled


async def test_editing_a_deal_writes_the_change_with_a_reason(app: Any) -> None:
    shell, session, store = app
    await tap(shell, session, "kind-allpass", "confirm-deal")
    await tap(shell, session, "declarer-1", "bid-5", "call-2-pass", "call-0-pass", "confirm-deal")
    stored = store.load(shell.sid)
    shell.edit_form(stored.journal.live[1].deal_id, 1)
    shell.show(bula_entry)
    assert "Editing deal 2: the later deals are checked again." in texts(shell.page)
    assert by_id(shell.page, "confirm-deal").disabled  # no reason yet
    await tap(shell, session, "contract-change", "bid-5-igra", "call-2-pass", "call-0-pass")
    await type_into(session, by_id(shell.page, "edit-reason"), "it was igra")
    assert not by_id(shell.page, "confirm-deal").disabled
    await tap(shell, session, "confirm-deal")
    deal = store.load(shell.sid).journal.live[1].deal
    assert (deal.bid, deal.hand) == (5, True)
    assert shell.screen is nav.screen("history")


async def test_a_stale_write_changes_nothing_and_keeps_the_choices(app: Any) -> None:
    shell, session, store = app
    await tap(shell, session, "declarer-0", "bid-4", "call-1-follow", "call-2-follow")
    stored = store.load(shell.sid)
    store.add_deal(
        shell.sid, typed(store, shell.sid, {"type": "allpass"}), seen=stored.revision
    )  # another device
    await tap(shell, session, "contra-0", "tricks-0-6", "tricks-1-0", "confirm-deal")
    assert len(store.load(shell.sid).journal.live) == 1
    # The deal written first beside this entry (they differ): nothing chosen for the player.
    assert in_order(by_id(shell.page, "conflict-theirs"))[:2] == [
        "Deal 1 was written on another device first:",
        "All pass (refe)",
    ]
    await tap(shell, session, "conflict-write-next")  # his entry as the next deal, explicitly
    # the form carried onto the new state: Ana now plays on her refe
    assert "Ana holds a refe: this game counts double." in texts(shell.page)
    await tap(shell, session, "confirm-deal")
    assert len(store.load(shell.sid).journal.live) == 2


async def test_the_sheet_shows_the_columns_refe_and_what_is_left(app: Any) -> None:
    shell, session, store = app
    sid = shell.sid
    for deal in D_E1["deals"]:  # D-E1 (pagat's sheet)
        store.add_deal(sid, typed(store, sid, deal), seen=store.load(sid).revision)
    shell.show(bula_sheet)
    page = shell.page

    def column(ident: str) -> list[str]:
        return in_order(by_id(page, ident))

    assert column("bula-0") == ["30", "10"]
    assert column("bula-1") == ["30", "20"]
    assert column("bula-2") == ["30", "24"]
    assert column("supe-0-2") == ["12"]  # Ana on Vera (her left: the seat before her)
    assert column("supe-1-2") == ["12"]
    assert column("supe-2-1") == ["30"]
    assert column("supe-2-0") == ["60"]
    assert column("supe-0-1") == [""]  # nothing written
    assert texts(by_id(page, "sheet-left")) == ["Left to close: 54"]
    assert texts(by_id(page, "sheet-name-1")) == ["Boris"]
    await fire(session, by_id(page, "bula-0"))
    assert in_order(by_id(page, "cell-history")) == [
        "Start: 30",
        "Deal 4: −20, total 10",
        "Ana made tref: bula −20",
    ]
    assert in_order(by_id(page, "sheet-refe")) == [
        "Refe rounds: 1. A triangle is a refe; crossed when used (green: made)."
    ]


async def test_pik_not_contrad_is_one_tap_from_pik_without_contra(app: Any) -> None:
    shell, session, store = app
    await tap(shell, session, "declarer-1", "bid-2", "call-2-follow", "call-0-pass")
    assert "Without a contra this pik is not played: write it as pik without contra." in texts(
        shell.page
    )
    await tap(shell, session, "to-pik-no-contra")
    assert in_order(by_id(shell.page, "preview")) == [
        "Boris: pik without contra",
        "pik without contra is not played: a refe for everyone",  # once, not a line a player
    ]
    await tap(shell, session, "confirm-deal")
    deal = store.load(shell.sid).journal.live[0].deal
    assert deal.model_dump(mode="json", exclude_none=True) == {
        "type": "pik_no_contra",
        "declarer": 1,
    }


def test_the_pot_form_plays_all_ten_tricks() -> None:
    f = form(convention="balkan-pot")
    game(f, 0, 5, "follow", "follow")
    f.choose_contra(0)
    f.set_tricks(0, 3)
    f.set_tricks(1, 0)
    assert f.tricks == {0: 3, 1: 0, 2: 7}  # all ten played: no stop at five
    f.set_tricks(1, 2)
    assert f.preview() == (
        [
            "Ana: tref",
            "Ana failed: pays 100 into the pot",
            "Ana pays Boris 20 for 2 tricks",
            "Ana pays Vera 50 for 5 tricks",
        ],
        None,
    )


async def test_the_pot_form_sheet_shows_the_pot_and_cash(tmp_path: Path) -> None:
    page, _session, _conn = make_page()
    with Store(tmp_path / "pot.db", check_same_thread=False) as store:
        shell = Shell(page, store, "en", threading.RLock())
        shell.sid = store.create_session(NAMES, convention="balkan-pot")
        store.add_deal(
            shell.sid,
            typed(store, shell.sid, HERC | {"tricks": {"0": 6, "1": 2, "2": 2}}),
            seen=0,
        )
        shell.show(bula_sheet)
        assert in_order(by_id(page, "cash-0")) == ["−100", "−52"]
        assert in_order(by_id(page, "cash-1")) == ["−100", "−84"]
        assert in_order(by_id(page, "sheet-pot")) == ["Pot: 220"]


async def test_a_closed_bula_offers_the_cash_out_and_no_deal(tmp_path: Path) -> None:
    page, session, _conn = make_page()
    with Store(tmp_path / "end.db", check_same_thread=False) as store:
        shell = Shell(page, store, "en", threading.RLock())
        shell.sid = store.create_session(NAMES, convention="balkan", overrides={"start_bula": 2})
        store.add_deal(
            shell.sid,
            typed(store, shell.sid, HERC | {"defence": {"1": "pass", "2": "pass"}}),
            seen=0,
        )
        shell.new_form()
        shell.show(bula_entry)
        assert in_order(by_id(page, "game-finished")) == [
            "The bulas sum to zero: the game is over."
        ]
        ids = {c.identifier for c in find(page, lambda c: isinstance(c, ft.Semantics))}
        assert "confirm-deal" not in ids and "deal-header" not in ids
        await fire(session, by_id(page, "finished-settle"))
        assert shell.screen is nav.screen("settle")


def test_refe_marks_and_short_names() -> None:
    held = Held(
        [
            {"type": "allpass"},
            HERC | {"tricks": {"0": 6, "1": 2, "2": 2}},  # Ana made on her refe
            HERC | {"declarer": 1, "defence": {"2": "pass", "0": "pass"}},  # Boris made on his
            {"type": "allpass"},
            HERC
            | {
                "declarer": 2,
                "defence": {"0": "follow", "1": "follow"},
                "tricks": {"2": 4, "0": 3, "1": 2},
            },  # Vera failed on hers
        ]
    )
    assert [refe_marks(held.scored, p) for p in range(3)] == [
        (2, [True]),
        (2, [True]),
        (2, [False]),
    ]
    assert short_names(["Ana", "Andrej", "Vera"]) == ["Ana", "And", "V"]
    assert short_names(["Marko", "Nada", "Ognjen"]) == ["M", "N", "O"]


async def test_each_column_names_whose_it_is(app: Any) -> None:
    shell, _session, _store = app
    shell.show(bula_sheet)
    labels = {
        c.identifier: c.label
        for c in find(shell.page, lambda c: isinstance(c, ft.Semantics) and c.label)
    }
    assert labels["bula-0"] == "Ana: bula"
    assert labels["supe-0-2"] == "Ana: supe on Vera"
    assert labels["supe-1-2"] == "Boris: supe on Vera"


def test_four_players_the_form_leaves_the_dealer_out() -> None:
    # §4.1: Dima deals (seat 3) and sits out; then Ana deals.
    f = form(players=[*NAMES, "Dima"], first_dealer=3, start_bula=30)
    assert f.declarers() == [0, 1, 2]
    game(f, 2, 3, "follow", "follow")  # Vera karo; Ana and Boris follow
    assert f.defenders() == [0, 1]
    f.choose_contra(0)
    f.set_tricks(2, 6)
    f.set_tricks(0, 2)
    assert f.to_deal()["tricks"] == {"2": 6, "0": 2, "1": 2}
    held = Held([f.to_deal()], players=[*NAMES, "Dima"], first_dealer=3, start_bula=30)
    assert held.scored.table.bulas == [30, 30, 24, 30]
    g = new_form(held)
    assert g.declarers() == [1, 2, 3]  # Ana deals now
    g.choose_declarer(3)
    assert g.defenders() == [1, 2]


@pytest.mark.parametrize("convention", ["balkan", "prefa"])
async def test_an_untouched_form_follows_the_table_to_the_next_deal(
    tmp_path: Path, convention: str
) -> None:
    # Issue 21 item 12: as the pulya's and the pot's, an untouched bula or Prefa form follows
    # another phone's write to the new deal number; a form half entered stays, with a notice.
    import asyncio

    from flet.pubsub.pubsub_hub import PubSubHub
    from test_table_unit import Room, header, open_entry, until

    from conftest import typed

    deal = (
        {**HERC, "tricks": {"0": 6, "1": 2, "2": 2}}
        if convention == "balkan"
        else {
            "type": "game",
            "declarer": 0,
            "contract": "6S",
            "defence": {"1": "whist", "2": "whist"},
            "tricks": {"0": 6, "1": 2, "2": 2},
        }
    )
    with Store(tmp_path / "live.db", check_same_thread=False) as store:
        room = Room(store, pin=None, hub=PubSubHub(loop=asyncio.get_running_loop()))
        sid = store.create_session(NAMES, convention=convention)
        writer, _ = room.device("writer")
        still, _ = room.device("still")
        busy, busy_session = room.device("busy")
        for shell in (still, busy):
            open_entry(shell, sid)
        assert header(still).startswith("Deal 1")
        await fire(busy_session, by_id(busy.page, "declarer-1"))  # half entered
        from scorepad.app.frame import live

        revision = store.add_deal(sid, typed(store, sid, deal), seen=0).revision
        live.publish(writer, sid, revision)  # another phone wrote, and says so on the hub
        await until(lambda: header(still).startswith("Deal 2"), "the untouched form followed")
        assert still.basis == 1
        assert header(busy).startswith("Deal 1") and busy.basis == 0


def test_a_column_heading_is_drawn_smaller_rather_than_cut() -> None:
    """Greek «μπούλα» (bula) does not fit a phone's middle column at 12 px: it is drawn
    smaller, down to 8 px, never with an ellipsis (issue #27: no cut text)."""
    from scorepad.app.families.columns import LETTER_EM, _fitting

    assert _fitting("bula", 40, 12) == 12
    smaller = _fitting("μπούλα", 38, 12)
    assert 8 <= smaller < 12 and len("μπούλα") * LETTER_EM * smaller <= 38
    assert _fitting("a very long heading indeed", 20, 12) == 8


async def test_a_count_that_cannot_be_says_why_when_tapped(app: Any) -> None:
    """A greyed count still answers a tap, with the pulya's sentence, and changes nothing; raising
    the declarer's count lowers the last seat's (issue #27)."""
    shell, session, _store = app
    await tap(shell, session, "declarer-2", "bid-3", "call-0-follow", "call-1-follow", "contra-0")
    await tap(shell, session, "tricks-2-6", "tricks-0-2")
    assert [by_id(shell.page, f"tricks-{s}").value for s in (2, 0, 1)] == ["6", "2", "2"]
    await tap(shell, session, "tricks-2-8")  # Vera made two more: Boris, filled in, gives way
    assert [by_id(shell.page, f"tricks-{s}").value for s in (2, 0, 1)] == ["8", "2", "0"]
    assert by_id(shell.page, "tricks-0-3").disabled is not True  # greyed, still tappable
    await tap(shell, session, "tricks-0-3")
    assert in_order(by_id(shell.page, "message")) == ["3 is not possible: Vera has 8"]
    assert [by_id(shell.page, f"tricks-{s}").value for s in (2, 0, 1)] == ["8", "2", "0"]
    assert shell.form.tricks == {2: 8, 0: 2, 1: 0}
    await tap(shell, session, "tricks-0-1")  # the next tap: the preview is back
    assert (
        find(shell.page, lambda c: isinstance(c, ft.Semantics) and c.identifier == "message") == []
    )
    assert catalog("ru").render(shell.form.trick_refusal(0, 3)) == "3 не получится: Vera — уже 8"


# --- no default counts (issue #21 item 10) ------------------------------------------------------


def test_a_fresh_bula_game_cannot_be_written_until_each_count_is_tapped() -> None:
    """Boris declares karo, both follow, no contra: no count starts chosen (once 6 / 0 / 4 was
    writable untouched)."""
    f = form()
    game(f, 1, 3, "follow", "follow")
    f.choose_contra(0)
    assert f.trick_seats() == [1, 2, 0] and f.tricks == {}
    assert f.preview() == ([], "Boris: how many tricks?")
    assert catalog("ru").render(f.missing()) == "Boris: сколько взяток?"  # type: ignore[arg-type]
    f.set_tricks(2, 2)  # a defender first: Boris's count is still to choose, Ana's not filled
    assert f.tricks == {2: 2} and f.preview() == ([], "Boris: how many tricks?")
    f.set_tricks(1, 6)
    assert f.tricks == {1: 6, 2: 2, 0: 2} and f.missing() is None
    assert f.to_deal()["tricks"] == {"1": 6, "2": 2, "0": 2}
    f.take_back_contra()  # an earlier choice taken back: the counts go
    assert f.tricks == {}
    f.choose_contra(0)
    assert f.tricks == {} and f.preview() == ([], "Boris: how many tricks?")


def test_bula_four_players_the_last_count_is_filled_only_after_the_others() -> None:
    f = form(players=[*NAMES, "Dragana"])
    assert 0 not in f.declarers()  # Ana deals and sits out
    game(f, 2, 3, "follow", "follow")
    f.choose_contra(0)
    first, last = f.defenders()
    assert f.trick_seats() == [2, first, last] and f.tricks == {}
    f.set_tricks(2, 7)
    assert f.tricks == {2: 7} and f.preview()[1] == f"{f.names[first]}: how many tricks?"
    assert f.trick_choices(last) == []  # filled in, never tapped
    f.set_tricks(first, 1)
    assert f.tricks == {2: 7, first: 1, last: 2} and f.preview()[1] is None


async def test_a_bula_write_with_a_count_nobody_tapped_is_refused(app: Any) -> None:
    """Write stays disabled, and the handler reached anyway (forged, or racing the redraw)
    refuses with the sentence: nothing is written."""
    shell, session, store = app
    await tap(shell, session, "declarer-1", "bid-3", "call-2-follow", "call-0-follow", "contra-0")
    assert [by_id(shell.page, f"tricks-{s}").value for s in (1, 2, 0)] == ["—", "—", "—"]
    assert by_id(shell.page, "confirm-deal").disabled
    await tap(shell, session, "confirm-deal")
    assert in_order(by_id(shell.page, "message")) == ["Boris: how many tricks?"]
    assert store.load(shell.sid).session.deals == []
    await tap(shell, session, "tricks-1-6")
    await tap(shell, session, "confirm-deal")
    assert in_order(by_id(shell.page, "message")) == ["Vera: how many tricks?"]
    assert store.load(shell.sid).session.deals == []
    await tap(shell, session, "tricks-2-0")
    assert [by_id(shell.page, f"tricks-{s}").value for s in (1, 2, 0)] == ["6", "0", "4"]
    await tap(shell, session, "confirm-deal")
    written = store.load(shell.sid).session.deals
    assert [d.model_dump(mode="json")["tricks"] for d in written] == [{"1": 6, "2": 0, "0": 4}]


def test_four_groups_on_a_phone_go_two_to_a_line_and_no_number_breaks() -> None:
    """Issue 38 item 6: at 360 px the fourth player's group was cut to 24 px; numbers broke in
    narrow columns ("−1 / 8", "64 / 0")."""
    from scorepad.app.families.columns import Entry, column, group_width

    phone = 360 - 24
    assert group_width(360, 3) * 3 + 8 <= phone  # three side by side, as before
    four = group_width(360, 4)
    assert four >= 100 and four * 2 + 4 <= phone  # two to a line, each whole
    assert group_width(1280 - 89, 4) == 240  # a laptop: four side by side
    drawn = column("c", [Entry(1, -18, -18), Entry(2, 658, 640)], width=30, size=15, on_tap=None)
    figures = [t for t in find(drawn, lambda c: isinstance(c, ft.Text)) if t.value != "⋮"]
    assert sorted(t.value for t in figures) == ["640", "−18"]
    assert all(t.no_wrap and t.size * 0.7 * len(t.value) <= 30 for t in figures)
