"""The deal form of the pot and direct families (no widgets): only legal choices, deals the engine
writes with the digest's figures, loading a written deal, carrying choices onto a newer state."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

from conftest import typed
from scorepad.app.pot.figures import pot_sheet
from scorepad.app.pot.form import PotForm, carry, edit_form, new_form, title
from scorepad.app.pulya.form import TricksRefused
from scorepad.core.i18n import catalog
from scorepad.scoring.ledger.families import PotSession, replay_family
from scorepad.scoring.ledger.pot import PotDeal

NAMES = ["Anton", "Brigitte", "Charlotte"]


def session(
    convention: str,
    deals: list[dict[str, Any]] | None = None,
    *,
    players: list[str] | None = None,
    **over: Any,
) -> PotSession:
    return PotSession.model_validate(
        {
            "format": "scorepad-session/1",
            "players": players or NAMES,
            "convention": convention,
            "overrides": over,
            "deals": deals or [],
        }
    )


def form(
    convention: str,
    deals: list[dict[str, Any]] | None = None,
    *,
    players: list[str] | None = None,
    **over: Any,
) -> PotForm:
    return PotForm(replay_family(session(convention, deals, players=players, **over)))


def write(f: PotForm) -> Any:
    """The form's deal written after the session's deals by the engine (as the store does)."""
    s = f.scored.session
    return replay_family(s.model_copy(update={"deals": [*s.deals, f.deal()]}))


def stored(convention: str, deals: list[dict[str, Any]]) -> Any:
    """What the store gives the family's functions (the fields they read)."""
    s = session(convention, deals)
    scored = replay_family(s)
    return SimpleNamespace(
        session=s,
        scored=scored,
        journal=SimpleNamespace(live=[SimpleNamespace(deal=d) for d in s.deals]),
    )


def en(m: Any) -> str:
    return catalog("en").render(m)


# --- what each game offers -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("convention", "kinds"),
    [
        ("austrian-1829", ["game", "bete"]),
        ("austrian", ["game", "concede", "allpass"]),
        ("illustrated", ["game", "nonsuit", "concede", "allpass"]),
        ("american", ["game", "allpass"]),
        ("swabian", ["swabian"]),
    ],
)
def test_each_game_offers_its_own_kinds_of_deal(convention: str, kinds: list[str]) -> None:
    f = form(convention)
    assert f.kinds() == kinds
    assert f.kind == kinds[0]
    with pytest.raises(ValueError, match="not a deal of this game"):
        f.choose_kind("bete" if "bete" not in kinds else "swabian")


def test_modern_defenders_play_drop_or_invite_and_the_invited_one_says_nothing() -> None:
    f = form("austrian")
    f.choose_declarer(1)
    f.choose_suit("S")
    assert f.defenders() == [2, 0]
    assert f.role_options(2) == ["play", "drop", "invite"]
    f.say(2, "invite")
    assert f.defence == {2: "invite", 0: "invited"}
    assert f.role_options(0) == []
    assert f.trick_seats() == [1, 2, 0]
    f.say(2, "drop")  # the invitation withdrawn: the other had passed
    assert f.defence == {2: "drop", 0: "drop"}
    assert f.trick_seats() == []
    assert not f.played


def test_the_rules_of_1829_have_no_invitation_and_no_premium() -> None:
    f = form("austrian-1829")
    f.choose_declarer(0)
    f.choose_suit("D")
    assert f.role_options(1) == ["play", "drop"]
    assert f.premiums() == []
    with pytest.raises(ValueError, match="cannot say 'invite'"):
        f.say(1, "invite")


def test_american_has_no_defence_and_the_declarers_tricks_only() -> None:
    f = form("american")
    f.choose_declarer(1)
    f.choose_suit("H")
    assert not f.has_defence and not f.hand_offered()
    assert f.trick_seats() == [1]
    assert f.trick_choices(1) == list(range(11))
    f.set_chips(0, 3)
    f.set_chips(1, 5)
    f.set_tricks(1, 5)
    assert f.to_deal() == {
        "type": "game",
        "declarer": 1,
        "suit": "H",
        "tricks": {"1": 5},
        "second_round": {"0": 3, "1": 5},
    }


