"""The pot and direct families: every worked example of central-european §1, §2, §3, §5, §6."""

from __future__ import annotations

import contextlib
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

from scorepad.core.i18n import msg
from scorepad.scoring.ledger.ledger import Account, Posting, explanations
from scorepad.scoring.ledger.pot import PotDeal, PotError, PotSettings, PotTable, results

DEAL: TypeAdapter[Any] = TypeAdapter(PotDeal)
A, B, C = 0, 1, 2


def table(names: list[str] | None = None, **settings: Any) -> PotTable:
    return PotTable.start(PotSettings(**settings), names or ["A", "B", "C"])


def play(t: PotTable, **deal: Any) -> None:
    t.play(DEAL.validate_python(deal))


def moved(t: PotTable, before: list[Any]) -> list[Any]:
    return [c - b for c, b in zip(t.cash, before, strict=True)]


def game(
    declarer: int, suit: str, tricks: dict[int, int] | None, roles: dict[int, str], **extra: Any
) -> dict[str, Any]:
    return {
        "type": "game",
        "declarer": declarer,
        "suit": suit,
        "defence": roles,
        "tricks": tricks,
        **extra,
    }


BOTH = {1: "play", 2: "play"}


@pytest.mark.parametrize(
    ("suit", "tricks", "change", "pot"),
    [
        # A-E1: Anton draws 30 kr and pays Brigitte and Charlotte 6 kr each.
        ("D", {A: 6, B: 2, C: 2}, [18, 6, 6], -30),
        # A-E2: Karl pays Anne 21 kr and Berti 6 kr out of his own pocket.
        ("D", {A: 7, B: 2, C: 1}, [21, 6, -27], 0),
        # A-E3: Anton pays 30 kr into the pot, Brigitte 9 kr and Charlotte 6 kr.
        ("D", {A: 5, B: 3, C: 2}, [-45, 9, 6], 30),
        # A-E4: Anne and Karl pay 40 kr each into the pot; Anne pays Berti 16 and Karl 4.
        ("H", {A: 5, B: 4, C: 1}, [-60, 16, -36], 80),
    ],
)
def test_austrian_1829_examples(
    suit: str, tricks: dict[int, int], change: list[int], pot: int
) -> None:
    t = table(system="1829", ante=240)
    before, pot0 = t.cash, t.pot
    play(t, **game(A, suit, tricks, BOTH))
    assert moved(t, before) == change
    assert t.pot - pot0 == pot


def test_a_e5_both_drop_out() -> None:
    t = table(system="1829", ante=240)
    play(t, **game(A, "S", None, {1: "drop", 2: "drop"}))
    assert moved(t, [-240] * 3) == [20, 0, 0] and t.pot == 700


def test_a_e6_a_three_deal_session_and_its_cash_out() -> None:
    t = table(["Anton", "Brigitte", "Charlotte"], system="1829", ante=240)
    play(t, **game(A, "D", {A: 6, B: 2, C: 2}, BOTH))
    assert t.pot == 690
    play(t, type="bete", dealer=B)
    assert t.pot == 700
    play(t, **game(C, "H", {C: 5, A: 4, B: 1}, {A: "play", B: "play"}))
    assert t.pot == 780
    assert t.cash == [-206, -280, -294]
    assert results(t) == (54, -20, -34)


def test_1829_two_short_defenders_literal_and_split() -> None:
    t = table(system="1829", ante=240)
    play(t, **game(A, "D", {A: 8, B: 1, C: 1}, BOTH))
    # Literal: each pays everyone in play for his tricks: 8×3 to A and 1×3 to the other (cancels).
    assert moved(t, [-240] * 3) == [48, -24, -24] and t.pot == 720
    t = table(system="1829", ante=240, short_pair="split")
    play(t, **game(A, "D", {A: 8, B: 1, C: 1}, BOTH))
    assert moved(t, [-240] * 3) == [24, -12, -12]


def test_1829_hand_games_double_price_and_value() -> None:
    t = table(system="1829", ante=240)
    play(t, **game(A, "D", {A: 6, B: 2, C: 2}, BOTH, hand=True))
    assert moved(t, [-240] * 3) == [60 - 24, 12, 12]


def test_b_e1_hearts_with_a_short_defender() -> None:
    t = table(["Gerti", "Franz", "Hans"], system="modern", ante=50)
    play(t, **game(A, "H", {A: 6, B: 3, C: 1}, BOTH))
    assert moved(t, [-50] * 3) == [6, 3, -9] and t.pot == 150


