"""Greek Prefa (the kassa family): PAG-GR's fourteen examples, G-E15, G-E16, and invariants."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorepad.i18n import msg
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
    with pytest.raises(ValueError, match="no 10NT"):
        KassaGame.model_validate({"type": "game", "declarer": 0, "contract": "10NT", "defence": {}})


@st.composite
def kassa_deal(draw: st.DrawFn) -> dict[str, Any]:
    d = draw(st.integers(0, 2))
    o1, o2 = [p for p in range(3) if p != d]
    level = draw(st.integers(6, 10))
    trump = draw(st.sampled_from(["S", "C", "D", "H"] + (["NT"] if level < 10 else [])))
    roles = draw(
        st.sampled_from(
            [
                ("whist", "whist"),
                ("whist", "pass"),
                ("pass", "whist"),
                ("invite", "invited"),
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
    return deal


@settings(max_examples=150, deadline=None)
@given(st.lists(kassa_deal(), max_size=30), st.integers(1, 40))
def test_chips_are_zero_sum_kassas_never_negative_and_a_replay_is_identical(
    deals: list[dict[str, Any]], kassa: int
) -> None:
    def run() -> tuple[Any, ...]:
        t = KassaTable.start(KassaSettings(kassa=kassa), ["A", "B", "C"])
        for d in deals:
            with contextlib.suppress(KassaError):
                t.play(KassaGame.model_validate(d))
            assert all(k >= 0 for k in t.kassas)
        return results(t), tuple(sorted(t.ledger.totals.items()))

    first = run()
    assert sum(first[0]) == 0
    assert run() == first