def test_premiums_are_one_choice_of_three_in_the_modern_game() -> None:
    f = form("austrian")
    f.choose_declarer(0)
    assert f.premiums() == []  # no trump yet
    f.choose_suit("C")
    assert f.premiums() == ["none", "four_aces", "no_aces"]
    f.choose_premium("no_aces")
    assert f.to_deal()["no_aces"] is True and "four_aces" not in f.to_deal()


def test_tricks_one_tap_a_seat_the_last_one_filled_in() -> None:
    f = form("austrian")
    f.choose_declarer(0)
    f.choose_suit("D")
    assert f.tricks == {}  # no count starts chosen (issue #21)
    f.set_tricks(0, 7)
    assert f.tricks == {0: 7}  # the last seat is not filled in before the others are chosen
    assert f.trick_choices(1) == [0, 1, 2, 3]
    assert f.trick_choices(2) == []  # filled in
    with pytest.raises(TricksRefused, match="4 is not possible: Anton has 7"):
        f.set_tricks(1, 4)
    f.set_tricks(1, 2)
    assert f.tricks == {0: 7, 1: 2, 2: 1}
    f.say(2, "drop")
    assert f.tricks == {}  # what was counted with him in play is chosen again
    f.set_tricks(0, 6)
    assert f.tricks == {0: 6, 1: 4}  # Brigitte, the last in play, takes the rest


def test_a_fresh_pot_form_cannot_be_written_until_every_count_is_tapped() -> None:
    """Issue #21: no count is written that nobody chose; the first seat still to choose is named
    (the pulya's sentence), the last seat in play filled in only after the others."""
    f = form("austrian")
    f.choose_declarer(1)
    f.choose_suit("H")
    assert f.trick_seats() == [1, 2, 0]
    assert f.tricks == {}
    assert en(f.missing()) == "Brigitte: how many tricks?"
    assert f.preview() == ([], "Brigitte: how many tricks?")
    assert catalog("ru").render(f.missing()) == "Brigitte: сколько взяток?"
    f.set_tricks(1, 6)
    assert f.tricks == {1: 6}  # Anton, the last, not filled in before Charlotte is chosen
    assert en(f.missing()) == "Charlotte: how many tricks?"
    assert f.preview()[1] == "Charlotte: how many tricks?"
    f.set_tricks(2, 3)
    assert f.tricks == {1: 6, 2: 3, 0: 1}
    assert f.missing() is None
    assert f.to_deal()["tricks"] == {"1": 6, "2": 3, "0": 1}
    assert write(f).session.deals[-1].tricks == {1: 6, 2: 3, 0: 1}


def test_a_four_player_game_fills_the_last_seat_only_after_both_others() -> None:
    f = form("austrian", players=[*NAMES, "Dora"])  # Anton deals and sits out
    f.choose_declarer(3)
    f.choose_suit("S")
    assert f.trick_seats() == [3, 1, 2]
    f.set_tricks(1, 2)  # a defender first: the declarer's count is still to choose
    assert f.tricks == {1: 2}
    assert en(f.missing()) == "Dora: how many tricks?"
    f.set_tricks(3, 8)
    assert f.tricks == {1: 2, 3: 8, 2: 0}
    with pytest.raises(TricksRefused, match="Charlotte: the rest of the ten, filled in"):
        f.set_tricks(2, 1)


def written_tricks(f: PotForm) -> Any:
    """The count the form's deal would write (None: the deal cannot be built without it)."""
    try:
        return f.deal().model_dump(mode="json").get("tricks")
    except ValidationError:
        return None