@pytest.mark.parametrize(
    ("collects", "change", "pot"), [(False, [-26, 4, 2], 170), (True, [-16, 4, 2], 160)]
)
def test_b_e2_the_two_readings_of_a_failure(collects: bool, change: list[int], pot: int) -> None:
    t = table(system="modern", ante=50, failed_declarer_collects=collects)
    play(t, **game(A, "S", {A: 4, B: 4, C: 2}, BOTH))
    assert moved(t, [-50] * 3) == change and t.pot == pot


def _pot(t: PotTable, amount: int) -> None:
    t.ledger.post(
        [
            Posting(Account("pot"), amount - t.pot, msg("test")),
            Posting(Account("cash", 2), t.pot - amount, msg("test")),
        ]
    )


def test_b_e3_the_unlimited_pot() -> None:
    t = table(system="modern", pot_mode="unlimited", failed_declarer_collects=True)
    _pot(t, 30)  # the dealer adds his 10: the pot holds 40
    t.dealer = C
    before = t.cash
    play(t, **game(A, "S", {A: 5, B: 4, C: 1}, BOTH))
    # Takes 40, pays 16 and 4, puts 80 in; the defender with one trick adds 40.
    assert moved(t, before) == [40 - 16 - 4 - 80, 16, 4 - 40 - 10]
    assert t.pot == 120
    play(t, type="concede", declarer=B, defence={0: "play", 2: "play"})
    assert t.pot == 130  # the new dealer adds his 10: «the next deal is played for a pot of 130»


def test_b10_every_dealer_antes_also_when_all_pass_and_the_cards_are_redealt() -> None:
    # B10, B-Q7 (pagat: redeal by the next dealer): three all-pass deals put 30 in, the fourth
    # dealer's 10 makes the 40 of B-E3, and B-E3's deal leaves 120 + the next dealer's 10 = 130.
    t = table(system="modern", pot_mode="unlimited", failed_declarer_collects=True)
    assert t.pot == 0 and t.dealer == A
    for dealer in (A, B, C):
        t.play(DEAL.validate_python({"type": "allpass", "dealer": dealer}))
    assert t.pot == 30 and t.cash == [-10, -10, -10] and t.dealer == A
    before = t.cash
    play(t, **game(B, "S", {B: 5, A: 4, C: 1}, {0: "play", 2: "play"}, dealer=A))
    assert moved(t, before) == [-10 + 16, 40 - 16 - 4 - 80, 4 - 40]
    assert t.pot == 120
    out = t.play(DEAL.validate_python({"type": "allpass"}))
    assert t.pot == 130  # «the next deal is played for a pot of 130»
    assert [m.render("en") for m in explanations(out)] == [
        "B deals and adds 10 to the pot",
        "all passed: the cards are redealt, C deals next",
    ]
    assert sum(t.cash) + t.pot == 0


def test_a_fixed_pot_redeal_moves_only_the_dealer() -> None:
    t = table(system="modern", ante=50)
    out = t.play(DEAL.validate_python({"type": "allpass"}))
    assert (t.cash, t.pot, t.dealer) == ([-50] * 3, 150, B)
    assert [p.account.kind for p in out] == ["note"]


@pytest.mark.parametrize(
    "deal",
    [
        {"type": "allpass", "dealer": 2},
        game(A, "C", {A: 6, B: 2, C: 2}, BOTH, dealer=0),
        {"type": "concede", "declarer": 0, "defence": BOTH, "dealer": 2},
    ],
)
def test_a_dealer_out_of_the_rotation_is_refused(deal: dict[str, Any]) -> None:
    t = table(system="modern", pot_mode="unlimited")
    t.play(DEAL.validate_python({"type": "allpass"}))  # A dealt: B deals now
    before = (t.cash, t.pot, t.dealer)
    with pytest.raises(PotError, match="the dealer of this deal is B, by the rotation") as err:
        play(t, **deal)
    assert err.value.field == "dealer"
    assert (t.cash, t.pot, t.dealer) == before


@pytest.mark.parametrize("system", ["1829", "swabian"])
def test_no_redeal_where_the_rules_have_none(system: str) -> None:
    # 1829: the dealer takes the talon or pays the Bete (A6); Swabian: forehand must bid (E-Q2).
    t = table(system=system)
    with pytest.raises(PotError, match="does not exist") as err:
        play(t, type="allpass")
    assert err.value.field == "type"


