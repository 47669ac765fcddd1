"""Greek Prefa (the kassa family): PAG-GR's fourteen examples, G-E15, G-E16, and invariants."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.core.i18n import msg
from scorepad.scoring.ledger.kassa import KassaError, KassaGame, KassaSettings, KassaTable, results
from scorepad.scoring.ledger.ledger import Account, Posting

# Seats in turn order: the declarer D, then A (on his right, next in turn), then B (his left).
D, A, B = 0, 1, 2


def play(
    t: KassaTable, contract: str, defence: dict[int, str], tricks: dict[int, int] | None
) -> None:
    t.play(
        KassaGame.model_validate(
            {
                "type": "game",
                "declarer": D,
                "contract": contract,
                "defence": defence,
                "tricks": tricks,
            }
        )
    )


def chips(t: KassaTable) -> tuple[Any, ...]:
    return results(t)


# (contract, defence of A and B, tricks D–A–B, declarer's kassa change, chips of D, A, B)
FOURTEEN = [
    (1, "6S", ("whist", "whist"), (6, 1, 3), -2, (-2 * 4, 2 * 1, 2 * 3)),
    (2, "6S", ("whist", "whist"), (6, 0, 4), -2, (-2 * 4, 0, 2 * 4)),
    (3, "6D", ("whist", "whist"), (5, 3, 2), 4, (-4 * 5, 4 * 3, 4 * 2)),
    (4, "6D", ("whist", "whist"), (4, 4, 2), 4 * 2, (-4 * 6 * 2, 4 * 4 * 2, 4 * 2 * 2)),
    (5, "6H", ("whist", "whist"), (7, 1, 2), 0, (5 * 7, -5 * 9, 5 * 2)),
    (6, "6H", ("whist", "whist"), (7, 0, 3), 0, (5 * 7, -5 * 10, 5 * 3)),
    (7, "7H", ("whist", "whist"), (10, 0, 0), 0, (7 * 10 * 2 + 7 * 10, -7 * 10 * 2, -7 * 10)),
    (8, "7S", ("invite", "invited"), (7, 2, 1), -7, (-7 * 3, 7 * 3, 0)),
    (9, "7D", ("invite", "invited"), (6, 3, 1), 7, (-7 * 4, 7 * 4, 0)),
    (10, "7H", ("invite", "invited"), (8, 1, 1), 0, (7 * 8, -7 * 8, 0)),
    (11, "7H", ("invite", "invited"), (10, 0, 0), 0, (7 * 10 * 3, -7 * 10 * 3, 0)),
    (12, "8S", ("whist", "pass"), (9, 1, None), -8, (-8 * 1, 8 * 1, 0)),
    (13, "8D", ("whist", "pass"), (7, 3, None), 8, (-8 * 3, 8 * 3, 0)),
    (14, "8H", ("whist", "pass"), (10, 0, None), 0, (8 * 10, -8 * 10, 0)),
]


@pytest.mark.parametrize(("number", "contract", "roles", "tricks", "kassa", "moved"), FOURTEEN)
def test_pag_gr_fourteen_examples(
    number: int,
    contract: str,
    roles: tuple[str, str],
    tricks: tuple[Any, ...],
    kassa: int,
    moved: tuple[int, int, int],
) -> None:
    t = KassaTable.start(KassaSettings(kassa=31), ["D", "A", "B"])
    given = {D: tricks[0], A: tricks[1]}
    if tricks[2] is not None:
        given[B] = tricks[2]
    play(t, contract, {A: roles[0], B: roles[1]}, given)
    assert t.kassas == [31 + kassa, 31, 31]
    assert chips(t) == moved


def test_g_e15_the_score_sheet() -> None:
    # A, B, C of the sheet; C is on A's right (B, on A's left, was short), so the turn order is A, C, B.
    a, c, b = 0, 1, 2
    t = KassaTable.start(KassaSettings(kassa=31), ["A", "C", "B"])
    # Deal 1: C plays 6♠ (2), A and B whist and take 2 each.
    t.play(
        KassaGame.model_validate(
            {
                "type": "game",
                "declarer": c,
                "contract": "6S",
                "defence": {a: "whist", b: "whist"},
                "tricks": {c: 6, a: 2, b: 2},
            }
        )
    )
    assert t.kassas[c] == 29
    # Deal 2: A plays 7♥ (7), takes 8; C 2, B 0: B pays A 7 × 8 = 56 and C 7 × 2 = 14.
    t.play(
        KassaGame.model_validate(
            {
                "type": "game",
                "declarer": a,
                "contract": "7H",
                "defence": {c: "whist", b: "whist"},
                "tricks": {a: 8, c: 2, b: 0},
            }
        )
    )
    assert results(t) == (60, 6, -66)  # A +60, C +6, B −66
    assert t.kassas == [31, 29, 31]


def _kassas(t: KassaTable, target: list[int]) -> None:
    why = msg("test")
    t.ledger.post(
        Posting(Account("kassa", p), v - k, why)
        for p, (v, k) in enumerate(zip(target, t.kassas, strict=False))
    )


@pytest.mark.parametrize(
    ("kassas", "after", "received"),
    [
        ([4, 10, 20], [0, 10, 15], (50, 0, -50)),
        ([4, 3, 2], [0, 0, 0], (50, -30, -20)),
        ([4, 0, 0], [0, 0, 0], (50, -25, -25)),
    ],
)
def test_g_e16_a_nine_taken_from_a_kassa_of_four(
    kassas: list[int], after: list[int], received: tuple[int, int, int]
) -> None:
    t = KassaTable.start(KassaSettings(kassa=31), ["D", "A", "B"])
    _kassas(t, kassas)
    play(t, "9S", {A: "pass", B: "pass"}, None)  # 9 suit is worth 9; both pass: kassa −9 (G6)
    assert t.kassas == after
    assert results(t) == received


def test_the_game_ends_when_every_kassa_is_empty() -> None:
    t = KassaTable.start(KassaSettings(kassa=2), ["D", "A", "B"])
    play(t, "6S", {A: "pass", B: "pass"}, None)
    t.play(
        KassaGame.model_validate(
            {"type": "game", "declarer": A, "contract": "6S", "defence": {D: "pass", B: "pass"}}
        )
    )
    t.play(
        KassaGame.model_validate(
            {"type": "game", "declarer": B, "contract": "6S", "defence": {D: "pass", A: "pass"}}
        )
    )
    assert t.finished
    with pytest.raises(KassaError, match="the game is over"):
        play(t, "6S", {A: "pass", B: "pass"}, None)


@pytest.mark.parametrize(
    ("contract", "defence", "tricks", "field", "words"),
    [
        ("6S", {A: "whist", B: "whist"}, {D: 6, A: 2, B: 1}, "tricks", "sum to 9"),
        ("6S", {A: "whist", B: "pass"}, {D: 6, A: 2, B: 2}, "tricks.2", "does not play"),
        ("6S", {A: "pass", B: "pass"}, {D: 10}, "tricks", "write no tricks"),
        ("6S", {A: "invite", B: "whist"}, {D: 6, A: 2, B: 2}, "defence", "invitation"),
    ],
)
def test_illegal_deals_are_refused_and_change_nothing(
    contract: str, defence: dict[int, str], tricks: dict[int, int], field: str, words: str
) -> None:
    t = KassaTable.start(KassaSettings(kassa=31), ["D", "A", "B"])
    with pytest.raises(KassaError, match=words) as err:
        play(t, contract, defence, tricks)
    assert err.value.field == field
    assert t.kassas == [31, 31, 31] and results(t) == (0, 0, 0)


def test_there_is_no_ten_no_trump() -> None:
    t = KassaTable.start(KassaSettings(kassa=31), ["D", "A", "B"])
    with pytest.raises(KassaError, match="no 10NT") as err:
        play(t, "10NT", {A: "pass", B: "pass"}, None)
    assert err.value.field == "contract" and t.kassas == [31, 31, 31]


def test_g_q1_no_variant_is_on_in_the_preset() -> None:
    # G-Q1: «variants above are settings, none on by default» (10NT, 10 as 9, four aces, the
    # counter-invitation, the two-kassa end); the preset and the family's defaults agree.
    from scorepad.scoring.ledger.families import family_presets

    for s in (family_presets()["prefa"].resolve(), KassaSettings()):
        assert isinstance(s, KassaSettings)
        assert (s.ten_nt, s.ten_as_nine, s.four_aces, s.counter_invitation, s.end) == (
            "off",
            False,
            "off",
            False,
            "all",
        )


def variant(**settings: Any) -> KassaTable:
    return KassaTable.start(KassaSettings(kassa=31, **settings), ["D", "A", "B"])


@pytest.mark.parametrize(("ten_nt", "worth"), [("A", 11), ("B", 10)])
def test_g_q1_ten_no_trump_is_worth_11_or_10(ten_nt: str, worth: int) -> None:
    # §7.4 variants: 10NT worth 11 (A) or 10 (B); a ten's duties are 0 (§7.3), G3 and G4 as usual.
    t = variant(ten_nt=ten_nt)
    play(t, "10NT", {A: "whist", B: "pass"}, {D: 10, A: 0})
    assert t.kassas == [31 - worth, 31, 31] and results(t) == (0, 0, 0)
    play(t, "10NT", {A: "whist", B: "whist"}, {D: 9, A: 1, B: 0})  # down 1: G4 ×1
    assert t.kassas == [31, 31, 31] and results(t) == (-worth, worth, 0)


def test_g_q1_ten_as_nine() -> None:
    # «10 as 9»: a ten is worth what the nine of its kind is: 10♥ 9 (not 10); 10NT, where it is
    # played, 9NT's 10.
    t = variant(ten_as_nine=True)
    play(t, "10H", {A: "pass", B: "pass"}, None)
    assert t.kassas == [22, 31, 31]
    t2 = variant(ten_as_nine=True, ten_nt="A")
    play(t2, "10NT", {A: "pass", B: "pass"}, None)
    assert t2.kassas == [21, 31, 31]
    # Every other contract keeps its §7.2 value.
    play(t2, "9H", {A: "pass", B: "pass"}, None)
    assert t2.kassas == [12, 31, 31]


def test_g_q1_four_aces_in_the_kassa_or_in_chips() -> None:
    # Example 1's deal (6♠, 6-1-3: kassa −2, chips −2×4) with four aces in D's hand.
    t = variant(four_aces="kassa", four_aces_value=5)
    t.play(
        KassaGame.model_validate(
            {
                "type": "game",
                "declarer": D,
                "contract": "6S",
                "defence": {A: "whist", B: "whist"},
                "tricks": {D: 6, A: 1, B: 3},
                "four_aces": D,
            }
        )
    )
    assert t.kassas == [31 - 2 - 5, 31, 31] and results(t) == (-8, 2, 6)
    t2 = variant(four_aces="chips")
    deal = {
        "type": "game",
        "declarer": D,
        "contract": "6S",
        "defence": {A: "whist", B: "whist"},
        "tricks": {D: 6, A: 1, B: 3},
        "four_aces": B,
    }
    t2.play(KassaGame.model_validate(deal))
    assert results(t2) == (-8 - 10, 2 - 10, 6 + 20)
    # A declarer holding them who fails pays each (example 3: 6♦ 5-3-2, kassa +4).
    t3 = variant(four_aces="chips")
    t3.play(
        KassaGame.model_validate(
            deal | {"contract": "6D", "tricks": {D: 5, A: 3, B: 2}, "four_aces": D}
        )
    )
    assert t3.kassas == [35, 31, 31] and results(t3) == (-20 - 20, 12 + 10, 8 + 10)
    with pytest.raises(KassaError, match="four aces are not paid") as err:
        variant().play(KassaGame.model_validate(deal))
    assert err.value.field == "four_aces"


def test_g_q1_a_counter_invitation_turns_the_invitation_round() -> None:
    # Example 8: 7♠, A whists and invites B, 7-2-1: kassa −7, A +7×3.  B answers with a
    # counter-invitation: now B answers for the defence's 3 and writes the chips, A nothing.
    t = variant(counter_invitation=True)
    play(t, "7S", {A: "invite", B: "counter"}, {D: 7, A: 2, B: 1})
    assert t.kassas == [24, 31, 31] and results(t) == (-21, 0, 21)
    # Example 9's shortfall (6-3-1, invited): the counter-inviter is the one who pays or gains.
    t2 = variant(counter_invitation=True)
    play(t2, "7D", {A: "invite", B: "counter"}, {D: 6, A: 3, B: 1})
    assert t2.kassas == [38, 31, 31] and results(t2) == (-28, 0, 28)
    with pytest.raises(KassaError, match="no counter-invitation") as err:
        play(variant(), "7S", {A: "invite", B: "counter"}, {D: 7, A: 2, B: 1})
    assert err.value.field == "defence"
    with pytest.raises(KassaError, match="answers an invitation"):
        play(t, "7S", {A: "whist", B: "counter"}, {D: 7, A: 2, B: 1})


def test_g_q1_the_two_kassa_end() -> None:
    # Kassas D 2, A 0, B 9; D makes 6♠ (2) against both, 6-2-2: D's kassa empties (G3, chips
    # 2 × 2 to each whister).  Two kassas are empty: B's 9 is paid out, 9 × 10 / 3 = 30 chips to each.
    t = variant(end="two")
    _kassas(t, [2, 0, 9])
    play(t, "6S", {A: "whist", B: "whist"}, {D: 6, A: 2, B: 2})
    assert t.kassas == [0, 0, 0] and t.finished
    assert results(t) == (-8 + 30, 4 + 30, 4 - 60)
    # Under the base rule the game goes on.
    t2 = variant()
    _kassas(t2, [2, 0, 9])
    play(t2, "6S", {A: "whist", B: "whist"}, {D: 6, A: 2, B: 2})
    assert t2.kassas == [0, 0, 9] and not t2.finished


@st.composite
def kassa_deal(draw: st.DrawFn) -> dict[str, Any]:
    d = draw(st.integers(0, 2))
    o1, o2 = [p for p in range(3) if p != d]
    level = draw(st.integers(6, 10))
    trump = draw(st.sampled_from(["S", "C", "D", "H", "NT"]))
    roles = draw(
        st.sampled_from(
            [
                ("whist", "whist"),
                ("whist", "pass"),
                ("pass", "whist"),
                ("invite", "invited"),
                ("invite", "counter"),
                ("pass", "pass"),
            ]
        )
    )
    deal: dict[str, Any] = {
        "type": "game",
        "declarer": d,
        "contract": f"{level}{trump}",
        "defence": {o1: roles[0], o2: roles[1]},
    }
    if roles != ("pass", "pass"):
        dt = draw(st.integers(0, 10))
        playing = [p for p, r in ((o1, roles[0]), (o2, roles[1])) if r != "pass"]
        split = draw(st.integers(0, 10 - dt))
        tricks = {d: dt}
        if len(playing) == 1:
            tricks[playing[0]] = 10 - dt
        else:
            tricks[playing[0]], tricks[playing[1]] = split, 10 - dt - split
        deal["tricks"] = tricks
    if draw(st.booleans()):
        deal["four_aces"] = draw(st.integers(0, 2))
    return deal


VARIANTS = st.fixed_dictionaries(
    {},
    optional={
        "ten_nt": st.sampled_from(["off", "A", "B"]),
        "ten_as_nine": st.booleans(),
        "four_aces": st.sampled_from(["off", "kassa", "chips"]),
        "counter_invitation": st.booleans(),
        "end": st.sampled_from(["all", "two"]),
    },
)


@settings(max_examples=150, deadline=None)
@given(st.lists(kassa_deal(), max_size=30), st.integers(1, 40), VARIANTS, st.sampled_from([3, 4]))
def test_chips_are_zero_sum_kassas_never_negative_and_a_replay_is_identical(
    deals: list[dict[str, Any]], kassa: int, variants: dict[str, Any], n: int
) -> None:
    from support.four import seated

    if n == 4:
        variants = variants | {"end": "all"}  # the two-kassa end is a rule for three

    def run() -> tuple[Any, ...]:
        t = KassaTable.start(
            KassaSettings(kassa=kassa, **variants), ["A", "B", "C", "D"][:n], first_dealer=1
        )
        for d in deals:
            with contextlib.suppress(KassaError):
                t.play(KassaGame.model_validate(seated(d, n, t.dealer)))
            assert all(k >= 0 for k in t.kassas)
        return results(t), tuple(sorted(t.ledger.totals.items()))

    first = run()
    assert sum(first[0]) == 0
    assert run() == first


@pytest.mark.parametrize(
    ("contract", "tricks", "kassa", "moved", "sitting_out"),
    [
        # Example 3 (6♦ 5-3-2: down one): kassa +4, chips −4×5, and 25 to the dealer.
        ("6D", {D: 5, A: 3, B: 2}, 35, (-20, 12, 8), 25),
        # Example 4 (6♦ 4-4-2: down two): kassa +4×2, chips −4×6×2, and 50 to the dealer.
        ("6D", {D: 4, A: 4, B: 2}, 39, (-48, 32, 16), 50),
        # Example 1 (made): the dealer gets nothing.
        ("6S", {D: 6, A: 1, B: 3}, 29, (-8, 2, 6), 0),
    ],
)
def test_four_players_a_failed_declarer_pays_the_dealer_sitting_out_25_or_50(
    contract: str, tricks: dict[int, int], kassa: int, moved: tuple[int, ...], sitting_out: int
) -> None:
    # §7.4: «4 players: a failed declarer pays the sitting-out player 25 chips (down 1) or 50».
    # Dora (seat 3) deals and sits out; D, A, B in turn order as in PAG-GR's examples.
    t = KassaTable.start(KassaSettings(kassa=31), ["D", "A", "B", "Dora"], first_dealer=3)
    play(t, contract, {A: "whist", B: "whist"}, tricks)
    assert t.kassas == [kassa, 31, 31, 31]
    assert results(t) == (moved[0] - sitting_out, moved[1], moved[2], sitting_out)
    assert t.dealer == D


def test_four_players_the_right_hand_defender_skips_the_dealer() -> None:
    # Dora (seat 3) sits out; the declarer is B (seat 2): his right is D (seat 0), not Dora.
    t = KassaTable.start(KassaSettings(kassa=31), ["D", "A", "B", "Dora"], first_dealer=3)
    assert t.right(B) == D and t.right(D) == A
    with pytest.raises(KassaError, match="sits out") as err:
        t.play(
            KassaGame.model_validate(
                {"type": "game", "declarer": 3, "contract": "6S", "defence": {0: "pass", 1: "pass"}}
            )
        )
    assert err.value.field == "declarer"


def test_a_redeal_passes_the_deal_on() -> None:
    from scorepad.scoring.ledger.kassa import KassaRedeal

    t = KassaTable.start(KassaSettings(kassa=31), ["D", "A", "B", "Dora"], first_dealer=3)
    t.play(KassaRedeal(type="redeal"))
    assert t.dealer == 0 and t.kassas == [31] * 4
    with pytest.raises(KassaError, match="rotation"):
        t.play(KassaRedeal(type="redeal", dealer=3))