@pytest.mark.parametrize(
    ("convention", "choose", "seat", "n"),
    [
        ("illustrated", lambda f: (f.choose_kind("nonsuit"), f.choose_contract("bettel")), 0, 0),
        (
            "illustrated",
            lambda f: (f.choose_kind("nonsuit"), f.choose_contract("durchmarsch")),
            0,
            10,
        ),
        ("swabian", lambda f: f.choose_bid(6), 0, 0),  # a Swabian Bettel
        ("swabian", lambda f: f.choose_bid(4), 0, 7),
        ("american", lambda f: f.choose_suit("S"), 0, 6),
    ],
    ids=["bettel", "durchmarsch", "swabian-bettel", "swabian-4", "american"],
)
def test_a_single_count_is_tapped_before_the_deal_is_written(
    convention: str, choose: Any, seat: int, n: int
) -> None:
    f = form(convention)
    f.choose_declarer(seat)
    choose(f)
    assert f.trick_seats() == [seat]
    assert f.tricks == {}
    assert not written_tricks(f)  # nothing taken for granted, not even a Bettel's 0
    assert f.preview() == ([], "Anton: how many tricks?")
    f.set_tricks(seat, n)
    assert f.missing() is None and f.preview()[1] is None
    assert write(f).session.deals[-1].model_dump(mode="json")["tricks"] in (n, {str(seat): n})


def test_choosing_the_contract_again_forgets_the_count() -> None:
    f = form("illustrated")
    f.choose_kind("nonsuit")
    f.choose_declarer(0)
    f.choose_contract("bettel")
    f.set_tricks(0, 0)
    f.choose_contract("plauderer")
    assert f.tricks == {}
    assert en(f.missing()) == "Anton: how many tricks?"


# --- deals written through the form, with the digest's figures -------------------------------


def test_a_e1_then_the_bete_then_a_e4_the_session_of_a_e6() -> None:
    f = form("austrian-1829")
    f.choose_declarer(0)
    f.choose_suit("D")
    f.set_tricks(0, 6)
    f.set_tricks(1, 2)
    assert f.preview() == (
        [
            "Anton: diamonds, 6 tricks",
            "Anton takes 30 from the pot",
            "Anton pays Brigitte 6 for tricks",
            "Anton pays Charlotte 6 for tricks",
        ],
        None,
    )
    one = write(f)
    assert one.table.cash == [-222, -234, -234]
    f = PotForm(one)
    assert f.dealer == 1
    f.choose_kind("bete")
    assert f.bete_dealer == 1
    two = write(f)
    f = PotForm(two)
    f.choose_declarer(2)
    f.choose_suit("H")
    f.set_tricks(2, 5)
    f.set_tricks(0, 4)
    assert f.tricks == {2: 5, 0: 4, 1: 1}
    three = write(f)
    assert three.table.cash == [-206, -280, -294]
    assert three.table.pot == 780
    assert three.results() == (54, -20, -34)


def test_b_e6_hand_hearts_with_a_short_defender() -> None:
    f = form("austrian")
    f.choose_declarer(0)
    f.choose_suit("H")
    f.set_hand(True)
    f.set_tricks(0, 7)
    f.set_tricks(1, 2)
    done = write(f)
    assert done.table.cash == [-50 + 27, -50 - 8, -50 - 19]
    assert done.table.pot == 150


def test_b_e5_an_invitation() -> None:
    f = form("austrian")
    f.choose_declarer(0)
    f.choose_suit("C")
    f.say(1, "invite")
    f.set_tricks(0, 5)
    f.set_tricks(1, 3)
    assert f.to_deal()["defence"] == {"1": "invite", "2": "invited"}
    done = write(f)
    assert done.table.cash == [-75, -45, -50]
    assert done.table.pot == 170


def test_a_concession_pays_five_to_the_one_who_stayed() -> None:
    f = form("austrian")
    f.choose_kind("concede")
    f.choose_declarer(2)
    f.say(0, "drop")
    assert f.trick_seats() == []
    assert f.preview()[0] == ["Charlotte gives up", "Charlotte gives up: pays Brigitte 5"]
    assert write(f).table.cash == [-50, -45, -55]


def test_giving_up_is_not_offered_once_both_defenders_dropped_out() -> None:
    """Issue 38 item 5: with both out the declarer has won (B5); the entry offers no second drop
    on a concession (the engine refuses it), and the game both drop takes 10 from the pot."""
    f = form("austrian")
    f.choose_kind("concede")
    f.choose_declarer(2)
    f.say(0, "drop")
    assert "drop" not in f.role_options(1)
    f.choose_kind("game")
    f.choose_declarer(2)
    f.choose_suit("D")
    f.say(0, "drop")
    f.say(1, "drop")
    assert write(f).table.cash == [-50, -50, -40]