def test_b_e4_the_limited_pot() -> None:
    t = table(system="modern", pot_mode="limited", pot_cap=100)
    _pot(t, 120)
    t.dealer = C
    play(t, **game(A, "S", {A: 6, B: 3, C: 1}, BOTH))  # 130 in the pot, 100 in play
    assert t.pot == 130 - 100 + 100
    assert t.cash[A] == 100 - 30 - 10


def test_b_e5_an_invitation() -> None:
    t = table(["Franz", "Gerti", "Hans"], system="modern", ante=50)
    play(t, **game(A, "C", {A: 5, B: 3, C: 2}, {1: "invite", 2: "invited"}))
    assert moved(t, [-50] * 3) == [-25, 5, 0] and t.pot == 170


def test_b_e6_hand_hearts_with_a_short_defender() -> None:
    t = table(["Franz", "Gerti", "Hans"], system="modern", ante=50)
    play(t, **game(A, "H", {A: 7, B: 2, C: 1}, BOTH, hand=True))
    assert moved(t, [-50] * 3) == [27, -8, -19] and t.pot == 150


def test_b7_a_concession() -> None:
    t = table(system="modern", ante=50)
    play(t, type="concede", declarer=A, defence={1: "play", 2: "play"})
    assert moved(t, [-50] * 3) == [-6, 3, 3]
    play(t, type="concede", declarer=A, defence={1: "drop", 2: "play"})
    assert moved(t, [-50] * 3) == [-11, 3, 8]


def test_b5_b7_a_concession_with_both_defenders_out_is_refused_it_is_the_b5_win() -> None:
    """Issue 38 item 5: "gives up" with both defenders dropping out was written, paying nobody
    anything.  By B5 both out means the declarer is deemed to take all ten and takes 10 from
    the pot; B7's concession pays the defenders who stayed, and none did.  The concession is
    refused (naming the defence) and the table is unchanged; the game both drop is the B5 win."""
    t = table(["Franz", "Gerti", "Hans"], system="modern", ante=50)
    with pytest.raises(PotError) as err:
        play(t, type="concede", declarer=A, defence={1: "drop", 2: "drop"})
    assert err.value.field == "defence"
    assert err.value.message.render("en") == (
        "both defenders dropped out, so Franz has won without play and takes his win from the "
        "pot: write it as a game in which both drop out, not as giving up"
    )
    assert "Franz" in err.value.message.render("de") and t.cash == [-50] * 3 and t.pot == 150
    assert t.dealer == 0  # nothing was written, the deal did not pass on
    play(t, **game(A, "D", None, {1: "drop", 2: "drop"}))  # B5: 10 from the pot, no tricks
    assert moved(t, [-50] * 3) == [10, 0, 0] and t.pot == 140


def test_b9_a_concession_with_its_suit_pays_times_the_bid_number() -> None:
    # B7 × B9: hearts is bid 4: 3 × 4 to each defender, or 5 × 4 to the one who stayed.
    t = table(system="modern", ante=50, multiply_by_bid=True)
    play(t, type="concede", declarer=A, suit="H", defence={1: "play", 2: "play"})
    assert moved(t, [-50] * 3) == [-24, 12, 12]
    play(t, type="concede", declarer=B, suit="S", defence={0: "drop", 2: "play"})
    assert moved(t, [-50] * 3) == [-24, 12 - 10, 12 + 10]
    # Without its suit a concession pays × 1, as it did before the suit could be written.
    play(t, type="concede", declarer=C, defence={0: "play", 1: "play"})
    assert moved(t, [-50] * 3) == [-21, 5, 16] and t.pot == 150


def test_b9_multiplies_pot_amounts_and_tricks_but_not_the_premiums() -> None:
    # Diamonds (3), both defend, 6-3-1, four aces: +10 × 3 from the pot, tricks 3 × 3 and 1 × 3,
    # the short defender pays 10 × 3; the premium stays 10 from each opponent (B8).
    t = table(system="modern", ante=50, multiply_by_bid=True)
    play(t, **game(A, "D", {A: 6, B: 3, C: 1}, BOTH, four_aces=True))
    assert moved(t, [-50] * 3) == [30 - 9 - 3 + 20, 9 - 10, 3 - 30 - 10]
    assert t.pot == 150 - 30 + 30
    # A concession without multiply_by_bid pays 3 whatever its suit.
    t2 = table(system="modern", ante=50)
    play(t2, type="concede", declarer=A, suit="H", defence={1: "play", 2: "play"})
    assert moved(t2, [-50] * 3) == [-6, 3, 3]


def test_b8_four_aces_and_no_ace() -> None:
    t = table(system="modern", ante=50)
    play(t, **game(A, "C", {A: 6, B: 2, C: 2}, BOTH, four_aces=True))
    assert moved(t, [-50] * 3) == [10 - 4 + 20, 2 - 10, 2 - 10]
    t = table(system="modern", ante=50)
    play(t, **game(A, "C", {A: 5, B: 3, C: 2}, BOTH, no_aces=True))
    assert moved(t, [-50] * 3) == [-20 - 5 - 20, 3 + 10, 2 + 10]


def test_styrian_pot() -> None:
    t = table(system="modern", pot_mode="styrian", ante=100)
    play(t, **game(A, "D", {A: 6, B: 3, C: 1}, BOTH))
    # Diamonds win 40 (4 a trick); C is short and pays W = 40.
    assert moved(t, [-100] * 3) == [40 - 12 - 4, 12, 4 - 40]


@pytest.mark.parametrize(
    ("contract", "hand", "tricks", "contra", "recontra", "change"),
    [
        ("bettel", True, 0, {}, False, [40, -20, -20]),  # C-E1
        ("plauderer", True, 0, {1: True}, False, [180, -120, -60]),  # C-E2
        ("open_durchmarsch", False, 9, {}, False, [-80, 40, 40]),  # C-E3
        ("durchmarsch", False, 10, {1: True, 2: True}, True, [160, -80, -80]),  # C-E4
    ],
)
def test_illustrated_contracts_are_paid_directly(
    contract: str,
    hand: bool,
    tricks: int,
    contra: dict[int, bool],
    recontra: bool,
    change: list[int],
) -> None:
    t = table(system="illustrated", ante=50)
    play(
        t,
        type="nonsuit",
        declarer=A,
        contract=contract,
        hand=hand,
        tricks=tricks,
        contra=contra,
        recontra=recontra,
    )
    assert moved(t, [-50] * 3) == change and t.pot == 150


@pytest.mark.parametrize(
    ("bid", "hand", "tricks", "contra", "recontra", "change"),
    [
        (4, False, 7, {}, False, [10, -5, -5]),  # E-E1
        (5, False, 4, {}, False, [-14, 7, 7]),  # E-E2
        (6, False, 0, {1: True}, True, [30, -24, -6]),  # E-E3
        (2, True, 8, {}, False, [4, -2, -2]),  # E-E4
    ],
)
def test_swabian_examples(
    bid: int, hand: bool, tricks: int, contra: dict[int, bool], recontra: bool, change: list[int]
) -> None:
    t = table(system="swabian", family="direct")
    play(
        t,
        type="swabian",
        declarer=A,
        bid=bid,
        hand=hand,
        tricks=tricks,
        contra=contra,
        recontra=recontra,
    )
    assert t.cash == change and t.pot == 0


def test_a_kunstwerk_is_paid_to_the_dealer() -> None:
    t = table(system="swabian", family="direct")
    play(t, type="swabian", declarer=A, bid=4, tricks=6, kunstwerk=True, dealer=C)
    assert t.cash == [-2 + 8, -4, 2 - 4]


RATES = {"S": 1, "C": 2, "D": 3, "H": 4}


def test_f_e1_and_f_e2_american() -> None:
    t = table(system="american", ante=10, payout=RATES)
    play(t, type="game", declarer=B, suit="H", tricks={B: 7})
    assert moved(t, [-10] * 3) == [0, 28, 0] and t.pot == 2
    t = table(["Ann", "Bob", "Cy"], system="american", ante=10, payout=RATES)
    play(t, type="game", declarer=B, suit="C", tricks={B: 5}, second_round={0: 3, 1: 5})
    assert moved(t, [-10] * 3) == [-3, -17, 0] and t.pot == 50


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "en",
            [
                "Ann bids 1 chip into the pot",
                "Bob bids 2 chips into the pot",
                "Cy bids 5 chips into the pot",
            ],
        ),
        (
            "ru",
            [
                "Ann ставит 1 фишку в котёл",
                "Bob ставит 2 фишки в котёл",
                "Cy ставит 5 фишек в котёл",
            ],
        ),
    ],
)
def test_the_second_round_chips_agree_with_their_count(lang: str, said: list[str]) -> None:
    """F1: each bid's sentence takes its language's plural form ("1 chip", "5 фишек")."""
    from scorepad.core.i18n import catalog

    t = table(["Ann", "Bob", "Cy"], system="american", ante=10, payout=RATES)
    postings = t.play(
        DEAL.validate_python(game(B, "S", {B: 7}, {}, second_round={A: 1, B: 2, C: 5}))
    )
    assert [catalog(lang).render(m) for m in explanations(postings)][:3] == said
    assert t.pot == 30 + 1 + 2 + 5 - 7