def test_b10_an_all_pass_redeal_in_an_unlimited_pot_is_one_tap() -> None:
    f = form("austrian", pot_mode="unlimited")
    f.choose_kind("allpass")
    assert f.declarers() == [] and f.missing() is None
    assert f.to_deal() == {"type": "allpass", "dealer": 0}
    assert f.preview()[0] == [
        "All pass: the cards are redealt",
        "Anton deals and adds 10 to the pot",
        "all passed: the cards are redealt, Brigitte deals next",
    ]
    done = write(f)
    assert done.table.pot == 10 and done.table.dealer == 1


def test_b9_a_concession_names_its_suit_where_the_payments_multiply() -> None:
    f = form("austrian", multiply_by_bid=True)
    f.choose_kind("concede")
    f.choose_declarer(0)
    assert en(f.missing()) == "choose the trump"
    f.choose_suit("D")
    assert f.to_deal()["suit"] == "D"
    assert f.preview()[0][1:] == [
        "Anton gives up: pays Brigitte 9",
        "Anton gives up: pays Charlotte 9",
    ]


def test_four_players_the_dealer_sits_out_of_the_form() -> None:
    # B11: Dora deals (first_dealer 0 is Anton: he sits out).
    f = form("austrian", players=[*NAMES, "Dora"])
    assert f.dealer == 0 and f.declarers() == [1, 2, 3]
    f.choose_declarer(3)
    assert f.defenders() == [1, 2]
    f.choose_suit("H")
    assert f.trick_seats() == [3, 1, 2]
    f.set_tricks(3, 6)
    f.set_tricks(1, 2)
    done = write(f)
    assert done.table.cash[0] == -50 and done.table.dealer == 1


def test_c_e2_plauderer_from_the_hand_with_one_contra() -> None:
    f = form("illustrated")
    f.choose_kind("nonsuit")
    f.choose_declarer(0)
    assert f.missing() is not None
    f.choose_contract("plauderer")
    f.set_hand(True)
    f.set_contra(1, True)
    assert f.tricks == {}
    f.set_tricks(0, 0)
    done = write(f)
    assert done.table.cash == [-50 + 180, -50 - 120, -50 - 60]
    assert en(done.deals[-1].postings[0].why) == "Brigitte pays Anton 120: Plauderer"


def test_e_e3_swabian_bettel_contra_and_recontra() -> None:
    f = form("swabian")
    f.choose_declarer(0)
    f.choose_bid(6)
    assert not f.recontra_offered
    f.set_contra(1, True)
    f.set_recontra(True)
    assert f.tricks == {}
    f.set_tricks(0, 0)
    assert write(f).table.cash == [30, -24, -6]
    assert en(title(f.deal(), NAMES)) == "Anton: Bettel, recontra, 0 tricks"


def test_a_kunstwerk_is_offered_only_where_the_dealer_is_paid() -> None:
    f = form("swabian")  # Anton deals
    f.choose_declarer(0)
    f.choose_bid(4)
    assert not f.kunstwerk_offered  # the dealer declares himself
    f.choose_declarer(1)
    f.choose_bid(4)
    assert f.kunstwerk_offered
    f.set_kunstwerk(True)
    f.set_hand(True)
    assert not f.kunstwerk  # a hand game takes no talon
    f.set_hand(False)
    f.set_kunstwerk(True)
    f.set_tricks(1, 7)
    assert f.to_deal()["dealer"] == 0
    assert write(f).table.cash == [-5 + 2, 10 - 2, -5]


def test_f_e2_american_second_round() -> None:
    over = {"payout": {"S": 1, "C": 2, "D": 3, "H": 4}}
    f = form("american", **over)
    f.choose_declarer(1)
    f.choose_suit("C")
    f.set_chips(0, 3)
    f.set_chips(1, 5)
    f.set_tricks(1, 5)
    done = write(f)
    assert done.table.cash == [-10 - 3, -10 - 17, -10]
    assert done.table.pot == 50