def test_f_e3_american_per_contract() -> None:
    t = table(
        system="american",
        ante=10,
        payout_mode="per_contract",
        payout={"S": 10, "C": 10, "D": 10, "H": 10},
        failure_penalty=10,
    )
    play(t, type="game", declarer=C, suit="D", tricks={C: 6})
    play(t, type="game", declarer=C, suit="S", tricks={C: 5})
    assert moved(t, [-10] * 3) == [0, 0, 0]
    assert t.pot == 30


def test_the_players_ante_again_before_a_win_the_pot_cannot_pay() -> None:
    t = table(system="modern", ante=5)  # a pot of 15 pays one win of 10
    play(t, **game(A, "C", {A: 6, B: 2, C: 2}, BOTH))
    assert t.pot == 5
    play(t, **game(B, "C", {B: 6, A: 2, C: 2}, {0: "play", 2: "play"}))
    assert t.pot == 5 + 15 - 10  # everyone antes 5 again before the second win


@pytest.mark.parametrize(
    ("system", "deal", "field", "words"),
    [
        ("1829", {"type": "concede", "declarer": 0, "defence": BOTH}, "type", "does not exist"),
        ("modern", game(A, "C", {A: 6, B: 2, C: 1}, BOTH), "tricks", "sum to 9"),
        (
            "1829",
            game(A, "C", {A: 6, B: 2, C: 2}, {1: "invite", 2: "invited"}),
            "defence",
            "no invitation",
        ),
        ("american", game(A, "C", {A: 6, B: 4}, {}), "tricks", "declarer's tricks only"),
        (
            "modern",
            game(A, "C", {A: 6, B: 4, C: 0}, BOTH, four_aces=True, no_aces=True),
            "no_aces",
            "cannot both",
        ),
    ],
)
def test_illegal_deals_are_refused_and_change_nothing(
    system: str, deal: dict[str, Any], field: str, words: str
) -> None:
    t = table(system=system, ante=50)
    before = (t.cash, t.pot)
    with pytest.raises(PotError, match=words) as err:
        play(t, **deal)
    assert err.value.field == field
    assert (t.cash, t.pot) == before


@st.composite
def pot_deals(draw: st.DrawFn) -> list[dict[str, Any]]:
    out = []
    for _ in range(draw(st.integers(0, 20))):
        d = draw(st.integers(0, 2))
        o = [p for p in range(3) if p != d]
        kind = draw(
            st.sampled_from(["game", "game", "nonsuit", "concede", "swabian", "bete", "allpass"])
        )
        if kind == "game":
            roles = draw(
                st.sampled_from(
                    [("play", "play"), ("play", "drop"), ("invite", "invited"), ("drop", "drop")]
                )
            )
            deal = game(
                d,
                draw(st.sampled_from("CSDH")),
                None,
                {o[0]: roles[0], o[1]: roles[1]},
                hand=draw(st.booleans()),
            )
            if roles != ("drop", "drop"):
                dt = draw(st.integers(0, 10))
                inplay = [p for p, r in zip(o, roles, strict=True) if r != "drop"]
                split = draw(st.integers(0, 10 - dt))
                deal["tricks"] = {d: dt, inplay[0]: split if len(inplay) == 2 else 10 - dt}
                if len(inplay) == 2:
                    deal["tricks"][inplay[1]] = 10 - dt - split
            out.append(deal)
        elif kind == "nonsuit":
            out.append(
                {
                    "type": "nonsuit",
                    "declarer": d,
                    "contract": draw(
                        st.sampled_from(["bettel", "durchmarsch", "plauderer", "open_durchmarsch"])
                    ),
                    "tricks": draw(st.integers(0, 10)),
                    "contra": {o[0]: draw(st.booleans())},
                    "hand": draw(st.booleans()),
                }
            )
        elif kind == "concede":
            out.append(
                {
                    "type": "concede",
                    "declarer": d,
                    "defence": {o[0]: "play", o[1]: draw(st.sampled_from(["play", "drop"]))},
                    "suit": draw(st.sampled_from(["C", "S", "D", "H", None])),
                }
            )
        elif kind == "swabian":
            out.append(
                {
                    "type": "swabian",
                    "declarer": d,
                    "bid": draw(st.integers(2, 7)),
                    "tricks": draw(st.integers(0, 10)),
                    "contra": {o[1]: draw(st.booleans())},
                }
            )
        elif kind == "allpass":
            out.append({"type": "allpass"})
        else:
            out.append({"type": "bete", "dealer": d})
    return out


@settings(max_examples=120, deadline=None)
@given(
    pot_deals(),
    st.sampled_from(["1829", "modern", "illustrated", "swabian", "american"]),
    st.sampled_from(["fixed", "unlimited", "limited", "styrian"]),
    st.booleans(),
    st.booleans(),
    st.sampled_from([3, 4]),
)
def test_standing_is_zero_sum_with_the_pot_and_a_replay_is_identical(
    deals: list[dict[str, Any]], system: str, mode: str, collects: bool, by_bid: bool, n: int
) -> None:
    from support.four import seated

    if system in ("swabian", "american"):
        n = 3  # games of three (§5.1, §6)
    s = PotSettings(
        system=system,  # type: ignore[arg-type]
        pot_mode=mode,  # type: ignore[arg-type]
        failed_declarer_collects=collects,
        multiply_by_bid=by_bid,
        ante=20,
    )

    def run() -> tuple[Any, ...]:
        t = PotTable.start(s, ["A", "B", "C", "D"][:n], first_dealer=2)
        for d in deals:
            dealer, before = t.dealer, t.cash
            with contextlib.suppress(PotError):
                t.play(DEAL.validate_python(seated(d, n, t.dealer)))
                if n == 4 and mode not in ("unlimited", "limited"):
                    # B11: the dealer sitting out neither pays nor receives (but re-antes)
                    assert t.cash[dealer] - before[dealer] in (0, -s.ante)
            assert sum(t.cash) + t.pot == 0
        return results(t), tuple(sorted(t.ledger.totals.items()))

    first = run()
    assert sum(first[0]) == 0
    assert run() == first
    assert all(isinstance(v, int | Fraction) for v in first[0])


def test_four_players_the_dealer_sits_out_a_e1_and_b11() -> None:
    # §1.1 («with 4, the dealer, 'King', sits out»), B11: A-E1 with Dora dealing: Anton +18,
    # Brigitte +6, Charlotte +6, Dora nothing; four antes of 240, the pot 960 − 30.
    t = PotTable.start(
        PotSettings(system="1829", ante=240),
        ["Anton", "Brigitte", "Charlotte", "Dora"],
        first_dealer=3,
    )
    play(t, **game(A, "D", {A: 6, B: 2, C: 2}, BOTH))
    assert t.cash == [-222, -234, -234, -240] and t.pot == 930
    assert results(t) == (
        Fraction(-222 * 4 + 930, 4),
        Fraction(-234 * 4 + 930, 4),
        Fraction(-234 * 4 + 930, 4),
        Fraction(-240 * 4 + 930, 4),
    )
    # Anton deals next and sits out: he cannot declare, and the defence is of the other three.
    with pytest.raises(PotError, match="sits out") as err:
        play(t, **game(A, "D", {A: 6, B: 2, C: 2}, BOTH))
    assert err.value.field == "declarer"
    play(t, **game(B, "S", {B: 6, C: 2, 3: 2}, {2: "play", 3: "play"}, dealer=A))
    assert t.cash[A] == -222 and t.dealer == B


def test_four_players_an_unlimited_pots_dealer_still_adds_his_stake() -> None:
    # B11: «neither pays nor receives (except his dealer's stake in B10)».
    t = PotTable.start(
        PotSettings(system="modern", pot_mode="unlimited"), ["A", "B", "C", "D"], first_dealer=3
    )
    play(t, **game(A, "C", None, {1: "drop", 2: "drop"}))  # D deals: 10 in; A takes it (B5)
    assert t.cash == [10, 0, 0, -10] and t.pot == 0