# --- load, edit, carry ---------------------------------------------------------------------

DEALS = [
    {
        "type": "game",
        "declarer": 0,
        "suit": "D",
        "defence": {"1": "play", "2": "drop"},
        "tricks": {"0": 7, "1": 3},
    },
    {
        "type": "game",
        "declarer": 1,
        "suit": "H",
        "hand": True,
        "defence": {"2": "invite", "0": "invited"},
        "tricks": {"1": 6, "2": 3, "0": 1},
    },
    {
        "type": "game",
        "declarer": 2,
        "suit": "S",
        "defence": {"0": "drop", "1": "drop"},
        "four_aces": True,
    },
    {"type": "concede", "declarer": 0, "defence": {"1": "play", "2": "play"}},
    {
        "type": "nonsuit",
        "declarer": 1,
        "contract": "durchmarsch",
        "hand": False,
        "contra": {"0": True, "2": True},
        "recontra": True,
        "tricks": 9,
    },
]


def test_a_written_deal_loads_and_writes_back_the_same() -> None:
    st_ = stored("illustrated", DEALS)
    for index, deal in enumerate(st_.session.deals):
        f = edit_form(st_, index)
        assert len(f.scored.deals) == index  # its context: the deals before it
        assert f.deal() == deal
        assert f.preview()[1] is None


def test_carry_keeps_the_choices_on_a_newer_state() -> None:
    f = new_form(stored("illustrated", DEALS[:1]))
    f.choose_kind("nonsuit")
    f.choose_declarer(2)
    f.choose_contract("bettel")
    f.set_contra(0, True)
    f.set_tricks(2, 0)
    newer = stored("illustrated", DEALS[:2])
    g = carry(f, newer)
    assert g.scored is newer.scored
    assert g.to_deal() == f.to_deal()
    assert g.preview()[1] is None


def test_carry_of_a_kunstwerk_follows_the_new_dealer() -> None:
    deal = {"type": "swabian", "declarer": 2, "bid": 3, "tricks": 6}
    f = new_form(stored("swabian", []))  # Anton deals
    f.choose_declarer(1)
    f.choose_bid(3)
    f.set_kunstwerk(True)
    g = carry(f, stored("swabian", [deal]))  # now Brigitte deals, and declares
    assert g.dealer == 1
    assert not g.kunstwerk and (g.declarer, g.bid) == (1, 3)  # the other choices carried
    g.set_tricks(1, 6)
    assert "kunstwerk" not in g.to_deal()


# --- every path through the form gives a deal the engine writes ------------------------------


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    convention=st.sampled_from(["austrian-1829", "austrian", "illustrated", "american", "swabian"]),
    data=st.data(),
)
def test_any_sequence_of_offered_choices_writes(convention: str, data: st.DataObject) -> None:
    four = convention not in ("american", "swabian") and data.draw(st.booleans())
    f = form(convention, players=[*NAMES, "Dora"] if four else None)
    pick = lambda xs: data.draw(st.sampled_from(xs))  # noqa: E731
    f.choose_kind(pick(f.kinds()))
    if f.kind == "bete":
        f.choose_bete_dealer(pick(f.bete_dealers()))
    elif f.kind != "allpass":
        f.choose_declarer(pick(f.declarers()))
        if f.suits():
            f.choose_suit(pick(f.suits()))
        if f.contracts():
            f.choose_contract(pick(f.contracts()))
        if f.bids():
            f.choose_bid(pick(f.bids()))
        if f.hand_offered():
            f.set_hand(data.draw(st.booleans()))
        for seat in f.defenders():
            if f.role_options(seat):
                f.say(seat, pick(f.role_options(seat)))
        if f.has_contra:
            for seat in f.defenders():
                f.set_contra(seat, data.draw(st.booleans()))
            f.set_recontra(data.draw(st.booleans()))
            f.set_kunstwerk(data.draw(st.booleans()))
        if f.premiums():
            f.choose_premium(pick(f.premiums()))
        if f.has_second_round:
            for seat in f.seats:
                f.set_chips(seat, data.draw(st.integers(0, 9)))
        for seat in f.trick_seats():
            if f.trick_choices(seat):
                f.set_tricks(seat, pick(f.trick_choices(seat)))
    sentences, problem = f.preview()
    assert problem is None, f.to_deal()
    done = write(f)
    assert sum(done.table.cash) + done.table.pot == 0
    assert sentences[1:] == [en(m) for m in _explain(done)] or sentences[1:] == [
        "nobody pays anything"
    ]
    g = PotForm(f.scored)
    g.load(f.deal())
    assert g.to_deal() == f.to_deal()


def _explain(done: Any) -> list[Any]:
    from scorepad.scoring.ledger.ledger import explanations

    return explanations(done.deals[-1].postings)


# --- through a real store ---------------------------------------------------------------------


def test_deals_entered_through_the_form_are_written_edited_and_carried_by_the_store(
    tmp_path: Any,
) -> None:
    from scorepad.store import Store

    with Store(tmp_path / "pot.db") as store:
        sid = store.create_session(NAMES, convention="illustrated")
        stored_ = store.load(sid)
        for deal in DEALS:
            f = new_form(stored_)
            f.load(deal)
            assert f.preview()[1] is None
            stored_ = store.add_deal(sid, typed(store, sid, f.to_deal()), seen=stored_.revision)
        assert list(stored_.session.deals) == [
            TypeAdapter(PotDeal).validate_python(d) for d in DEALS
        ]
        # Edit deal 2 (an invitation becomes both playing) with its own context.
        f = edit_form(stored_, 1)
        assert f.dealer == 1 and f.defence == {2: "invite", 0: "invited"}
        f.say(2, "play")
        assert f.defence == {2: "play", 0: "drop"}  # he had passed before he was invited
        f.say(0, "play")
        f.set_tricks(1, 6)
        f.set_tricks(2, 3)
        deal_id = stored_.journal.live[1].deal_id
        stored_ = store.edit_deal(
            sid,
            deal_id,
            typed(store, sid, f.to_deal()),
            reason="both played",
            seen=stored_.revision,
        )
        assert stored_.session.deals[1].defence == {2: "play", 0: "play"}  # type: ignore[union-attr]
        # A form drawn before another device wrote a deal, carried onto the newer state.
        old = new_form(stored_)
        old.choose_declarer(2)
        old.choose_suit("H")
        newer = store.add_deal(sid, typed(store, sid, DEALS[0]), seen=stored_.revision)
        g = carry(old, newer)
        assert len(g.scored.deals) == len(DEALS) + 1
        assert g.to_deal() == old.to_deal()


def test_american_preference_offers_no_premium_it_would_not_pay() -> None:
    f = form("american")
    f.choose_declarer(0)
    f.choose_suit("H")
    assert f.premiums() == []
    g = form("illustrated")
    g.choose_declarer(0)
    g.choose_suit("H")
    g.set_tricks(0, 4)  # failed: four aces would not pay, but it is still a thing to write
    assert g.premiums() == ["none", "four_aces", "no_aces"]


def test_a_re_ante_shows_in_the_preview_and_on_the_sheet() -> None:
    over = {"payout": {"S": 1, "C": 2, "D": 3, "H": 4}}
    first = {"type": "game", "declarer": 1, "suit": "H", "tricks": {"1": 7}}  # F-E1: pot 30 → 2
    f = form("american", [first], **over)
    assert f.table.pot == 2
    f.choose_declarer(0)
    f.choose_suit("C")  # 6 tricks at 2: the pot cannot pay 12, so everyone antes again first
    f.set_tricks(0, 6)
    assert f.preview() == (
        ["Anton: clubs, 6 tricks", "everyone antes 10", "Anton takes 12 from the pot"],
        None,
    )
    s = pot_sheet(write(f))
    assert [en(m) for m in s.rows[1].explain] == [
        "everyone antes 10",
        "Anton takes 12 from the pot",
    ]
    assert s.rows[1].cash_change == (-10 + 12, -10, -10)
    assert (s.rows[0].pot, s.rows[1].pot_change, s.rows[1].pot) == (2, 30 - 12, 20)
